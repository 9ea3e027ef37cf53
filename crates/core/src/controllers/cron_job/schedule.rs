//! The standard 5-field cron schedule and its descriptors, as robfig/cron v3's `ParseStandard`
//! reads them (what the CronJob controller and validation use), with the same error texts; and
//! the next activation after a time, in UTC.

use crate::sim::time::civil_from_days;

/// A parsed schedule: one bit per allowed value of each field, or a constant delay (`@every`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    Spec(SpecSchedule),
    Every { seconds: i64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecSchedule {
    minute: u64,
    hour: u64,
    dom: u64,
    month: u64,
    dow: u64,
}

/// robfig's marker for a field written `*` or `?`: day-of-month and day-of-week combine with
/// AND when either is starred, with OR otherwise (cron's historic rule).
const STAR_BIT: u64 = 1 << 63;

struct Bounds {
    min: u32,
    max: u32,
    names: &'static [&'static str],
}

const MINUTES: Bounds = Bounds { min: 0, max: 59, names: &[] };
const HOURS: Bounds = Bounds { min: 0, max: 23, names: &[] };
const DOM: Bounds = Bounds { min: 1, max: 31, names: &[] };
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
};
const DOW: Bounds = Bounds { min: 0, max: 6, names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"] };

/// Parses a schedule as `cron.ParseStandard` does; the error is robfig's text.
pub fn parse(spec: &str) -> Result<Schedule, String> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err("empty spec string".to_string());
    }
    if let Some(descriptor) = spec.strip_prefix('@') {
        return parse_descriptor(descriptor, spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!("expected exactly 5 fields, found {}: [{}]", fields.len(), fields.join(" ")));
    }
    Ok(Schedule::Spec(SpecSchedule {
        minute: field(fields[0], &MINUTES)?,
        hour: field(fields[1], &HOURS)?,
        dom: field(fields[2], &DOM)?,
        month: field(fields[3], &MONTHS)?,
        dow: field(fields[4], &DOW)?,
    }))
}

fn parse_descriptor(descriptor: &str, spec: &str) -> Result<Schedule, String> {
    let all = |b: &Bounds| bits(b.min, b.max, 1) | STAR_BIT;
    let one = |v: u32| 1u64 << v;
    let (minute, hour, dom, month, dow) = match descriptor {
        "yearly" | "annually" => (one(0), one(0), one(1), one(1), all(&DOW)),
        "monthly" => (one(0), one(0), one(1), all(&MONTHS), all(&DOW)),
        "weekly" => (one(0), one(0), all(&DOM), all(&MONTHS), one(0)),
        "daily" | "midnight" => (one(0), one(0), all(&DOM), all(&MONTHS), all(&DOW)),
        "hourly" => (one(0), all(&HOURS), all(&DOM), all(&MONTHS), all(&DOW)),
        _ => {
            if let Some(every) = descriptor.strip_prefix("every ") {
                let delay = crate::sim::time::Duration::parse(every.trim())
                    .map_err(|e| format!("failed to parse duration {spec}: {e}"))?;
                return Ok(Schedule::Every { seconds: (delay.as_millis() / 1000).max(1) as i64 });
            }
            return Err(format!("unrecognized descriptor: {spec}"));
        }
    };
    Ok(Schedule::Spec(SpecSchedule { minute, hour, dom, month, dow }))
}

/// One field: a comma-separated list of ranges.
fn field(text: &str, bounds: &Bounds) -> Result<u64, String> {
    text.split(',').try_fold(0, |acc, range| Ok(acc | parse_range(range, bounds)?))
}

/// `*`, `?`, `N`, `N-M`, each optionally `/step`; names for months and weekdays.
fn parse_range(expr: &str, b: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (mut start, mut end, mut extra);
    if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (start, end, extra) = (b.min, b.max, STAR_BIT);
    } else {
        start = parse_value(low_and_high[0], b)?;
        end = match low_and_high.len() {
            1 => start,
            2 => parse_value(low_and_high[1], b)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        extra = 0;
    }
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = parse_int(range_and_step[1])?;
            if single {
                end = b.max;
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < b.min {
        return Err(format!("beginning of range ({start}) below minimum ({}): {expr}", b.min));
    }
    if end > b.max {
        return Err(format!("end of range ({end}) above maximum ({}): {expr}", b.max));
    }
    if start > end {
        return Err(format!("beginning of range ({start}) beyond end of range ({end}): {expr}"));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    start = start.min(63);
    Ok(bits(start, end, step) | extra)
}

fn parse_value(text: &str, b: &Bounds) -> Result<u32, String> {
    let lower = text.to_ascii_lowercase();
    if let Some(index) = b.names.iter().position(|n| *n == lower) {
        return Ok(index as u32 + b.min);
    }
    parse_int(text)
}

fn parse_int(text: &str) -> Result<u32, String> {
    let n: i64 = text.parse().map_err(|_| {
        format!(
            "failed to parse int from {text}: strconv.Atoi: parsing {}: invalid syntax",
            crate::error::go_quote(text)
        )
    })?;
    if n < 0 {
        return Err(format!("negative number ({n}) not allowed: {text}"));
    }
    Ok(n.min(1000) as u32)
}

fn bits(min: u32, max: u32, step: u32) -> u64 {
    (min..=max.min(62)).step_by(step.max(1) as usize).fold(0, |acc, v| acc | 1u64 << v)
}

impl Schedule {
    /// The first activation strictly after `unix_seconds` (robfig's `Next`), in UTC; `None`
    /// when none falls within five years (robfig's search limit), as for `0 0 30 2 *`.
    pub fn next_after(&self, unix_seconds: i64) -> Option<i64> {
        match self {
            Schedule::Every { seconds } => Some(unix_seconds + seconds),
            Schedule::Spec(spec) => spec.next_after(unix_seconds),
        }
    }
}

impl SpecSchedule {
    fn next_after(&self, unix_seconds: i64) -> Option<i64> {
        let first_minute = unix_seconds.div_euclid(60) + 1;
        let first_day = first_minute.div_euclid(1440);
        for day in first_day..first_day + 5 * 366 {
            let from_minute = if day == first_day { first_minute.rem_euclid(1440) } else { 0 };
            let (_, month, dom) = civil_from_days(day);
            let weekday = (day + 4).rem_euclid(7) as u32;
            if self.month & (1 << month) != 0 && self.day_matches(dom, weekday) {
                for m in from_minute..1440 {
                    if self.hour & (1 << (m / 60)) != 0 && self.minute & (1 << (m % 60)) != 0 {
                        return Some((day * 1440 + m) * 60);
                    }
                }
            }
        }
        None
    }

    fn day_matches(&self, dom: u32, weekday: u32) -> bool {
        let dom_match = self.dom & (1 << dom) != 0;
        let dow_match = self.dow & (1 << weekday) != 0;
        if self.dom & STAR_BIT != 0 || self.dow & STAR_BIT != 0 {
            dom_match && dow_match
        } else {
            dom_match || dow_match
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-01-01T00:00:00Z, a Wednesday.
    const NEW_YEAR: i64 = 1_735_689_600;

    fn next(spec: &str, after: i64) -> i64 {
        parse(spec).unwrap().next_after(after).unwrap() - NEW_YEAR
    }

    #[test]
    fn next_activations_follow_the_fields() {
        assert_eq!(next("*/10 * * * *", NEW_YEAR), 600);
        assert_eq!(next("*/10 * * * *", NEW_YEAR + 601), 1200);
        assert_eq!(next("* * * * *", NEW_YEAR + 30), 60);
        assert_eq!(next("@hourly", NEW_YEAR), 3600);
        assert_eq!(next("30 2 * * *", NEW_YEAR), 2 * 3600 + 1800);
        // Sunday 5 January; day-of-month and weekday restricted together match either.
        assert_eq!(next("0 0 * * sun", NEW_YEAR), 4 * 86_400);
        assert_eq!(next("0 0 2 * sun", NEW_YEAR), 86_400);
        assert_eq!(next("0 0 1 feb *", NEW_YEAR), 31 * 86_400);
        assert_eq!(parse("0 0 30 2 *").unwrap().next_after(NEW_YEAR), None);
    }

    #[test]
    fn errors_read_as_robfig_cron() {
        let err = |spec: &str| parse(spec).unwrap_err();
        assert_eq!(err("bad"), "expected exactly 5 fields, found 1: [bad]");
        assert_eq!(err("61 * * * *"), "end of range (61) above maximum (59): 61");
        assert_eq!(err("5-1 * * * *"), "beginning of range (5) beyond end of range (1): 5-1");
        assert_eq!(err("@often"), "unrecognized descriptor: @often");
        assert_eq!(err("*/0 * * * *"), "step of range should be a positive number: */0");
        assert_eq!(err("x * * * *"), "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax");
    }
}
