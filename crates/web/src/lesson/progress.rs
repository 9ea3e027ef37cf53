//! Which steps of each lesson the learner has done, kept in the browser's `localStorage`
//! under `kubelab.progress.<lesson id>` as comma-separated step numbers (0-based).

use std::collections::BTreeSet;

fn key(lesson_id: &str) -> String {
    format!("kubelab.progress.{lesson_id}")
}

/// Reads the stored form: step numbers, ignoring anything that is not one.
pub fn parse(text: &str) -> BTreeSet<usize> {
    text.split(',').filter_map(|part| part.trim().parse().ok()).collect()
}

/// The stored form of a set of done steps.
pub fn format(done: &BTreeSet<usize>) -> String {
    done.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The steps done in a lesson (empty when storage is unavailable, e.g. natively or in a
/// private window that refuses it).
pub fn done_steps(lesson_id: &str) -> BTreeSet<usize> {
    if !cfg!(target_arch = "wasm32") {
        return BTreeSet::new();
    }
    storage().and_then(|s| s.get_item(&key(lesson_id)).ok().flatten()).map(|text| parse(&text)).unwrap_or_default()
}

/// Marks a step done; best effort (a full or refused storage is not an error to the learner).
pub fn mark_done(lesson_id: &str, step: usize) {
    if !cfg!(target_arch = "wasm32") {
        return;
    }
    let mut done = done_steps(lesson_id);
    if done.insert(step)
        && let Some(storage) = storage()
    {
        let _ = storage.set_item(&key(lesson_id), &format(&done));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_ignores_junk() {
        let done = parse("0, 2,x,,5");
        assert_eq!(done.iter().copied().collect::<Vec<_>>(), vec![0, 2, 5]);
        assert_eq!(format(&done), "0,2,5");
        assert!(parse("").is_empty());
    }
}
