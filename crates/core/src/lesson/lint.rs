//! The lesson linter: format errors with their line, checks and scripts that cannot run, then a
//! replay of the lesson on the simulator — setup, each step's commands, predictions (exactly one
//! choice true after the run), tasks (not done on arrival, done after the solution), quizzes
//! (exactly one right answer). Every lesson is a test.

use super::format::{Lesson, Prediction, Step, Task};
use super::lab::{LessonLab, Ran};
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
    let mut diagnostics = linter.diagnostics;
    diagnostics.sort_by_key(|d| d.line);
    diagnostics
}

struct Linter<'t> {
    text: &'t str,
    diagnostics: Vec<Diagnostic>,
}

impl Linter<'_> {
    fn report(&mut self, path: &[Segment], message: String) {
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
        for (i, step) in lesson.steps.iter().enumerate() {
            self.check_step(step, i);
        }
        for (i, question) in lesson.quiz.iter().enumerate() {
            let right = question.choices.iter().filter(|c| c.correct).count();
            if question.choices.len() < 2 || right != 1 {
                let message = format!(
                    "quiz question has {} choices, {right} marked correct: it needs at least 2, exactly 1 correct",
                    question.choices.len()
                );
                self.report(&[Key("quiz"), Index(i)], message);
            }
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
        }
    }

    fn parse_script(&mut self, text: &str, path: &[Segment]) {
        if let Err(e) = script::parse(text) {
            let line = script_start(self.text, path) + e.line - 1;
            self.diagnostics.push(Diagnostic { line, message: format!("script does not parse: {}", e.message) });
        }
    }

    fn check_problems(&mut self, check: &Check, path: &[Segment]) {
        for problem in check.problems() {
            self.report(path, format!("check cannot run: {problem}"));
        }
    }

    /// Plays the lesson as a learner who follows it: setup, then every step in order.
    fn replay(&mut self, lesson: &Lesson) {
        let mut lab = LessonLab::new(lesson);
        let ran = lab.setup(lesson);
        self.report_failures(ran, &[Key("setup")], "setup");
        for (i, step) in lesson.steps.iter().enumerate() {
            for (j, command) in step.commands.iter().enumerate() {
                let ran = lab.run_as_learner(command);
                self.report_failures(ran, &[Key("steps"), Index(i), Key("commands"), Index(j)], "suggested command");
            }
            if let Some(prediction) = &step.prediction {
                self.replay_prediction(&mut lab, prediction, i);
            }
            if let Some(task) = &step.task {
                self.replay_task(&mut lab, task, i);
            }
        }
    }

    fn report_failures(&mut self, ran: Result<Vec<Ran>, script::ScriptError>, path: &[Segment], what: &str) {
        let start = script_start(self.text, path);
        for line in ran.unwrap_or_default().into_iter().filter(|r| !r.succeeded) {
            let command = line.written.lines().next().unwrap_or("");
            let output = line.output.trim_end().lines().next().unwrap_or("").to_string();
            let message = format!("{what} fails: `{command}`: {output}");
            self.diagnostics.push(Diagnostic { line: start + line.line - 1, message });
        }
    }

    fn replay_prediction(&mut self, lab: &mut LessonLab, prediction: &Prediction, i: usize) {
        let at = [Key("steps"), Index(i), Key("prediction")];
        let ran = lab.run_as_learner(&prediction.run);
        self.report_failures(ran, &[&at[..], &[Key("run")]].concat(), "prediction run");
        let verdicts: Vec<String> = prediction
            .choices
            .iter()
            .map(|choice| {
                let verdict = lab.check(&choice.check);
                format!("[{}] {}: {}", if verdict.passed { "true" } else { "false" }, choice.text, verdict.message)
            })
            .collect();
        let true_choices = verdicts.iter().filter(|v| v.starts_with("[true]")).count();
        if true_choices != 1 {
            let message = format!(
                "prediction: {true_choices} choices are true after its run, want exactly 1: {}",
                verdicts.join("; ")
            );
            self.report(&at, message);
        }
    }

    fn replay_task(&mut self, lab: &mut LessonLab, task: &Task, i: usize) {
        let at = [Key("steps"), Index(i), Key("task")];
        let goal = Check::All(task.checks.clone());
        let before = lab.check(&goal);
        if before.passed {
            self.report(&at, format!("task is already done before the learner does anything: {}", before.message));
        }
        let solution = [&at[..], &[Key("solution")]].concat();
        let ran = lab.run_as_learner(&task.solution);
        self.report_failures(ran, &solution, "solution");
        let after = lab.check(&goal);
        if !after.passed {
            self.report(&solution, format!("the solution does not complete the task: {}", after.message));
        }
    }
}
