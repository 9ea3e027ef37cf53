//! Semantic versions for Kubernetes' CEL semver library (apiserver `library.SemverLib`).
//!
//! Parsing follows `github.com/blang/semver/v4`'s `Parse` (which Kubernetes uses) rule for rule,
//! including its error texts; ordering is Semver 2.0.0 precedence (build metadata ignored).

use std::cmp::Ordering;
use std::fmt;

/// A parsed `MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]` version.
#[derive(Clone, Debug)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pre: Vec<PreRelease>,
    build: Vec<String>,
}

/// One dot-separated prerelease identifier: numeric ones order numerically and before
/// alphanumeric ones (blang `PRVersion`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum PreRelease {
    Num(u64),
    Alpha(String),
}

/// Why a string is not a version; the message is blang/semver's, word for word.
#[derive(Clone, Debug, PartialEq)]
pub struct SemverError(pub String);

impl fmt::Display for SemverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn is_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn is_alphanum(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn has_leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)`, with its error text.
fn parse_u64(s: &str) -> Result<u64, SemverError> {
    if s.is_empty() || !is_digits(s) {
        return Err(SemverError(format!("strconv.ParseUint: parsing {s:?}: invalid syntax")));
    }
    s.parse().map_err(|_| SemverError(format!("strconv.ParseUint: parsing {s:?}: value out of range")))
}

/// One numeric core part (`major`, `minor`, `patch`).
fn parse_core(s: &str, what: &str) -> Result<u64, SemverError> {
    if !is_digits(s) {
        return Err(SemverError(format!("Invalid character(s) found in {what} number {s:?}")));
    }
    if has_leading_zero(s) {
        let capital = if what == "major" {
            "Major"
        } else if what == "minor" {
            "Minor"
        } else {
            "Patch"
        };
        return Err(SemverError(format!("{capital} number must not contain leading zeroes {s:?}")));
    }
    parse_u64(s)
}

fn parse_pre(s: &str) -> Result<PreRelease, SemverError> {
    if s.is_empty() {
        return Err(SemverError("Prerelease is empty".to_owned()));
    }
    if is_digits(s) {
        if has_leading_zero(s) {
            return Err(SemverError(format!("Numeric PreRelease version must not contain leading zeroes {s:?}")));
        }
        return parse_u64(s).map(PreRelease::Num);
    }
    if is_alphanum(s) {
        return Ok(PreRelease::Alpha(s.to_owned()));
    }
    Err(SemverError(format!("Invalid character(s) found in prerelease {s:?}")))
}

fn parse_build(s: &str) -> Result<String, SemverError> {
    if s.is_empty() {
        return Err(SemverError("Build meta data is empty".to_owned()));
    }
    if !is_alphanum(s) {
        return Err(SemverError(format!("Invalid character(s) found in build meta data {s:?}")));
    }
    Ok(s.to_owned())
}

impl Semver {
    /// blang/semver `Parse`: strict Semver 2.0.0.
    pub fn parse(s: &str) -> Result<Semver, SemverError> {
        if s.is_empty() {
            return Err(SemverError("Version string empty".to_owned()));
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        let [major, minor, rest] = parts.as_slice() else {
            return Err(SemverError("No Major.Minor.Patch elements found".to_owned()));
        };
        let major = parse_core(major, "major")?;
        let minor = parse_core(minor, "minor")?;
        let (rest, build) = match rest.split_once('+') {
            Some((r, b)) => (r, b.split('.').map(parse_build).collect::<Result<Vec<_>, _>>()?),
            None => (*rest, Vec::new()),
        };
        let (patch, pre) = match rest.split_once('-') {
            Some((p, pre)) => (p, Some(pre)),
            None => (rest, None),
        };
        let patch = parse_core(patch, "patch")?;
        let pre = match pre {
            Some(pre) => pre.split('.').map(parse_pre).collect::<Result<Vec<_>, _>>()?,
            None => Vec::new(),
        };
        Ok(Semver { major, minor, patch, pre, build })
    }

    /// Kubernetes' `normalizeAndParse` (`semver(s, true)`): drops a leading `v`, leading zeros
    /// of each part, and fills in a missing minor or patch with 0.
    pub fn parse_normalized(s: &str) -> Result<Semver, SemverError> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s.splitn(3, '.').map(strip_leading_zeros).collect();
        if parts.len() < 3 {
            if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
                return Err(SemverError("short version cannot contain PreRelease/Build meta data".to_owned()));
            }
            parts.resize(3, "0".to_owned());
        }
        Semver::parse(&parts.join("."))
    }

    /// Semver precedence (blang `Version.Compare`).
    pub fn compare(&self, other: &Semver) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => self.pre.cmp(&other.pre),
        }
    }
}

/// One part of `normalizeAndParse`: `007` becomes `7`, `0` stays, `0abc` keeps a zero.
fn strip_leading_zeros(p: &str) -> String {
    if p.len() <= 1 {
        return p.to_owned();
    }
    let trimmed = p.trim_start_matches('0');
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) { trimmed.to_owned() } else { format!("0{trimmed}") }
}

/// Equal precedence is equality, as Kubernetes' `Semver.Equal` (`Version.EQ`) has it.
impl PartialEq for Semver {
    fn eq(&self, other: &Semver) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl fmt::Display for Semver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                PreRelease::Num(n) => write!(f, "{n}")?,
                PreRelease::Alpha(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            write!(f, "{}{b}", if i == 0 { "+" } else { "." })?;
        }
        Ok(())
    }
}
