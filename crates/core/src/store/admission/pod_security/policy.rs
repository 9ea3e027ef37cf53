//! A namespace's Pod Security policy: the level and version of each mode, read from its
//! `pod-security.kubernetes.io/*` labels as k8s.io/pod-security-admission's api/helpers.go
//! `PolicyToEvaluate` reads them, with kube-apiserver's defaults (`privileged:latest`).

use crate::api::string_map::StringMap;
use crate::error::FieldError;

const LABEL_PREFIX: &str = "pod-security.kubernetes.io/";

/// The newest policy version the lab's checks know (the API server's own minor version):
/// `latest`, and any newer `v1.x`, evaluate as this one (upstream's registry `maxVersion`).
pub const LATEST_MINOR: u32 = 36;

/// A Pod Security Standard, least strict first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Privileged,
    Baseline,
    Restricted,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }

    fn parse(value: &str) -> Result<Level, &'static str> {
        match value {
            "privileged" => Ok(Level::Privileged),
            "baseline" => Ok(Level::Baseline),
            "restricted" => Ok(Level::Restricted),
            _ => Err("must be one of privileged, baseline, restricted"),
        }
    }
}

/// A policy version: `latest` or `v1.<minor>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    Latest,
    Minor(u32),
}

impl Version {
    /// The checks' version this one evaluates as.
    pub fn minor(self) -> u32 {
        match self {
            Version::Latest => LATEST_MINOR,
            Version::Minor(minor) => minor.min(LATEST_MINOR),
        }
    }

    fn parse(value: &str) -> Result<Version, &'static str> {
        const WRONG: &str = r#"must be "latest" or "v1.x""#;
        if value == "latest" {
            return Ok(Version::Latest);
        }
        let digits = value.strip_prefix("v1.").ok_or(WRONG)?;
        let canonical = digits == "0" || (!digits.starts_with('0') && !digits.is_empty());
        match digits.parse::<u32>() {
            Ok(minor) if canonical && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(Version::Minor(minor)),
            _ => Err(WRONG),
        }
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Version::Latest => f.write_str("latest"),
            Version::Minor(minor) => write!(f, "v1.{minor}"),
        }
    }
}

/// One mode's level and version, printed `restricted:latest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LevelVersion {
    pub level: Level,
    pub version: Version,
}

impl std::fmt::Display for LevelVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.level.as_str(), self.version)
    }
}

const PRIVILEGED_LATEST: LevelVersion = LevelVersion { level: Level::Privileged, version: Version::Latest };

/// The three modes of a namespace's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub enforce: LevelVersion,
    pub audit: LevelVersion,
    pub warn: LevelVersion,
}

impl Policy {
    pub fn fully_privileged(&self) -> bool {
        [self.enforce, self.audit, self.warn].iter().all(|lv| lv.level == Level::Privileged)
    }
}

/// The policy a namespace's labels ask for, and the errors in labels that could not be read
/// (an unreadable enforce level enforces `restricted`; unreadable audit and warn levels fail
/// open to `privileged`; an unreadable version is `latest`).
pub fn policy_to_evaluate(labels: &StringMap) -> (Policy, Vec<FieldError>) {
    let mut policy = Policy { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST };
    let mut errors = Vec::new();
    let mut read = |mode: &str, fallback: Level| -> (Option<Level>, Option<Version>) {
        let level = labels.get(&format!("{LABEL_PREFIX}{mode}")).map(|value| {
            Level::parse(value).unwrap_or_else(|detail| {
                errors.push(invalid(mode, value, detail));
                fallback
            })
        });
        let version = labels.get(&format!("{LABEL_PREFIX}{mode}-version")).map(|value| {
            Version::parse(value).unwrap_or_else(|detail| {
                errors.push(invalid(&format!("{mode}-version"), value, detail));
                Version::Latest
            })
        });
        (level, version)
    };
    let (enforce_level, enforce_version) = read("enforce", Level::Restricted);
    let (audit_level, audit_version) = read("audit", Level::Privileged);
    let (warn_level, warn_version) = read("warn", Level::Privileged);
    let set = |lv: &mut LevelVersion, level: Option<Level>, version: Option<Version>| {
        lv.level = level.unwrap_or(lv.level);
        lv.version = version.unwrap_or(lv.version);
    };
    set(&mut policy.enforce, enforce_level, enforce_version);
    set(&mut policy.audit, audit_level, audit_version);
    set(&mut policy.warn, warn_level, warn_version);
    // Warn defaults to an explicitly set, stricter enforce level (and its version).
    let enforce_read = labels.get(&format!("{LABEL_PREFIX}enforce")).is_some_and(|value| Level::parse(value).is_ok());
    if warn_level.is_none() && enforce_read && policy.enforce.level > policy.warn.level {
        policy.warn.level = policy.enforce.level;
        if warn_version.is_none() {
            policy.warn.version = policy.enforce.version;
        }
    }
    (policy, errors)
}

fn invalid(label: &str, value: &str, detail: &str) -> FieldError {
    FieldError::invalid(format!("metadata.labels[{LABEL_PREFIX}{label}]"), crate::error::go_quote(value), detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(labels: &[(&str, &str)]) -> (String, Vec<String>) {
        let mut map = StringMap::default();
        for (key, value) in labels {
            map.insert(format!("{LABEL_PREFIX}{key}"), value.to_string());
        }
        let (p, errors) = policy_to_evaluate(&map);
        (format!("{} {} {}", p.enforce, p.audit, p.warn), errors.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn an_unlabelled_namespace_is_privileged() {
        assert_eq!(policy(&[]).0, "privileged:latest privileged:latest privileged:latest");
    }

    #[test]
    fn warn_follows_a_stricter_enforce_level_and_its_version() {
        let (p, _) = policy(&[("enforce", "restricted"), ("enforce-version", "v1.30")]);
        assert_eq!(p, "restricted:v1.30 privileged:latest restricted:v1.30");
        let (p, _) = policy(&[("enforce", "baseline"), ("warn", "restricted")]);
        assert_eq!(p, "baseline:latest privileged:latest restricted:latest");
    }

    #[test]
    fn unreadable_labels_enforce_restricted_and_fail_open_elsewhere() {
        let (p, errors) = policy(&[("enforce", "strict"), ("warn", "x"), ("audit-version", "1.30")]);
        assert_eq!(p, "restricted:latest privileged:latest privileged:latest");
        assert_eq!(
            errors,
            [
                r#"metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted"#,
                r#"metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "1.30": must be "latest" or "v1.x""#,
                r#"metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "x": must be one of privileged, baseline, restricted"#,
            ]
        );
    }

    #[test]
    fn versions_newer_than_the_server_evaluate_as_its_own() {
        assert_eq!(Version::parse("v1.99").unwrap().minor(), LATEST_MINOR);
        assert_eq!(Version::parse("v1.22").unwrap().minor(), 22);
        assert!(Version::parse("v1.022").is_err());
    }
}
