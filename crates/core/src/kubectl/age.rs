//! Ages as kubectl prints them: upstream `duration.HumanDuration` (`5s`, `116s`, `4m48s`, `3h`, `2d5h`).

use crate::sim::time::{Duration, SimTime};

/// kubectl's AGE for an object created at `created`, seen at `now`.
pub fn age(created: Option<SimTime>, now: SimTime) -> String {
    match created {
        Some(t) => human_duration(since_timestamp(t, now)),
        None => "<unknown>".to_string(),
    }
}

/// Time since an API timestamp. The API keeps whole seconds (`metav1.Time`), so a pod created
/// at 10.7 s is 1 s old at 11.0 s, as kubectl computes it from the stored `…:10Z`.
pub fn since_timestamp(t: SimTime, now: SimTime) -> Duration {
    now.since(SimTime(t.as_millis() / 1000 * 1000))
}

pub fn human_duration(d: Duration) -> String {
    let seconds = d.as_secs();
    if seconds < 120 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 { format!("{minutes}m") } else { format!("{minutes}m{s}s") };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 { format!("{hours}h") } else { format!("{hours}h{m}m") };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 { format!("{}d", hours / 24) } else { format!("{}d{h}h", hours / 24) };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        let years = hours / 24 / 365;
        return if days == 0 { format!("{years}y") } else { format!("{years}y{days}d") };
    }
    format!("{}y", hours / 24 / 365)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_match_kubectl() {
        for (secs, text) in [
            (0, "0s"),
            (5, "5s"),
            (116, "116s"),
            (120, "2m"),
            (288, "4m48s"),
            (600, "10m"),
            (179 * 60, "179m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 25 * 60, "3h25m"),
            (30 * 3600, "30h"),
            (53 * 3600, "2d5h"),
            (400 * 86400, "400d"),
            (800 * 86400, "2y70d"),
        ] {
            assert_eq!(human_duration(Duration::from_secs(secs)), text, "{secs}s");
        }
    }
}
