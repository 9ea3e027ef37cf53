//! Why a pod is where it is, or still Pending: the scheduler's last decision for it, node by
//! node (the filter plugin that refused a node and its reason, or the node's weighted score and
//! each score plugin's part), then the outcome, as plain data.

use crate::scheduler::decision::Outcome;
use crate::sim::Sim;

/// The scheduler's last look at one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodScheduling {
    /// Which try this was (1 for the first).
    pub attempt: u32,
    /// Every node it evaluated: the refused ones in the order visited, then the feasible ones.
    pub nodes: Vec<NodeFit>,
    pub outcome: SchedulingOutcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeFit {
    pub node: String,
    pub fit: Fit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fit {
    /// A filter plugin refused the node (`NodeAffinity`: "node(s) didn't match …").
    Refused { plugin: String, reason: String },
    /// The node passed every filter; its total score and each plugin's `(name, weight, score)`
    /// when the scheduler scored (a lone feasible node is not scored).
    Fits { total: Option<i64>, plugins: Vec<(String, i64, i64)> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchedulingOutcome {
    Bound {
        node: String,
    },
    Nominated {
        node: String,
        victims: Vec<String>,
    },
    /// The FailedScheduling message (`0/3 nodes are available: …`).
    Unschedulable {
        message: String,
    },
    /// It holds the node and waits at Permit for the rest of its gang.
    Waiting {
        node: String,
    },
}

/// The scheduler's last decision for the pod; `None` when it never looked at it (bound by hand,
/// or another scheduler's).
pub fn pod_scheduling(sim: &Sim, namespace: &str, name: &str) -> Option<PodScheduling> {
    let decision = sim.controllers().scheduler.decision(namespace, name)?;
    let nodes = decision
        .nodes
        .iter()
        .map(|verdict| {
            let fit = match (decision.rejection(verdict), verdict.scores) {
                (Some(status), _) => Fit::Refused { plugin: status.plugin.to_string(), reason: status.message() },
                (None, scores) => Fit::Fits {
                    total: scores.map(|s| i64::from(s.total)),
                    plugins: scores
                        .iter()
                        .flat_map(|s| {
                            s.by_plugin(&decision.score_weights)
                                .map(|(p, w, v)| (p.to_string(), w, v))
                                .collect::<Vec<_>>()
                        })
                        .collect(),
                },
            };
            NodeFit { node: decision.node_name(verdict).to_string(), fit }
        })
        .collect();
    let outcome = match &decision.outcome {
        Outcome::Bound { node } => SchedulingOutcome::Bound { node: node.clone() },
        Outcome::Nominated { node, victims } => {
            SchedulingOutcome::Nominated { node: node.clone(), victims: victims.clone() }
        }
        Outcome::Unschedulable { message } => SchedulingOutcome::Unschedulable { message: message.clone() },
        Outcome::Waiting { node } => SchedulingOutcome::Waiting { node: node.clone() },
    };
    Some(PodScheduling { attempt: decision.attempt, nodes, outcome })
}

impl PodScheduling {
    /// One line per evaluated node, then the outcome.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .nodes
            .iter()
            .map(|n| match &n.fit {
                Fit::Refused { plugin, reason } => format!("{}: refused by {plugin}: {reason}", n.node),
                Fit::Fits { total: Some(total), .. } => format!("{}: fits, score {total}", n.node),
                Fit::Fits { total: None, .. } => format!("{}: fits", n.node),
            })
            .collect();
        lines.push(match &self.outcome {
            SchedulingOutcome::Bound { node } => format!("→ bound to {node} (attempt {})", self.attempt),
            SchedulingOutcome::Nominated { node, victims } => {
                format!("→ nominated {node}, preempting {}", victims.join(", "))
            }
            SchedulingOutcome::Unschedulable { message } => format!("→ {message}"),
            SchedulingOutcome::Waiting { node } => format!("→ holds {node}, waiting at Permit for its gang"),
        });
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::lab;

    #[test]
    fn a_pending_pod_says_why_node_by_node() {
        let sim = lab(
            "kubectl create deployment picky --image=nginx --replicas=0\nkubectl patch deployment picky -p '{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"disk\":\"ssd\"}}}}}'\nkubectl scale deployment picky --replicas=1\nsleep 5s\n",
        );
        let pod = sim.store().list::<crate::api::Pod>(None).next().unwrap().metadata.name.clone();
        let lines = pod_scheduling(&sim, "default", &pod).unwrap().lines();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(lines[0], "node-1: refused by NodeAffinity: node(s) didn't match Pod's node affinity/selector");
        assert!(lines[3].starts_with("→ 0/3 nodes are available"), "{lines:?}");
    }

    #[test]
    fn a_bound_pod_shows_each_nodes_score() {
        let sim = lab("kubectl create deployment web --image=nginx --replicas=1\nsleep 1s\n");
        let pod = sim.store().list::<crate::api::Pod>(None).next().unwrap().metadata.name.clone();
        let scheduling = pod_scheduling(&sim, "default", &pod).unwrap();
        assert_eq!(scheduling.nodes.len(), 3);
        let Fit::Fits { total: Some(_), plugins } = &scheduling.nodes[0].fit else { panic!("{scheduling:?}") };
        assert!(plugins.iter().any(|(name, _, _)| name == "NodeResourcesFit"), "{plugins:?}");
        assert!(matches!(scheduling.outcome, SchedulingOutcome::Bound { .. }));
    }
}
