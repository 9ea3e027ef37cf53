//! A profile as data: for each extension point, the plugins that implement it in the order they
//! run, with each score plugin's weight (upstream's `config.Plugins` of a
//! `KubeSchedulerProfile`, filled from the in-tree registry by `default_plugins.go`). The cycle
//! runs what the profile lists and nothing else, and the per-node verdicts the UI shows name the
//! profile's plugins. A new plugin is its file in `plugins/` and its entries in the profile.

use super::cache::Cache;
use super::cluster_event::ClusterEvent;
use super::cycle_state::{CycleState, Nomination};
use super::node_fit::NodeFit;
use super::plugin_states::PluginStates;
use super::status::Status;
use super::types::{NodeInfo, PodKey};
use super::waiting_pods::WaitingPods;
use crate::api::Pod;
use crate::error::ApiError;
use crate::sim::time::Duration;
use crate::store::Store;
use std::collections::BTreeMap;

/// PreFilter: what the plugin's filter needs of the pod and the cluster, computed once per
/// attempt into the cycle state.
pub type PreFilterFn = fn(&mut CycleState<'_>, &Store, &Cache);
/// Filter: may the pod run on this node? The first refusal decides.
pub type FilterFn = fn(&CycleState<'_>, &NodeInfo, &NodeFit) -> Result<(), Status>;
/// PreScore: what scoring every feasible node needs, computed once into the score context.
pub type PreScoreFn = fn(&mut ScoreContext<'_>, &Store, &Cache, &[usize]);
/// Score: how well the node suits the pod, on the plugin's own scale before normalizing.
pub type ScoreFn = fn(&ScoreContext<'_>, &NodeInfo, &NodeFit) -> i64;
/// NormalizeScore: one plugin's scores of every feasible node, mapped onto 0–100.
pub type NormalizeFn = fn(&mut [i64]);
/// Reserve: claims what the chosen node gives the pod (devices, volumes) before it is bound.
pub type ReserveFn = fn(&mut Store, &CycleState<'_>, &str) -> Result<(), Status>;
/// Unreserve: gives back what Reserve claimed when a later step fails.
pub type UnreserveFn = fn(&mut Store, &CycleState<'_>, &str);
/// Permit: lets binding go on, makes it wait (a gang not yet whole), or refuses it; it sees
/// the pods already waiting (upstream's `IterateOverWaitingPods`).
pub type PermitFn = fn(&Store, &CycleState<'_>, &str, &WaitingPods) -> Permit;
/// Bind: writes the pod's binding to the node.
pub type BindFn = fn(&mut Store, &Pod, &str) -> Result<Pod, ApiError>;

/// A Permit plugin's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Permit {
    Allow,
    /// Wait at most this long; the plugin that asked.
    Wait(Duration, &'static str),
    Reject(Status),
}

pub struct PreFilterPlugin {
    pub name: &'static str,
    pub pre_filter: PreFilterFn,
}

pub struct FilterPlugin {
    pub name: &'static str,
    pub filter: FilterFn,
    /// Upstream `EventsToRegister`: which cluster events may make a pod this plugin rejected
    /// schedulable (the queue moves it back only for those).
    pub requeue_on: fn(ClusterEvent) -> bool,
}

pub struct PreScorePlugin {
    pub name: &'static str,
    pub pre_score: PreScoreFn,
}

pub struct ScorePlugin {
    pub name: &'static str,
    pub weight: i64,
    /// Whether the plugin scores this pod at all (its PreScore's `Skip`): a plugin that does
    /// not gives every node 0 and is not normalized.
    pub applies: fn(&ScoreContext<'_>) -> bool,
    pub score: ScoreFn,
    pub normalize: Option<NormalizeFn>,
}

pub struct ReservePlugin {
    pub name: &'static str,
    pub reserve: ReserveFn,
    pub unreserve: UnreserveFn,
}

pub struct PermitPlugin {
    pub name: &'static str,
    pub permit: PermitFn,
}

pub struct BindPlugin {
    pub name: &'static str,
    pub bind: BindFn,
}

pub use super::types::SCORE_PLUGINS;

pub struct Profile {
    /// The `schedulerName` pods ask for.
    pub scheduler_name: &'static str,
    pub pre_filter: &'static [PreFilterPlugin],
    pub filter: &'static [FilterPlugin],
    /// PostFilter (preemption) runs when no node passed the filters; named here, run by the
    /// scheduler with what it needs (`plugins::default_preemption`).
    pub post_filter: &'static [&'static str],
    pub pre_score: &'static [PreScorePlugin],
    pub score: [ScorePlugin; SCORE_PLUGINS],
    pub reserve: &'static [ReservePlugin],
    pub permit: &'static [PermitPlugin],
    pub bind: &'static [BindPlugin],
}

impl Profile {
    /// One attempt's cycle state for `pod`, with every PreFilter plugin's state in it.
    pub fn cycle_state<'a>(
        &self,
        store: &Store,
        cache: &Cache,
        nominations: &BTreeMap<PodKey, Nomination>,
        pod: &'a Pod,
    ) -> CycleState<'a> {
        let mut state = CycleState::new(cache, nominations, pod);
        for plugin in self.pre_filter {
            (plugin.pre_filter)(&mut state, store, cache);
        }
        state
    }

    /// Whether `event` may help a pod that the filter plugin `plugin` rejected (a plugin the
    /// profile does not know: any event may).
    pub fn requeue_on(&self, plugin: &str, event: ClusterEvent) -> bool {
        self.filter.iter().find(|p| p.name == plugin).is_none_or(|p| (p.requeue_on)(event))
    }

    /// Every filter in order; the first refusal wins. Inlined, so that for a constant profile
    /// the compiler sees each filter and calls it directly (this loop runs per pod per node).
    #[inline(always)]
    pub fn run_filters(&self, state: &CycleState<'_>, node: &NodeInfo, fit: &NodeFit) -> Result<(), Status> {
        for plugin in self.filter {
            (plugin.filter)(state, node, fit)?;
        }
        Ok(())
    }

    /// Every PreScore plugin's state for scoring the feasible nodes.
    pub fn pre_score<'a>(
        &self,
        store: &Store,
        cache: &Cache,
        state: &'a CycleState<'a>,
        feasible: &[usize],
    ) -> ScoreContext<'a> {
        let mut context = ScoreContext::new(state, cache.node_count());
        for plugin in self.pre_score {
            (plugin.pre_score)(&mut context, store, cache, feasible);
        }
        context
    }

    /// Reserve on every plugin in order; on a failure, unreserve those that reserved (in reverse).
    pub fn run_reserve(&self, store: &mut Store, state: &CycleState<'_>, node: &str) -> Result<(), Status> {
        for (done, plugin) in self.reserve.iter().enumerate() {
            if let Err(status) = (plugin.reserve)(store, state, node) {
                self.run_unreserve(store, state, node, done);
                return Err(status);
            }
        }
        Ok(())
    }

    /// Unreserve the first `reserved` Reserve plugins, last first.
    pub fn run_unreserve(&self, store: &mut Store, state: &CycleState<'_>, node: &str, reserved: usize) {
        for plugin in self.reserve[..reserved].iter().rev() {
            (plugin.unreserve)(store, state, node);
        }
    }

    /// Permit on every plugin: any rejection wins, then the longest wait, else allow.
    pub fn run_permit(&self, store: &Store, state: &CycleState<'_>, node: &str, waiting: &WaitingPods) -> Permit {
        let mut verdict = Permit::Allow;
        for plugin in self.permit {
            match (plugin.permit)(store, state, node, waiting) {
                Permit::Reject(status) => return Permit::Reject(status),
                Permit::Wait(wait, by) => {
                    verdict = match verdict {
                        Permit::Wait(longest, first) if longest >= wait => Permit::Wait(longest, first),
                        _ => Permit::Wait(wait, by),
                    }
                }
                Permit::Allow => {}
            }
        }
        verdict
    }

    /// The first Bind plugin binds (upstream: the first that does not skip).
    pub fn run_bind(&self, store: &mut Store, pod: &Pod, node: &str) -> Result<Pod, ApiError> {
        match self.bind.first() {
            Some(plugin) => (plugin.bind)(store, pod, node),
            None => Err(ApiError::BadRequest { message: "the scheduler profile has no Bind plugin".into() }),
        }
    }

    /// `(plugin, weight)` of each score plugin, in the order their scores are kept.
    pub fn score_weights(&self) -> impl Iterator<Item = (&'static str, i64)> + '_ {
        self.score.iter().map(|p| (p.name, p.weight))
    }
}

/// What scoring one pod reads: its cycle state, the cluster's size and each PreScore plugin's
/// state (upstream keeps these in the CycleState under the plugin's key).
pub struct ScoreContext<'a> {
    pub state: &'a CycleState<'a>,
    pub total_nodes: usize,
    /// What the PreScore plugins kept for their scores, each under its own type.
    pub states: PluginStates,
}

impl<'a> ScoreContext<'a> {
    fn new(state: &'a CycleState<'a>, total_nodes: usize) -> ScoreContext<'a> {
        ScoreContext { state, total_nodes, states: PluginStates::default() }
    }
}

/// For a plugin that scores every pod.
pub fn always(_: &ScoreContext<'_>) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConfigMap, ObjectMeta};
    use crate::store::DeleteOptions;

    /// Reserve plugins that leave a mark (a ConfigMap named for the plugin) and take it away on
    /// Unreserve; the third refuses.
    fn mark(store: &mut Store, name: &str) -> Result<(), Status> {
        let claim = ConfigMap { metadata: ObjectMeta::named("default", name), ..Default::default() };
        store.create(claim).map(|_| ()).map_err(|_| Status::unschedulable("Test", "cannot mark"))
    }
    fn unmark(store: &mut Store, name: &str) {
        let _ = store.delete::<ConfigMap>("default", name, &DeleteOptions::default());
    }
    fn reserve_a(store: &mut Store, _: &CycleState<'_>, _: &str) -> Result<(), Status> {
        mark(store, "a")
    }
    fn unreserve_a(store: &mut Store, _: &CycleState<'_>, _: &str) {
        unmark(store, "a")
    }
    fn reserve_b(store: &mut Store, _: &CycleState<'_>, _: &str) -> Result<(), Status> {
        mark(store, "b")
    }
    fn unreserve_b(store: &mut Store, _: &CycleState<'_>, _: &str) {
        unmark(store, "b")
    }
    fn refuse(_: &mut Store, _: &CycleState<'_>, _: &str) -> Result<(), Status> {
        Err(Status::unschedulable("Refuse", "no devices left"))
    }
    fn wait_5s(_: &Store, _: &CycleState<'_>, _: &str, _: &WaitingPods) -> Permit {
        Permit::Wait(Duration::from_secs(5), "W5")
    }
    fn wait_9s(_: &Store, _: &CycleState<'_>, _: &str, _: &WaitingPods) -> Permit {
        Permit::Wait(Duration::from_secs(9), "W9")
    }

    fn zero(_: &ScoreContext<'_>, _: &NodeInfo, _: &NodeFit) -> i64 {
        0
    }
    const NO_SCORE: ScorePlugin =
        ScorePlugin { name: "Zero", weight: 1, applies: always, score: zero, normalize: None };

    static TEST: Profile = Profile {
        scheduler_name: "test",
        pre_filter: &[],
        filter: &[],
        post_filter: &[],
        pre_score: &[],
        score: [NO_SCORE, NO_SCORE, NO_SCORE, NO_SCORE, NO_SCORE, NO_SCORE, NO_SCORE],
        reserve: &[
            ReservePlugin { name: "A", reserve: reserve_a, unreserve: unreserve_a },
            ReservePlugin { name: "B", reserve: reserve_b, unreserve: unreserve_b },
            ReservePlugin { name: "Refuse", reserve: refuse, unreserve: unreserve_b },
        ],
        permit: &[PermitPlugin { name: "W5", permit: wait_5s }, PermitPlugin { name: "W9", permit: wait_9s }],
        bind: &[],
    };

    #[test]
    fn a_refused_reserve_gives_back_what_was_reserved_before_it() {
        let mut store = Store::new(1);
        let pod = crate::api::Pod::default();
        let cache = Cache::default();
        let state = TEST.cycle_state(&store, &cache, &Default::default(), &pod);
        let refused = TEST.run_reserve(&mut store, &state, "node-1").unwrap_err();
        assert_eq!(refused.plugin, "Refuse");
        assert!(
            store.try_get::<ConfigMap>("default", "a").is_none()
                && store.try_get::<ConfigMap>("default", "b").is_none(),
            "A and B were unreserved"
        );
        let waiting = WaitingPods::default();
        assert_eq!(TEST.run_permit(&store, &state, "node-1", &waiting), Permit::Wait(Duration::from_secs(9), "W9"));
        assert!(TEST.run_bind(&mut store, &pod, "node-1").is_err(), "a profile without Bind binds nothing");
    }
}
