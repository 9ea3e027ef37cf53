//! From a metric's proposal to the replica count to apply: stabilization windows, scale-up
//! limits, behavior policies and min/max clamping, each with the AbleToScale/ScalingLimited
//! reason upstream gives. Mirrors `normalizeDesiredReplicas`, `stabilizeRecommendation`,
//! `convertDesiredReplicasWithRules`, `normalizeDesiredReplicasWithBehaviors`,
//! `stabilizeRecommendationWithBehaviors`, `convertDesiredReplicasWithBehaviorRate` and the
//! `calculateScale{Up,Down}Limit*` functions of pkg/controller/podautoscaler/horizontal.go.

use crate::api::horizontal_pod_autoscaler::{HPAScalingPolicy, HPAScalingRules};
use crate::sim::time::{Duration, SimTime};

/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION_WINDOW: Duration = Duration::from_secs(300);
const SCALE_UP_LIMIT_FACTOR: f64 = 2.0;
const SCALE_UP_LIMIT_MINIMUM: f64 = 4.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampedRecommendation {
    pub recommendation: i32,
    pub timestamp: SimTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampedScaleEvent {
    pub replica_change: i32,
    pub timestamp: SimTime,
    pub outdated: bool,
}

/// A condition to set: (reason, message).
pub type Reasoned = (&'static str, &'static str);

/// What normalization decided: the count, why AbleToScale, and the ScalingLimited condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Normalized {
    pub replicas: i32,
    pub able_to_scale: Reasoned,
    pub limited: bool,
    pub scaling_limited: Reasoned,
}

const READY_FOR_NEW_SCALE: Reasoned = ("ReadyForNewScale", "recommended size matches current size");
const SCALE_DOWN_STABILIZED: Reasoned = (
    "ScaleDownStabilized",
    "recent recommendations were higher than current one, applying the highest recent recommendation",
);
const SCALE_UP_STABILIZED: Reasoned = (
    "ScaleUpStabilized",
    "recent recommendations were lower than current one, applying the lowest recent recommendation",
);
const DESIRED_WITHIN_RANGE: Reasoned = ("DesiredWithinRange", "the desired count is within the acceptable range");
const SCALE_UP_LIMIT: Reasoned =
    ("ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate");
const SCALE_DOWN_LIMIT: Reasoned =
    ("ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate");
const TOO_MANY_REPLICAS: Reasoned =
    ("TooManyReplicas", "the desired replica count is more than the maximum replica count");
const TOO_FEW_REPLICAS: Reasoned =
    ("TooFewReplicas", "the desired replica count is less than the minimum replica count");

/// `normalizeDesiredReplicas`: the HPA without `behavior`.
pub fn normalize(
    recommendations: &mut Vec<TimestampedRecommendation>,
    now: SimTime,
    current: i32,
    prenormalized: i32,
    (min, max): (i32, i32),
) -> Normalized {
    let stabilized = stabilize_recommendation(recommendations, now, prenormalized);
    let able_to_scale = if stabilized != prenormalized { SCALE_DOWN_STABILIZED } else { READY_FOR_NEW_SCALE };
    let (replicas, scaling_limited) = convert_desired_replicas_with_rules(current, stabilized, min, max);
    Normalized { replicas, able_to_scale, limited: replicas != stabilized, scaling_limited }
}

/// `stabilizeRecommendation`: the highest recommendation of the last 5 minutes; records this one
/// in place of the oldest expired one.
fn stabilize_recommendation(recs: &mut Vec<TimestampedRecommendation>, now: SimTime, prenormalized: i32) -> i32 {
    let mut max_recommendation = prenormalized;
    let mut old_sample = None;
    for (i, rec) in recs.iter().enumerate() {
        if before_cutoff(rec.timestamp, DOWNSCALE_STABILIZATION_WINDOW, now) {
            old_sample = Some(i);
        } else if rec.recommendation > max_recommendation {
            max_recommendation = rec.recommendation;
        }
    }
    record(recs, old_sample, TimestampedRecommendation { recommendation: prenormalized, timestamp: now });
    max_recommendation
}

fn record(recs: &mut Vec<TimestampedRecommendation>, old_sample: Option<usize>, rec: TimestampedRecommendation) {
    match old_sample {
        Some(i) => recs[i] = rec,
        None => recs.push(rec),
    }
}

/// `t.After(now - window)`, without going below time zero.
fn after_cutoff(t: SimTime, window: Duration, now: SimTime) -> bool {
    t.0.saturating_add(window.0) > now.0
}

/// `t.Before(now - window)`.
fn before_cutoff(t: SimTime, window: Duration, now: SimTime) -> bool {
    t.0.saturating_add(window.0) < now.0
}

/// `convertDesiredReplicasWithRules`: clamp into [min, min(max, scale-up limit)].
pub fn convert_desired_replicas_with_rules(current: i32, desired: i32, min: i32, max: i32) -> (i32, Reasoned) {
    let scale_up_limit = calculate_scale_up_limit(current);
    let (maximum_allowed, limiting) =
        if max > scale_up_limit { (scale_up_limit, SCALE_UP_LIMIT) } else { (max, TOO_MANY_REPLICAS) };
    if desired < min {
        (min, TOO_FEW_REPLICAS)
    } else if desired > maximum_allowed {
        (maximum_allowed, limiting)
    } else {
        (desired, DESIRED_WITHIN_RANGE)
    }
}

/// `calculateScaleUpLimit`: `max(2*current, 4)`.
pub fn calculate_scale_up_limit(current: i32) -> i32 {
    (SCALE_UP_LIMIT_FACTOR * f64::from(current)).max(SCALE_UP_LIMIT_MINIMUM) as i32
}

/// The scale events and recommendations one HPA keeps between syncs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub recommendations: Vec<TimestampedRecommendation>,
    pub scale_up_events: Vec<TimestampedScaleEvent>,
    pub scale_down_events: Vec<TimestampedScaleEvent>,
}

/// `normalizeDesiredReplicasWithBehaviors`.
pub fn normalize_with_behaviors(
    history: &mut History,
    now: SimTime,
    current: i32,
    prenormalized: i32,
    (min, max): (i32, i32),
    (scale_up, scale_down): (&HPAScalingRules, &HPAScalingRules),
) -> Normalized {
    let (stabilized, stabilized_reason) =
        stabilize_with_behaviors(&mut history.recommendations, now, current, prenormalized, scale_up, scale_down);
    let able_to_scale = if stabilized != prenormalized { stabilized_reason } else { READY_FOR_NEW_SCALE };
    let (replicas, scaling_limited) = if stabilized > current {
        let limit = calculate_scale_up_limit_with_scaling_rules(current, history, now, scale_up).max(current);
        let (allowed, limiting) = if max > limit { (limit, SCALE_UP_LIMIT) } else { (max, TOO_MANY_REPLICAS) };
        if stabilized > allowed { (allowed, limiting) } else { (stabilized, DESIRED_WITHIN_RANGE) }
    } else if stabilized < current {
        let limit = calculate_scale_down_limit_with_behaviors(current, history, now, scale_down).min(current);
        let (allowed, limiting) = if min < limit { (limit, SCALE_DOWN_LIMIT) } else { (min, TOO_FEW_REPLICAS) };
        if stabilized < allowed { (allowed, limiting) } else { (stabilized, DESIRED_WITHIN_RANGE) }
    } else {
        (stabilized, DESIRED_WITHIN_RANGE)
    };
    Normalized { replicas, able_to_scale, limited: replicas != stabilized, scaling_limited }
}

/// `stabilizeRecommendationWithBehaviors`: the current count clamped between the lowest
/// recommendation of the scale-up window and the highest of the scale-down window.
fn stabilize_with_behaviors(
    recs: &mut Vec<TimestampedRecommendation>,
    now: SimTime,
    current: i32,
    desired: i32,
    scale_up: &HPAScalingRules,
    scale_down: &HPAScalingRules,
) -> (i32, Reasoned) {
    let window = |rules: &HPAScalingRules, default: Duration| {
        rules.stabilization_window_seconds.map_or(default, |s| Duration::from_secs(s.max(0) as u64))
    };
    let (up_window, down_window) =
        (window(scale_up, Duration::ZERO), window(scale_down, DOWNSCALE_STABILIZATION_WINDOW));
    let (mut up_recommendation, mut down_recommendation) = (desired, desired);
    let mut old_sample = None;
    for (i, rec) in recs.iter().enumerate() {
        if after_cutoff(rec.timestamp, up_window, now) {
            up_recommendation = up_recommendation.min(rec.recommendation);
        }
        if after_cutoff(rec.timestamp, down_window, now) {
            down_recommendation = down_recommendation.max(rec.recommendation);
        }
        if before_cutoff(rec.timestamp, up_window, now) && before_cutoff(rec.timestamp, down_window, now) {
            old_sample = Some(i);
        }
    }
    let recommendation = current.max(up_recommendation).min(down_recommendation);
    record(recs, old_sample, TimestampedRecommendation { recommendation: desired, timestamp: now });
    let reason = if desired >= current { SCALE_UP_STABILIZED } else { SCALE_DOWN_STABILIZED };
    (recommendation, reason)
}

/// `getReplicasChangePerPeriod`: replicas changed by events younger than the period.
fn replicas_change_per_period(period_seconds: i32, events: &[TimestampedScaleEvent], now: SimTime) -> i32 {
    let period = Duration::from_secs(period_seconds.max(0) as u64);
    events.iter().filter(|e| after_cutoff(e.timestamp, period, now)).map(|e| e.replica_change).sum()
}

fn period_start(current: i32, history: &History, now: SimTime, policy: &HPAScalingPolicy) -> i32 {
    let added = replicas_change_per_period(policy.period_seconds, &history.scale_up_events, now);
    let deleted = replicas_change_per_period(policy.period_seconds, &history.scale_down_events, now);
    current - added + deleted
}

/// `calculateScaleUpLimitWithScalingRules`.
fn calculate_scale_up_limit_with_scaling_rules(
    current: i32,
    history: &History,
    now: SimTime,
    rules: &HPAScalingRules,
) -> i32 {
    let select = rules.select_policy.as_deref().unwrap_or("Max");
    if select == "Disabled" {
        return current;
    }
    let proposals = rules.policies.iter().flatten().map(|policy| {
        let start = period_start(current, history, now, policy);
        match policy.type_.as_str() {
            "Pods" => start.saturating_add(policy.value),
            _ => (f64::from(start) * (1.0 + f64::from(policy.value) / 100.0)).ceil() as i32,
        }
    });
    if select == "Min" { proposals.fold(i32::MAX, i32::min) } else { proposals.fold(i32::MIN, i32::max) }
}

/// `calculateScaleDownLimitWithBehaviors`.
fn calculate_scale_down_limit_with_behaviors(
    current: i32,
    history: &History,
    now: SimTime,
    rules: &HPAScalingRules,
) -> i32 {
    let select = rules.select_policy.as_deref().unwrap_or("Max");
    if select == "Disabled" {
        return current;
    }
    let proposals = rules.policies.iter().flatten().map(|policy| {
        let start = period_start(current, history, now, policy);
        match policy.type_.as_str() {
            "Pods" => start.saturating_sub(policy.value),
            _ => (f64::from(start) * (1.0 - f64::from(policy.value) / 100.0)) as i32,
        }
    });
    if select == "Min" { proposals.fold(i32::MIN, i32::max) } else { proposals.fold(i32::MAX, i32::min) }
}

/// `storeScaleEvent`: remembers a scale (only with `behavior`), reusing an outdated slot.
pub fn store_scale_event(history: &mut History, now: SimTime, rules: &HPAScalingRules, previous: i32, new: i32) {
    let longest = rules.policies.iter().flatten().map(|p| p.period_seconds).max().unwrap_or(0).max(0);
    let period = Duration::from_secs(longest as u64);
    let (events, change) = if new > previous {
        (&mut history.scale_up_events, new - previous)
    } else {
        (&mut history.scale_down_events, previous - new)
    };
    for event in events.iter_mut().filter(|e| before_cutoff(e.timestamp, period, now)) {
        event.outdated = true;
    }
    let event = TimestampedScaleEvent { replica_change: change, timestamp: now, outdated: false };
    match events.iter().rposition(|e| e.outdated) {
        Some(i) => events[i] = event,
        None => events.push(event),
    }
}
