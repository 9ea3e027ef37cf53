//! Log timestamps as the simulation prints them (kubelab-core's `go_log_timestamp` and
//! `klog_header`), from the Unix time the host gives: the same line reads the same on a real node.

/// Go's `log` prefix for `unix_ms`: `2025/01/01 00:00:03`.
pub fn go_log_timestamp(unix_ms: i64) -> String {
    let (y, mo, d, h, mi, s) = civil(unix_ms);
    format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}")
}

/// klog's info header from PID 1: `I0101 00:00:03.000000       1`.
pub fn klog_header(unix_ms: i64) -> String {
    let (_, mo, d, h, mi, s) = civil(unix_ms);
    let micros = unix_ms.rem_euclid(1000) * 1000;
    format!("I{mo:02}{d:02} {h:02}:{mi:02}:{s:02}.{micros:06} {:>7}", 1)
}

/// vLLM's (Python `logging`'s `%m-%d %H:%M:%S`) stamp for `unix_ms`: `01-01 00:00:03`.
pub fn month_day_time(unix_ms: i64) -> String {
    let (_, mo, d, h, mi, s) = civil(unix_ms);
    format!("{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}")
}

/// `{pod}`, `{time}` and `{klog}` filled in, as the simulation fills them.
pub fn expand(text: &str, pod: &str, unix_ms: i64) -> String {
    let mut out = text.replace("{pod}", pod);
    if out.contains("{time}") {
        out = out.replace("{time}", &go_log_timestamp(unix_ms));
    }
    if out.contains("{klog}") {
        out = out.replace("{klog}", &klog_header(unix_ms));
    }
    out
}

/// UTC year, month, day, hour, minute, second.
fn civil(unix_ms: i64) -> (i64, u32, u32, i64, i64, i64) {
    let secs = unix_ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    (y, m, d, rem / 3600, (rem % 3600) / 60, rem % 60)
}

/// Howard Hinnant's `civil_from_days`, as kubelab-core's clock uses.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-01-01T00:00:03.250Z.
    const MOMENT: i64 = 1_735_689_603_250;

    #[test]
    fn timestamps_print_as_go_and_klog_print_them() {
        assert_eq!(go_log_timestamp(MOMENT), "2025/01/01 00:00:03");
        assert_eq!(klog_header(MOMENT), "I0101 00:00:03.250000       1");
        assert_eq!(month_day_time(MOMENT), "01-01 00:00:03");
        assert_eq!(go_log_timestamp(951_782_400_000), "2000/02/29 00:00:00");
        assert_eq!(expand("{time} {pod} up", "web-1", MOMENT), "2025/01/01 00:00:03 web-1 up");
    }
}
