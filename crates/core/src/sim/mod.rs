//! The simulation: store + controllers + virtual clock + seeded PRNG + timers + trace.
//!
//! Time only moves in `advance`; it jumps from one due timer to the next, and after every
//! step the controllers run until the cluster is quiet again. Nothing ticks when nothing is due.

pub mod control_plane;
pub mod interrupt;
pub mod load;
pub mod load_daemon_sets;
pub mod load_jobs;
pub mod node_input;
mod pending;
pub mod queue;
pub mod random;
pub mod rng;
pub mod time;

use crate::api::Node;
use crate::cluster::{ClusterSpec, NodeTemplate, node_from_template};
use crate::controllers::Controllers;
use crate::error::ApiError;
use crate::metrics::load::{LoadTable, LoadTarget};
use crate::store::trace::Trace;
use crate::store::{DeleteOptions, Store};
use crate::view::autoscaling::{AutoscalerHistory, AutoscalingView};
use crate::view::lifecycle::LifecycleHistory;
use pending::Pending;
use queue::EventQueue;
use time::{Duration, SimTime};

/// Something scheduled to happen at a virtual time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Timer {
    /// A controller asked to run again now (a deadline, back-off or probe fell due).
    WakeControllers,
    /// The traffic generator's next second of requests.
    Traffic,
}

/// Upper bound on the timers one wait lets fire (a wait that never ends is a bug, not a hang).
const MAX_WAIT_STEPS: usize = 10_000;

/// Longest a new lab waits for its kube-system pods (kind's `--wait` gives up too).
const BOOT_DEADLINE_SECONDS: u64 = 60;

/// Upper bound on controller passes per step: a cluster that never settles is a bug, not a hang.
const MAX_RECONCILE_PASSES: usize = 1000;

/// What a `lab api` line answered, kept for the host whose client waits on it (an HTTP
/// answer's parts; the simulation does not read them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostAnswer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Sim {
    seed: u64,
    now: SimTime,
    store: Store,
    queue: EventQueue<Timer>,
    controllers: Controllers,
    nodes_added: usize,
    /// The one pending `WakeControllers` timer, if any (controllers only ever need the earliest).
    scheduled_wake: Option<SimTime>,
    /// Timers fired so far (the benchmark's proof that a quiet cluster does not tick).
    timers_fired: u64,
    /// Requests per second sent to workloads (`lab load`); CPU usage follows from it.
    load: LoadTable,
    /// While set, `settle` and `advance` only begin their work (`pending.rs`).
    deferred: bool,
    /// Work begun but not finished: a deferred command's settle, a deferred sleep.
    pending: Pending,
    /// Asked between units of work; once it says so, pending work is dropped.
    interrupt: Option<interrupt::Interrupt>,
    /// Units of work the current command has done, and whether it was stopped for too many.
    command_work: u64,
    over_budget: bool,
    /// The answer to the last `lab api` line, until its host takes it for the client waiting.
    api_answer: Option<Box<HostAnswer>>,
    /// Every pod's life so far, for the lifecycle chart (`view/lifecycle.rs`).
    lifecycle: LifecycleHistory,
    /// Every autoscaler's decisions so far, for the autoscaling chart (`view/autoscaling.rs`).
    autoscaling: AutoscalerHistory,
    /// Whether the views' histories are kept (on; the benchmark turns it off to weigh them).
    record_lifecycles: bool,
    /// The namespace of the learner's kubeconfig context (`kubectl config set-context
    /// --current --namespace=…`): the namespace of a command that names none.
    context_namespace: Option<String>,
    /// The traffic generator, while one runs (`lab traffic start`).
    traffic: Option<crate::network::traffic::Generator>,
    /// The last generator stopped.
    last_traffic: Option<crate::network::traffic::Generator>,
    /// Who kubectl's requests are made as while a command with `--as` runs (`None`: the
    /// kubeconfig's user, kubeadm's admin).
    kubectl_user: Option<std::sync::Arc<crate::store::UserInfo>>,
}

impl Sim {
    /// A new lab: the given machines registered as Ready nodes at time zero.
    pub fn new(seed: u64, cluster: &ClusterSpec) -> Sim {
        Sim::starting_at(seed, cluster, SimTime::ZERO)
    }

    /// A new lab whose clock starts at `start` rather than at the epoch: a lab served to real
    /// clients starts at the wall clock's time (an input, like the seed), so the timestamps
    /// kubectl turns into ages on its own side agree with the ages the lab prints.
    pub fn starting_at(seed: u64, cluster: &ClusterSpec, start: SimTime) -> Sim {
        let mut sim = Sim {
            seed,
            now: start,
            store: Store::new(seed),
            queue: EventQueue::default(),
            controllers: Controllers::default(),
            nodes_added: 0,
            scheduled_wake: None,
            timers_fired: 0,
            load: LoadTable::default(),
            deferred: false,
            pending: Pending::default(),
            interrupt: None,
            command_work: 0,
            lifecycle: LifecycleHistory::default(),
            autoscaling: AutoscalerHistory::default(),
            record_lifecycles: true,
            context_namespace: None,
            over_budget: false,
            api_answer: None,
            traffic: None,
            last_traffic: None,
            kubectl_user: None,
        };
        sim.store.set_now(start);
        // The `kube-apiserver-autoregistration` hook: the API server's own APIServices exist
        // before it is ready, stamped with the lab's starting time.
        crate::controllers::autoregister::sync(&mut sim.store);
        if cluster.control_plane {
            sim.init_control_plane();
        }
        for template in &cluster.nodes {
            // Cluster files are validated by the same rules as `lab node add`.
            let _ = sim.add_node(template);
        }
        sim.settle();
        if cluster.control_plane {
            sim.install_addons(&cluster.addons);
            sim.wait_for_system_pods();
        }
        sim
    }

    /// The cluster's add-ons, applied once its nodes have joined, as an operator applies them
    /// after `kind create cluster` (`kubelab sim --cluster` and the lesson linter refuse an unknown name).
    fn install_addons(&mut self, names: &[String]) {
        for addon in names.iter().filter_map(|name| crate::addons::find(name).ok()) {
            let _ = addon.install(&mut self.store);
        }
        self.settle();
    }

    /// What `kind create cluster --wait` waits for before it hands the cluster over: every
    /// kube-system pod Ready. The lab's history starts there, its nodes a few seconds old.
    fn wait_for_system_pods(&mut self) {
        let all_ready = |store: &Store| {
            let mut pods = store.list::<crate::api::Pod>(Some("kube-system")).peekable();
            pods.peek().is_some() && pods.all(|p| p.is_ready())
        };
        let deadline = self.now.plus(Duration::from_secs(BOOT_DEADLINE_SECONDS));
        self.wait_until(deadline, all_ready);
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The user kubectl's requests are made as: the kubeconfig's, or the one `--as` names.
    pub fn kubectl_user(&self) -> std::sync::Arc<crate::store::UserInfo> {
        self.kubectl_user.clone().unwrap_or_else(crate::store::UserInfo::admin)
    }

    /// Makes kubectl's requests as `user` (impersonation) until set back to `None`.
    pub fn set_kubectl_user(&mut self, user: Option<std::sync::Arc<crate::store::UserInfo>>) {
        self.kubectl_user = user;
    }

    /// Records the way through the API server's gates of each request kubectl sends from now on
    /// (the browser's request path panel); off by default, so a lab that does not show it
    /// pays nothing.
    pub fn record_request_paths(&mut self, on: bool) {
        self.store.request_paths_mut().set_wanted(on);
    }

    /// Write access for the command layer (kubectl, lab verbs). Call `settle` afterwards.
    pub fn store_mut(&mut self) -> &mut Store {
        &mut self.store
    }

    /// Every pod's life so far, as the lifecycle chart draws it.
    pub fn lifecycle(&self) -> &LifecycleHistory {
        &self.lifecycle
    }

    /// Every autoscaler's decisions up to now (this instant's included), as the autoscaling
    /// chart draws them.
    pub fn autoscaling(&self) -> AutoscalingView {
        let mut history = self.autoscaling.clone();
        history.record(&self.store);
        AutoscalingView { now: self.now, lines: history.lines().to_vec() }
    }

    /// Stops (or resumes) keeping the lifecycle history: only `benches/lifecycle.rs` turns it
    /// off, to measure what keeping it costs.
    pub fn record_lifecycles(&mut self, on: bool) {
        self.record_lifecycles = on;
    }

    pub fn trace(&self) -> &Trace {
        self.store.trace()
    }

    /// Keeps the answer to a `lab api` line for the host that ran it (`take_api_answer`).
    pub fn put_api_answer(&mut self, answer: HostAnswer) {
        self.api_answer = Some(Box::new(answer));
    }

    /// The answer to the last `lab api` line, once.
    pub fn take_api_answer(&mut self) -> Option<HostAnswer> {
        self.api_answer.take().map(|answer| *answer)
    }

    /// Records a user command in the trace (after whatever the previous command left to settle).
    pub fn record_command(&mut self, line: &str) {
        self.finish_pending();
        self.command_work = 0;
        self.over_budget = false;
        self.store.trace_command(line);
    }

    /// `kubeadm init`, as kind runs it before any worker joins: the control-plane node, its
    /// static pods and CoreDNS, settled so that CoreDNS lands on the only node it tolerates.
    fn init_control_plane(&mut self) {
        let mut node = node_from_template(&crate::kubeadm::control_plane_template(), 0, self.now);
        node.status.addresses[0].address = crate::kubeadm::CONTROL_PLANE_IP.to_string();
        if let Some(info) = node.status.node_info.as_mut() {
            info.machine_id = format!("{:032x}", 0xc0);
        }
        let Ok(created) = self.store.create(node) else { return };
        self.store.start_heartbeat(&created);
        crate::kubeadm::init(&mut self.store, &created);
        self.settle();
    }

    /// Registers a machine as a Ready node; the DaemonSet controller gives it its pods (with a
    /// control plane, kube-proxy's and kindnet's).
    pub fn add_node(&mut self, template: &NodeTemplate) -> Result<Node, ApiError> {
        let machine = template.gpu_machine().map_err(|message| ApiError::BadRequest { message })?;
        let node = node_from_template(template, self.nodes_added, self.now);
        let created = self.store.create(node)?;
        self.nodes_added += 1;
        if let Some(machine) = machine {
            self.controllers.gpu_operator.add_machine(&template.name, machine);
        }
        // Its kubelet's first act: create the node's Lease and start renewing it.
        self.store.start_heartbeat(&created);
        Ok(created)
    }

    /// Removes a node object (the machine is gone from the cluster), and its DaemonSet pods.
    pub fn remove_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.store.delete::<Node>("", name, &DeleteOptions::default())?;
        crate::kubeadm::node_left(&mut self.store, name);
        self.store.forget_heartbeat(name);
        self.controllers.gpu_operator.remove_machine(name);
        Ok(())
    }

    /// `lab node power-off`: the machine stops; its kubelet goes silent.
    pub fn power_off_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.simulated_machine(name)?;
        self.controllers.kubelet.power_off(&mut self.store, name);
        Ok(())
    }

    /// `lab node power-on`: the machine boots; its kubelet posts Ready and restarts its pods.
    pub fn power_on_node(&mut self, name: &str) -> Result<(), ApiError> {
        self.simulated_machine(name)?;
        self.controllers.kubelet.power_on(&mut self.store, name);
        Ok(())
    }

    /// The node, if its machine is one the lab simulates (an external one has its own power).
    fn simulated_machine(&self, name: &str) -> Result<(), ApiError> {
        self.store.get::<Node>("", name)?;
        if self.controllers.kubelet.is_external(name) {
            let message = format!("node {name:?} is an external machine: its power is not the lab's to switch");
            return Err(ApiError::BadRequest { message });
        }
        Ok(())
    }

    /// `lab pod crash`: the pod's main container process exits with `exit_code`.
    pub fn crash_pod(&mut self, namespace: &str, name: &str, exit_code: i32) -> Result<(), String> {
        self.controllers.kubelet.crash(&mut self.store, namespace, name, exit_code)
    }

    /// `lab pod oom`: the pod's main container is OOM-killed.
    pub fn oom_pod(&mut self, namespace: &str, name: &str) -> Result<(), String> {
        self.controllers.kubelet.oom(&mut self.store, namespace, name)
    }

    /// A request to `/hog?mb=N` reached a container: it keeps `mib` more MiB, maybe past its
    /// memory limit (then it is OOM-killed now). Returns whether it was killed.
    pub fn add_memory(&mut self, namespace: &str, name: &str, container: &str, mib: u64) -> Result<bool, String> {
        self.controllers.kubelet.add_memory(&mut self.store, namespace, name, container, mib)
    }

    /// The request load on workloads (`lab load`), which `kubectl top` and the HPA see as CPU.
    pub fn load(&self) -> &LoadTable {
        &self.load
    }

    /// `lab load TARGET --rps N`: sets a target's requests per second (0 stops it).
    pub fn set_load(&mut self, target: LoadTarget, requests_per_second: u64) {
        self.load.set(target, requests_per_second);
    }

    /// `lab usage TARGET --cpu Q --memory Q`: sets the usage of a target's pods (an empty one
    /// gives them back to the workload model).
    pub fn set_usage(&mut self, target: LoadTarget, usage: crate::metrics::demand::SetUsage) {
        self.load.set_usage(target, usage);
    }

    /// Runs the nodes' pods on `runtime` (the simulated one over another image catalogue).
    pub fn use_container_runtime(&mut self, runtime: crate::kubelet::container_runtime::Runtime) {
        self.controllers.kubelet.use_container_runtime(runtime);
    }

    /// From now on, `interrupt` is asked between units of work; once it answers yes, whatever is
    /// pending is dropped and every later command returns at once (the lab is closing).
    pub fn set_interrupt(&mut self, interrupt: interrupt::Interrupt) {
        self.interrupt = Some(interrupt);
    }

    /// Whether the host asked the lab to stop.
    pub fn interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(interrupt::Interrupt::requested)
    }

    /// Sets the lab's budgets (how far one command may move time, how many replicas a
    /// workload may ask for).
    pub fn set_limits(&mut self, limits: crate::store::lab_limits::LabLimits) {
        self.store.set_limits(limits);
    }

    /// The kubelet of `node` as the API server reaches it (logs, exec, a pod's processes).
    pub fn node_server(&self, node: &Node) -> crate::kubelet::node_server::NodeServer<'_> {
        self.controllers.kubelet.node_server(node, self.now)
    }

    /// The kubelet of the node `pod` is bound to, if it is bound to one that exists.
    pub fn pod_node_server(&self, pod: &crate::api::Pod) -> Option<crate::kubelet::node_server::NodeServer<'_>> {
        let node = self.store.try_get::<Node>("", pod.node_name()?)?;
        Some(self.node_server(node))
    }

    /// The host reached an external machine's agent (see `NodeAgent`).
    pub fn connect_agent(&mut self, node: &str, agent: std::sync::Arc<dyn crate::kubelet::node_server::NodeAgent>) {
        self.controllers.kubelet.connect_agent(node, agent);
    }

    /// A kubelet outside the simulation registers `node` (`system:node:<node>` creating its
    /// Node): from now on no simulated kubelet runs it. A simulated node of that name stays
    /// simulated, and its Node cannot be created again anyway.
    pub fn register_external(&mut self, node: &str) {
        if self.store.try_get::<Node>("", node).is_none() || self.controllers.kubelet.is_external(node) {
            self.controllers.kubelet.mark_external(node);
        }
    }

    /// Whether `node`'s kubelet runs outside the simulation (a real machine's agent).
    pub fn is_external(&self, node: &str) -> bool {
        self.controllers.kubelet.is_external(node)
    }

    /// The controllers, for read-only views (the scheduler's decisions, the kubelet's runtime).
    pub fn controllers(&self) -> &Controllers {
        &self.controllers
    }

    /// The nodes' disks, where an exec's writes into a claim's volume or an emptyDir land.
    pub fn node_disks_mut(&mut self) -> &mut crate::kubelet::node_disk::NodeDisks {
        &mut self.controllers.kubelet.disks
    }

    /// The GPU Operator's parts, for `nvidia-smi` on a node: it changes the machine's hardware
    /// state, which its feature discovery and device plugin publish at the next settle.
    pub fn gpu_operator_mut(&mut self) -> &mut crate::gpu::GpuOperator {
        &mut self.controllers.gpu_operator
    }

    /// kube-proxy's rules and the store together: a connection reads the rules and draws its
    /// endpoint from the store's random streams.
    pub fn proxy_and_store(&mut self) -> (&mut crate::network::KubeProxy, &mut Store) {
        (&mut self.controllers.kube_proxy, &mut self.store)
    }

    /// ingress-nginx's controller state (its round-robin turns).
    pub fn ingress_controller_mut(&mut self) -> &mut crate::network::ingress_status::IngressController {
        &mut self.controllers.ingress_nginx
    }

    /// Runs controllers until nothing changes, then schedules timers for new writes and traces them.
    /// While deferred (`defer_settling`) the passes are only noted as owed.
    pub fn settle(&mut self) {
        self.begin_settle();
    }

    /// Advances virtual time by `duration`, firing every timer that falls due, in order, and
    /// settling after each. While deferred the advance is only begun (`settle_for` goes on).
    pub fn advance(&mut self, duration: Duration) {
        self.finish_pending();
        let target = self.now.plus(duration);
        self.begin_advance(target);
    }

    /// What a verb that waits (`delete`, `drain`, `rollout status`) asks of the host: let the
    /// cluster react to the requests sent, then let virtual time pass, timer to timer, until
    /// `done` holds or `deadline` is reached. `done` sees the store as the wait begins and after
    /// each step; returns whether it held.
    pub fn wait_until(&mut self, deadline: SimTime, mut done: impl FnMut(&Store) -> bool) -> bool {
        if done(&self.store) {
            return true;
        }
        self.settle();
        for _ in 0..MAX_WAIT_STEPS {
            if done(&self.store) {
                return true;
            }
            let now = self.now;
            if now >= deadline {
                return false;
            }
            let next = self.next_due().map_or(deadline, |due| due.min(deadline)).max(now);
            self.advance(next.since(now));
        }
        false
    }

    pub fn timers_fired(&self) -> u64 {
        self.timers_fired
    }

    /// When the next timer falls due (for steppers and the UI's "step one event").
    pub fn next_due(&self) -> Option<SimTime> {
        self.queue.next_due()
    }

    /// Moves the clock to `due` and fires every timer due then.
    fn fire_due(&mut self, due: SimTime) {
        self.set_now(due);
        while let Some((_, timer)) = self.queue.pop_due(due) {
            self.timers_fired += 1;
            self.fire(timer);
        }
    }

    fn set_now(&mut self, now: SimTime) {
        // The instant that ends: what it wrote is the state its lanes show from it on.
        if now != self.now && self.record_lifecycles {
            self.lifecycle.record(&self.store);
            self.autoscaling.record(&self.store);
        }
        self.now = now;
        self.store.set_now(now);
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::WakeControllers => {
                self.scheduled_wake = None;
            }
            Timer::Traffic => self.traffic_batch(),
        }
    }

    /// Starts sending `rps` requests per second to `target`, from now on (replacing any run).
    pub fn start_traffic(&mut self, target: crate::network::traffic::Target, rps: u32) {
        // Sent straight to a Service, its requests load the pods behind it like `lab load`'s.
        let load = target
            .host
            .is_none()
            .then(|| ((target.namespace.clone(), crate::api::Kind::Service, target.service.clone()), u64::from(rps)));
        self.load.set_traffic(load);
        self.traffic = Some(crate::network::traffic::Generator::new(target, rps, self.now));
        self.queue.schedule(self.now, Timer::Traffic);
    }

    /// Stops the generator; what it counted (kept as the latest run).
    pub fn stop_traffic(&mut self) -> Option<crate::network::traffic::Generator> {
        let stopped = self.traffic.take();
        self.load.set_traffic(None);
        self.last_traffic = stopped.clone();
        stopped
    }

    /// The running generator, else the last one stopped (what lesson checks grade).
    pub fn latest_traffic(&self) -> Option<&crate::network::traffic::Generator> {
        self.traffic.as_ref().or(self.last_traffic.as_ref())
    }

    pub fn traffic(&self) -> Option<&crate::network::traffic::Generator> {
        self.traffic.as_ref()
    }

    /// One second of requests, if a generator runs and its batch is due; then the next.
    fn traffic_batch(&mut self) {
        let Some(generator) = &self.traffic else { return };
        if generator.next > self.now {
            return;
        }
        let (target, rps) = (generator.target.clone(), generator.rps);
        let second = crate::network::traffic::run_batch(self, &target, rps);
        if let Some(generator) = &mut self.traffic {
            crate::network::traffic::record(generator, second);
            self.queue.schedule(generator.next, Timer::Traffic);
        }
    }

    /// Sets a timer for the earliest moment a controller (or kubelet) has something due.
    fn schedule_timers(&mut self) {
        if let Some(wake) = self.controllers.next_wake().map(|at| at.max(self.now))
            && self.scheduled_wake.is_none_or(|scheduled| wake < scheduled)
        {
            // An earlier wake supersedes a later one: the controllers re-report theirs after it.
            self.queue.schedule(wake, Timer::WakeControllers);
            self.scheduled_wake = Some(wake);
        }
    }
}

impl Sim {
    /// The kubeconfig context's namespace, when one is set.
    pub fn context_namespace(&self) -> Option<&str> {
        self.context_namespace.as_deref()
    }

    /// Sets (or with `None` clears) the kubeconfig context's namespace.
    pub fn set_context_namespace(&mut self, namespace: Option<String>) {
        self.context_namespace = namespace;
    }
}

impl Default for Sim {
    fn default() -> Self {
        Sim::new(1, &ClusterSpec::default())
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod random_tests;

#[cfg(test)]
mod node_input_tests;
