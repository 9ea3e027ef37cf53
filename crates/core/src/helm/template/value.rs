//! The values a template works on, typed as Go's reflection sees Helm's data: chart values are
//! `map[string]interface{}` with float64 numbers, `--set` gives int64, `.Chart` and
//! `.Capabilities` are structs whose unknown fields are errors.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::Value as Json;

/// One value in a template's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A nil interface: what a missing map key gives under `missingkey=zero`.
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    List(Rc<Vec<Value>>),
    Map(Rc<BTreeMap<String, Value>>),
    /// A Go struct (`*chart.Metadata`, `*chartutil.Capabilities`): its type name for errors.
    Struct(&'static str, Rc<BTreeMap<String, Value>>),
    /// `.Capabilities.APIVersions`, whose one method is `Has`.
    ApiVersions(Rc<Vec<String>>),
    /// Something Helm offers that the lab does not (`.Files`, `.Capabilities.HelmVersion`):
    /// any use of it is refused rather than rendered wrong.
    Unavailable(&'static str),
}

impl Value {
    pub fn str(text: impl Into<Rc<str>>) -> Value {
        Value::Str(text.into())
    }

    /// The type Go's errors name for a value held in an `interface{}`.
    pub fn go_type(&self) -> &'static str {
        match self {
            Value::Nil => "<nil>",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int64",
            Value::Float(_) => "float64",
            Value::Str(_) => "string",
            Value::List(_) => "[]interface {}",
            Value::Map(_) => "map[string]interface {}",
            Value::Struct(name, _) => name,
            Value::ApiVersions(_) => "chartutil.VersionSet",
            Value::Unavailable(_) => "interface {}",
        }
    }

    /// text/template's truth: false, 0, nil, and empty strings, lists and maps are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Nil | Value::Unavailable(_) => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(items) => !items.is_empty(),
            Value::Map(map) => !map.is_empty(),
            Value::Struct(..) => true,
            Value::ApiVersions(items) => !items.is_empty(),
        }
    }

    /// From JSON as Helm's values arrive (numbers keep their JSON type: see `values.rs`).
    pub fn from_json(json: &Json) -> Value {
        match json {
            Json::Null => Value::Nil,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(0.0)),
            },
            Json::String(s) => Value::str(s.as_str()),
            Json::Array(items) => Value::List(Rc::new(items.iter().map(Value::from_json).collect())),
            Json::Object(map) => {
                Value::Map(Rc::new(map.iter().map(|(k, v)| (k.clone(), Value::from_json(v))).collect()))
            }
        }
    }

    /// To JSON as encoding/json writes it (a whole float64 is written without a fraction).
    pub fn to_json(&self) -> Json {
        match self {
            Value::Nil | Value::Unavailable(_) => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Float(f) => float_json(*f),
            Value::Str(s) => Json::String(s.to_string()),
            Value::List(items) => Json::Array(items.iter().map(Value::to_json).collect()),
            Value::Map(map) | Value::Struct(_, map) => {
                Json::Object(map.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
            Value::ApiVersions(items) => Json::Array(items.iter().map(|s| Json::String(s.clone())).collect()),
        }
    }
}

/// A float64 as JSON: whole numbers as integers, as Go's encoder prints them.
pub fn float_json(f: f64) -> Json {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        Json::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number)
    }
}

/// `fmt`'s `%v` of a float64: `strconv.FormatFloat(f, 'g', -1, 64)`, whose shortest form
/// switches to an exponent from 1e+06 (why a chart's `1000000` renders as `1e+06`).
pub fn format_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    // Shortest digits and decimal exponent, from Rust's shortest round-trip form.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f < 0.0 { "-" } else { "" };
    // upstream: strconv/ftoa.go, %g with the shortest precision decides at an exponent of 6.
    if !(-4..6).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{fraction}e{exp_sign}{:02}", exponent.abs());
    }
    let point = exponent + 1;
    let text = if point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    };
    format!("{sign}{text}")
}

/// `fmt`'s `%v`: what `{{ x }}` prints (nil as `<no value>` there; `<nil>` in `printf`).
pub fn format_value(value: &Value) -> String {
    match value {
        Value::Nil => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format_float(*f),
        Value::Str(s) => s.to_string(),
        Value::List(items) => {
            let parts: Vec<String> = items.iter().map(format_value).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Map(map) => {
            let parts: Vec<String> = map.iter().map(|(k, v)| format!("{k}:{}", format_value(v))).collect();
            format!("map[{}]", parts.join(" "))
        }
        Value::Struct(_, map) => {
            let parts: Vec<String> = map.values().map(format_value).collect();
            format!("&{{{}}}", parts.join(" "))
        }
        Value::ApiVersions(items) => format!("[{}]", items.join(" ")),
        Value::Unavailable(what) => format!("<{what}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_gos_percent_v() {
        assert_eq!(format_float(1.0), "1");
        assert_eq!(format_float(8080.0), "8080");
        assert_eq!(format_float(0.5), "0.5");
        assert_eq!(format_float(1e6), "1e+06");
        assert_eq!(format_float(123456789.0), "1.23456789e+08");
        assert_eq!(format_float(0.0001), "0.0001");
        assert_eq!(format_float(0.00001), "1e-05");
    }
}
