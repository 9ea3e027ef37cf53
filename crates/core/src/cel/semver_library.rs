//! Kubernetes' CEL Semver library (apiserver pkg/cel/library/semverlib.go): `semver()`,
//! `isSemver()` and a version's comparisons and parts, over the `Semver` type of `semver.rs`.

use super::error::Fault;
use super::semver::Semver;
use super::value::Value;
use std::cmp::Ordering;

/// Runs a semver library function if `function` applied to `args` is one; `None` otherwise.
pub(crate) fn call(function: &str, args: &[Value]) -> Option<Result<Value, Fault>> {
    let parse = |s: &str, normalize: bool| if normalize { Semver::parse_normalized(s) } else { Semver::parse(s) };
    let cmp = |a: &Semver, b: &Semver| match a.compare(b) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    };
    let r = match (function, args) {
        ("semver", [Value::String(s)]) => parse(s, false).map(Value::Semver).map_err(|e| Fault::err(e.0)),
        ("semver", [Value::String(s), Value::Bool(n)]) => parse(s, *n).map(Value::Semver).map_err(|e| Fault::err(e.0)),
        ("isSemver", [Value::String(s)]) => Ok(Value::Bool(parse(s, false).is_ok())),
        ("isSemver", [Value::String(s), Value::Bool(n)]) => Ok(Value::Bool(parse(s, *n).is_ok())),
        ("isGreaterThan", [Value::Semver(a), Value::Semver(b)]) => Ok(Value::Bool(cmp(a, b) == 1)),
        ("isLessThan", [Value::Semver(a), Value::Semver(b)]) => Ok(Value::Bool(cmp(a, b) == -1)),
        ("compareTo", [Value::Semver(a), Value::Semver(b)]) => Ok(Value::Int(cmp(a, b))),
        // Go's `types.Int(v.Major)` converts the uint64 with wrap-around; so does `as`.
        ("major", [Value::Semver(v)]) => Ok(Value::Int(v.major as i64)),
        ("minor", [Value::Semver(v)]) => Ok(Value::Int(v.minor as i64)),
        ("patch", [Value::Semver(v)]) => Ok(Value::Int(v.patch as i64)),
        _ => return None,
    };
    Some(r)
}
