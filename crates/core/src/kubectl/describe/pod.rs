//! `kubectl describe pod`: where it runs, why it is in its phase, each container's state and
//! last termination, conditions, volumes, QoS and tolerations, then its Events. Mirrors
//! `describePod` in staging/src/k8s.io/kubectl/pkg/describe/describe.go.

use super::containers::{describe_containers, describe_volumes};
use super::events::{self, EventQuery};
use super::{
    Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline, rfc1123z, since,
    tolerations_multiline,
};
use crate::api::Pod;
use crate::api::meta::ObjectMeta;
use crate::store::defaults::qos_class;

pub fn describe(describer: &Describer<'_>, pod: &Pod) -> String {
    let mut w = PrefixWriter::default();
    header(&mut w, describer, pod);
    let spec = &pod.spec;
    if !spec.init_containers.is_empty() {
        let statuses = &pod.status.init_container_statuses;
        describe_containers(&mut w, "Init Containers", &spec.init_containers, statuses, Some(pod), "");
    }
    describe_containers(&mut w, "Containers", &spec.containers, &pod.status.container_statuses, Some(pod), "");
    conditions(&mut w, pod);
    describe_volumes(&mut w, &spec.volumes, "");
    let qos = pod.status.qos_class.clone().filter(|q| !q.is_empty()).unwrap_or_else(|| qos_class(spec).into());
    w.write(LEVEL_0, &format!("QoS Class:\t{qos}\n"));
    labels_multiline(&mut w, "", "Node-Selectors", &spec.node_selector);
    tolerations_multiline(&mut w, "", "Tolerations", &spec.tolerations);
    topology_spread(&mut w, pod);
    let query = EventQuery { kind: None, ..EventQuery::for_object(pod) };
    events::describe(&mut w, describer, events::search(describer, &query));
    w.finish()
}

fn header(w: &mut PrefixWriter, describer: &Describer<'_>, pod: &Pod) {
    let (meta, spec, status) = (&pod.metadata, &pod.spec, &pod.status);
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    w.write(LEVEL_0, &format!("Namespace:\t{}\n", meta.namespace));
    if let Some(priority) = spec.priority {
        w.write(LEVEL_0, &format!("Priority:\t{priority}\n"));
    }
    if let Some(class) = spec.priority_class_name.as_deref().filter(|c| !c.is_empty()) {
        w.write(LEVEL_0, &format!("Priority Class Name:\t{class}\n"));
    }
    if let Some(class) = spec.runtime_class_name.as_deref().filter(|c| !c.is_empty()) {
        w.write(LEVEL_0, &format!("Runtime Class Name:\t{class}\n"));
    }
    if let Some(account) = spec.service_account_name.as_deref().filter(|a| !a.is_empty()) {
        w.write(LEVEL_0, &format!("Service Account:\t{account}\n"));
    }
    match pod.node_name() {
        None => w.write(LEVEL_0, "Node:\t<none>\n"),
        Some(node) => w.write(LEVEL_0, &format!("Node:\t{node}/{}\n", status.host_ip.as_deref().unwrap_or(""))),
    }
    if status.start_time.is_some() {
        w.write(LEVEL_0, &format!("Start Time:\t{}\n", rfc1123z(status.start_time)));
    }
    labels_multiline(w, "", "Labels", &meta.labels);
    annotations_multiline(w, "Annotations", &meta.annotations);
    phase_and_reason(w, describer, pod);
    if let Some(profile) = spec.security_context.as_ref().and_then(|s| s.seccomp_profile.as_ref()) {
        w.write(LEVEL_0, &format!("SeccompProfile:\t{}\n", profile.type_));
        if profile.type_ == "Localhost" {
            let localhost = profile.localhost_profile.as_deref().unwrap_or("");
            w.write(LEVEL_0, &format!("LocalhostProfile:\t{localhost}\n"));
        }
    }
    w.write(LEVEL_0, &format!("IP:\t{}\n", status.pod_ip.as_deref().unwrap_or("")));
    if status.pod_ips.is_empty() {
        w.write(LEVEL_0, "IPs:\t<none>\n");
    } else {
        w.write(LEVEL_0, "IPs:\n");
        for ip in &status.pod_ips {
            w.write(LEVEL_1, &format!("IP:\t{}\n", ip.ip));
        }
    }
    if let Some(controller) = controlled_by(meta) {
        w.write(LEVEL_0, &format!("Controlled By:\t{controller}\n"));
    }
    if let Some(node) = status.nominated_node_name.as_deref().filter(|n| !n.is_empty()) {
        w.write(LEVEL_0, &format!("NominatedNodeName:\t{node}\n"));
    }
}

fn phase_and_reason(w: &mut PrefixWriter, describer: &Describer<'_>, pod: &Pod) {
    let phase = pod.status.phase.as_deref().unwrap_or("");
    let finished = phase == "Failed" || phase == "Succeeded";
    match pod.metadata.deletion_timestamp {
        Some(deleted) if !finished => {
            w.write(LEVEL_0, &format!("Status:\tTerminating (lasts {})\n", since(Some(deleted), describer.now)));
            let grace = pod.metadata.deletion_grace_period_seconds.unwrap_or(0);
            w.write(LEVEL_0, &format!("Termination Grace Period:\t{grace}s\n"));
        }
        _ => w.write(LEVEL_0, &format!("Status:\t{phase}\n")),
    }
    if let Some(reason) = pod.status.reason.as_deref().filter(|r| !r.is_empty()) {
        w.write(LEVEL_0, &format!("Reason:\t{reason}\n"));
    }
    if let Some(message) = pod.status.message.as_deref().filter(|m| !m.is_empty()) {
        w.write(LEVEL_0, &format!("Message:\t{message}\n"));
    }
}

/// `printController`: `ReplicaSet/hello-75c78875d5`.
pub fn controlled_by(meta: &ObjectMeta) -> Option<String> {
    meta.controller_ref().map(|owner| format!("{}/{}", owner.kind, owner.name))
}

fn conditions(w: &mut PrefixWriter, pod: &Pod) {
    if !pod.spec.readiness_gates.is_empty() {
        w.write(LEVEL_0, "Readiness Gates:\n  Type\tStatus\n");
        for gate in pod.spec.readiness_gates.iter() {
            let condition = pod.status.conditions.iter().find(|c| c.type_ == gate.condition_type);
            let status = condition.map_or("<none>", |c| c.status.as_str());
            w.write(LEVEL_1, &format!("{} \t{status} \n", gate.condition_type));
        }
    }
    if pod.status.conditions.is_empty() {
        return;
    }
    w.write(LEVEL_0, "Conditions:\n  Type\tStatus\n");
    for condition in &pod.status.conditions {
        w.write(LEVEL_1, &format!("{} \t{} \n", condition.type_, condition.status));
    }
}

fn topology_spread(w: &mut PrefixWriter, pod: &Pod) {
    let mut constraints: Vec<_> = pod.spec.topology_spread_constraints.iter().collect();
    if constraints.is_empty() {
        return;
    }
    constraints.sort_by(|a, b| a.topology_key.cmp(&b.topology_key));
    w.write(LEVEL_0, "Topology Spread Constraints:\t");
    for (i, constraint) in constraints.into_iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, "\t");
        }
        let mut text = format!(
            "{}:{} when max skew {} is exceeded",
            constraint.topology_key, constraint.when_unsatisfiable, constraint.max_skew
        );
        if let Some(selector) = &constraint.label_selector {
            text.push_str(&format!(" for selector {}", selector.format()));
        }
        w.write(LEVEL_0, &format!("{text}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::SimTime;
    use crate::store::Store;

    const POD: &str = r#"
metadata: {name: greedy, namespace: default, uid: 0e4d2c1a-9b7f-4c3e-8a1d-2f6b5c4d3e2a, labels: {run: greedy}}
spec:
  containers:
  - name: greedy
    image: hello:v1
    resources: {requests: {cpu: "64"}}
  serviceAccountName: default
  priority: 0
  tolerations:
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
status:
  phase: Pending
  qosClass: Burstable
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable}
"#;

    #[test]
    fn a_pending_pod_reads_like_kubectl() {
        let pod: Pod = serde_yaml::from_str(POD).unwrap();
        let store = Store::new(1);
        let describer = Describer { store: &store, now: SimTime(4_000), show_events: true };
        let expected = "\
Name:             greedy
Namespace:        default
Priority:         0
Service Account:  default
Node:             <none>
Labels:           run=greedy
Annotations:      <none>
Status:           Pending
IP:               
IPs:              <none>
Containers:
  greedy:
    Image:      hello:v1
    Port:       <none>
    Host Port:  <none>
    Requests:
      cpu:        64
    Environment:  <none>
    Mounts:       <none>
Conditions:
  Type           Status
  PodScheduled   False 
Volumes:         <none>
QoS Class:       Burstable
Node-Selectors:  <none>
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                 node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:          <none>
";
        assert_eq!(describe(&describer, &pod), expected);
    }
}
