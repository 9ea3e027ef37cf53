//! Kubernetes' CEL quantity library (apiserver `library.Quantity`): `quantity()`,
//! `isQuantity()`, `sign()` and the member functions on `kubernetes.Quantity` values, over
//! the core's port of `resource.Quantity`.

use super::error::Fault;
use super::value::Value;
use crate::api::quantity::{Format, Quantity};
use std::cmp::Ordering;

/// Runs a quantity function if `function` applied to `args` is one; `None` otherwise.
pub(crate) fn call(function: &str, args: &[Value]) -> Option<Result<Value, Fault>> {
    let r = match (function, args) {
        ("quantity", [Value::String(s)]) => {
            Quantity::parse(s).map(Value::Quantity).map_err(|e| Fault::err(e.to_string()))
        }
        ("isQuantity", [Value::String(s)]) => Ok(Value::Bool(Quantity::parse(s).is_ok())),
        ("sign", [Value::Quantity(q)]) => Ok(Value::Int(ordering_int(q.cmp_value(&Quantity::zero())))),
        ("isGreaterThan", [Value::Quantity(a), Value::Quantity(b)]) => {
            Ok(Value::Bool(a.cmp_value(b) == Ordering::Greater))
        }
        ("isLessThan", [Value::Quantity(a), Value::Quantity(b)]) => Ok(Value::Bool(a.cmp_value(b) == Ordering::Less)),
        ("compareTo", [Value::Quantity(a), Value::Quantity(b)]) => Ok(Value::Int(ordering_int(a.cmp_value(b)))),
        ("asApproximateFloat", [Value::Quantity(q)]) => Ok(Value::Double(approximate_float(q))),
        ("asInteger", [Value::Quantity(q)]) => {
            as_int64(q).map(Value::Int).ok_or_else(|| Fault::err("cannot convert value to integer"))
        }
        ("isInteger", [Value::Quantity(q)]) => Ok(Value::Bool(as_int64(q).is_some())),
        ("add", [Value::Quantity(a), Value::Quantity(b)]) => Ok(Value::Quantity(a.add(b))),
        ("sub", [Value::Quantity(a), Value::Quantity(b)]) => Ok(Value::Quantity(a.sub(b))),
        // Upstream converts the int with `NewQuantity(i, DecimalExponent)` first.
        ("add", [Value::Quantity(a), Value::Int(i)]) => {
            Ok(Value::Quantity(a.add(&Quantity::from_int(*i, Format::DecimalExponent))))
        }
        ("sub", [Value::Quantity(a), Value::Int(i)]) => {
            Ok(Value::Quantity(a.sub(&Quantity::from_int(*i, Format::DecimalExponent))))
        }
        _ => return None,
    };
    Some(r)
}

fn ordering_int(o: Ordering) -> i64 {
    match o {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

/// Upstream `AsInt64`: the value when it is a whole number within the int64 range.
fn as_int64(q: &Quantity) -> Option<i64> {
    // `value()` rounds away from zero and saturates, so it round-trips only for whole
    // numbers in range.
    let v = q.value();
    (q.cmp_value(&Quantity::from_int(v, q.format())) == Ordering::Equal).then_some(v)
}

/// Upstream `AsApproximateFloat64`, read off the canonical text (`1500m`, `10Gi`, `12e6`).
fn approximate_float(q: &Quantity) -> f64 {
    let text = q.to_string();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+')).unwrap_or(text.len());
    let (number, suffix) = text.split_at(split);
    let mantissa: f64 = number.parse().unwrap_or(0.0);
    mantissa * suffix_multiplier(suffix)
}

fn suffix_multiplier(suffix: &str) -> f64 {
    let binary = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];
    if let Some(i) = binary.iter().position(|s| *s == suffix) {
        return 1024f64.powi(i as i32 + 1);
    }
    let exponent = match suffix {
        "" => 0,
        "n" => -9,
        "u" => -6,
        "m" => -3,
        "k" => 3,
        "M" => 6,
        "G" => 9,
        "T" => 12,
        "P" => 15,
        "E" => 18,
        other => other.get(1..).and_then(|e| e.parse::<i32>().ok()).unwrap_or(0),
    };
    10f64.powi(exponent)
}
