//! What one scheduling attempt computes once and every filter and score reads: the pod's
//! requests, the room nominated pods have reserved, and what each plugin's PreFilter kept
//! (`states`, each under its own type).
//! Mirrors pkg/scheduler/framework/cycle_state.go and the plugins' PreFilter states.

use crate::api::Pod;
use crate::scheduler::framework::cache::Cache;
use crate::scheduler::framework::plugin_states::PluginStates;
use crate::scheduler::framework::types::{PodKey, PodRequests, Resource, SCORE_PLUGINS, normalized_image_name};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A pod nominated to a node by preemption, waiting for its victims to go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nomination {
    pub node: String,
    pub priority: i32,
    pub requests: Resource,
}

#[derive(Debug)]
pub struct CycleState<'a> {
    pub pod: &'a Pod,
    pub requests: PodRequests,
    pub priority: i32,
    /// What the profile's PreFilter plugins kept for their filters (`Profile::cycle_state`).
    pub states: PluginStates,
    /// Per container image: its id when some node has it, and on how many nodes.
    pub images: Vec<(Option<u32>, u32)>,
    /// Per node, what nominated pods of at least this pod's priority have reserved.
    nominated: BTreeMap<Arc<str>, (Resource, usize)>,
    /// A PreFilter plugin found the pod unschedulable anywhere (upstream's PreFilter status):
    /// no node is filtered, and the message says why.
    pub pre_filter_rejection: Option<crate::scheduler::framework::status::Status>,
    /// A plugin failed (upstream's Error status, e.g. a CEL runtime error in a selector): the
    /// attempt is abandoned with this message, no node judged.
    pub scheduler_error: Option<String>,
    /// The profile's NodeResourcesFit scoring strategy; None is upstream's default.
    pub scoring: Option<Arc<crate::scheduler::framework::scoring_strategy::ScoringStrategy>>,
    /// The profile's score weights when its file changed them (0: the plugin is disabled);
    /// None is the registry profile's own.
    pub score_weights: Option<[i64; SCORE_PLUGINS]>,
}

impl<'a> CycleState<'a> {
    /// The attempt's state before PreFilter (see `Profile::cycle_state`).
    pub fn new(cache: &Cache, nominations: &BTreeMap<PodKey, Nomination>, pod: &'a Pod) -> Self {
        let priority = pod.spec.priority.unwrap_or(0);
        let images = pod
            .spec
            .init_containers
            .iter()
            .chain(pod.spec.containers.iter())
            .filter_map(|c| c.image.as_deref())
            .map(|image| {
                let id = cache.image_id(&normalized_image_name(image));
                (id, id.map_or(0, |id| cache.image_spread(id)))
            })
            .collect();
        let mut nominated: BTreeMap<Arc<str>, (Resource, usize)> = BTreeMap::new();
        for ((ns, name), n) in nominations {
            let own = *ns == pod.metadata.namespace && *name == pod.metadata.name;
            if own || n.priority < priority {
                continue;
            }
            let entry = nominated.entry(Arc::from(n.node.as_str())).or_default();
            entry.0.add(&n.requests);
            entry.1 += 1;
        }
        CycleState {
            pod,
            requests: PodRequests::of(pod),
            priority,
            states: PluginStates::default(),
            images,
            nominated,
            pre_filter_rejection: None,
            scheduler_error: None,
            scoring: None,
            score_weights: None,
        }
    }

    pub fn nominated_on(&self, node: &str) -> Option<&(Resource, usize)> {
        if self.nominated.is_empty() { None } else { self.nominated.get(node) }
    }
}
