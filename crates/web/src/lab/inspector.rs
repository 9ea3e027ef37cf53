//! What the inspector shows for a pod: its `kubectl describe`, exactly as the terminal prints
//! it, and "why": the scheduler's last decision for it, node by node (the filter that refused
//! a node and its reason, or the node's weighted score), so a Pending pod explains itself.
//! Plain Rust over the lab, so it is tested natively.

use kubelab_core::lesson::LessonLab;
use kubelab_core::view::scheduling;

/// `kubectl describe pod NAME -n NAMESPACE`, run on a copy so that inspecting never lands in
/// the learner's history or the timeline.
pub fn describe_pod(lab: &LessonLab, namespace: &str, name: &str) -> String {
    let mut copy = lab.clone();
    match copy.run_as_learner(&format!("kubectl describe pod {name} -n {namespace}")) {
        Ok(ran) => ran.into_iter().map(|r| r.output).collect(),
        Err(err) => err.message,
    }
}

/// The scheduler's last decision for the pod, one line per evaluated node, then the outcome;
/// empty when the scheduler never looked at it (bound by hand, or not its scheduler).
pub fn why(lab: &LessonLab, namespace: &str, name: &str) -> Vec<String> {
    scheduling::pod_scheduling(lab.sim(), namespace, name).map(|s| s.lines()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::lab_session::LabSession;

    #[test]
    fn a_pending_pod_says_why_node_by_node() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment picky --image=nginx --replicas=0");
        session.run(
            r#"kubectl patch deployment picky -p '{"spec":{"template":{"spec":{"nodeSelector":{"disk":"ssd"}}}}}'"#,
        );
        session.run("kubectl scale deployment picky --replicas=1\nsleep 5s");
        let store = session.lab().sim().store();
        let pod = store.list::<kubelab_core::api::pod::Pod>(None).next().unwrap().metadata.name.clone();
        let lines = why(session.lab(), "default", &pod);
        assert_eq!(lines.len(), 5, "{lines:?}");
        let taint = "control-plane: refused by TaintToleration: node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }";
        assert_eq!(lines[0], taint);
        assert_eq!(lines[1], "node-1: refused by NodeAffinity: node(s) didn't match Pod's node affinity/selector");
        assert!(lines[4].starts_with("→ 0/4 nodes are available"), "{lines:?}");
        let described = describe_pod(session.lab(), "default", &pod);
        assert!(described.contains("FailedScheduling"), "{described}");
        assert!(session.timeline().len() == 3);
    }
}
