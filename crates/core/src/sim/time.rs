//! Virtual time: `SimTime` (milliseconds since the lab started) and `Duration` parsing/printing.
//!
//! The core never reads a wall clock. Timestamps shown to learners are the sim epoch plus
//! virtual time, rendered as RFC 3339 like the API server's `metav1.Time`.

use std::fmt;

/// A point in virtual time: milliseconds since the simulation began.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// Seconds since the Unix epoch at which every lab's clock starts (2025-01-01T00:00:00Z).
pub const SIM_EPOCH_UNIX_SECONDS: i64 = 1_735_689_600;

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub const fn from_millis(ms: u64) -> Self {
        SimTime(ms)
    }

    /// Milliseconds since the Unix epoch (event names, `metav1.MicroTime`).
    pub fn unix_millis(self) -> u64 {
        SIM_EPOCH_UNIX_SECONDS as u64 * 1000 + self.0
    }

    pub fn as_millis(self) -> u64 {
        self.0
    }

    pub fn plus(self, d: Duration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }

    /// Time elapsed since `earlier` (zero if `earlier` is later).
    pub fn since(self, earlier: SimTime) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }

    /// RFC 3339 with second precision, as `metav1.Time` marshals (`2025-01-01T00:00:05Z`).
    pub fn to_rfc3339(self) -> String {
        let secs = SIM_EPOCH_UNIX_SECONDS + (self.0 / 1000) as i64;
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        let (hh, mm, ss) = (rem / 3600, (rem % 3600) / 60, rem % 60);
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
    }

    /// C's `asctime` form, as `date` and `nvidia-smi` print the time (`Tue Feb 17 16:58:38 2026`).
    pub fn to_ctime(self) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        let secs = SIM_EPOCH_UNIX_SECONDS + (self.0 / 1000) as i64;
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (y, m, d) = civil_from_days(days);
        let (hh, mm, ss) = (rem / 3600, (rem % 3600) / 60, rem % 60);
        let weekday = DAYS[days.rem_euclid(7) as usize];
        let month = MONTHS[(m as usize).saturating_sub(1) % 12];
        format!("{weekday} {month} {d:>2} {hh:02}:{mm:02}:{ss:02} {y}")
    }

    /// RFC 3339 with microseconds, as `metav1.MicroTime` prints (`…T00:00:10.000000Z`).
    pub fn to_rfc3339_micro(self) -> String {
        let seconds = self.to_rfc3339();
        let micros = (self.0 % 1000) * 1000;
        format!("{}.{micros:06}Z", &seconds[..seconds.len() - 1])
    }

    /// Parses what `to_rfc3339_micro` prints.
    pub fn parse_rfc3339_micro(s: &str) -> Option<SimTime> {
        let (seconds, fraction) = s.strip_suffix('Z')?.split_once('.')?;
        if fraction.len() != 6 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let whole = SimTime::parse_rfc3339(&format!("{seconds}Z"))?;
        Some(SimTime(whole.0 + fraction.parse::<u64>().ok()? / 1000))
    }

    /// Parses what `to_rfc3339` prints (used when a manifest carries a timestamp).
    pub fn parse_rfc3339(s: &str) -> Option<SimTime> {
        let b = s.as_bytes();
        if b.len() != 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[19] != b'Z' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
        let days = days_from_civil(num(0..4)?, num(5..7)?, num(8..10)?);
        let secs = days * 86_400 + num(11..13)? * 3600 + num(14..16)? * 60 + num(17..19)?;
        let since_epoch = secs - SIM_EPOCH_UNIX_SECONDS;
        (since_epoch >= 0).then(|| SimTime(since_epoch as u64 * 1000))
    }
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A span of virtual time in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub u64);

impl Duration {
    pub const ZERO: Duration = Duration(0);

    pub const fn from_millis(ms: u64) -> Self {
        Duration(ms)
    }

    pub const fn from_secs(s: u64) -> Self {
        Duration(s.saturating_mul(1000))
    }

    pub fn as_millis(self) -> u64 {
        self.0
    }

    pub fn as_secs(self) -> u64 {
        self.0 / 1000
    }

    /// Parses Go's `time.ParseDuration` subset that scripts use: `500ms`, `30s`, `5m`, `1h2m`, `1.5s`.
    pub fn parse(text: &str) -> Result<Duration, String> {
        let invalid = || format!("time: invalid duration \"{text}\"");
        if text.is_empty() {
            return Err(invalid());
        }
        if text == "0" {
            return Ok(Duration::ZERO);
        }
        let mut rest = text;
        let mut total_ms: f64 = 0.0;
        while !rest.is_empty() {
            let digits = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .ok_or_else(|| format!("time: missing unit in duration \"{text}\""))?;
            let (number, tail) = rest.split_at(digits);
            let value: f64 = number.parse().map_err(|_| invalid())?;
            let unit_len = tail.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(tail.len());
            let (unit, next) = tail.split_at(unit_len);
            let unit_ms = match unit {
                "ms" => 1.0,
                "s" => 1_000.0,
                "m" => 60_000.0,
                "h" => 3_600_000.0,
                _ => return Err(format!("time: unknown unit \"{unit}\" in duration \"{text}\"")),
            };
            total_ms += value * unit_ms;
            rest = next;
        }
        Ok(Duration(total_ms.round() as u64))
    }
}

impl fmt::Display for Duration {
    /// Go's `time.Duration.String()` for whole milliseconds: `1h2m0s`, `30s`, `1.5s`, `500ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0;
        if ms == 0 {
            return f.write_str("0s");
        }
        if ms < 1000 {
            return write!(f, "{ms}ms");
        }
        let (h, m) = (ms / 3_600_000, (ms / 60_000) % 60);
        let (s, frac) = ((ms / 1000) % 60, ms % 1000);
        if h > 0 {
            write!(f, "{h}h")?;
        }
        if h > 0 || m > 0 {
            write!(f, "{m}m")?;
        }
        if frac == 0 {
            write!(f, "{s}s")
        } else {
            let frac = format!("{frac:03}");
            write!(f, "{s}.{}s", frac.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_print_like_go() {
        for (text, ms, printed) in [
            ("500ms", 500, "500ms"),
            ("30s", 30_000, "30s"),
            ("5m", 300_000, "5m0s"),
            ("1h2m", 3_720_000, "1h2m0s"),
            ("1.5s", 1_500, "1.5s"),
            ("0", 0, "0s"),
        ] {
            let d = Duration::parse(text).unwrap();
            assert_eq!(d.as_millis(), ms, "{text}");
            assert_eq!(d.to_string(), printed, "{text}");
        }
        assert_eq!(Duration::parse("5x").unwrap_err(), "time: unknown unit \"x\" in duration \"5x\"");
        assert_eq!(Duration::parse("5").unwrap_err(), "time: missing unit in duration \"5\"");
        assert!(Duration::parse("").is_err());
    }

    #[test]
    fn timestamps_render_from_the_sim_epoch_and_round_trip() {
        assert_eq!(SimTime(0).to_rfc3339(), "2025-01-01T00:00:00Z");
        let t = SimTime(86_400_000 * 59 + 3_723_000);
        assert_eq!(t.to_rfc3339(), "2025-03-01T01:02:03Z");
        assert_eq!(SimTime::parse_rfc3339(&t.to_rfc3339()), Some(t));
        assert_eq!(SimTime::parse_rfc3339("garbage"), None);
    }
}
