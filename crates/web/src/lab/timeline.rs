//! The lab's past: every script in the order it ran, with the virtual time it started and
//! ended at, plus a copy of the lab every few scripts, so any earlier point is rebuilt by
//! cloning the nearest copy and replaying only the scripts after it (the simulator is
//! deterministic, so the replay is the past, not an approximation of it).

use kubelab_core::api::pod::Pod;
use kubelab_core::lesson::LessonLab;
use kubelab_core::sim::time::{Duration, SimTime};

/// A copy of the lab is kept before every this-many scripts. Replaying a script costs about
/// what running it did, so scrubbing replays at most this many.
pub const SNAPSHOT_EVERY: usize = 8;
/// At most this many copies are kept: past it every other one is dropped (never the start),
/// so memory stays bounded in a long lab and old points cost a few more replayed scripts.
pub const MAX_SNAPSHOTS: usize = 48;
/// Labs holding more pods than this are not copied. The store's objects are shared between
/// copies (an `Arc` each), but the kubelet's and scheduler's state per pod is not: a copy costs
/// about 17 µs per pod natively (a quarter of a second for 15,000 pods, twice that in wasm32,
/// all while the page waits), and 48 copies of a big lab would take much of a wasm32 heap
/// capped at 4 GB. Big labs rebuild from an earlier copy instead.
pub const MAX_SNAPSHOT_PODS: usize = 2_000;

/// One script in the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub script: String,
    pub started_at: SimTime,
    pub ended_at: SimTime,
    /// The store's resourceVersion before it ran: the watch log after it holds its writes.
    pub resource_version_before: u64,
    pub succeeded: bool,
    /// Set when the running clock (not the learner) wrote this `sleep`: later ticks grow it
    /// instead of adding lines, so a minute at 1× is one moment, not sixty.
    pub clock: bool,
}

pub struct Timeline {
    moments: Vec<Moment>,
    /// `(position, lab)`: the lab as it was before the script at `position` ran; position 0 is
    /// the lab right after the lesson's setup, so every position can be rebuilt.
    snapshots: Vec<(usize, LessonLab)>,
}

impl Timeline {
    pub fn new(start: &LessonLab) -> Timeline {
        Timeline { moments: Vec::new(), snapshots: vec![(0, start.clone())] }
    }

    pub fn moments(&self) -> &[Moment] {
        &self.moments
    }

    pub fn len(&self) -> usize {
        self.moments.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moments.is_empty()
    }

    /// Call before running the next script on `lab`: keeps a copy when one is due.
    pub fn before_script(&mut self, lab: &LessonLab) {
        let position = self.moments.len();
        let last = self.snapshots.last().map_or(0, |(at, _)| *at);
        let small = lab.sim().store().count::<Pod>() <= MAX_SNAPSHOT_PODS;
        if position >= last + SNAPSHOT_EVERY && small {
            self.snapshots.push((position, lab.clone()));
        }
        if self.snapshots.len() > MAX_SNAPSHOTS {
            let mut index = 0;
            self.snapshots.retain(|_| {
                index += 1;
                index == 1 || index % 2 == 0
            });
        }
    }

    pub fn record(&mut self, moment: Moment) {
        self.moments.push(moment);
    }

    /// Whether the last moment is a clock `sleep` that the next tick may grow.
    pub fn ends_with_clock(&self) -> bool {
        self.moments.last().is_some_and(|m| m.clock)
    }

    /// Whether the trailing clock moment can grow to end at `now` and still be one `sleep` the
    /// lab accepts (at most `max_sleep`): a clock left running for days is a series of sleeps
    /// that each replay, not one that the lab's limit would refuse.
    pub fn clock_fits(&self, now: SimTime, max_sleep: Duration) -> bool {
        self.moments.last().is_some_and(|m| m.clock && now.since(m.started_at) <= max_sleep)
    }

    /// Grows the trailing clock moment to end at `now` (its script becomes one `sleep`).
    /// Moves the last entry's end to `now` (a deferred sleep, finished a frame at a time).
    pub fn end_last_at(&mut self, now: SimTime) {
        if let Some(last) = self.moments.last_mut() {
            last.ended_at = last.ended_at.max(now);
        }
    }

    pub fn extend_clock(&mut self, now: SimTime) {
        if let Some(last) = self.moments.last_mut().filter(|m| m.clock) {
            last.ended_at = now;
            last.script = sleep_line(now.since(last.started_at));
        }
    }

    /// The lab as it was after the first `position` scripts.
    pub fn rebuild(&self, position: usize) -> LessonLab {
        let position = position.min(self.moments.len());
        let (start, snapshot) =
            self.snapshots.iter().rev().find(|(at, _)| *at <= position).unwrap_or(&self.snapshots[0]);
        let mut lab = snapshot.clone();
        for moment in &self.moments[*start..position] {
            // Outputs were seen when the script first ran; a script that failed then fails again.
            let _ = lab.run_as_learner(&moment.script);
        }
        lab
    }

    /// Forgets everything after `position` (forking the past into a new present).
    pub fn truncate(&mut self, position: usize) {
        self.moments.truncate(position);
        self.snapshots.retain(|(at, _)| *at <= position);
    }
}

/// `sleep` spelled as the script language reads it back exactly (`1m30s`, `1.5s`, `500ms`).
pub fn sleep_line(duration: Duration) -> String {
    format!("sleep {duration}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::lab_session::LabSession;
    use kubelab_core::view::cluster::picture;

    /// Every pod as `name node status`, the view's essentials, for comparing two labs.
    fn pods(lab: &LessonLab) -> Vec<String> {
        let picture = picture(lab.sim());
        let chips = picture.nodes.iter().flat_map(|n| &n.pods).chain(&picture.unscheduled);
        chips.map(|p| format!("{} {:?} {}", p.name, p.node, p.status)).collect()
    }

    #[test]
    fn any_position_rebuilds_the_lab_as_it_was() {
        let mut session = LabSession::sandbox();
        let mut seen = vec![pods(session.lab())];
        session.run("kubectl create deployment web --image=hello:v1 --replicas=3");
        seen.push(pods(session.lab()));
        for index in 0..20 {
            session.run(if index % 5 == 0 { "lab node power-off node-2" } else { "sleep 20s" });
            seen.push(pods(session.lab()));
        }
        let timeline = session.timeline();
        assert_eq!(timeline.len(), 21);
        for (position, expected) in seen.iter().enumerate() {
            assert_eq!(&pods(&timeline.rebuild(position)), expected, "position {position}");
        }
    }

    #[test]
    fn long_labs_keep_a_bounded_number_of_copies() {
        let mut session = LabSession::sandbox();
        for _ in 0..(SNAPSHOT_EVERY * MAX_SNAPSHOTS * 2) {
            session.run("sleep 1s");
        }
        let timeline = session.timeline();
        assert!(timeline.snapshots.len() <= MAX_SNAPSHOTS, "{}", timeline.snapshots.len());
        assert_eq!(timeline.snapshots[0].0, 0);
        // The lab starts 10 s in, once its kube-system pods are Ready.
        assert_eq!(timeline.rebuild(5).sim().now().as_millis(), 15_000);
        assert_eq!(timeline.rebuild(700).sim().now().as_millis(), 710_000);
    }

    #[test]
    fn sleep_lines_read_back_exactly() {
        for ms in [500, 1500, 60_000, 90_500, 3_723_000] {
            let line = sleep_line(Duration::from_millis(ms));
            let parsed = Duration::parse(line.trim_start_matches("sleep ")).unwrap();
            assert_eq!(parsed.as_millis(), ms, "{line}");
        }
    }
}

/// Scrubbing's cost, for the record (`cargo test --release -p kubelab-web --lib measure --
/// --ignored --nocapture`): with 300 pods, a rebuild from the nearest copy takes ~2–3 ms
/// natively; replaying all 41 scripts from the start took 75 ms.
#[cfg(test)]
mod measure {
    use crate::lab::lab_session::LabSession;
    use std::time::Instant;

    #[test]
    #[ignore]
    fn scrub_costs_with_300_pods() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment many --image=hello:v1 --replicas=300");
        for _ in 0..40 {
            session.run("sleep 10s");
        }
        let timeline = session.timeline();
        for position in [1, 8, 15, 16, 23, 41] {
            let started = Instant::now();
            let lab = timeline.rebuild(position);
            let pods = lab.sim().store().list::<kubelab_core::api::pod::Pod>(None).count();
            println!("rebuild({position}): {:?} ({pods} pods)", started.elapsed());
        }
        let started = Instant::now();
        LabSession::sandbox().replay(&session.replay_log().2);
        println!("replay from the start, no copies: {:?}", started.elapsed());
        let started = Instant::now();
        let copy = session.lab().clone();
        println!("clone: {:?}", started.elapsed());
        drop(copy);
    }
}
