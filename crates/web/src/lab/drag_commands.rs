//! What a drag in the cluster view means, as the command the terminal would run: a pending pod
//! dropped on a node is `lab pod bind` (refused with the scheduler's reasons when it does not
//! fit), any pod dropped on the bin is `kubectl delete pod`, and a node's menu offers cordon,
//! uncordon, drain and power; a machine from the palette dropped on the cluster is `lab node
//! add`, a node dragged onto another zone is `kubectl label node … topology.kubernetes.io/zone=…`
//! and onto the bin `lab node remove`, and a MIG profile dropped on a GPU's slot is `nvidia-smi
//! mig -cgi PROFILE:START -C` on its node. Plain Rust, so it is tested natively.

/// A pod picked up in the cluster view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodRef {
    pub namespace: String,
    pub name: String,
    /// The node it is bound to; `None` while pending.
    pub node: Option<String>,
}

/// Where a pod can be dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropTarget {
    Node(String),
    Bin,
}

impl DropTarget {
    pub fn describe(&self) -> String {
        match self {
            DropTarget::Node(node) => format!("node {node}"),
            DropTarget::Bin => "the bin (delete)".to_string(),
        }
    }
}

/// The command a drop runs, or why nothing runs (said to the learner, not an error).
pub fn command_for(pod: &PodRef, target: &DropTarget) -> Result<String, String> {
    let namespace = if pod.namespace == "default" { String::new() } else { format!(" -n {}", pod.namespace) };
    match (target, pod.node.as_deref()) {
        (DropTarget::Bin, _) => Ok(format!("kubectl delete pod {}{namespace}", pod.name)),
        (DropTarget::Node(node), None) => Ok(format!("lab pod bind {} {node}{namespace}", pod.name)),
        (DropTarget::Node(node), Some(on)) if node == on => Err(format!("{} already runs on {on}.", pod.name)),
        (DropTarget::Node(_), Some(on)) => Err(format!(
            "A pod never moves: {} stays on {on} until it is deleted. Drop it on the bin instead; its \
             controller, if it has one, creates a replacement that the scheduler places.",
            pod.name
        )),
    }
}

/// The label that puts a node in a zone (well-known, read by topology spreading).
pub const ZONE_LABEL: &str = "topology.kubernetes.io/zone";

/// Where a node can be dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeDrop {
    /// A zone's lane: the node is relabelled into it.
    Zone(String),
    /// The bin: the machine leaves the cluster.
    Bin,
}

/// The command a node's drop runs, or why nothing runs.
pub fn node_drop_command(node: &str, zone: Option<&str>, target: &NodeDrop) -> Result<String, String> {
    match target {
        NodeDrop::Bin => Ok(format!("lab node remove {node}")),
        NodeDrop::Zone(to) if zone == Some(to.as_str()) => Err(format!("{node} is in {to} already.")),
        NodeDrop::Zone(to) => Ok(format!("kubectl label node {node} {ZONE_LABEL}={to} --overwrite")),
    }
}

/// A node menu's entries: label and command, in the order shown.
pub fn node_actions(node: &str, schedulable: bool, powered_off: bool) -> Vec<(&'static str, String)> {
    let mut actions = Vec::new();
    if schedulable {
        actions.push(("Cordon", format!("kubectl cordon {node}")));
    } else {
        actions.push(("Uncordon", format!("kubectl uncordon {node}")));
    }
    actions.push(("Drain", format!("kubectl drain {node} --ignore-daemonsets --delete-emptydir-data")));
    if powered_off {
        actions.push(("Power on", format!("lab node power-on {node}")));
    } else {
        actions.push(("Power off", format!("lab node power-off {node}")));
    }
    actions
}

/// The palette's machines: label, name prefix, and the `lab node add` flags.
pub const MACHINES: &[(&str, &str, &str)] = &[
    ("CPU node", "node", ""),
    ("8 × A100 40GB", "a100", " --gpu A100-SXM4-40GBx8 --mig-strategy mixed --cpu 128 --memory 1Ti"),
    ("8 × H100 80GB", "h100", " --gpu H100-SXM5-80GBx8 --mig-strategy mixed --cpu 192 --memory 2Ti"),
    ("8 × H200 141GB", "h200", " --gpu H200-SXM5-141GBx8 --mig-strategy mixed --cpu 192 --memory 2Ti"),
    ("1 × L4", "l4", " --gpu L4 --cpu 16 --memory 64Gi"),
];

/// `lab node add` for palette entry `kind`, named with the first free `<prefix>-N`.
pub fn add_machine_command(kind: usize, existing: &[String]) -> Option<String> {
    let (_, prefix, flags) = MACHINES.get(kind)?;
    let name = (1..).map(|n| format!("{prefix}-{n}")).find(|n| !existing.contains(n))?;
    Some(format!("lab node add {name}{flags}"))
}

/// A profile dropped on slot `start` of GPU `gpu` of `node`: the command, or the geometry's rule.
pub fn mig_drop_command(
    node: &str,
    gpu: u32,
    profile: &str,
    start: u8,
    refusal: Option<&str>,
) -> Result<String, String> {
    match refusal {
        Some(rule) => Err(format!("{profile} cannot go at slot {start} of GPU {gpu}: {rule}.")),
        None => Ok(format!("lab node exec {node} -- nvidia-smi mig -i {gpu} -cgi {profile}:{start} -C")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::LiveLab;
    use crate::lab::lab_session::LabSession;

    fn pod(namespace: &str, node: Option<&str>) -> PodRef {
        PodRef { namespace: namespace.into(), name: "web".into(), node: node.map(str::to_string) }
    }

    #[test]
    fn palette_and_mig_drops_are_commands_too() {
        let existing = vec!["h100-1".to_string()];
        assert_eq!(
            add_machine_command(2, &existing).as_deref(),
            Some("lab node add h100-2 --gpu H100-SXM5-80GBx8 --mig-strategy mixed --cpu 192 --memory 2Ti")
        );
        assert_eq!(add_machine_command(0, &[]).as_deref(), Some("lab node add node-1"));
        assert_eq!(
            mig_drop_command("h100-1", 0, "3g.40gb", 4, None),
            Ok("lab node exec h100-1 -- nvidia-smi mig -i 0 -cgi 3g.40gb:4 -C".into())
        );
        let refused =
            mig_drop_command("h100-1", 0, "3g.40gb", 2, Some("3g.40gb may start only at memory slice 0 or 4, not 2"));
        assert_eq!(
            refused.unwrap_err(),
            "3g.40gb cannot go at slot 2 of GPU 0: 3g.40gb may start only at memory slice 0 or 4, not 2."
        );
    }

    #[test]
    fn drops_become_the_commands_the_terminal_would_run() {
        let node = DropTarget::Node("node-2".into());
        assert_eq!(command_for(&pod("default", None), &node), Ok("lab pod bind web node-2".into()));
        assert_eq!(command_for(&pod("shop", None), &node), Ok("lab pod bind web node-2 -n shop".into()));
        assert_eq!(command_for(&pod("default", Some("node-1")), &DropTarget::Bin), Ok("kubectl delete pod web".into()));
        assert!(command_for(&pod("default", Some("node-1")), &node).unwrap_err().contains("never moves"));
        assert!(command_for(&pod("default", Some("node-2")), &node).unwrap_err().contains("already runs"));
    }

    #[test]
    fn a_node_dropped_on_a_zone_is_relabelled_and_on_the_bin_removed() {
        let zone_b = NodeDrop::Zone("zone-b".into());
        assert_eq!(
            node_drop_command("node-1", Some("zone-a"), &zone_b),
            Ok("kubectl label node node-1 topology.kubernetes.io/zone=zone-b --overwrite".into())
        );
        assert_eq!(node_drop_command("node-1", Some("zone-b"), &zone_b), Err("node-1 is in zone-b already.".into()));
        assert_eq!(node_drop_command("node-1", None, &NodeDrop::Bin), Ok("lab node remove node-1".into()));
        let mut session = LabSession::sandbox();
        for command in [
            node_drop_command("node-1", Some("zone-a"), &zone_b).unwrap(),
            node_drop_command("node-2", None, &NodeDrop::Bin).unwrap(),
        ] {
            let entries = session.run(&command);
            assert!(entries.iter().all(|e| e.succeeded), "{command}: {entries:?}");
        }
        assert_eq!(session.node_names(), ["control-plane", "node-1", "node-3"]);
    }

    #[test]
    fn every_node_action_runs() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment web --image=hello:v1 --replicas=3\nsleep 30s");
        for (schedulable, powered_off) in [(true, false), (false, true)] {
            for (label, command) in node_actions("node-1", schedulable, powered_off) {
                let entries = session.run(&command);
                assert!(entries.iter().all(|e| e.succeeded), "{label}: {entries:?}");
            }
        }
    }
}
