//! The page's one door to the simulator: pages reach the core only through `Engine` (start a
//! lab, read a manifest, run a script) and the `LiveLab` it hands back. In the browser that
//! lets `scripts/build-web.sh` split the core into its own wasm chunk, fetched after the first
//! paint (`load`) instead of holding it up; natively the door is a plain call.

pub mod gate;

use crate::lab::inspector;
use crate::lab::lab_session::{Entry, LabSession};
use crate::lab::node_grid::NodeCell;
use crate::lab::reconcile_panel::{self, StepActivity};
use crate::lab::request_path_panel::{self, RequestPathView};
use crate::lab::timeline::Timeline;
use kubelab_core::api::node::Node;
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::MemoryFiles;
use kubelab_core::lesson::Check;
use kubelab_core::lesson::Lesson;
use kubelab_core::manifest::parse_document;
use kubelab_core::script::sim_run::sim_run;
use kubelab_core::sim::time::{Duration, SimTime};
use kubelab_core::sim::{Sim, load};
use kubelab_core::view::Verdict;
use kubelab_core::view::autoscaling::AutoscalingView;
use kubelab_core::view::cluster::{self as cluster_model, ClusterPicture};
use kubelab_core::view::event_feed::{self, EventLine};
use kubelab_core::view::gpus::{self, GpuNode};
use kubelab_core::view::lifecycle::{self, Chartable, LifecycleChart};
use kubelab_core::view::traffic::{self, TrafficView};

/// What the simulator offers the page besides a running lab.
pub trait Engine: Sync {
    /// A free lab on `nodes` machines (`LabSession::sandbox_of`).
    fn sandbox(&self, nodes: usize) -> Box<dyn LiveLab>;
    /// The lesson's lab with its hidden setup run.
    fn lesson_lab(&self, lesson: &Lesson) -> Result<Box<dyn LiveLab>, String>;
    /// The pod doctor challenge `seed` draws (`kubelab_core::lesson::challenge`).
    fn challenge(&self, seed: u64) -> Lesson;
    /// Why one manifest document does not parse (the editor marks the line it names).
    fn manifest_error(&self, document: &str) -> Option<String>;
    /// `kubelab sim --seed SEED -`: (transcript, JSONL trace, exit code).
    fn run_script(&self, seed: u64, script_text: &str) -> (String, String, i32);
    /// The engine benchmark's cluster of `nodes` nodes (`kubelab_core::sim::load`).
    fn load_cluster(&self, nodes: usize) -> Box<dyn LoadRun>;
    /// Panics with `message` (`simulate_crash`: what a bug in the core looks like on the page).
    fn crash(&self, message: &str);
}

/// One running lab as the views read and drive it (implemented by `LabSession`).
pub trait LiveLab {
    fn run(&mut self, text: &str) -> Vec<Entry>;
    fn run_deferred(&mut self, text: &str) -> Vec<Entry>;
    fn settle_for(&mut self, passes: usize) -> bool;
    /// What the last command's sliced work said when it ran past the lab's work budget.
    fn take_over_budget(&mut self) -> Option<String>;
    fn replay(&mut self, scripts: &[String]) -> Vec<Entry>;
    fn pass_time(&mut self, duration: Duration) -> bool;
    fn scrub_to(&mut self, position: usize);
    fn back_to_now(&mut self);
    fn fork(&mut self);
    fn complete(&self, line: &str, cursor: usize) -> Vec<String>;
    fn until_next_event(&self) -> Option<Duration>;
    fn past_position(&self) -> Option<usize>;
    fn timeline(&self) -> &Timeline;
    fn replay_log(&self) -> (&str, u64, Vec<String>);
    fn permalink(&self) -> String;
    fn lesson_id(&self) -> &str;
    /// The cluster size the lab started with.
    fn nodes(&self) -> usize;
    /// Cluster time of the lab being looked at (the past while scrubbed back).
    fn now(&self) -> Duration;
    fn node_count(&self) -> usize;
    fn node_names(&self) -> Vec<String>;
    fn picture(&self) -> ClusterPicture;
    fn cells(&self) -> Vec<NodeCell>;
    /// "N nodes, M pods", above the node grid.
    fn grid_summary(&self) -> String;
    fn recent_events(&self, limit: usize) -> Vec<EventLine>;
    fn activity(&self) -> Option<StepActivity>;
    /// The last request's way through the API server's gates.
    fn request_path(&self) -> Option<RequestPathView>;
    fn describe_pod(&self, namespace: &str, name: &str) -> String;
    fn why(&self, namespace: &str, name: &str) -> Vec<String>;
    fn check(&self, check: &Check) -> Verdict;
    /// The lifecycle chart of the pods `selector` picks in `namespace`.
    fn lifecycle(&self, selector: &str, namespace: &str) -> Result<LifecycleChart, String>;
    /// The Deployments the lab can chart.
    fn chartable(&self) -> Vec<Chartable>;
    /// The MIG board: every GPU node's GPUs, slices and instances.
    fn gpus(&self) -> Vec<GpuNode>;
    /// The traffic panel: the generator's counts and each Service's endpoints.
    fn traffic(&self) -> TrafficView;
    /// The autoscaling chart: each HorizontalPodAutoscaler's decisions over time.
    fn autoscaling(&self) -> AutoscalingView;
}

/// The engine benchmark's phases on one cluster; the caller times each call.
pub trait LoadRun {
    fn run(&mut self, deployments: usize, replicas: usize) -> load::LoadReport;
    fn idle_hour(&mut self) -> u64;
    /// The traffic benchmark: `pods` behind a Service, then (requests, successes) of the
    /// traffic generator at `rps` for `seconds` of virtual time.
    fn serve(&mut self, pods: usize);
    fn traffic(&mut self, rps: u32, seconds: u64) -> (u64, u64);
}

/// The engine, once `load` has fetched it (natively: always).
pub fn get() -> Option<&'static dyn Engine> {
    #[cfg(target_arch = "wasm32")]
    return LOADED.get().copied();
    #[cfg(not(target_arch = "wasm32"))]
    return Some(&SIMULATOR);
}

/// Fetches the engine's chunk (once; later calls return at once). Fails when the chunk could
/// not be fetched (offline, a stale cache); a later call tries again.
pub async fn load() -> Result<&'static dyn Engine, String> {
    if let Some(engine) = get() {
        return Ok(engine);
    }
    #[cfg(target_arch = "wasm32")]
    {
        let engine = open_engine().await.map_err(|err| err.to_string())?;
        let _ = LOADED.set(engine);
        Ok(engine)
    }
    #[cfg(not(target_arch = "wasm32"))]
    unreachable!("natively the engine is always there")
}

#[cfg(target_arch = "wasm32")]
static LOADED: std::sync::OnceLock<&'static dyn Engine> = std::sync::OnceLock::new();

/// The split point: everything only reachable from here (the core, the lab, the views' models)
/// goes into the `engine` chunk.
#[cfg(target_arch = "wasm32")]
#[wasm_split_helpers::wasm_split(engine, fallible)]
fn open_engine() -> Result<&'static dyn Engine, wasm_split_helpers::SplitLoaderError> {
    Ok(&SIMULATOR)
}

struct Simulator;

static SIMULATOR: Simulator = Simulator;

impl Engine for Simulator {
    fn sandbox(&self, nodes: usize) -> Box<dyn LiveLab> {
        Box::new(LabSession::sandbox_of(nodes))
    }

    fn lesson_lab(&self, lesson: &Lesson) -> Result<Box<dyn LiveLab>, String> {
        Ok(Box::new(LabSession::for_lesson(lesson)?))
    }

    fn challenge(&self, seed: u64) -> Lesson {
        kubelab_core::lesson::challenge::challenge(seed)
    }

    fn manifest_error(&self, document: &str) -> Option<String> {
        parse_document(document).err().map(|err| err.message)
    }

    fn run_script(&self, seed: u64, script_text: &str) -> (String, String, i32) {
        match sim_run(seed, &ClusterSpec::default(), script_text, &MemoryFiles::new(), false) {
            Ok(ran) => (ran.transcript, ran.trace, ran.exit_code),
            Err(err) => (format!("kubelab sim: {err}\n"), String::new(), 2),
        }
    }

    fn load_cluster(&self, nodes: usize) -> Box<dyn LoadRun> {
        Box::new(load::cluster(nodes))
    }

    fn crash(&self, message: &str) {
        panic!("{message}");
    }
}

impl LoadRun for Sim {
    fn run(&mut self, deployments: usize, replicas: usize) -> load::LoadReport {
        load::apply_deployments(self, deployments, replicas);
        load::run_until_running(self, deployments * replicas)
    }

    fn idle_hour(&mut self) -> u64 {
        load::idle_hour(self)
    }

    fn serve(&mut self, pods: usize) {
        load::serve(self, pods);
    }

    fn traffic(&mut self, rps: u32, seconds: u64) -> (u64, u64) {
        load::traffic(self, rps, seconds)
    }
}

impl LiveLab for LabSession {
    fn run(&mut self, text: &str) -> Vec<Entry> {
        LabSession::run(self, text)
    }
    fn run_deferred(&mut self, text: &str) -> Vec<Entry> {
        LabSession::run_deferred(self, text)
    }
    fn settle_for(&mut self, passes: usize) -> bool {
        LabSession::settle_for(self, passes)
    }
    fn take_over_budget(&mut self) -> Option<String> {
        LabSession::take_over_budget(self)
    }
    fn replay(&mut self, scripts: &[String]) -> Vec<Entry> {
        LabSession::replay(self, scripts)
    }
    fn pass_time(&mut self, duration: Duration) -> bool {
        LabSession::pass_time(self, duration)
    }
    fn scrub_to(&mut self, position: usize) {
        LabSession::scrub_to(self, position)
    }
    fn back_to_now(&mut self) {
        LabSession::back_to_now(self)
    }
    fn fork(&mut self) {
        LabSession::fork(self)
    }
    fn complete(&self, line: &str, cursor: usize) -> Vec<String> {
        LabSession::complete(self, line, cursor)
    }
    fn until_next_event(&self) -> Option<Duration> {
        LabSession::until_next_event(self)
    }
    fn past_position(&self) -> Option<usize> {
        LabSession::past_position(self)
    }
    fn timeline(&self) -> &Timeline {
        LabSession::timeline(self)
    }
    fn replay_log(&self) -> (&str, u64, Vec<String>) {
        LabSession::replay_log(self)
    }
    fn permalink(&self) -> String {
        LabSession::permalink(self)
    }
    fn lesson_id(&self) -> &str {
        LabSession::lesson_id(self)
    }
    fn nodes(&self) -> usize {
        LabSession::nodes(self)
    }
    fn now(&self) -> Duration {
        self.lab().sim().now().since(SimTime::ZERO)
    }
    fn node_count(&self) -> usize {
        self.lab().sim().store().count::<Node>()
    }
    fn node_names(&self) -> Vec<String> {
        self.lab().sim().store().list::<Node>(None).map(|node| node.metadata.name.clone()).collect()
    }
    fn picture(&self) -> ClusterPicture {
        cluster_model::picture(self.lab().sim())
    }
    fn cells(&self) -> Vec<NodeCell> {
        self.grid_cells()
    }
    fn grid_summary(&self) -> String {
        let store = self.lab().sim().store();
        let pods = store.list::<kubelab_core::api::pod::Pod>(None);
        let system = pods.filter(|p| p.metadata.namespace.starts_with("kube-")).count();
        let learners = store.count::<kubelab_core::api::pod::Pod>() - system;
        let nodes = store.count::<Node>();
        match system {
            0 => format!("{nodes} nodes, {learners} pods"),
            _ => format!("{nodes} nodes, {learners} pods (+{system} in kube-system)"),
        }
    }
    fn recent_events(&self, limit: usize) -> Vec<EventLine> {
        event_feed::recent(self.lab().sim(), limit)
    }
    fn activity(&self) -> Option<StepActivity> {
        reconcile_panel::activity(self)
    }
    fn request_path(&self) -> Option<RequestPathView> {
        request_path_panel::last_request(self)
    }
    fn describe_pod(&self, namespace: &str, name: &str) -> String {
        inspector::describe_pod(self.lab(), namespace, name)
    }
    fn why(&self, namespace: &str, name: &str) -> Vec<String> {
        inspector::why(self.lab(), namespace, name)
    }
    fn check(&self, check: &Check) -> Verdict {
        self.lab().check(check)
    }
    fn lifecycle(&self, selector: &str, namespace: &str) -> Result<LifecycleChart, String> {
        let sim = self.lab().sim();
        sim.lifecycle().chart(sim.store(), selector, namespace)
    }
    fn chartable(&self) -> Vec<Chartable> {
        lifecycle::chartable(self.lab().sim().store())
    }
    fn traffic(&self) -> TrafficView {
        traffic::panel(self.lab().sim())
    }
    fn autoscaling(&self) -> AutoscalingView {
        self.lab().sim().autoscaling()
    }
    fn gpus(&self) -> Vec<GpuNode> {
        gpus::board(self.lab().sim())
    }
}
