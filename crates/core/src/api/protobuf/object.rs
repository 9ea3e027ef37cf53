//! A message's bytes as the JSON object the API serves, driven by the schema table.

use super::schema::{self, Card, Field, Ty};
use super::wire::{self, Wire};
use crate::api::secret::base64_encode;
use serde_json::{Map, Value};

/// Decodes the bytes of message `name` into a JSON object; unknown field numbers are skipped.
/// Errors start with the JSON path of the field that failed (`.spec.replicas: …`), or `: …`.
pub(super) fn object(name: &str, bytes: &[u8]) -> Result<Map<String, Value>, String> {
    let table = schema::fields(name).ok_or_else(|| format!(": no schema for message {name}"))?;
    let mut out = Map::new();
    for item in wire::fields(bytes) {
        let (num, wire) = item.map_err(|e| format!(": {e}"))?;
        if let Some(field) = table.iter().find(|field| field.num == num) {
            put(&mut out, field, wire).map_err(|e| at(field, e))?;
        }
    }
    Ok(out)
}

/// Prefixes an error with the field's JSON name (an inlined struct adds nothing to the path).
fn at(field: &Field, e: String) -> String {
    match (field.json, e.starts_with(['.', ':'])) {
        ("", _) => e,
        (json, true) => format!(".{json}{e}"),
        (json, false) => format!(".{json}: {e}"),
    }
}

/// Adds one occurrence of a field to the object being built.
fn put(out: &mut Map<String, Value>, field: &Field, wire: Wire) -> Result<(), String> {
    match (field.card, field.ty) {
        (_, Ty::Inline(name)) => out.extend(object(name, bytes(wire)?)?),
        (Card::List, ty) => push(out, field.json, ty, wire)?,
        (Card::Map, ty) => entry(out, field.json, ty, bytes(wire)?)?,
        (card, ty) => {
            if let Some(value) = value(ty, wire)?
                && (card == Card::One || !is_zero(&value))
            {
                out.insert(field.json.to_string(), value);
            }
        }
    }
    Ok(())
}

/// Appends to a repeated field's array: one element, or a packed run of varints.
fn push(out: &mut Map<String, Value>, json: &str, ty: Ty, wire: Wire) -> Result<(), String> {
    let Value::Array(items) = out.entry(json).or_insert_with(|| Value::Array(Vec::new())) else {
        return Err("repeated field also set as a single value".to_string());
    };
    match (ty, wire) {
        (Ty::Int | Ty::Bool, Wire::Bytes(packed)) => {
            for number in wire::packed_varints(packed)? {
                items.extend(value(ty, Wire::Varint(number))?);
            }
        }
        _ => items.extend(value(ty, wire)?),
    }
    Ok(())
}

/// Adds a map entry {1: key, 2: value} to a map field's object.
fn entry(out: &mut Map<String, Value>, json: &str, ty: Ty, bytes: &[u8]) -> Result<(), String> {
    let (mut key, mut val) = (String::new(), None);
    for item in wire::fields(bytes) {
        match item? {
            (1, wire) => key = string(wire)?,
            (2, wire) => val = Some(value(ty, wire)?),
            _ => {}
        }
    }
    // A value Go writes as JSON null (a zero metav1.Time in PodDisruptionBudget's disruptedPods).
    let val = match val {
        Some(Some(val)) => val,
        Some(None) => Value::Null,
        None => zero(ty).unwrap_or(Value::Null),
    };
    let Value::Object(map) = out.entry(json).or_insert_with(|| Value::Object(Map::new())) else {
        return Err("map field also set as a single value".to_string());
    };
    map.insert(key, val);
    Ok(())
}

/// A map entry's value when the entry leaves it out: the type's zero value.
fn zero(ty: Ty) -> Result<Value, String> {
    value(ty, Wire::Bytes(&[])).and_then(|v| v.ok_or_else(|| "map value missing".to_string()))
}

/// One value of a type; `None` for a value the JSON leaves out (a zero time, an empty raw).
fn value(ty: Ty, wire: Wire) -> Result<Option<Value>, String> {
    Ok(Some(match ty {
        Ty::Str => Value::String(string(wire)?),
        Ty::Bytes => Value::String(base64_encode(bytes(wire)?)),
        Ty::Int => Value::from(number(wire)? as i64),
        Ty::Bool => Value::Bool(number(wire)? != 0),
        Ty::Time => return time(bytes(wire)?),
        Ty::Quantity => quantity(bytes(wire)?)?,
        Ty::IntOrStr => int_or_string(bytes(wire)?)?,
        Ty::Raw => return raw(bytes(wire)?),
        Ty::Msg(name) | Ty::Inline(name) => Value::Object(object(name, bytes(wire)?)?),
    }))
}

/// Whether a value is what Go's `omitempty` leaves out.
fn is_zero(value: &Value) -> bool {
    match value {
        Value::String(s) => s.is_empty(),
        Value::Number(n) => n.as_i64() == Some(0),
        Value::Bool(b) => !b,
        _ => false,
    }
}

fn bytes<'a>(wire: Wire<'a>) -> Result<&'a [u8], String> {
    match wire {
        Wire::Bytes(bytes) => Ok(bytes),
        other => Err(format!("wire type {} where 2 (length-delimited) was expected", other.type_number())),
    }
}

/// A `string` field. Invalid UTF-8 becomes U+FFFD, as Go's JSON encoder writes it.
fn string(wire: Wire) -> Result<String, String> {
    Ok(String::from_utf8_lossy(bytes(wire)?).into_owned())
}

fn number(wire: Wire) -> Result<u64, String> {
    match wire {
        Wire::Varint(n) => Ok(n),
        other => Err(format!("wire type {} where 0 (varint) was expected", other.type_number())),
    }
}

/// The varint fields of a small special message (Time, IntOrString), by number; strings by `text`.
fn small(bytes: &[u8], text: u32) -> Result<([i64; 4], String), String> {
    let (mut numbers, mut s) = ([0i64; 4], String::new());
    for item in wire::fields(bytes) {
        match item? {
            (num, wire) if num == text => s = string(wire)?,
            (num @ 1..=3, wire) => numbers[num as usize] = number(wire)? as i64,
            _ => {}
        }
    }
    Ok((numbers, s))
}

/// `metav1.Time` {1: seconds, 2: nanos}: RFC 3339 in UTC to the second, as Go marshals it;
/// an empty message is the zero time, which is left out.
fn time(bytes: &[u8]) -> Result<Option<Value>, String> {
    if bytes.is_empty() {
        return Ok(None);
    }
    let ([_, seconds, ..], _) = small(bytes, 0)?;
    Ok(Some(Value::String(rfc3339(seconds))))
}

/// `resource.Quantity` {1: string}; an empty one is zero.
fn quantity(bytes: &[u8]) -> Result<Value, String> {
    let (_, s) = small(bytes, 1)?;
    Ok(Value::String(if s.is_empty() { "0".to_string() } else { s }))
}

/// `intstr.IntOrString` {1: type (0 int, 1 string), 2: intVal, 3: strVal}.
fn int_or_string(bytes: &[u8]) -> Result<Value, String> {
    let ([_, kind, int_val, _], str_val) = small(bytes, 3)?;
    Ok(if kind == 1 { Value::String(str_val) } else { Value::from(int_val as i32) })
}

/// `runtime.RawExtension` / `metav1.FieldsV1` {1: raw}: the JSON it holds; left out when empty.
fn raw(bytes: &[u8]) -> Result<Option<Value>, String> {
    let mut raw: &[u8] = &[];
    for item in wire::fields(bytes) {
        if let (1, wire) = item? {
            raw = self::bytes(wire)?;
        }
    }
    if raw.is_empty() {
        return Ok(None);
    }
    serde_json::from_slice(raw).map(Some).map_err(|e| format!("raw bytes are not JSON: {e}"))
}

/// Seconds since the Unix epoch as `2006-01-02T15:04:05Z`.
pub(super) fn rfc3339(seconds: i64) -> String {
    let (days, rem) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let (era, doe) = (z.div_euclid(146_097), z.rem_euclid(146_097));
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}
