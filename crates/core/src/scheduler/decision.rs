//! Why a pod went where it went: each evaluated node's filter verdict and per-plugin scores, kept
//! for the last attempt of recent pods so a UI can explain the scheduler. (Upstream logs this at
//! high verbosity; here it is data.)

use crate::api::meta::Uid;
use crate::scheduler::framework::registry::SCORE_PLUGINS;
use crate::scheduler::framework::status::Status;
use crate::scheduler::plugins::DEFAULT_PROFILE;
use crate::sim::time::SimTime;

/// A node's normalised scores (0–100, before weights), in the profile's score order, and the
/// weighted total the host was chosen by (at most 100 × the sum of the weights). Kept small:
/// a decision holds one per feasible node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeScores {
    pub plugin_scores: [u8; SCORE_PLUGINS],
    pub total: i32,
}

impl NodeScores {
    /// `(plugin, weight, score)` for each score plugin, with the weights its decision scored
    /// with (`Decision::score_weights`).
    pub fn by_plugin<'a>(
        &'a self,
        weights: &'a [i64; SCORE_PLUGINS],
    ) -> impl Iterator<Item = (&'static str, i64, i64)> + 'a {
        DEFAULT_PROFILE
            .score_weights()
            .zip(weights)
            .zip(self.plugin_scores)
            .map(|(((name, _), weight), score)| (name, *weight, i64::from(score)))
    }
}

pub use crate::scheduler::framework::types::NodeNames;

/// One evaluated node: refused by a filter, or feasible (with scores when scoring ran).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeVerdict {
    /// Its position in the decision's `node_names`.
    pub node: u32,
    /// Its rejection's position in the decision's `rejections`.
    pub rejected: Option<u32>,
    pub scores: Option<NodeScores>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Bound {
        node: String,
    },
    /// Preemption made room: victims are being deleted, the pod waits for the node.
    Nominated {
        node: String,
        victims: Vec<String>,
    },
    Unschedulable {
        message: String,
    },
    /// It holds the node and waits at Permit (a gang not yet whole).
    Waiting {
        node: String,
    },
}

/// The last scheduling attempt for a pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub pod_uid: Uid,
    pub at: SimTime,
    pub attempt: u32,
    pub num_all_nodes: usize,
    /// The nodes' names at the time; verdicts refer to them by position.
    pub node_names: NodeNames,
    /// Evaluated nodes: the rejected ones in visiting order, then the feasible ones (sampling
    /// may stop before every node was visited).
    pub nodes: Vec<NodeVerdict>,
    /// The filters' rejections; rejected nodes refused alike share one.
    pub rejections: Vec<Status>,
    /// The weights the profile scored with, in score-plugin order.
    pub score_weights: [i64; SCORE_PLUGINS],
    pub outcome: Outcome,
}

impl Decision {
    /// The name of the node a verdict is about.
    pub fn node_name(&self, verdict: &NodeVerdict) -> &str {
        self.node_names.get(verdict.node as usize).map_or("", |name| name)
    }

    /// Why a node was refused, when it was.
    pub fn rejection(&self, verdict: &NodeVerdict) -> Option<&Status> {
        self.rejections.get(verdict.rejected? as usize)
    }
}
