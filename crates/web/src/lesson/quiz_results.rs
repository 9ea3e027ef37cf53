//! The learner's quiz answers per lesson, kept in the browser's `localStorage` under
//! `kubelab.quiz.<lesson id>` as `question:choice` pairs (0-based), and for a lab question,
//! graded by what the lab did, `question:choice:right`, so a graded quiz stays graded after a
//! reload.

use std::collections::BTreeMap;

/// One answered question: the learner's choice, and for a lab question the choice the lab
/// proved right (a plain question's right choice is in the lesson).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub choice: usize,
    pub right: Option<usize>,
}

fn key(lesson_id: &str) -> String {
    format!("kubelab.quiz.{lesson_id}")
}

/// Reads the stored form, ignoring anything that is not `number:number[:number]`.
pub fn parse(text: &str) -> BTreeMap<usize, Answer> {
    text.split(',')
        .filter_map(|item| {
            let mut numbers = item.trim().split(':').map(|n| n.parse::<usize>().ok());
            let (question, choice) = (numbers.next()??, numbers.next()??);
            let right = match numbers.next() {
                None => None,
                Some(right) => Some(right?),
            };
            numbers.next().is_none().then_some((question, Answer { choice, right }))
        })
        .collect()
}

pub fn format(answers: &BTreeMap<usize, Answer>) -> String {
    let item = |(question, answer): (&usize, &Answer)| match answer.right {
        Some(right) => format!("{question}:{}:{right}", answer.choice),
        None => format!("{question}:{}", answer.choice),
    };
    answers.iter().map(item).collect::<Vec<_>>().join(",")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The answers given so far (empty natively or when storage is refused).
pub fn answers(lesson_id: &str) -> BTreeMap<usize, Answer> {
    if !cfg!(target_arch = "wasm32") {
        return BTreeMap::new();
    }
    storage().and_then(|s| s.get_item(&key(lesson_id)).ok().flatten()).map(|text| parse(&text)).unwrap_or_default()
}

/// Keeps one answer; best effort, like the step progress.
pub fn record(lesson_id: &str, question: usize, answer: Answer) {
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    let mut all = answers(lesson_id);
    all.insert(question, answer);
    if let Some(storage) = storage() {
        let _ = storage.set_item(&key(lesson_id), &format(&all));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_ignores_junk() {
        let answers = parse("0:1, 2:0,x,3:,:4,5:1:0,6:1:x,7:1:2:3");
        let plain = |choice| Answer { choice, right: None };
        let lab = Answer { choice: 1, right: Some(0) };
        assert_eq!(answers.into_iter().collect::<Vec<_>>(), vec![(0, plain(1)), (2, plain(0)), (5, lab)]);
        assert_eq!(format(&parse("2:0,0:1,1:2:2")), "0:1,1:2:2,2:0");
        assert!(parse("").is_empty());
    }
}
