//! What the instructor dashboard shows, computed from the server's `Dashboard`: readable
//! lesson/step labels, time on the current step, the class's answers grouped per question, and
//! the fault presets. Plain Rust, tested natively.

use crate::lesson::lessons::catalogue;
use kubelab_wire::AnswerCount;

/// Faults an instructor can push with one click: (label, the `lab …` line).
pub const FAULT_PRESETS: &[(&str, &str)] = &[
    ("Power off node-2", "lab node power-off node-2"),
    ("Power node-2 back on", "lab node power-on node-2"),
    ("Power off node-3", "lab node power-off node-3"),
    ("Add a node (node-4)", "lab node add node-4"),
    ("Send 50 requests/s to deploy/hello", "lab load deploy/hello --rps 50"),
    ("Stop etcd", "lab etcd stop"),
    ("Start etcd again", "lab etcd start"),
    ("Stop the scheduler", "lab scheduler stop"),
    ("Start the scheduler again", "lab scheduler start"),
    ("Stop the controller manager", "lab controller-manager stop"),
    ("Start the controller manager again", "lab controller-manager start"),
];

/// A duration as a learner's clock reads: `45s`, `3m 05s`, `1h 02m`.
pub fn format_elapsed(ms: i64) -> String {
    let seconds = ms.max(0) / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    match (hours, minutes) {
        (0, 0) => format!("{seconds}s"),
        (0, _) => format!("{minutes}m {seconds:02}s"),
        _ => format!("{hours}h {minutes:02}m"),
    }
}

/// `Lesson title · step N: Step title` (ids as given when the bundle lacks the lesson).
pub fn lesson_label(lesson: &str, step: Option<usize>) -> String {
    let found = catalogue().find(lesson);
    let title = found.map_or(lesson, |l| l.title.as_str());
    match step {
        None => title.to_string(),
        Some(step) => match found.and_then(|l| l.steps.get(step)) {
            Some(s) => format!("{title} · step {}: {}", step + 1, s.title),
            None => format!("{title} · step {}", step + 1),
        },
    }
}

/// One question and how the class answered it, most common answer first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerGroup {
    pub heading: String,
    pub counts: Vec<(String, u64)>,
}

/// Groups answer counts per (lesson, step, kind, item), in lesson order.
pub fn group_answers(answers: &[AnswerCount]) -> Vec<AnswerGroup> {
    let mut sorted: Vec<&AnswerCount> = answers.iter().collect();
    sorted.sort_by(|a, b| (&a.lesson, a.step, &a.kind, &a.item).cmp(&(&b.lesson, b.step, &b.kind, &b.item)));
    let mut groups: Vec<(String, AnswerGroup)> = Vec::new();
    for answer in sorted {
        let key = format!("{}\u{0}{}\u{0}{}\u{0}{:?}", answer.lesson, answer.step, answer.kind, answer.item);
        if groups.last().is_none_or(|(last, _)| *last != key) {
            groups.push((key, AnswerGroup { heading: question_heading(answer), counts: Vec::new() }));
        }
        let text = answer.answer.clone();
        groups.last_mut().expect("pushed above").1.counts.push((text, answer.count));
    }
    let mut groups: Vec<AnswerGroup> = groups.into_iter().map(|(_, group)| group).collect();
    for group in &mut groups {
        group.counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    }
    groups
}

fn question_heading(answer: &AnswerCount) -> String {
    // Quiz answers name their question as `quiz-<index>` (see quiz_panel).
    let question = answer.item.as_deref().and_then(|item| item.strip_prefix("quiz-")?.parse::<usize>().ok());
    let what = match (answer.kind == "quiz_answered", question) {
        (true, Some(index)) => format!("Quiz question {}", index + 1),
        (true, None) => "Quiz".to_string(),
        (false, _) => "Prediction".to_string(),
    };
    format!("{what} — {}", lesson_label(&answer.lesson, Some(answer.step)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(step: usize, answer: &str, count: u64) -> AnswerCount {
        AnswerCount {
            lesson: "apply-to-running".into(),
            step,
            kind: "prediction_answered".into(),
            item: Some("prediction".into()),
            answer: answer.into(),
            count,
        }
    }

    #[test]
    fn elapsed_time_reads_like_a_clock() {
        assert_eq!(format_elapsed(0), "0s");
        assert_eq!(format_elapsed(45_900), "45s");
        assert_eq!(format_elapsed(185_000), "3m 05s");
        assert_eq!(format_elapsed(3_720_000), "1h 02m");
        assert_eq!(format_elapsed(-5), "0s");
    }

    #[test]
    fn labels_name_lessons_and_steps() {
        assert_eq!(
            lesson_label("apply-to-running", Some(0)),
            "From kubectl apply to Running · step 1: Why an orchestrator?"
        );
        assert_eq!(lesson_label("gone", Some(2)), "gone · step 3");
        assert_eq!(lesson_label("gone", None), "gone");
    }

    #[test]
    fn answers_group_per_question_most_common_first() {
        let groups = group_answers(&[count(3, "B", 1), count(1, "A", 2), count(3, "A", 4)]);
        assert_eq!(groups.len(), 2);
        assert!(groups[0].heading.contains("step 2"), "{}", groups[0].heading);
        assert_eq!(groups[1].counts, vec![("A".to_string(), 4), ("B".to_string(), 1)]);
        assert!(group_answers(&[]).is_empty());
    }

    #[test]
    fn quiz_answers_group_per_question() {
        let quiz =
            |item: &str| AnswerCount { kind: "quiz_answered".into(), item: Some(item.into()), ..count(9, "A", 1) };
        let groups = group_answers(&[quiz("quiz-1"), quiz("quiz-0")]);
        assert!(groups[0].heading.starts_with("Quiz question 1 — "), "{}", groups[0].heading);
        assert!(groups[1].heading.starts_with("Quiz question 2 — "), "{}", groups[1].heading);
    }

    #[test]
    fn presets_are_lab_lines_the_simulator_takes() {
        for (_, command) in FAULT_PRESETS {
            assert!(command.starts_with("lab "));
            assert!(kubelab_core::script::parse(command).is_ok(), "{command}");
        }
    }
}
