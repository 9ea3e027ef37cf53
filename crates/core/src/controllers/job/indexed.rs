//! An Indexed Job's `completedIndexes`: a set of indexes written as ordered, comma-separated
//! intervals (`0-2,4`). Mirrors pkg/controller/job/indexed_job_utils.go (`orderedIntervals`,
//! `parseIndexesFromString`, `firstPendingIndexes`).

use std::collections::BTreeSet;

/// Parses `0-2,4`; malformed parts are skipped, as upstream logs and skips them.
pub fn parse(text: Option<&str>, completions: i32) -> BTreeSet<i32> {
    let mut indexes = BTreeSet::new();
    for part in text.unwrap_or("").split(',').filter(|p| !p.is_empty()) {
        let (first, last) = part.split_once('-').unwrap_or((part, part));
        let (Ok(first), Ok(last)) = (first.parse::<i32>(), last.parse::<i32>()) else { continue };
        indexes.extend((first.max(0)..=last.min(completions - 1)).take(completions.max(0) as usize));
    }
    indexes
}

/// Writes a set of indexes as intervals; `None` for an empty set (the field is omitted).
pub fn format(indexes: &BTreeSet<i32>) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(i32, i32)> = None;
    for &i in indexes {
        run = match run {
            Some((first, last)) if i == last + 1 => Some((first, i)),
            Some(done) => {
                parts.push(interval(done));
                Some((i, i))
            }
            None => Some((i, i)),
        };
    }
    parts.extend(run.map(interval));
    (!parts.is_empty()).then(|| parts.join(","))
}

fn interval((first, last): (i32, i32)) -> String {
    if first == last { first.to_string() } else { format!("{first}-{last}") }
}

/// The lowest `count` indexes below `completions` that are neither done nor held by a pod.
pub fn first_pending(completions: i32, done: &BTreeSet<i32>, held: &BTreeSet<i32>, count: usize) -> Vec<i32> {
    (0..completions).filter(|i| !done.contains(i) && !held.contains(i)).take(count).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_round_trip() {
        let set = parse(Some("0-2,4,6-7"), 10);
        assert_eq!(set.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 4, 6, 7]);
        assert_eq!(format(&set).as_deref(), Some("0-2,4,6-7"));
        assert_eq!(format(&BTreeSet::new()), None);
        assert_eq!(first_pending(5, &set, &BTreeSet::from([3]), 2), Vec::<i32>::new());
        assert_eq!(first_pending(10, &set, &BTreeSet::from([3]), 2), [5, 8]);
    }
}
