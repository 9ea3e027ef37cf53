//! The autoscaling chart's data: every HorizontalPodAutoscaler's decisions over virtual time —
//! current and desired replicas, the utilisation it measured against its target — each with the
//! formula `ceil(current × usage / target)` filled in, so a learner sees why the count moved.
//! It keeps its own history through an informer (the watch log is bounded and forgets); `Sim`
//! records it at the end of every instant, with the lifecycle chart.

use crate::api::horizontal_pod_autoscaler::{HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus};
use crate::api::meta::Uid;
use crate::api::{HorizontalPodAutoscaler, Kind};
use crate::controllers::horizontal_pod_autoscaler::replica_calculator::is_within_tolerance;
use crate::runtime::informer::{Changes, Informer};
use crate::sim::time::SimTime;
use crate::store::Store;
use crate::store::watch::WatchEventType;

/// Autoscalers charted; past it the oldest deleted one's line makes room.
pub const MAX_LINES: usize = 16;
/// Decisions kept per autoscaler; the oldest go first.
pub const MAX_SAMPLES: usize = 240;

/// One status the autoscaler wrote: what it saw and what it chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub at: SimTime,
    pub current: i32,
    pub desired: i32,
    /// The first metric's average utilisation in percent; `None` while it has no metrics
    /// (`<unknown>` in `kubectl get hpa`).
    pub utilization: Option<i32>,
    /// How the decision follows from the numbers, e.g. `ceil(3 × 170% / 50%) = ceil(10.2) = 11 → 10
    /// (maxReplicas)`.
    pub formula: String,
}

/// One autoscaler's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoscalerLine {
    uid: Uid,
    pub namespace: String,
    pub name: String,
    /// `Deployment/hello`.
    pub target: String,
    pub min_replicas: i32,
    pub max_replicas: i32,
    /// The first metric's target utilisation in percent, when it is a utilisation target.
    pub target_utilization: Option<i32>,
    pub created: SimTime,
    pub gone: Option<SimTime>,
    pub samples: Vec<Sample>,
}

/// What the chart draws: every autoscaler charted, and the time now (where its lines end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AutoscalingView {
    pub now: SimTime,
    pub lines: Vec<AutoscalerLine>,
}

#[derive(Clone, Debug, Default)]
pub struct AutoscalerHistory {
    informer: Informer,
    lines: Vec<AutoscalerLine>,
}

impl AutoscalerHistory {
    /// Catches up with the store's writes since the last call.
    pub fn record(&mut self, store: &Store) {
        let now = store.now();
        let writes: Vec<(Uid, String, String, bool)> = match self.informer.poll(store) {
            Changes::Events(events) => events
                .filter(|e| e.kind == Kind::HorizontalPodAutoscaler)
                .map(|e| (e.uid, e.namespace.clone(), e.name.clone(), e.type_ == WatchEventType::Deleted))
                .collect(),
            Changes::Relist => self.relist_writes(store),
        };
        for (uid, namespace, name, deleted) in writes {
            if deleted {
                self.end(uid, now);
            } else if let Some(hpa) = store.try_get::<HorizontalPodAutoscaler>(&namespace, &name)
                && hpa.metadata.uid == uid
            {
                self.observe(hpa, now);
            }
        }
    }

    /// After the log forgot past this reader: every autoscaler there is observed again, and a
    /// line whose autoscaler is gone ends.
    fn relist_writes(&self, store: &Store) -> Vec<(Uid, String, String, bool)> {
        let live: Vec<(Uid, String, String, bool)> = store
            .list::<HorizontalPodAutoscaler>(None)
            .map(|h| (h.metadata.uid, h.metadata.namespace.clone(), h.metadata.name.clone(), false))
            .collect();
        let gone = self.lines.iter().filter(|l| l.gone.is_none() && !live.iter().any(|(uid, ..)| *uid == l.uid));
        let gone: Vec<_> = gone.map(|l| (l.uid, l.namespace.clone(), l.name.clone(), true)).collect();
        gone.into_iter().chain(live).collect()
    }

    /// Every autoscaler charted, oldest first.
    pub fn lines(&self) -> &[AutoscalerLine] {
        &self.lines
    }

    fn observe(&mut self, hpa: &HorizontalPodAutoscaler, now: SimTime) {
        let index = match self.lines.iter().position(|l| l.uid == hpa.metadata.uid) {
            Some(index) => index,
            None => {
                if !self.make_room() {
                    return;
                }
                self.lines.push(new_line(hpa, now));
                self.lines.len() - 1
            }
        };
        let line = &mut self.lines[index];
        line.min_replicas = hpa.spec.min_replicas.unwrap_or(1);
        line.max_replicas = hpa.spec.max_replicas;
        line.target_utilization = hpa.spec.metrics.first().and_then(target_utilization);
        let status = &hpa.status;
        if status.observed_generation.is_none() && status.current_metrics.is_empty() && status.desired_replicas == 0 {
            return; // not yet looked at by the controller
        }
        let sample = sample(status, line.target_utilization, now);
        let changed = line.samples.last().is_none_or(|last| {
            (last.current, last.desired, last.utilization) != (sample.current, sample.desired, sample.utilization)
        });
        if changed {
            if line.samples.len() == MAX_SAMPLES {
                line.samples.remove(0);
            }
            line.samples.push(sample);
        }
    }

    fn end(&mut self, uid: Uid, now: SimTime) {
        if let Some(line) = self.lines.iter_mut().find(|l| l.uid == uid && l.gone.is_none()) {
            line.gone = Some(now);
        }
    }

    /// Drops the oldest ended line when full; false when every line is live.
    fn make_room(&mut self) -> bool {
        if self.lines.len() < MAX_LINES {
            return true;
        }
        match self.lines.iter().position(|l| l.gone.is_some()) {
            Some(index) => {
                self.lines.remove(index);
                true
            }
            None => false,
        }
    }
}

fn new_line(hpa: &HorizontalPodAutoscaler, now: SimTime) -> AutoscalerLine {
    let target = &hpa.spec.scale_target_ref;
    AutoscalerLine {
        uid: hpa.metadata.uid,
        namespace: hpa.metadata.namespace.clone(),
        name: hpa.metadata.name.clone(),
        target: format!("{}/{}", target.kind, target.name),
        min_replicas: 1,
        max_replicas: 1,
        target_utilization: None,
        created: now,
        gone: None,
        samples: Vec::new(),
    }
}

fn target_utilization(metric: &MetricSpec) -> Option<i32> {
    let target = match (&metric.resource, &metric.container_resource) {
        (Some(resource), _) => &resource.target,
        (None, Some(container)) => &container.target,
        (None, None) => return None,
    };
    target.average_utilization
}

fn current_utilization(metric: &MetricStatus) -> Option<i32> {
    let current = match (&metric.resource, &metric.container_resource) {
        (Some(resource), _) => &resource.current,
        (None, Some(container)) => &container.current,
        (None, None) => return None,
    };
    current.average_utilization
}

fn sample(status: &HorizontalPodAutoscalerStatus, target: Option<i32>, now: SimTime) -> Sample {
    let utilization = status.current_metrics.first().and_then(current_utilization);
    let (current, desired) = (status.current_replicas, status.desired_replicas);
    Sample { at: now, current, desired, utilization, formula: formula(current, desired, utilization, target, status) }
}

/// The replica calculator's step (replica_calculator.go `GetResourceReplicas`) with the
/// numbers the status shows, then why the count written differs from it, if it does.
pub fn formula(
    current: i32,
    desired: i32,
    utilization: Option<i32>,
    target: Option<i32>,
    status: &HorizontalPodAutoscalerStatus,
) -> String {
    let (Some(usage), Some(target)) = (utilization, target.filter(|t| *t > 0)) else {
        return format!("no metrics: keep {current}");
    };
    if current == 0 {
        return "scaling is disabled at 0 replicas".into();
    }
    let ratio = f64::from(usage) / f64::from(target);
    if is_within_tolerance(ratio) {
        let text = format!("{usage}% / {target}% = {ratio:.2}, within the 10% tolerance: keep {current}");
        return with_limit(text, current, desired, status);
    }
    let exact = f64::from(current) * ratio;
    let raw = exact.ceil() as i32;
    with_limit(format!("ceil({current} × {usage}% / {target}%) = ceil({exact:.2}) = {raw}"), raw, desired, status)
}

/// Appends `→ desired (why)` when the count written is not the one computed: a bound or a rate
/// limit when it is lower (ScalingLimited's reasons), the stabilization window or a bound when
/// it is higher (AbleToScale's and ScalingLimited's), as the status's conditions say.
fn with_limit(text: String, computed: i32, desired: i32, status: &HorizontalPodAutoscalerStatus) -> String {
    if computed == desired {
        return text;
    }
    let reasons: &[(&str, &str)] = if desired < computed {
        &[("TooManyReplicas", "maxReplicas"), ("ScaleUpLimit", "the scale-up rate limit")]
    } else {
        &[
            ("TooFewReplicas", "minReplicas"),
            ("ScaleDownStabilized", "held by the scale-down stabilization window"),
            ("ScaleDownLimit", "the scale-down rate limit"),
        ]
    };
    let holds =
        |reason: &str| status.conditions.iter().any(|c| c.status == "True" && c.reason.as_deref() == Some(reason));
    match reasons.iter().find(|(reason, _)| holds(reason)) {
        Some((_, why)) => format!("{text} → {desired} ({why})"),
        None => format!("{text} → {desired}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::horizontal_pod_autoscaler::HorizontalPodAutoscalerCondition;

    fn limited(reason: &str) -> HorizontalPodAutoscalerStatus {
        let condition = HorizontalPodAutoscalerCondition {
            type_: "ScalingLimited".into(),
            status: "True".into(),
            reason: Some(reason.into()),
            ..Default::default()
        };
        HorizontalPodAutoscalerStatus { conditions: vec![condition], ..Default::default() }
    }

    #[test]
    fn the_formula_is_filled_in_with_the_status_numbers() {
        let plain = HorizontalPodAutoscalerStatus::default();
        let rows = [
            formula(3, 6, Some(100), Some(50), &plain),
            formula(3, 10, Some(170), Some(50), &limited("TooManyReplicas")),
            formula(4, 4, Some(52), Some(50), &plain),
            formula(2, 1, Some(10), Some(50), &limited("TooFewReplicas")),
            formula(3, 3, None, Some(50), &plain),
        ];
        assert_eq!(
            rows.join("\n"),
            "ceil(3 × 100% / 50%) = ceil(6.00) = 6
ceil(3 × 170% / 50%) = ceil(10.20) = 11 → 10 (maxReplicas)
52% / 50% = 1.04, within the 10% tolerance: keep 4
ceil(2 × 10% / 50%) = ceil(0.40) = 1
no metrics: keep 3"
        );
    }
}

#[cfg(test)]
mod history_tests {
    use crate::kubectl::files::MemoryFiles;
    use crate::script;
    use crate::sim::Sim;

    /// `seconds current→desired utilisation | formula`, one decision per line.
    fn decisions(lines: &str) -> String {
        let mut sim = Sim::default();
        let transcript = script::run(&mut sim, &script::parse(lines).unwrap(), &MemoryFiles::new(), true);
        assert_eq!(transcript.exit_code, 0, "{}", transcript.text);
        let view = sim.autoscaling();
        let line = &view.lines[0];
        let rows = line.samples.iter().map(|s| {
            let usage = s.utilization.map_or("<unknown>".into(), |u| format!("{u}%"));
            format!("{:>4}s {}→{} {usage} | {}", s.at.since(line.created).as_secs(), s.current, s.desired, s.formula)
        });
        rows.collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn load_raises_the_replicas_one_decision_at_a_time() {
        let text = decisions(
            "kubectl apply -f - <<YAML\n\
             apiVersion: apps/v1\n\
             kind: Deployment\n\
             metadata: {name: hello}\n\
             spec:\n  replicas: 2\n  selector: {matchLabels: {app: hello}}\n  template:\n    \
             metadata: {labels: {app: hello}}\n    spec:\n      containers:\n      \
             - {name: hello, image: 'hello:v1', resources: {requests: {cpu: 100m}}}\n\
             YAML\n\
             sleep 1m\n\
             kubectl autoscale deploy/hello --cpu-percent=50 --min=2 --max=6\n\
             sleep 30s\n\
             lab load deploy/hello --rps 200\n\
             sleep 2m",
        );
        // Without `behavior` the controller scales as upstream's normalizeDesiredReplicas does: at
        // most to max(2 × current, 4) per decision, and down no lower than the last five minutes'
        // highest recommendation.
        assert_eq!(
            text,
            "  15s 2→2 5% | ceil(2 × 5% / 50%) = ceil(0.20) = 1 → 2 (held by the scale-down stabilization window)
  45s 2→4 205% | ceil(2 × 205% / 50%) = ceil(8.20) = 9 → 4 (the scale-up rate limit)
  60s 4→6 105% | ceil(4 × 105% / 50%) = ceil(8.40) = 9 → 6 (maxReplicas)
  75s 6→6 71% | ceil(6 × 71% / 50%) = ceil(8.52) = 9 → 6 (maxReplicas)"
        );
    }
}
