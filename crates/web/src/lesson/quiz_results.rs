//! The learner's quiz answers per lesson, kept in the browser's `localStorage` under
//! `kubelab.quiz.<lesson id>` as `question:choice` pairs (0-based), so a graded quiz stays
//! graded after a reload.

use std::collections::BTreeMap;

fn key(lesson_id: &str) -> String {
    format!("kubelab.quiz.{lesson_id}")
}

/// Reads the stored form, ignoring anything that is not a `number:number` pair.
pub fn parse(text: &str) -> BTreeMap<usize, usize> {
    text.split(',')
        .filter_map(|pair| {
            let (question, choice) = pair.trim().split_once(':')?;
            Some((question.parse().ok()?, choice.parse().ok()?))
        })
        .collect()
}

pub fn format(answers: &BTreeMap<usize, usize>) -> String {
    answers.iter().map(|(question, choice)| format!("{question}:{choice}")).collect::<Vec<_>>().join(",")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The answers given so far (empty natively or when storage is refused).
pub fn answers(lesson_id: &str) -> BTreeMap<usize, usize> {
    if !cfg!(target_arch = "wasm32") {
        return BTreeMap::new();
    }
    storage().and_then(|s| s.get_item(&key(lesson_id)).ok().flatten()).map(|text| parse(&text)).unwrap_or_default()
}

/// Keeps one answer; best effort, like the step progress.
pub fn record(lesson_id: &str, question: usize, choice: usize) {
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    let mut all = answers(lesson_id);
    all.insert(question, choice);
    if let Some(storage) = storage() {
        let _ = storage.set_item(&key(lesson_id), &format(&all));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_ignores_junk() {
        let answers = parse("0:1, 2:0,x,3:,:4");
        assert_eq!(answers.into_iter().collect::<Vec<_>>(), vec![(0, 1), (2, 0)]);
        assert_eq!(format(&parse("2:0,0:1")), "0:1,2:0");
        assert!(parse("").is_empty());
    }
}
