//! An Indexed Job's `completedIndexes` and `failedIndexes`: sets of indexes written as ordered,
//! comma-separated intervals (`0-2,4`). Mirrors pkg/controller/job/indexed_job_utils.go
//! (`orderedIntervals`, `parseIndexesFromString`, `firstPendingIndexes`).

use std::collections::BTreeSet;

/// Inclusive `(first, last)` runs of indexes, ordered and apart (upstream `orderedIntervals`).
pub type Intervals = Vec<(i32, i32)>;

/// `parseIndexesFromString`: `0-2,4` as intervals below `completions`. A malformed part is
/// skipped and one starting at or past `completions` ends the list, as upstream logs and skips;
/// an interval's end past `completions` is cut to the last index.
pub fn parse_intervals(text: Option<&str>, completions: i32) -> Intervals {
    let mut intervals: Intervals = Vec::new();
    for part in text.unwrap_or("").split(',').filter(|p| !p.is_empty()) {
        let mut limits = part.split('-');
        let Some(Ok(first)) = limits.next().map(str::parse::<i32>) else { continue };
        if first >= completions {
            break;
        }
        let last = match limits.next().map(str::parse::<i32>) {
            None => first,
            Some(Ok(last)) => last.min(completions - 1),
            Some(Err(_)) => continue,
        };
        match intervals.last_mut() {
            Some(previous) if previous.1.checked_add(1) == Some(first) => previous.1 = last,
            _ => intervals.push((first, last)),
        }
    }
    intervals
}

/// The indexes of `0-2,4` below `completions`, one by one.
pub fn parse(text: Option<&str>, completions: i32) -> BTreeSet<i32> {
    parse_intervals(text, completions).into_iter().flat_map(|(first, last)| first..=last).collect()
}

/// A set of indexes as intervals.
pub fn intervals(indexes: &BTreeSet<i32>) -> Intervals {
    let mut intervals: Intervals = Vec::new();
    for &i in indexes {
        match intervals.last_mut() {
            Some(previous) if previous.1.checked_add(1) == Some(i) => previous.1 = i,
            _ => intervals.push((i, i)),
        }
    }
    intervals
}

/// How many indexes the intervals hold (upstream `total`).
pub fn total(intervals: &[(i32, i32)]) -> i64 {
    intervals.iter().map(|(first, last)| i64::from(*last) - i64::from(*first) + 1).sum()
}

/// Writes a set of indexes as upstream's `orderedIntervals.String` does: a run of two is
/// written `3,4`, a longer one `3-5`; `None` for an empty set (the field is omitted).
pub fn format(indexes: &BTreeSet<i32>) -> Option<String> {
    let parts: Vec<String> = intervals(indexes)
        .into_iter()
        .map(|(first, last)| match last - first {
            0 => first.to_string(),
            1 => format!("{first},{last}"),
            _ => format!("{first}-{last}"),
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(","))
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
        assert_eq!(format(&set).as_deref(), Some("0-2,4,6,7"));
        assert_eq!(format(&BTreeSet::new()), None);
        assert_eq!(first_pending(5, &set, &BTreeSet::from([3]), 2), Vec::<i32>::new());
        assert_eq!(first_pending(10, &set, &BTreeSet::from([3]), 2), [5, 8]);
    }

    #[test]
    fn parsing_skips_malformed_parts_and_stops_at_completions() {
        assert_eq!(parse_intervals(Some("0,1,x,3-4,5-y,7-12,20"), 10), [(0, 1), (3, 4), (7, 9)]);
        assert!(parse_intervals(Some("-1,2147483647"), i32::MAX).is_empty());
        assert_eq!(total(&parse_intervals(Some("0-2,4"), 10)), 4);
    }
}
