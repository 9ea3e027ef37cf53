//! The linter's teaching rules, found without running anything: every task lists the wrong
//! fixes a learner might try, hints lead from a question to the answer (never the answer
//! first), and the quiz has enough questions, one of them answered in the lab, each wrong
//! choice with its own explanation.

use super::format::{Lesson, Question, Task};
use super::lint::Linter;
use super::locate::{Segment::Index, Segment::Key};
use crate::script::{self, Action};

/// A closing quiz shorter than this checks too little to be worth taking.
pub const MIN_QUIZ_QUESTIONS: usize = 5;

impl Linter<'_> {
    pub(super) fn check_teaching(&mut self, lesson: &Lesson) {
        for (i, task) in lesson.steps.iter().enumerate().filter_map(|(i, s)| s.task.as_ref().map(|t| (i, t))) {
            self.check_task_teaching(task, i);
        }
        if lesson.quiz.len() < MIN_QUIZ_QUESTIONS {
            let message =
                format!("the quiz has {} questions: a lesson needs at least {MIN_QUIZ_QUESTIONS}", lesson.quiz.len());
            self.report(&[Key("quiz")], message);
        }
        if !lesson.quiz.iter().any(|q| q.run.is_some()) {
            let message = "the quiz needs a lab question: `run:` a script and give each choice a `check`";
            self.report(&[Key("quiz")], message.into());
        }
    }

    fn check_task_teaching(&mut self, task: &Task, i: usize) {
        let at = [Key("steps"), Index(i), Key("task")];
        if task.wrong.is_empty() {
            let message = "task has no wrong solution: list the plausible mistakes under `wrong:`, each with what the learner is told";
            self.report(&at, message.into());
        }
        if task.hints.len() < 2 {
            let message = format!(
                "task has {} hints: give at least 2, from a question that points where to look to the command",
                task.hints.len()
            );
            self.report(&at, message);
            return;
        }
        if !task.hints[0].contains('?') {
            let message = "the first hint should be a question that points where to look, not an instruction";
            self.report(&[&at[..], &[Key("hints"), Index(0)]].concat(), message.into());
        }
        let answer_lines = answer_lines(&task.solution);
        for (j, hint) in task.hints.iter().enumerate().take(task.hints.len() - 1) {
            if let Some(line) = answer_lines.iter().find(|line| hint.contains(line.as_str())) {
                let message = format!("hint {} gives the answer away (`{line}`): only the last hint may", j + 1);
                self.report(&[&at[..], &[Key("hints"), Index(j)]].concat(), message);
            }
        }
    }

    pub(super) fn check_question(&mut self, question: &Question, i: usize) {
        let at = [Key("quiz"), Index(i)];
        let checks = question.choices.iter().filter(|c| c.check.is_some()).count();
        let right = question.choices.iter().filter(|c| c.correct).count();
        if let Some(run) = &question.run {
            self.parse_script(run, &[&at[..], &[Key("run")]].concat());
            if question.choices.len() < 2 || checks != question.choices.len() || right != 0 {
                let message =
                    "a lab question needs at least 2 choices, each with a `check` and none `correct` (the lab decides)";
                self.report(&at, message.into());
            }
            for (j, check) in question.choices.iter().enumerate().filter_map(|(j, c)| c.check.as_ref().map(|k| (j, k)))
            {
                self.check_problems(check, &[&at[..], &[Key("choices"), Index(j), Key("check")]].concat());
            }
        } else if checks > 0 {
            self.report(&at, "only a lab question (with `run:`) has choices with a `check`".into());
        } else if question.choices.len() < 2 || right != 1 {
            let message = format!(
                "quiz question has {} choices, {right} marked correct: it needs at least 2, exactly 1 correct",
                question.choices.len()
            );
            self.report(&at, message);
        }
        for (j, choice) in question.choices.iter().enumerate() {
            let earlier = question.choices[..j].iter().position(|c| c.explanation.trim() == choice.explanation.trim());
            if choice.explanation.trim().is_empty() {
                self.report(
                    &[&at[..], &[Key("choices"), Index(j)]].concat(),
                    "a choice needs its own explanation".into(),
                );
            } else if let Some(earlier) = earlier {
                let message = format!(
                    "choice {}'s explanation repeats choice {}'s: each choice explains itself",
                    j + 1,
                    earlier + 1
                );
                self.report(&[&at[..], &[Key("choices"), Index(j)]].concat(), message);
            }
        }
    }
}

/// The solution's commands a hint must not quote before the last one: its kubectl lines other
/// than `get` (looking is not the answer), as the learner would type them.
fn answer_lines(solution: &str) -> Vec<String> {
    let Ok(steps) = script::parse(solution) else { return Vec::new() };
    steps
        .iter()
        .filter(|step| matches!(&step.action, Action::Kubectl { argv, .. } if argv.first().is_some_and(|v| v != "get")))
        .filter_map(|step| step.written.lines().next())
        .map(|line| line.split(" <<").next().unwrap_or(line).trim().to_string())
        .collect()
}
