//! The lesson linter: format errors with their line, checks and scripts that cannot run, the
//! teaching rules (`rules.rs`), then a replay of the lesson on the simulator (`replay.rs`).
//! Every lesson is a test.

use super::format::{Lesson, Step};
use super::locate::{Segment, Segment::Index, Segment::Key, line_of, script_start};
use crate::checks::Check;
use crate::script;

/// One problem, at a 1-based line of the lesson file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: usize,
    pub message: String,
}

impl Diagnostic {
    /// `FILE:LINE: message`, as compilers print it.
    pub fn render(&self, file: &str) -> String {
        format!("{file}:{}: {}", self.line, self.message)
    }
}

/// Every problem in a lesson file, in line order. Empty means the lesson is good to ship.
pub fn lint(text: &str) -> Vec<Diagnostic> {
    let lesson = match Lesson::from_yaml(text) {
        Ok(lesson) => lesson,
        Err(e) => return vec![Diagnostic { line: e.line, message: e.message }],
    };
    let mut linter = Linter { text, diagnostics: Vec::new() };
    linter.check_statically(&lesson);
    if linter.diagnostics.is_empty() {
        linter.replay(&lesson);
    }
    linter.check_teaching(&lesson);
    let mut diagnostics = linter.diagnostics;
    diagnostics.sort_by_key(|d| d.line);
    diagnostics
}

pub(super) struct Linter<'t> {
    pub(super) text: &'t str,
    pub(super) diagnostics: Vec<Diagnostic>,
}

impl Linter<'_> {
    pub(super) fn report(&mut self, path: &[Segment], message: String) {
        self.diagnostics.push(Diagnostic { line: line_of(self.text, path), message });
    }

    /// What can be found without running anything.
    fn check_statically(&mut self, lesson: &Lesson) {
        if lesson.id.is_empty() || !lesson.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            self.report(&[Key("id")], format!("id \"{}\" must be lowercase letters, digits and dashes", lesson.id));
        }
        if lesson.steps.is_empty() {
            self.report(&[Key("steps")], "a lesson needs at least one step".into());
        }
        self.parse_script(&lesson.setup, &[Key("setup")]);
        for name in lesson.cluster.iter().flat_map(|c| &c.addons) {
            if let Err(message) = crate::addons::find(name) {
                self.report(&[Key("cluster"), Key("addons")], message.trim_start_matches("error: ").to_string());
            }
        }
        for (i, step) in lesson.steps.iter().enumerate() {
            self.check_step(step, i);
        }
        for (i, question) in lesson.quiz.iter().enumerate() {
            self.check_question(question, i);
        }
    }

    fn check_step(&mut self, step: &Step, i: usize) {
        for (j, command) in step.commands.iter().enumerate() {
            self.parse_script(command, &[Key("steps"), Index(i), Key("commands"), Index(j)]);
        }
        if let Some(prediction) = &step.prediction {
            let at = [Key("steps"), Index(i), Key("prediction")];
            self.parse_script(&prediction.run, &[&at[..], &[Key("run")]].concat());
            if prediction.choices.len() < 2 {
                self.report(&at, "a prediction needs at least 2 choices".into());
            }
            for (j, choice) in prediction.choices.iter().enumerate() {
                self.check_problems(&choice.check, &[&at[..], &[Key("choices"), Index(j), Key("check")]].concat());
            }
        }
        if let Some(task) = &step.task {
            let at = [Key("steps"), Index(i), Key("task")];
            self.parse_script(&task.solution, &[&at[..], &[Key("solution")]].concat());
            if task.checks.is_empty() {
                self.report(&at, "a task needs at least one check".into());
            }
            for (j, check) in task.checks.iter().enumerate() {
                self.check_problems(check, &[&at[..], &[Key("checks"), Index(j)]].concat());
            }
            for (j, wrong) in task.wrong.iter().enumerate() {
                self.parse_script(&wrong.run, &[&at[..], &[Key("wrong"), Index(j), Key("run")]].concat());
            }
        }
        if let Some(chart) = &step.chart
            && let Err(e) = crate::api::labels::Selector::parse(&chart.selector)
        {
            self.report(
                &[Key("steps"), Index(i), Key("chart")],
                format!("chart: selector \"{}\": {e}", chart.selector),
            );
        }
    }

    pub(super) fn parse_script(&mut self, text: &str, path: &[Segment]) {
        if let Err(e) = script::parse(text) {
            let line = script_start(self.text, path) + e.line - 1;
            self.diagnostics.push(Diagnostic { line, message: format!("script does not parse: {}", e.message) });
        }
    }

    pub(super) fn check_problems(&mut self, check: &Check, path: &[Segment]) {
        for problem in check.problems() {
            self.report(path, format!("check cannot run: {problem}"));
        }
    }
}
