//! The progress events a lesson page reports, and their idempotency ids. An id is made from
//! what happened (`lesson:step:kind:item`), not from when, so the same event sent twice — a
//! retry, a reload, a second tab — is recorded once.

use kubelab_wire::ProgressEvent;
pub use kubelab_wire::ProgressKind;

/// The longest id the server takes.
const ID_LIMIT: usize = 64;

/// An event with its content-derived id.
pub fn event(lesson: &str, step: usize, kind: ProgressKind, item: Option<&str>, answer: Option<&str>) -> ProgressEvent {
    ProgressEvent {
        id: event_id(lesson, step, kind, item),
        lesson: lesson.to_string(),
        step,
        kind,
        item: item.map(|text| cut(text, ITEM_LIMIT)),
        answer: answer.map(|text| cut(text, ANSWER_LIMIT)),
        at: None,
    }
}

/// The longest item and answer the server takes, in characters.
const ITEM_LIMIT: usize = 200;
const ANSWER_LIMIT: usize = 500;

fn cut(text: &str, limit: usize) -> String {
    text.chars().take(limit).collect()
}

/// `lesson:step:kind[:item]`; past 64 characters, a prefix and a hash of the whole (long
/// lesson ids stay unique and stable).
pub fn event_id(lesson: &str, step: usize, kind: ProgressKind, item: Option<&str>) -> String {
    let mut id = format!("{lesson}:{step}:{}", kind.as_str());
    if let Some(item) = item {
        id.push(':');
        id.push_str(item);
    }
    if id.chars().count() <= ID_LIMIT {
        return id;
    }
    let hash = format!("~{:016x}", fnv1a(id.as_bytes()));
    let prefix: String = id.chars().take(ID_LIMIT - hash.len()).collect();
    prefix + &hash
}

/// FNV-1a, 64-bit: stable across builds and platforms, unlike std's hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_what_happened() {
        assert_eq!(event_id("pods", 2, ProgressKind::StepOpened, None), "pods:2:step_opened");
        assert_eq!(event_id("pods", 2, ProgressKind::HintRevealed, Some("hint-1")), "pods:2:hint_revealed:hint-1");
        let answered = event("pods", 3, ProgressKind::PredictionAnswered, Some("prediction"), Some("A"));
        assert_eq!(answered.kind, ProgressKind::PredictionAnswered);
        assert_eq!(answered.answer.as_deref(), Some("A"));
        let long = "x".repeat(900);
        let cut = event("pods", 3, ProgressKind::QuizAnswered, Some(&long), Some(&long));
        assert_eq!((cut.item.unwrap().len(), cut.answer.unwrap().len()), (200, 500));
    }

    #[test]
    fn long_ids_are_cut_and_hashed_to_64_characters() {
        let lesson = "a-very-long-lesson-identifier-that-goes-on-and-on-and-on";
        let one = event_id(lesson, 1, ProgressKind::PredictionAnswered, Some("prediction"));
        let two = event_id(lesson, 2, ProgressKind::PredictionAnswered, Some("prediction"));
        assert_eq!(one.chars().count(), 64);
        assert_ne!(one, two);
        assert_eq!(one, event_id(lesson, 1, ProgressKind::PredictionAnswered, Some("prediction")));
    }
}
