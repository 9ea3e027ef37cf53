//! The lab a lesson runs in: the lesson's cluster and seed, its hidden setup already run, its
//! files readable by `-f`, and the history of what the learner ran (what `ran` checks read).
//! The web player and the linter drive lessons through this one type.

use super::format::Lesson;
use crate::checks::{Check, Context, History, Verdict};
use crate::kubectl::MemoryFiles;
use crate::script::{self, ScriptError};
use crate::sim::Sim;

/// What one script line did.
#[derive(Clone, Debug, PartialEq)]
pub struct Ran {
    /// The line within its script (1-based).
    pub line: usize,
    pub written: String,
    pub output: String,
    pub succeeded: bool,
}

#[derive(Clone)]
pub struct LessonLab {
    sim: Sim,
    files: MemoryFiles,
    history: History,
}

impl LessonLab {
    /// A fresh lab for the lesson, before its setup runs.
    pub fn new(lesson: &Lesson) -> LessonLab {
        let cluster = lesson.cluster.clone().unwrap_or_default();
        let mut files = MemoryFiles::new();
        for (name, text) in &lesson.files {
            files.insert(name.clone(), text.clone());
        }
        LessonLab { sim: Sim::new(lesson.seed.unwrap_or(1), &cluster), files, history: History::new() }
    }

    /// Runs the hidden setup (not part of the learner's history).
    pub fn setup(&mut self, lesson: &Lesson) -> Result<Vec<Ran>, ScriptError> {
        self.run(&lesson.setup, false)
    }

    /// Runs a script as the learner (their clicks, a prediction's reveal, a solution).
    /// Asks `interrupt` between units of work from now on (see `Sim::set_interrupt`).
    pub fn set_interrupt(&mut self, interrupt: crate::sim::interrupt::Interrupt) {
        self.sim.set_interrupt(interrupt);
    }

    /// The lab's budgets (`Sim::set_limits`): a sandbox may allow more than a lesson.
    pub fn set_limits(&mut self, limits: super::LabLimits) {
        self.sim.set_limits(limits);
    }

    /// The refusal of the last command, when its deferred work ran past the lab's work budget
    /// and was dropped (a host running work in slices asks once they are done); asking clears it.
    pub fn take_over_budget(&mut self) -> Option<String> {
        self.sim.take_over_budget().then(|| self.sim.store().limits().work_refusal())
    }

    /// Whether the host's interrupt says stop (the work pending was dropped).
    pub fn interrupted(&self) -> bool {
        self.sim.interrupted()
    }

    pub fn run_as_learner(&mut self, text: &str) -> Result<Vec<Ran>, ScriptError> {
        self.run(text, true)
    }

    /// As `run_as_learner`, but the controller passes the script's last command causes are left
    /// owed, for `settle_for` to run a few at a time (a big cluster's page stays responsive).
    /// Slicing changes no outcome: the next command or time step finishes them first.
    pub fn run_as_learner_deferred(&mut self, text: &str) -> Result<Vec<Ran>, ScriptError> {
        self.sim.defer_settling(true);
        let ran = self.run(text, true);
        self.sim.defer_settling(false);
        ran
    }

    /// Runs at most `passes` owed controller passes (`Sim::settle_for`); true when none are left.
    pub fn settle_for(&mut self, passes: usize) -> bool {
        self.sim.settle_for(passes)
    }

    fn run(&mut self, text: &str, record: bool) -> Result<Vec<Ran>, ScriptError> {
        let steps = script::parse(text)?;
        let mut ran = Vec::with_capacity(steps.len());
        for step in &steps {
            self.sim.record_command(&step.written);
            let (output, succeeded) = script::run_step(&mut self.sim, step, &self.files);
            if record {
                self.history.record(step, succeeded, &output);
            }
            ran.push(Ran { line: step.line, written: step.written.clone(), output, succeeded });
        }
        Ok(ran)
    }

    /// Lets cluster time pass with no learner action (the linter's idle replay).
    pub fn pass_time(&mut self, duration: crate::sim::time::Duration) {
        self.sim.advance(duration);
    }

    pub fn check(&self, check: &Check) -> Verdict {
        check.evaluate(&self.context())
    }

    pub fn context(&self) -> Context<'_> {
        Context { store: self.sim.store(), history: &self.history, traffic: self.sim.latest_traffic(), sim: &self.sim }
    }

    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The simulation, for a host serving reads and watches from it. Whatever changes the lab
    /// must go through a script instead (`run_as_learner`), so a replay of the scripts sees it.
    pub fn sim_mut(&mut self) -> &mut Sim {
        &mut self.sim
    }

    pub fn history(&self) -> &History {
        &self.history
    }
}
