//! One live lab as the page drives it: the core's `LessonLab` plus what the terminal needs
//! (run a typed line, complete a word), the timeline of every script (replay, permalinks,
//! scrubbing back to an earlier point and forking from it) and the running clock.
//! Plain Rust, no browser types, so it is tested natively.

use crate::lab::node_grid::NodeCell;
use crate::lab::permalink;
use crate::lab::timeline::{Moment, Timeline, sleep_line};
use crate::pages::panic_report;
use crate::pages::sandbox_setup;
use kubelab_core::kubectl::VERBS;
use kubelab_core::lesson::{Lesson, LessonLab};
use kubelab_core::script;
use kubelab_core::sim::time::{Duration, SimTime};
use kubelab_core::view::node_grid::GridInformer;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// One line the learner ran and what it printed, exactly as the core rendered it (the same
/// entry a hosted lab sends).
pub use kubelab_wire::Entry;

pub struct LabSession {
    lab: LessonLab,
    /// The lesson this lab belongs to (`sandbox` for free play) and its seed.
    lesson_id: String,
    seed: u64,
    /// Every script the learner ran, in order, exactly as given to `run`: with the lesson and
    /// seed this replays the lab (permalinks, scrubbing, the instructor's read-only replay).
    timeline: Timeline,
    /// While the learner looks at an earlier point: its position and the lab rebuilt there.
    /// The lab is read-only meanwhile; `fork` makes it the present.
    past: Option<(usize, LessonLab)>,
    /// The sandbox's cluster size (3 for lessons: their links never carry one).
    nodes: usize,
    /// Set when the core panicked (natively; in wasm32 a panic aborts): the lab refuses more.
    broken: bool,
    /// The present's node grid, kept current between redraws (`view::node_grid`).
    grid: RefCell<GridInformer>,
}

impl LabSession {
    /// A lab for the lesson with its hidden setup run.
    pub fn for_lesson(lesson: &Lesson) -> Result<LabSession, String> {
        panic_report::begin(&lesson.id, lesson.seed.unwrap_or(1));
        let mut lab = LessonLab::new(lesson);
        lab.setup(lesson).map_err(|err| format!("the lesson's setup does not parse: {err}"))?;
        Ok(LabSession::wrap(lab, lesson))
    }

    /// A free lab: the default three-node cluster, seed 1, nothing set up.
    pub fn sandbox() -> LabSession {
        LabSession::sandbox_of(3)
    }

    /// A free lab on `nodes` machines (`sandbox_setup::cluster`), seed 1, nothing set up.
    pub fn sandbox_of(nodes: usize) -> LabSession {
        let mut lesson = Lesson::sandbox();
        lesson.cluster = Some(sandbox_setup::cluster(nodes));
        panic_report::begin(&lesson.id, 1);
        LabSession { nodes, ..LabSession::wrap(LessonLab::new(&lesson), &lesson) }
    }

    fn wrap(mut lab: LessonLab, lesson: &Lesson) -> LabSession {
        // The request path panel shows the learner's last request.
        lab.sim_mut().record_request_paths(true);
        let seed = lesson.seed.unwrap_or(1);
        let timeline = Timeline::new(&lab);
        LabSession {
            lab,
            lesson_id: lesson.id.clone(),
            seed,
            timeline,
            past: None,
            nodes: 3,
            broken: false,
            grid: RefCell::default(),
        }
    }

    /// The lesson id (`sandbox` for free play), the seed and every script run so far.
    pub fn replay_log(&self) -> (&str, u64, Vec<String>) {
        let scripts = self.timeline.moments().iter().map(|m| m.script.clone()).collect();
        (&self.lesson_id, self.seed, scripts)
    }

    /// The lesson this lab belongs to (`sandbox` for free play).
    pub fn lesson_id(&self) -> &str {
        &self.lesson_id
    }

    /// The hash that replays this lab (`permalink.rs`).
    pub fn permalink(&self) -> String {
        let (lesson, seed, scripts) = self.replay_log();
        permalink::hash_for(lesson, seed, self.nodes, &scripts)
    }

    /// How many nodes the lab started with.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Runs what the learner typed or clicked (`kubectl …`, `sleep 10s`, `lab …`), one entry
    /// per line; a line that does not parse is one failed entry that says why.
    pub fn run(&mut self, text: &str) -> Vec<Entry> {
        self.run_recorded(text, false)
    }

    /// As `run`, leaving the controller passes of the last command for `settle_for` (a big
    /// cluster reconciles between frames). The timeline records it as `run` does.
    pub fn run_deferred(&mut self, text: &str) -> Vec<Entry> {
        self.run_recorded(text, true)
    }

    /// Runs at most `passes` owed controller passes; true when none are left (or the lab broke).
    pub fn settle_for(&mut self, passes: usize) -> bool {
        if self.broken {
            return true;
        }
        let lab = &mut self.lab;
        match catch_unwind(AssertUnwindSafe(|| lab.settle_for(passes))) {
            Ok(true) => {
                // A deferred sleep ends later than it began.
                self.timeline.end_last_at(self.lab.sim().now());
                true
            }
            Ok(false) => false,
            Err(_) => {
                self.broken = true;
                true
            }
        }
    }

    /// The refusal of a deferred command whose work ran past the lab's budget, once settled.
    pub fn take_over_budget(&mut self) -> Option<String> {
        self.lab.take_over_budget()
    }

    fn run_recorded(&mut self, text: &str, deferred: bool) -> Vec<Entry> {
        let text = text.trim();
        if text.is_empty() {
            return Vec::new();
        }
        if self.broken {
            return vec![failed(text, "the lab stopped after an internal error; reload the page to start again\n")];
        }
        if let Some((_, past)) = &mut self.past {
            return run_in_the_past(past, text);
        }
        panic_report::record(text);
        let (started_at, resource_version_before) = self.before_moment();
        let entries = self.run_live(text, deferred);
        let succeeded = entries.iter().all(|e| e.succeeded);
        let ended_at = self.lab.sim().now();
        let script = text.to_string();
        self.timeline.record(Moment { script, started_at, ended_at, resource_version_before, succeeded, clock: false });
        entries
    }

    /// Keeps a copy of the lab when one is due; returns the time and resourceVersion now.
    fn before_moment(&mut self) -> (SimTime, u64) {
        self.timeline.before_script(&self.lab);
        (self.lab.sim().now(), self.lab.sim().store().resource_version())
    }

    fn run_live(&mut self, text: &str, deferred: bool) -> Vec<Entry> {
        let lab = &mut self.lab;
        let run =
            |lab: &mut LessonLab| if deferred { lab.run_as_learner_deferred(text) } else { lab.run_as_learner(text) };
        match catch_unwind(AssertUnwindSafe(|| run(lab))) {
            Ok(Ok(ran)) => ran
                .into_iter()
                .map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded })
                .collect(),
            Ok(Err(err)) => vec![failed(text, &format!("{}\n", explain_script_error(text, &err.message)))],
            Err(_) => {
                self.broken = true;
                vec![failed(text, "internal error: the simulator stopped; see the report above\n")]
            }
        }
    }

    /// Runs a permalink's scripts in order (each as one timeline entry, as when first run).
    pub fn replay(&mut self, scripts: &[String]) -> Vec<Entry> {
        scripts.iter().flat_map(|script| self.run(script)).collect()
    }

    /// Words that may finish the word under the cursor: a line's first word, then kubectl's
    /// or helm's own.
    pub fn complete(&self, line: &str, cursor: usize) -> Vec<String> {
        script::complete::complete(self.lab.sim(), line, cursor)
    }

    /// The lab as the page shows it: the past being looked at, or the present.
    pub fn lab(&self) -> &LessonLab {
        self.past.as_ref().map_or(&self.lab, |(_, lab)| lab)
    }

    /// Lets `duration` of cluster time pass for the running clock. Consecutive ticks grow one
    /// `sleep` in the timeline, so replay and permalinks stay exact without a line per tick.
    /// Does nothing while looking at the past.
    pub fn pass_time(&mut self, duration: Duration) -> bool {
        if self.past.is_some() || self.broken || duration == Duration::ZERO {
            return false;
        }
        let script = sleep_line(duration);
        let sim = self.lab.sim();
        if self.timeline.clock_fits(sim.now().plus(duration), sim.store().limits().max_sleep) {
            self.run_live(&script, false);
            self.timeline.extend_clock(self.lab.sim().now());
        } else {
            let (started_at, resource_version_before) = self.before_moment();
            self.run_live(&script, false);
            let ended_at = self.lab.sim().now();
            self.timeline.record(Moment {
                script,
                started_at,
                ended_at,
                resource_version_before,
                succeeded: true,
                clock: true,
            });
        }
        true
    }

    /// How long until the next thing the cluster has scheduled (a grace period ending, a probe
    /// due), for "step one event"; `None` when nothing is due.
    pub fn until_next_event(&self) -> Option<Duration> {
        let sim = self.lab.sim();
        sim.next_due().map(|due| due.since(sim.now()))
    }

    /// The position being looked at: `Some` while scrubbed back, `None` at the present.
    pub fn past_position(&self) -> Option<usize> {
        self.past.as_ref().map(|(position, _)| *position)
    }

    /// Shows the lab as it was after the first `position` scripts (the end is the present).
    pub fn scrub_to(&mut self, position: usize) {
        if position >= self.timeline.len() {
            self.past = None;
        } else if self.past_position() != Some(position) {
            self.past = Some((position, self.timeline.rebuild(position)));
        }
    }

    pub fn back_to_now(&mut self) {
        self.past = None;
    }

    /// Makes the past being looked at the present: later scripts are forgotten.
    pub fn fork(&mut self) {
        if let Some((position, past)) = self.past.take() {
            self.timeline.truncate(position);
            self.lab = past;
            self.lab.sim_mut().record_request_paths(true);
            // The past's history differs from the one the grid followed.
            self.grid = RefCell::default();
        }
    }

    /// The node grid's cells for the lab being looked at: the present's kept current, a past
    /// one's listed afresh.
    pub fn grid_cells(&self) -> Vec<NodeCell> {
        match &self.past {
            Some((_, past)) => GridInformer::default().cells(past.sim()).to_vec(),
            None => self.grid.borrow_mut().cells(self.lab.sim()).to_vec(),
        }
    }
}

/// Verbs that only read, so they may run against the past being looked at.
const READ_ONLY_VERBS: [&str; 10] =
    ["get", "describe", "logs", "top", "explain", "api-resources", "api-versions", "cluster-info", "version", "events"];

/// Runs a read-only `kubectl` line against a past lab (a throwaway copy); anything else is
/// refused with what to do instead.
fn run_in_the_past(past: &mut LessonLab, text: &str) -> Vec<Entry> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let reads = words.first() == Some(&"kubectl") && words.get(1).is_some_and(|verb| READ_ONLY_VERBS.contains(verb));
    if !reads || text.contains('\n') {
        let why =
            "the lab is showing the past and is read-only: use \"Fork from here\" to change it, or \"Back to now\"\n";
        return vec![failed(text, why)];
    }
    match past.run_as_learner(text) {
        Ok(ran) => {
            ran.into_iter().map(|r| Entry { command: r.written, output: r.output, succeeded: r.succeeded }).collect()
        }
        Err(err) => vec![failed(text, &format!("{}\n", err.message))],
    }
}

fn failed(command: &str, output: &str) -> Entry {
    Entry { command: command.to_string(), output: output.to_string(), succeeded: false }
}

/// The script parser's message, with a nudge when the learner left out `kubectl`.
fn explain_script_error(text: &str, message: &str) -> String {
    let first = text.split_whitespace().next().unwrap_or_default();
    let verbs = VERBS.iter().any(|verb| verb.name == first);
    if verbs { format!("{message} (did you mean `kubectl {text}`?)") } else { message.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_kubectl_sleep_and_lab_lines() {
        let mut session = LabSession::sandbox();
        let entries = session.run("kubectl get nodes");
        assert_eq!(entries.len(), 1);
        assert!(entries[0].output.contains("node-1          Ready"), "{}", entries[0].output);
        assert!(session.run("sleep 10s")[0].succeeded);
        assert!(session.run("lab node power-off node-2")[0].succeeded);
        assert!(session.run("   ").is_empty());
    }

    #[test]
    fn a_bad_line_is_a_failed_entry_not_a_panic() {
        let mut session = LabSession::sandbox();
        let entry = &session.run("get pods")[0];
        assert!(!entry.succeeded);
        assert!(entry.output.contains("did you mean `kubectl get pods`"), "{}", entry.output);
        assert!(!session.run("kubectl get 'unterminated")[0].succeeded);
    }

    #[test]
    fn logs_every_script_for_replay() {
        let mut session = LabSession::sandbox();
        session.run("kubectl get nodes");
        session.run("  ");
        session.run("sleep 5s");
        let (lesson, seed, log) = session.replay_log();
        assert_eq!((lesson, seed), ("sandbox", 1));
        assert_eq!(log, ["kubectl get nodes", "sleep 5s"]);
    }

    /// The cluster's pods and nodes as `kubectl get` prints them, for comparing two labs.
    fn cluster(session: &LabSession) -> String {
        let mut copy = session.lab().clone();
        let ran = copy.run_as_learner("kubectl get pods,nodes -o wide -A").unwrap();
        ran.into_iter().map(|r| r.output).collect()
    }

    #[test]
    fn clock_ticks_coalesce_into_one_sleep_that_replays_exactly() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment web --image=hello:v1 --replicas=3");
        for _ in 0..90 {
            session.pass_time(Duration::from_millis(500));
        }
        session.run("lab node power-off node-1");
        for _ in 0..40 {
            session.pass_time(Duration::from_secs(15));
        }
        let (_, _, log) = session.replay_log();
        assert_eq!(
            log,
            [
                "kubectl create deployment web --image=hello:v1 --replicas=3",
                "sleep 45s",
                "lab node power-off node-1",
                "sleep 10m0s"
            ]
        );
        let mut replayed = LabSession::sandbox();
        for script in &log {
            replayed.run(script);
        }
        assert_eq!(cluster(&replayed), cluster(&session));
        assert_eq!(replayed.lab().sim().now(), session.lab().sim().now());
    }

    #[test]
    fn deferred_work_past_the_budget_is_dropped_and_said_once_settled() {
        let mut session = LabSession::sandbox();
        let limits = kubelab_core::lesson::LabLimits { max_work_units: 20_000, ..Default::default() };
        session.lab.set_limits(limits);
        session.run("kubectl create deployment c --image=crashy --replicas=30");
        assert!(session.run_deferred("sleep 24h")[0].succeeded, "the sleep itself begins");
        while !session.settle_for(64) {}
        let refusal = session.take_over_budget().expect("a refusal");
        assert!(refusal.contains("did more than 20000 units of work"), "{refusal}");
        assert_eq!(session.take_over_budget(), None, "said once");
    }

    #[test]
    fn a_clock_left_running_for_days_is_sleeps_the_lab_accepts() {
        let mut session = LabSession::sandbox();
        for _ in 0..30 {
            session.pass_time(Duration::from_secs(3600));
        }
        let (_, _, log) = session.replay_log();
        assert_eq!(log, ["sleep 24h0m0s", "sleep 6h0m0s"]);
        let mut replayed = LabSession::sandbox();
        for script in &log {
            assert!(replayed.run(script)[0].succeeded, "{script}");
        }
        assert_eq!(replayed.lab().sim().now(), session.lab().sim().now());
    }

    #[test]
    fn a_permalink_replays_to_the_same_cluster() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment web --image=hello:v1 --replicas=4");
        session.pass_time(Duration::from_secs(40));
        session.run("lab node power-off node-3\nsleep 7m");
        let hash = session.permalink();
        let link = crate::lab::permalink::decode(crate::lab::permalink::log_parameter(&hash).unwrap()).unwrap();
        let mut opened = LabSession::sandbox();
        opened.replay(&link.scripts);
        assert_eq!(cluster(&opened), cluster(&session));
        assert_eq!(opened.replay_log().2, session.replay_log().2);
    }

    #[test]
    fn deferred_scripts_settled_in_slices_match_scripts_run_at_once() {
        let lines = [
            "kubectl create deployment web --image=hello:v1 --replicas=6",
            "sleep 40s",
            "lab node power-off node-2",
            "sleep 6m",
        ];
        let (mut at_once, mut sliced) = (LabSession::sandbox(), LabSession::sandbox());
        for line in lines {
            let want = at_once.run(line);
            assert_eq!(sliced.run_deferred(line), want, "{line}");
            while !sliced.settle_for(3) {}
        }
        assert_eq!(cluster(&sliced), cluster(&at_once));
        let ends = |s: &LabSession| s.timeline().moments().iter().map(|m| m.ended_at).collect::<Vec<_>>();
        assert_eq!(ends(&sliced), ends(&at_once));
    }

    #[test]
    fn the_past_is_read_only_until_forked() {
        let mut session = LabSession::sandbox();
        session.run("kubectl create deployment web --image=hello:v1 --replicas=2");
        session.run("sleep 1m");
        let present = cluster(&session);
        session.scrub_to(1);
        assert_eq!(session.past_position(), Some(1));
        assert!(cluster(&session).contains("ContainerCreating") || cluster(&session).contains("Pending"));
        assert!(session.run("kubectl get pods")[0].succeeded);
        let refused = &session.run("kubectl delete deployment web")[0];
        assert!(!refused.succeeded && refused.output.contains("read-only"), "{}", refused.output);
        assert!(!session.pass_time(Duration::from_secs(1)));
        session.back_to_now();
        assert_eq!(cluster(&session), present);
        session.scrub_to(1);
        session.fork();
        assert_eq!(session.past_position(), None);
        assert_eq!(session.replay_log().2, ["kubectl create deployment web --image=hello:v1 --replicas=2"]);
        assert!(session.run("kubectl scale deployment web --replicas=1")[0].succeeded);
    }

    #[test]
    fn completes_verbs_and_commands() {
        let session = LabSession::sandbox();
        assert!(session.complete("kubectl ge", 10).contains(&"get".to_string()));
        assert_eq!(session.complete("sl", 2), vec!["sleep".to_string()]);
    }
}
