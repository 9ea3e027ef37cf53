//! The columns `kubectl get` prints for each kind, and how each cell is computed. Mirrors
//! pkg/printers/internalversion/printers.go (printPod, printDeployment, printNode, …).

use super::age::age;
use crate::api::{Object, Pod};
use crate::sim::time::SimTime;

/// Column headers for a kind; `wide` adds the `-o wide` columns.
pub fn headers(object_kind: crate::api::Kind, wide: bool) -> Vec<String> {
    use crate::api::Kind::*;
    let (base, extra): (&[&str], &[&str]) = match object_kind {
        Pod => (&["NAME", "READY", "STATUS", "RESTARTS", "AGE"], &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]),
        Deployment => (&["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], &["CONTAINERS", "IMAGES", "SELECTOR"]),
        ReplicaSet => (&["NAME", "DESIRED", "CURRENT", "READY", "AGE"], &["CONTAINERS", "IMAGES", "SELECTOR"]),
        ControllerRevision => (&["NAME", "CONTROLLER", "REVISION", "AGE"], &[]),
        DaemonSet => (
            &["NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR", "AGE"],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        StatefulSet => (&["NAME", "READY", "AGE"], &["CONTAINERS", "IMAGES"]),
        Job => (&["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"], &["CONTAINERS", "IMAGES", "SELECTOR"]),
        CronJob => (
            &["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"],
            &["CONTAINERS", "IMAGES", "SELECTOR"],
        ),
        Node => (
            &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
            &["INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME"],
        ),
        Service => (&["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"], &["SELECTOR"]),
        EndpointSlice => (&["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"], &[]),
        Namespace => (&["NAME", "STATUS", "AGE"], &[]),
        ConfigMap => (&["NAME", "DATA", "AGE"], &[]),
        Secret => (&["NAME", "TYPE", "DATA", "AGE"], &[]),
        Event if wide => (
            &["LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME"],
            &[],
        ),
        Event => (&["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"], &[]),
        HorizontalPodAutoscaler => (&["NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"], &[]),
        PodDisruptionBudget => (&["NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"], &[]),
        PriorityClass => (&["NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"], &[]),
        Lease => (&["NAME", "HOLDER", "AGE"], &[]),
        ApiService => (&["NAME", "SERVICE", "AVAILABLE", "AGE"], &[]),
        PersistentVolume => (
            &[
                "NAME",
                "CAPACITY",
                "ACCESS MODES",
                "RECLAIM POLICY",
                "STATUS",
                "CLAIM",
                "STORAGECLASS",
                "VOLUMEATTRIBUTESCLASS",
                "REASON",
                "AGE",
            ],
            &["VOLUMEMODE"],
        ),
        PersistentVolumeClaim => (
            &["NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"],
            &["VOLUMEMODE"],
        ),
        StorageClass => {
            (&["NAME", "PROVISIONER", "RECLAIMPOLICY", "VOLUMEBINDINGMODE", "ALLOWVOLUMEEXPANSION", "AGE"], &[])
        }
        // The default table of a kind without its own printer: the name and when it was made.
        CustomResourceDefinition | LimitRange => (&["NAME", "CREATED AT"], &[]),
        ResourceQuota => (&["NAME", "AGE", "REQUEST", "LIMIT"], &[]),
        // The CRD's additionalPrinterColumns, upper-cased as kubectl prints a server's table.
        PodGroup => (&["NAME", "PHASE", "MINMEMBER", "RUNNING", "SUCCEEDED", "FAILED", "AGE"], &[]),
        DeviceClass | ResourceClaimTemplate => (&["NAME", "AGE"], &[]),
        ResourceClaim => (&["NAME", "STATE", "AGE"], &[]),
        ResourceSlice => (&["NAME", "NODE", "DRIVER", "POOL", "AGE"], &[]),
        Ingress => (&["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"], &[]),
        IngressClass => (&["NAME", "CONTROLLER", "PARAMETERS", "AGE"], &[]),
        ValidatingAdmissionPolicy => (&["NAME", "VALIDATIONS", "PARAMKIND", "AGE"], &[]),
        MutatingAdmissionPolicy => (&["NAME", "MUTATIONS", "PARAMKIND", "AGE"], &[]),
        ValidatingAdmissionPolicyBinding | MutatingAdmissionPolicyBinding => {
            (&["NAME", "POLICYNAME", "PARAMREF", "AGE"], &[])
        }
        ServiceAccount => (&["NAME", "SECRETS", "AGE"], &[]),
        Role | ClusterRole => (&["NAME", "CREATED AT"], &[]),
        RoleBinding | ClusterRoleBinding => (&["NAME", "ROLE", "AGE"], &["USERS", "GROUPS", "SERVICEACCOUNTS"]),
        // The Gateway API CRDs' additionalPrinterColumns.
        GatewayClass => (&["NAME", "CONTROLLER", "ACCEPTED", "AGE"], &[]),
        Gateway => (&["NAME", "CLASS", "ADDRESS", "PROGRAMMED", "AGE"], &[]),
        HttpRoute => (&["NAME", "HOSTNAMES", "AGE"], &[]),
    };
    let extra = if wide { extra } else { &[] };
    base.iter().chain(extra).map(|s| s.to_string()).collect()
}

/// One row; `name` is the NAME cell (plain or `kind/name`).
pub fn row(object: &Object, name: String, now: SimTime, wide: bool) -> Vec<String> {
    let created = object.metadata().creation_timestamp.map(|t| t.0);
    let age = age(created, now);
    let (mut cells, extra) = match object {
        Object::Pod(pod) => pod_row(pod, age, now),
        Object::Deployment(d) => {
            let s = &d.status;
            let ready = format!("{}/{}", s.ready_replicas.unwrap_or(0), d.spec.replicas.unwrap_or(1));
            let template = &d.spec.template.spec;
            let sel = d.spec.selector.as_ref().map_or("<none>".into(), |s| s.format());
            (
                vec![ready, num(s.updated_replicas), num(s.available_replicas), age],
                vec![containers(template), images(template), sel],
            )
        }
        Object::ReplicaSet(rs) => {
            let s = &rs.status;
            let template = &rs.spec.template.spec;
            let sel = rs.spec.selector.as_ref().map_or("<none>".into(), |s| s.format());
            (
                vec![rs.spec.replicas.unwrap_or(1).to_string(), s.replicas.to_string(), num(s.ready_replicas), age],
                vec![containers(template), images(template), sel],
            )
        }
        Object::DaemonSet(ds) => {
            // printDaemonSet: the status's counts and the template's nodeSelector.
            let s = &ds.status;
            let template = &ds.spec.template.spec;
            let node_selector = super::describe::format_labels(&template.node_selector);
            let counts = [s.desired_number_scheduled, s.current_number_scheduled, s.number_ready];
            let more = [s.updated_number_scheduled, s.number_available];
            let sel = ds.spec.selector.as_ref().map_or("<none>".into(), |s| s.format());
            (
                counts.iter().chain(&more).map(|n| n.to_string()).chain([node_selector, age]).collect(),
                vec![containers(template), images(template), sel],
            )
        }
        Object::ControllerRevision(cr) => {
            // printControllerRevision: the controller as `kind.group/name`, lower-cased.
            let controller = cr.metadata.controller_ref().map_or("<none>".to_string(), |r| {
                let group = r.api_version.rsplit_once('/').map_or("", |(g, _)| g);
                let kind = if group.is_empty() { r.kind.clone() } else { format!("{}.{group}", r.kind) };
                format!("{}/{}", kind.to_ascii_lowercase(), r.name)
            });
            (vec![controller, cr.revision.to_string(), age], vec![])
        }
        Object::StatefulSet(set) => {
            // printStatefulSet: ready of desired, no selector column.
            let ready = format!("{}/{}", set.status.ready_replicas, set.spec.replicas.unwrap_or(1));
            let template = &set.spec.template.spec;
            (vec![ready, age], vec![containers(template), images(template)])
        }
        Object::Job(job) => job_row(job, age, now),
        Object::CronJob(cron_job) => cron_job_row(cron_job, age, now),
        Object::Node(node) => node_row(node, age),
        Object::Service(svc) => service_row(svc, age),
        Object::EndpointSlice(slice) => endpoint_slice_row(slice, age),
        Object::Namespace(ns) => (vec![ns.status.phase.clone().unwrap_or_default(), age], vec![]),
        Object::ConfigMap(cm) => ((vec![(cm.data.len() + cm.binary_data.len()).to_string(), age]), vec![]),
        Object::Secret(s) => (vec![s.type_.clone().unwrap_or_default(), s.data.len().to_string(), age], vec![]),
        Object::Event(e) => return event_row(e, now, wide),
        Object::HorizontalPodAutoscaler(hpa) => (hpa_row(hpa, age), vec![]),
        Object::PodDisruptionBudget(pdb) => {
            // printPodDisruptionBudget: an unset bound is `N/A`.
            let bound =
                |b: &Option<crate::api::intstr::IntOrString>| b.as_ref().map_or("N/A".into(), |b| b.to_string());
            let allowed = pdb.status.disruptions_allowed.to_string();
            (vec![bound(&pdb.spec.min_available), bound(&pdb.spec.max_unavailable), allowed, age], vec![])
        }
        Object::PriorityClass(pc) => {
            let global = pc.global_default.unwrap_or(false).to_string();
            let policy = pc.preemption_policy.clone().unwrap_or_else(|| "<none>".into());
            (vec![pc.value.to_string(), global, age, policy], vec![])
        }
        Object::PersistentVolume(volume) => super::storage_printers::persistent_volume_row(volume, age),
        Object::PersistentVolumeClaim(claim) => super::storage_printers::persistent_volume_claim_row(claim, age),
        Object::StorageClass(class) => return super::storage_printers::storage_class_row(class, name, age),
        Object::ApiService(service) => (api_service_row(service, age), vec![]),
        Object::Lease(lease) => (vec![lease.spec.holder_identity.clone().unwrap_or_default(), age], vec![]),
        Object::CustomResourceDefinition(_) | Object::LimitRange(_) => {
            (vec![object.metadata().creation_timestamp.map(|t| t.0.to_rfc3339()).unwrap_or_default()], vec![])
        }
        Object::ResourceQuota(quota) => (resource_quota_row(quota, age), vec![]),
        Object::PodGroup(group) => {
            // A column whose path has no value prints as an empty cell.
            let cell = |n: Option<i32>| n.map(|n| n.to_string()).unwrap_or_default();
            let (spec, status) = (&group.spec, &group.status);
            let phase = status.phase.clone().unwrap_or_default();
            let counts = [status.running, status.succeeded, status.failed].map(cell);
            (vec![phase, cell(spec.min_member)].into_iter().chain(counts).chain([age]).collect(), vec![])
        }
        Object::DeviceClass(_) | Object::ResourceClaimTemplate(_) => (vec![age], vec![]),
        Object::ResourceClaim(claim) => (vec![claim_state(claim), age], vec![]),
        Object::Ingress(ingress) => (ingress_row(ingress, age, wide), vec![]),
        Object::IngressClass(class) => {
            let parameters = class.spec.parameters.as_ref().map_or("<none>".to_string(), |p| {
                let group = p.api_group.as_ref().map_or(String::new(), |g| format!(".{g}"));
                format!("{}{group}/{}", p.kind, p.name)
            });
            (vec![class.spec.controller.clone().unwrap_or_default(), parameters, age], vec![])
        }
        Object::ValidatingAdmissionPolicy(p) => {
            let spec = &p.spec;
            (vec![spec.validations.len().to_string(), param_kind(spec.param_kind.as_ref()), age], vec![])
        }
        Object::MutatingAdmissionPolicy(p) => {
            (vec![p.spec.mutations.len().to_string(), param_kind(p.spec.param_kind.as_ref()), age], vec![])
        }
        Object::ValidatingAdmissionPolicyBinding(b) => {
            (vec![b.spec.policy_name.clone(), param_ref(b.spec.param_ref.as_ref()), age], vec![])
        }
        Object::MutatingAdmissionPolicyBinding(b) => {
            (vec![b.spec.policy_name.clone(), param_ref(b.spec.param_ref.as_ref()), age], vec![])
        }
        Object::ServiceAccount(account) => (vec![account.secrets.len().to_string(), age], vec![]),
        Object::Role(_) | Object::ClusterRole(_) => (vec![created_at(object)], vec![]),
        Object::RoleBinding(b) => (vec![role_ref(&b.role_ref), age], subjects(&b.subjects)),
        Object::ClusterRoleBinding(b) => (vec![role_ref(&b.role_ref), age], subjects(&b.subjects)),
        Object::GatewayClass(class) => {
            let accepted = condition_status(&class.status.conditions, "Accepted");
            (vec![class.spec.controller_name.clone(), accepted, age], vec![])
        }
        Object::Gateway(gateway) => {
            let addresses: Vec<&str> = gateway.status.addresses.iter().map(|a| a.value.as_str()).collect();
            let programmed = condition_status(&gateway.status.conditions, "Programmed");
            (vec![gateway.spec.gateway_class_name.clone(), addresses.join(" "), programmed, age], vec![])
        }
        Object::HttpRoute(route) => {
            let hostnames = route.spec.hostnames.iter().map(|h| format!("{h:?}")).collect::<Vec<_>>().join(",");
            let hostnames = if route.spec.hostnames.is_empty() { String::new() } else { format!("[{hostnames}]") };
            (vec![hostnames, age], vec![])
        }
        Object::ResourceSlice(slice) => {
            let spec = &slice.spec;
            (vec![spec.node_name.clone().unwrap_or_default(), spec.driver.clone(), spec.pool.name.clone(), age], vec![])
        }
    };
    cells.insert(0, name);
    if wide {
        cells.extend(extra);
    }
    cells
}

/// printResourceQuota: each resource of `status.hard` by name as `name: used/hard`, those
/// named `limits.*` in LIMIT and the rest in REQUEST.
fn resource_quota_row(quota: &crate::api::ResourceQuota, age: String) -> Vec<String> {
    let (mut request, mut limit) = (Vec::new(), Vec::new());
    for (resource, hard) in &quota.status.hard {
        let used = quota.status.used.get(resource).copied().unwrap_or_default();
        let cell = format!("{resource}: {used}/{hard}");
        let is_limit = resource.split_once('.').is_some_and(|(first, _)| first == "limits");
        if is_limit { limit.push(cell) } else { request.push(cell) }
    }
    vec![age, request.join(", "), limit.join(", ")]
}

/// printRole's CREATED AT: the creation time in RFC 3339, UTC.
fn created_at(object: &Object) -> String {
    object.metadata().creation_timestamp.map(|t| t.0.to_rfc3339()).unwrap_or_default()
}

/// printRoleBinding's ROLE: `Role/name` or `ClusterRole/name`.
fn role_ref(role_ref: &crate::api::rbac::RoleRef) -> String {
    format!("{}/{}", role_ref.kind, role_ref.name)
}

/// rbac.SubjectsStrings: the users, the groups and the `namespace/name` service accounts, each
/// list joined by `, ` (the `-o wide` columns).
fn subjects(subjects: &[crate::api::rbac::Subject]) -> Vec<String> {
    let names = |kind: &str| -> String {
        let picked = subjects.iter().filter(|s| s.kind == kind);
        let names: Vec<String> = match kind {
            "ServiceAccount" => {
                picked.map(|s| format!("{}/{}", s.namespace.as_deref().unwrap_or(""), s.name)).collect()
            }
            _ => picked.map(|s| s.name.clone()).collect(),
        };
        names.join(", ")
    };
    vec![names("User"), names("Group"), names("ServiceAccount")]
}

/// printIngress: the class (`<none>`), the hosts (`*` for a rule without one; past three,
/// `+ N more...`), the load balancer's addresses and `80` or `80, 443` with TLS.
fn ingress_row(ingress: &crate::api::Ingress, age: String, wide: bool) -> Vec<String> {
    let spec = &ingress.spec;
    let class = spec.ingress_class_name.clone().unwrap_or_else(|| "<none>".into());
    let hosts: Vec<&str> =
        spec.rules.iter().map(|r| r.host.as_deref().filter(|h| !h.is_empty()).unwrap_or("*")).collect();
    let hosts = match hosts.len() {
        0 => "*".to_string(),
        1..=3 => hosts.join(","),
        n => format!("{} + {} more...", hosts[..3].join(","), n - 3),
    };
    let mut address = ingress.addresses().join(",");
    if !wide && address.len() > 16 {
        address = format!("{}...", &address[..13]);
    }
    let ports = if spec.tls.is_empty() { "80" } else { "80, 443" };
    vec![class, hosts, address, ports.to_string(), age]
}

/// A `.status.conditions[?(@.type==T)].status` column: empty when the condition is not there.
fn condition_status(conditions: &[crate::api::condition::Condition], type_: &str) -> String {
    conditions.iter().find(|c| c.type_ == type_).map(|c| c.status.clone()).unwrap_or_default()
}

/// printResourceClaim's STATE: `deleted`, `pending` or `allocated`, then `reserved`.
fn claim_state(claim: &crate::api::ResourceClaim) -> String {
    let mut states = Vec::new();
    if claim.metadata.is_being_deleted() {
        states.push("deleted");
    }
    match &claim.status.allocation {
        None if states.is_empty() => states.push("pending"),
        None => {}
        Some(_) => states.push("allocated"),
    }
    if !claim.status.reserved_for.is_empty() {
        states.push("reserved");
    }
    states.join(",")
}

/// printJob: the first of Complete, Failed, Terminating, Suspended, FailureTarget and
/// SuccessCriteriaMet (since kubernetes#132832, v1.34) that holds, else Running; completions as
/// `succeeded/wanted`; how long it ran (or has run).
fn job_row(job: &crate::api::Job, age: String, now: SimTime) -> (Vec<String>, Vec<String>) {
    let (spec, status) = (&job.spec, &job.status);
    let completions = match (spec.completions, spec.parallelism.unwrap_or(0)) {
        (Some(wanted), _) => format!("{}/{wanted}", status.succeeded),
        (None, parallelism) if parallelism > 1 => format!("{}/1 of {parallelism}", status.succeeded),
        (None, _) => format!("{}/1", status.succeeded),
    };
    let duration = match (status.start_time, status.completion_time) {
        (None, _) => String::new(),
        (Some(start), None) => super::age::human_duration(super::age::since_timestamp(start.0, now)),
        (Some(start), Some(end)) => {
            let whole_seconds = |t: SimTime| SimTime(t.as_millis() / 1000 * 1000);
            super::age::human_duration(whole_seconds(end.0).since(whole_seconds(start.0)))
        }
    };
    let holds = |t: &str| status.condition(t).is_some();
    let state = if holds("Complete") {
        "Complete"
    } else if holds("Failed") {
        "Failed"
    } else if job.metadata.deletion_timestamp.is_some() {
        "Terminating"
    } else if holds("Suspended") {
        "Suspended"
    } else if holds("FailureTarget") {
        "FailureTarget"
    } else if holds("SuccessCriteriaMet") {
        "SuccessCriteriaMet"
    } else {
        "Running"
    };
    let template = &spec.template.spec;
    let selector = spec.selector.as_ref().map_or("<none>".into(), |s| s.format());
    (vec![state.to_string(), completions, duration, age], vec![containers(template), images(template), selector])
}

/// printCronJob: the schedule, its zone, whether suspended, active Jobs, the last schedule's age.
fn cron_job_row(cron_job: &crate::api::CronJob, age: String, now: SimTime) -> (Vec<String>, Vec<String>) {
    let (spec, status) = (&cron_job.spec, &cron_job.status);
    let last = status.last_schedule_time.map_or("<none>".to_string(), |t| super::age::age(Some(t.0), now));
    let suspend = spec.suspend.map_or("<unset>".to_string(), |s| s.to_string());
    let zone = spec.time_zone.clone().unwrap_or_else(|| "<none>".to_string());
    let job = &spec.job_template.spec;
    let selector = job.selector.as_ref().map_or("<none>".into(), |s| s.format());
    (
        vec![spec.schedule.clone(), zone, suspend, status.active.len().to_string(), last, age],
        vec![containers(&job.template.spec), images(&job.template.spec), selector],
    )
}

fn num(n: Option<i32>) -> String {
    n.unwrap_or(0).to_string()
}

fn containers(spec: &crate::api::pod::PodSpec) -> String {
    spec.containers.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(",")
}

fn images(spec: &crate::api::pod::PodSpec) -> String {
    spec.containers.iter().map(|c| c.image.as_deref().unwrap_or("")).collect::<Vec<_>>().join(",")
}

fn pod_row(pod: &Pod, age: String, now: SimTime) -> (Vec<String>, Vec<String>) {
    // Sidecars (restartable init containers) count among the containers, as printPod counts them.
    let is_sidecar = |name: &str| {
        pod.spec.init_containers.iter().any(|c| c.name == name && c.restart_policy.as_deref() == Some("Always"))
    };
    let sidecars: Vec<&crate::api::pod::ContainerStatus> =
        pod.status.init_container_statuses.iter().filter(|s| is_sidecar(&s.name)).collect();
    let total = pod.spec.containers.len() + pod.spec.init_containers.iter().filter(|c| is_sidecar(&c.name)).count();
    let statuses: Vec<&crate::api::pod::ContainerStatus> =
        pod.status.container_statuses.iter().chain(sidecars.iter().copied()).collect();
    let ready = statuses.iter().filter(|c| c.ready).count();
    let restarts: i32 = statuses.iter().map(|c| c.restart_count).sum();
    let last_restart =
        statuses.iter().filter_map(|c| c.last_state.terminated.as_ref().and_then(|t| t.finished_at)).max();
    let restarts = match last_restart {
        Some(t) if restarts > 0 => {
            format!("{restarts} ({} ago)", super::age::human_duration(super::age::since_timestamp(t.0, now)))
        }
        _ => restarts.to_string(),
    };
    let none = || "<none>".to_string();
    let extra = vec![
        pod.status.pod_ip.clone().unwrap_or_else(none),
        pod.spec.node_name.clone().unwrap_or_else(none),
        pod.status.nominated_node_name.clone().unwrap_or_else(none),
        none(),
    ];
    (vec![format!("{ready}/{total}"), pod_status(pod), restarts, age], extra)
}

/// The STATUS column, as upstream printPod derives it from phase, reason and container states.
pub fn pod_status(pod: &Pod) -> String {
    let mut reason = pod.status.reason.clone().unwrap_or_else(|| pod.phase().to_string());
    let mut initializing = false;
    for (i, status) in pod.status.init_container_statuses.iter().enumerate() {
        let sidecar = pod
            .spec
            .init_containers
            .iter()
            .any(|c| c.name == status.name && c.restart_policy.as_deref() == Some("Always"));
        let terminated = status.state.terminated.as_ref();
        let waiting = status.state.waiting.as_ref().and_then(|w| w.reason.clone()).filter(|r| r != "PodInitializing");
        if terminated.is_some_and(|t| t.exit_code == 0) || (sidecar && status.started == Some(true)) {
            continue;
        }
        reason = match (terminated, waiting) {
            (Some(t), _) => match &t.reason {
                Some(r) if !r.is_empty() => format!("Init:{r}"),
                _ => match t.signal {
                    Some(s) if s != 0 => format!("Init:Signal:{s}"),
                    _ => format!("Init:ExitCode:{}", t.exit_code),
                },
            },
            (None, Some(w)) => format!("Init:{w}"),
            (None, None) => format!("Init:{i}/{}", pod.spec.init_containers.len()),
        };
        initializing = true;
        break;
    }
    let initialized = pod.status.conditions.iter().any(|c| c.type_ == "Initialized" && c.status == "True");
    if !initializing || initialized {
        reason = container_reason(pod, reason);
    }
    // A pod whose containers have all stopped (phase Succeeded or Failed) shows why, not
    // Terminating: the last row `get -w` prints for a deleted pod reads `Completed`.
    let terminal = matches!(pod.phase(), "Succeeded" | "Failed");
    if pod.metadata.deletion_timestamp.is_some() {
        if pod.status.reason.as_deref() == Some("NodeLost") {
            reason = "Unknown".into();
        } else if !terminal {
            reason = "Terminating".into();
        }
    }
    reason
}

/// The regular containers' part of `printPod`: the last waiting or terminated reason wins.
fn container_reason(pod: &Pod, mut reason: String) -> String {
    let mut has_running = false;
    for status in pod.status.container_statuses.iter().rev() {
        if let Some(w) = status.state.waiting.as_ref().and_then(|w| w.reason.clone()) {
            reason = w;
        } else if let Some(t) = &status.state.terminated {
            reason = t.reason.clone().unwrap_or_else(|| match t.signal {
                Some(s) if s != 0 => format!("Signal:{s}"),
                _ => format!("ExitCode:{}", t.exit_code),
            });
        } else if status.state.running.is_some() && status.ready {
            has_running = true;
        }
    }
    if reason == "Completed" && has_running {
        reason = if pod.is_ready() { "Running".into() } else { "NotReady".into() };
    }
    reason
}

fn node_row(node: &crate::api::Node, age: String) -> (Vec<String>, Vec<String>) {
    let mut status = match node.condition("Ready").map(|c| c.status.as_str()) {
        Some("True") => "Ready".to_string(),
        _ => "NotReady".to_string(),
    };
    if node.spec.unschedulable == Some(true) {
        status.push_str(",SchedulingDisabled");
    }
    let roles: Vec<&str> =
        node.metadata.labels.keys().filter_map(|k| k.strip_prefix("node-role.kubernetes.io/")).collect();
    let roles = if roles.is_empty() { "<none>".to_string() } else { roles.join(",") };
    let info = node.status.node_info.clone().unwrap_or_default();
    let address = |t: &str| {
        node.status.addresses.iter().find(|a| a.type_ == t).map_or("<none>".to_string(), |a| a.address.clone())
    };
    (
        vec![status, roles, age, info.kubelet_version.clone()],
        vec![
            address("InternalIP"),
            address("ExternalIP"),
            info.os_image,
            info.kernel_version,
            info.container_runtime_version,
        ],
    )
}

fn service_row(svc: &crate::api::Service, age: String) -> (Vec<String>, Vec<String>) {
    let spec = &svc.spec;
    let type_ = spec.type_.clone().unwrap_or_else(|| "ClusterIP".into());
    let external = match type_.as_str() {
        "ExternalName" => spec.external_name.clone().unwrap_or_default(),
        "LoadBalancer" => {
            let ips: Vec<String> =
                svc.status.load_balancer.ingress.iter().filter_map(|i| i.ip.clone().or(i.hostname.clone())).collect();
            if ips.is_empty() { "<pending>".into() } else { ips.join(",") }
        }
        _ if !spec.external_ips.is_empty() => spec.external_ips.join(","),
        _ => "<none>".into(),
    };
    let ports: Vec<String> = spec
        .ports
        .iter()
        .map(|p| {
            let protocol = p.protocol.as_deref().unwrap_or("TCP");
            match p.node_port {
                Some(np) => format!("{}:{np}/{protocol}", p.port),
                None => format!("{}/{protocol}", p.port),
            }
        })
        .collect();
    let ports = if ports.is_empty() { "<none>".into() } else { ports.join(",") };
    let selector = if spec.selector.is_empty() { "<none>".into() } else { spec.selector.to_selector_string() };
    let cluster_ip = spec.cluster_ip.clone().unwrap_or_else(|| "<none>".into());
    (vec![type_, cluster_ip, external, ports, age], vec![selector])
}

fn endpoint_slice_row(slice: &crate::api::EndpointSlice, age: String) -> (Vec<String>, Vec<String>) {
    let ports: Vec<String> = slice.ports.iter().filter_map(|p| p.port.map(|n| n.to_string())).collect();
    let ports = if ports.is_empty() { "<unset>".into() } else { ports.join(",") };
    let addresses: Vec<&str> = slice.endpoints.iter().flat_map(|e| e.addresses.iter().map(String::as_str)).collect();
    // kubectl shows at most three addresses, then "+ N more...".
    let endpoints = match addresses.len() {
        0 => "<unset>".to_string(),
        n if n > 3 => format!("{} + {} more...", addresses[..3].join(","), n - 3),
        _ => addresses.join(","),
    };
    (vec![slice.address_type.clone(), ports, endpoints, age], vec![])
}

/// upstream printEvent: LAST SEEN is lastTimestamp (else the first sighting), no repeat count;
/// `-o wide` adds the sub-object, source, first sighting, count and name.
fn event_row(event: &crate::api::Event, now: SimTime, wide: bool) -> Vec<String> {
    let first = event.first_timestamp.or(event.event_time);
    let first = age(first.map(|t| t.0), now);
    let last = event.last_timestamp.map_or_else(|| first.clone(), |t| age(Some(t.0), now));
    let io = &event.involved_object;
    let kind = io.kind.clone().unwrap_or_default().to_ascii_lowercase();
    let target = match io.name.as_deref().filter(|n| !n.is_empty()) {
        Some(name) => format!("{kind}/{name}"),
        None => kind,
    };
    let message = event.message.clone().unwrap_or_default().trim().to_string();
    let (type_, reason) = (event.type_.clone().unwrap_or_default(), event.reason.clone().unwrap_or_default());
    if !wide {
        return vec![last, type_, reason, target, message];
    }
    let count = event.count.filter(|c| *c != 0).unwrap_or(1);
    vec![
        last,
        type_,
        reason,
        target,
        io.field_path.clone().unwrap_or_default(),
        event_source(event),
        message,
        first,
        count.to_string(),
        event.metadata.name.clone(),
    ]
}

/// `formatEventSource`: `component, host`, or just the component.
fn event_source(event: &crate::api::Event) -> String {
    let non_empty = |a: &Option<String>, b: &Option<String>| {
        a.clone().filter(|s| !s.is_empty()).or_else(|| b.clone()).unwrap_or_default()
    };
    let component = non_empty(&event.source.component, &event.reporting_component);
    let instance = non_empty(&event.source.host, &event.reporting_instance);
    if instance.is_empty() { component } else { format!("{component}, {instance}") }
}

/// `printHorizontalPodAutoscaler`: `Deployment/hello`, `cpu: 45%/70%`, bounds, current replicas.
fn hpa_row(hpa: &crate::api::HorizontalPodAutoscaler, age: String) -> Vec<String> {
    let spec = &hpa.spec;
    let reference = format!("{}/{}", spec.scale_target_ref.kind, spec.scale_target_ref.name);
    let min_pods = spec.min_replicas.map_or("<unset>".to_string(), |m| m.to_string());
    let targets = format_hpa_metrics(&spec.metrics, &hpa.status.current_metrics);
    vec![reference, targets, min_pods, spec.max_replicas.to_string(), hpa.status.current_replicas.to_string(), age]
}

/// `formatHPAMetrics`: each metric as `current/target`, at most two then `+ N more...`.
pub fn format_hpa_metrics(
    specs: &[crate::api::horizontal_pod_autoscaler::MetricSpec],
    statuses: &[crate::api::horizontal_pod_autoscaler::MetricStatus],
) -> String {
    const MAXIMUM: usize = 2;
    if specs.is_empty() {
        return "<none>".into();
    }
    let list: Vec<String> =
        specs.iter().enumerate().map(|(i, spec)| format_hpa_metric(spec, statuses.get(i))).collect();
    let shown = list.iter().take(MAXIMUM).cloned().collect::<Vec<_>>().join(", ");
    if list.len() > MAXIMUM { format!("{shown} + {} more...", list.len() - MAXIMUM) } else { shown }
}

fn format_hpa_metric(
    spec: &crate::api::horizontal_pod_autoscaler::MetricSpec,
    status: Option<&crate::api::horizontal_pod_autoscaler::MetricStatus>,
) -> String {
    let (source, current) = match spec.type_.as_str() {
        "Resource" => (
            spec.resource.as_ref().map(|r| (&r.name, &r.target)),
            status.and_then(|s| s.resource.as_ref()).map(|r| &r.current),
        ),
        "ContainerResource" => (
            spec.container_resource.as_ref().map(|r| (&r.name, &r.target)),
            status.and_then(|s| s.container_resource.as_ref()).map(|r| &r.current),
        ),
        _ => return "<unknown type>".into(),
    };
    let Some((name, target)) = source else { return "<unknown type>".into() };
    if let Some(average_value) = &target.average_value {
        let current = current.and_then(|c| c.average_value.as_ref()).map_or("<unknown>".into(), |q| q.to_string());
        return format!("{name}: {current}/{average_value}");
    }
    let current = current.and_then(|c| c.average_utilization).map_or("<unknown>".into(), |u| format!("{u}%"));
    let target = target.average_utilization.map_or("<auto>".into(), |u| format!("{u}%"));
    format!("{name}: {current}/{target}")
}

/// An admission policy's PARAMKIND: `apiVersion/kind`, or `<unset>`.
fn param_kind(kind: Option<&crate::api::admission_policy::ParamKind>) -> String {
    kind.map_or("<unset>".to_string(), |k| format!("{}/{}", k.api_version, k.kind))
}

/// A binding's PARAMREF: `namespace/name`, `*/name` when the namespace is left to the request,
/// the selector as Go prints the struct, or `<unset>`.
fn param_ref(param_ref: Option<&crate::api::admission_policy::ParamRef>) -> String {
    let Some(p) = param_ref else { return "<unset>".to_string() };
    if !p.name.is_empty() {
        let namespace = if p.namespace.is_empty() { "*" } else { p.namespace.as_str() };
        return format!("{namespace}/{}", p.name);
    }
    match &p.selector {
        Some(selector) => {
            let labels: String = selector.match_labels.iter().map(|(k, v)| format!("{k}: {v},")).collect();
            format!(
                "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{}},}}"
            )
        }
        None => "<unset>".to_string(),
    }
}

/// kube-aggregator's `ConvertToTable`: `Local` or the Service's `namespace/name`, and the
/// `Available` condition's status, with its reason when it is not True.
fn api_service_row(service: &crate::api::ApiService, age: String) -> Vec<String> {
    let target = service.spec.service.as_ref().map_or("Local".to_string(), |s| format!("{}/{}", s.namespace, s.name));
    let available = match service.available() {
        None => "Unknown".to_string(),
        Some(c) if c.status == "True" => c.status.clone(),
        Some(c) => match c.reason.as_deref().filter(|r| !r.is_empty()) {
            Some(reason) => format!("{} ({reason})", c.status),
            None => c.status.clone(),
        },
    };
    vec![target, available, age]
}
