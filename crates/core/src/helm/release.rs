//! A release as Helm records it (pkg/release): its chart, the user's values, the rendered
//! manifest, notes, status and times, with Helm's JSON names, so the record in a Secret
//! reads as Helm's would.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::chart::Metadata;
use crate::sim::time::SimTime;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Release {
    pub name: String,
    pub info: Info,
    pub chart: ChartRecord,
    #[serde(default)]
    pub config: Map<String, Value>,
    #[serde(default)]
    pub manifest: String,
    pub version: i64,
    pub namespace: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Info {
    pub first_deployed: String,
    pub last_deployed: String,
    #[serde(default)]
    pub deleted: String,
    #[serde(default)]
    pub description: String,
    pub status: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
}

/// The chart as the release keeps it: metadata, templates (base64) and default values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartRecord {
    pub metadata: Metadata,
    #[serde(default)]
    pub templates: Vec<ChartFile>,
    #[serde(default)]
    pub values: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartFile {
    pub name: String,
    pub data: String,
}

/// pkg/release's statuses.
pub const DEPLOYED: &str = "deployed";
pub const SUPERSEDED: &str = "superseded";
pub const FAILED: &str = "failed";
pub const UNINSTALLING: &str = "uninstalling";
pub const PENDING_INSTALL: &str = "pending-install";
pub const PENDING_UPGRADE: &str = "pending-upgrade";
pub const PENDING_ROLLBACK: &str = "pending-rollback";

impl Release {
    /// `NAME-VERSION`, as `helm list` and `helm history` name the chart.
    pub fn chart_label(&self) -> String {
        format!("{}-{}", self.chart.metadata.name, self.chart.metadata.version)
    }

    /// The Secret that holds this revision.
    pub fn storage_key(&self) -> String {
        storage_key(&self.name, self.version)
    }

    pub fn last_deployed(&self) -> SimTime {
        parse_time(&self.info.last_deployed).unwrap_or_default()
    }
}

/// `sh.helm.release.v1.NAME.vVERSION`.
pub fn storage_key(name: &str, version: i64) -> String {
    format!("sh.helm.release.v1.{name}.v{version}")
}

/// A time as Go's JSON writes it (RFC 3339 with the fraction's trailing zeros trimmed).
pub fn format_time(time: SimTime) -> String {
    let seconds = time.to_rfc3339();
    let fraction = fraction(time);
    format!("{}{fraction}Z", seconds.trim_end_matches('Z'))
}

pub fn parse_time(text: &str) -> Option<SimTime> {
    let (seconds, millis) = match text.trim_end_matches('Z').split_once('.') {
        Some((seconds, fraction)) => {
            let digits: String = fraction.chars().chain("000".chars()).take(3).collect();
            (format!("{seconds}Z"), digits.parse::<u64>().ok()?)
        }
        None => (text.to_string(), 0),
    };
    SimTime::parse_rfc3339(&seconds).map(|t| SimTime(t.0 + millis))
}

/// `.999999999`: the milliseconds with trailing zeros trimmed, nothing when whole.
fn fraction(time: SimTime) -> String {
    let millis = time.as_millis() % 1000;
    if millis == 0 {
        return String::new();
    }
    format!(".{millis:03}").trim_end_matches('0').to_string()
}

/// Go's `time.Time.String()` in UTC: `2025-01-01 00:00:10.5 +0000 UTC` (helm list's UPDATED).
pub fn go_time_string(time: SimTime) -> String {
    let rfc = time.to_rfc3339();
    let (date, clock) = rfc.trim_end_matches('Z').split_once('T').unwrap_or((&rfc, ""));
    format!("{date} {clock}{} +0000 UTC", fraction(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_back_and_print_as_go() {
        let time = SimTime(12_500);
        assert_eq!(format_time(time), "2025-01-01T00:00:12.5Z");
        assert_eq!(parse_time(&format_time(time)), Some(time));
        assert_eq!(parse_time("2025-01-01T00:00:12Z"), Some(SimTime(12_000)));
        assert_eq!(go_time_string(time), "2025-01-01 00:00:12.5 +0000 UTC");
        assert_eq!(go_time_string(SimTime(60_000)), "2025-01-01 00:01:00 +0000 UTC");
    }
}
