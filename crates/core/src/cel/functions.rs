//! The function library: overload declarations for the checker (cel-go `stdlib`, `ext.Strings`
//! v2, Kubernetes' quantity and semver libraries) and the standard functions' run-time
//! behaviour, with cel-go's error texts.

use super::error::Fault;
use super::types::Type;
use super::value::{MapKey, Value, equals, format_double, numeric_cmp};
use super::{quantity, semver_library};
use std::cmp::Ordering;
use std::rc::Rc;

/// A parameter or result in an overload signature; `A` and `B` are type parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum P {
    Dyn,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Quantity,
    Semver,
    TypeOf,
    A,
    B,
    ListA,
    MapAB,
    ListString,
}

/// One overload: `member` ones are called as `receiver.f(args)`, the receiver first in `params`.
pub(crate) struct Overload {
    pub function: &'static str,
    pub member: bool,
    pub params: &'static [P],
    pub result: P,
}

const fn g(function: &'static str, params: &'static [P], result: P) -> Overload {
    Overload { function, member: false, params, result }
}

const fn m(function: &'static str, params: &'static [P], result: P) -> Overload {
    Overload { function, member: true, params, result }
}

use decls::OVERLOADS;

/// The declarations, in a module of their own so that `P`'s variants can be named bare.
mod decls {
    use super::P::*;
    use super::{Overload, g, m};

    /// Every overload the checker knows, grouped as cel-go declares them.
    pub(super) const OVERLOADS: &[Overload] = &[
        // Logic and equality.
        g("!_", &[Bool], Bool),
        g("_&&_", &[Bool, Bool], Bool),
        g("_||_", &[Bool, Bool], Bool),
        g("_?_:_", &[Bool, A, A], A),
        g("_==_", &[A, A], Bool),
        g("_!=_", &[A, A], Bool),
        g("@in", &[A, ListA], Bool),
        g("@in", &[A, MapAB], Bool),
        g("_[_]", &[ListA, Int], A),
        g("_[_]", &[MapAB, A], B),
        // Arithmetic.
        g("-_", &[Int], Int),
        g("-_", &[Double], Double),
        g("_+_", &[Int, Int], Int),
        g("_+_", &[Uint, Uint], Uint),
        g("_+_", &[Double, Double], Double),
        g("_+_", &[String, String], String),
        g("_+_", &[Bytes, Bytes], Bytes),
        g("_+_", &[ListA, ListA], ListA),
        g("_-_", &[Int, Int], Int),
        g("_-_", &[Uint, Uint], Uint),
        g("_-_", &[Double, Double], Double),
        g("_*_", &[Int, Int], Int),
        g("_*_", &[Uint, Uint], Uint),
        g("_*_", &[Double, Double], Double),
        g("_/_", &[Int, Int], Int),
        g("_/_", &[Uint, Uint], Uint),
        g("_/_", &[Double, Double], Double),
        g("_%_", &[Int, Int], Int),
        g("_%_", &[Uint, Uint], Uint),
        // Ordering, with cel-go's cross-type numeric comparisons.
        g("_<_", &[Bool, Bool], Bool),
        g("_<_", &[String, String], Bool),
        g("_<_", &[Bytes, Bytes], Bool),
        g("_<_", &[Int, Int], Bool),
        g("_<_", &[Int, Uint], Bool),
        g("_<_", &[Int, Double], Bool),
        g("_<_", &[Uint, Int], Bool),
        g("_<_", &[Uint, Uint], Bool),
        g("_<_", &[Uint, Double], Bool),
        g("_<_", &[Double, Int], Bool),
        g("_<_", &[Double, Uint], Bool),
        g("_<_", &[Double, Double], Bool),
        // Size and conversions.
        g("size", &[String], Int),
        g("size", &[Bytes], Int),
        g("size", &[ListA], Int),
        g("size", &[MapAB], Int),
        m("size", &[String], Int),
        m("size", &[Bytes], Int),
        m("size", &[ListA], Int),
        m("size", &[MapAB], Int),
        g("int", &[Int], Int),
        g("int", &[Uint], Int),
        g("int", &[Double], Int),
        g("int", &[String], Int),
        g("uint", &[Int], Uint),
        g("uint", &[Uint], Uint),
        g("uint", &[Double], Uint),
        g("uint", &[String], Uint),
        g("double", &[Int], Double),
        g("double", &[Uint], Double),
        g("double", &[Double], Double),
        g("double", &[String], Double),
        g("string", &[Int], String),
        g("string", &[Uint], String),
        g("string", &[Double], String),
        g("string", &[Bool], String),
        g("string", &[String], String),
        g("string", &[Bytes], String),
        g("bool", &[Bool], Bool),
        g("bool", &[String], Bool),
        g("bytes", &[Bytes], Bytes),
        g("bytes", &[String], Bytes),
        g("dyn", &[A], Dyn),
        g("type", &[A], TypeOf),
        // Strings (standard library).
        m("contains", &[String, String], Bool),
        m("startsWith", &[String, String], Bool),
        m("endsWith", &[String, String], Bool),
        m("matches", &[String, String], Bool),
        g("matches", &[String, String], Bool),
        // ext.Strings version 2.
        m("charAt", &[String, Int], String),
        m("indexOf", &[String, String], Int),
        m("indexOf", &[String, String, Int], Int),
        m("lastIndexOf", &[String, String], Int),
        m("lastIndexOf", &[String, String, Int], Int),
        m("lowerAscii", &[String], String),
        m("upperAscii", &[String], String),
        m("replace", &[String, String, String], String),
        m("replace", &[String, String, String, Int], String),
        m("split", &[String, String], ListString),
        m("split", &[String, String, Int], ListString),
        m("substring", &[String, Int], String),
        m("substring", &[String, Int, Int], String),
        m("trim", &[String], String),
        m("join", &[ListString], String),
        m("join", &[ListString, String], String),
        // Kubernetes quantity library (`sign` is global there, unlike the other functions).
        g("quantity", &[String], Quantity),
        g("isQuantity", &[String], Bool),
        g("sign", &[Quantity], Int),
        m("isGreaterThan", &[Quantity, Quantity], Bool),
        m("isLessThan", &[Quantity, Quantity], Bool),
        m("compareTo", &[Quantity, Quantity], Int),
        m("asApproximateFloat", &[Quantity], Double),
        m("asInteger", &[Quantity], Int),
        m("isInteger", &[Quantity], Bool),
        m("add", &[Quantity, Quantity], Quantity),
        m("add", &[Quantity, Int], Quantity),
        m("sub", &[Quantity, Quantity], Quantity),
        m("sub", &[Quantity, Int], Quantity),
        // Kubernetes semver library (version 1: with the `normalize` flag).
        g("semver", &[String], Semver),
        g("semver", &[String, Bool], Semver),
        g("isSemver", &[String], Bool),
        g("isSemver", &[String, Bool], Bool),
        m("isGreaterThan", &[Semver, Semver], Bool),
        m("isLessThan", &[Semver, Semver], Bool),
        m("compareTo", &[Semver, Semver], Int),
        m("major", &[Semver], Int),
        m("minor", &[Semver], Int),
        m("patch", &[Semver], Int),
    ];
}

/// The ordering operators share `_<_`'s overloads.
fn overload_name(function: &str) -> &str {
    match function {
        "_<=_" | "_>_" | "_>=_" => "_<_",
        other => other,
    }
}

/// Whether any overload of the function exists, in either call style.
pub(crate) fn is_declared(function: &str) -> bool {
    let name = overload_name(function);
    OVERLOADS.iter().any(|o| o.function == name)
}

/// The overloads of a function in one call style with a given arity.
pub(crate) fn candidates(function: &str, member: bool, arity: usize) -> impl Iterator<Item = &'static Overload> {
    let name = overload_name(function).to_owned();
    OVERLOADS.iter().filter(move |o| o.function == name && o.member == member && o.params.len() == arity)
}

// ---------------------------------------------------------------------------------------
// Run time
// ---------------------------------------------------------------------------------------

/// Calls a function on evaluated arguments (a member call's receiver first). `&&`, `||` and
/// `?:` are not here: the evaluator handles them, since they are not strict.
pub(crate) fn call(function: &str, args: &[Value]) -> Result<Value, Fault> {
    if let Some(r) = quantity::call(function, args) {
        return r;
    }
    if let Some(r) = semver_library::call(function, args) {
        return r;
    }
    match (function, args) {
        ("!_", [Value::Bool(b)]) => Ok(Value::Bool(!b)),
        ("-_", [v]) => negate(v),
        ("_==_", [a, b]) => Ok(Value::Bool(equals(a, b))),
        ("_!=_", [a, b]) => Ok(Value::Bool(!equals(a, b))),
        ("_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) => compare(function, a, b),
        ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", [a, b]) => arithmetic(function, a, b),
        ("_[_]", [c, i]) => index(c, i),
        ("@in", [v, c]) => contains(v, c),
        ("size", [v]) => size(v),
        ("int" | "uint" | "double" | "string" | "bool" | "bytes", [v]) => convert(function, v),
        ("dyn", [v]) => Ok(v.clone()),
        ("type", [v]) => Ok(Value::Type(Rc::from(v.type_name()))),
        _ => strings(function, args),
    }
}

fn negate(v: &Value) -> Result<Value, Fault> {
    match v {
        Value::Int(i) => i.checked_neg().map(Value::Int).ok_or_else(int_overflow),
        Value::Double(d) => Ok(Value::Double(-d)),
        _ => Err(Fault::no_overload()),
    }
}

fn int_overflow() -> Fault {
    Fault::err("integer overflow")
}

fn uint_overflow() -> Fault {
    Fault::err("unsigned integer overflow")
}

fn compare(function: &str, a: &Value, b: &Value) -> Result<Value, Fault> {
    let ord = match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::String(x), Value::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Bytes(x), Value::Bytes(y)) => Some(x.cmp(y)),
        _ if is_number(a) && is_number(b) => numeric_cmp(a, b),
        _ => return Err(Fault::no_overload()),
    };
    let Some(ord) = ord else { return Err(Fault::err("NaN values cannot be ordered")) };
    let result = match function {
        "_<_" => ord == Ordering::Less,
        "_<=_" => ord != Ordering::Greater,
        "_>_" => ord == Ordering::Greater,
        _ => ord != Ordering::Less,
    };
    Ok(Value::Bool(result))
}

fn is_number(v: &Value) -> bool {
    matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_))
}

fn arithmetic(function: &str, a: &Value, b: &Value) -> Result<Value, Fault> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => int_arith(function, *x, *y).map(Value::Int),
        (Value::Uint(x), Value::Uint(y)) => uint_arith(function, *x, *y).map(Value::Uint),
        (Value::Double(x), Value::Double(y)) => double_arith(function, *x, *y).map(Value::Double),
        (Value::String(x), Value::String(y)) if function == "_+_" => Ok(Value::String(Rc::from(format!("{x}{y}")))),
        (Value::Bytes(x), Value::Bytes(y)) if function == "_+_" => {
            Ok(Value::Bytes(Rc::from([&x[..], &y[..]].concat())))
        }
        (Value::List(x), Value::List(y)) if function == "_+_" => {
            Ok(Value::list(x.iter().chain(y.iter()).cloned().collect()))
        }
        _ => Err(Fault::no_overload()),
    }
}

fn int_arith(function: &str, x: i64, y: i64) -> Result<i64, Fault> {
    match function {
        "_+_" => x.checked_add(y).ok_or_else(int_overflow),
        "_-_" => x.checked_sub(y).ok_or_else(int_overflow),
        "_*_" => x.checked_mul(y).ok_or_else(int_overflow),
        "_/_" if y == 0 => Err(Fault::err("division by zero")),
        "_/_" => x.checked_div(y).ok_or_else(int_overflow),
        _ if y == 0 => Err(Fault::err("modulus by zero")),
        _ => x.checked_rem(y).ok_or_else(int_overflow),
    }
}

fn uint_arith(function: &str, x: u64, y: u64) -> Result<u64, Fault> {
    match function {
        "_+_" => x.checked_add(y).ok_or_else(uint_overflow),
        "_-_" => x.checked_sub(y).ok_or_else(uint_overflow),
        "_*_" => x.checked_mul(y).ok_or_else(uint_overflow),
        "_/_" if y == 0 => Err(Fault::err("division by zero")),
        "_/_" => Ok(x / y),
        _ if y == 0 => Err(Fault::err("modulus by zero")),
        _ => Ok(x % y),
    }
}

fn double_arith(function: &str, x: f64, y: f64) -> Result<f64, Fault> {
    match function {
        "_+_" => Ok(x + y),
        "_-_" => Ok(x - y),
        "_*_" => Ok(x * y),
        "_/_" => Ok(x / y),
        _ => Err(Fault::no_overload()),
    }
}

/// `container[index]` on lists and maps; a map with `missing` yields it for absent keys.
fn index(container: &Value, i: &Value) -> Result<Value, Fault> {
    match container {
        Value::List(items) => {
            let n = list_index(i)?;
            usize::try_from(n)
                .ok()
                .and_then(|k| items.get(k))
                .cloned()
                .ok_or_else(|| Fault::err(format!("index out of bounds: {n}")))
        }
        Value::Map(map) => {
            let found = MapKey::from_value(i).and_then(|k| map.get(&k).cloned());
            found.or_else(|| map.missing.clone()).ok_or_else(|| no_such_key(i))
        }
        _ => Err(no_such_key(i)),
    }
}

/// cel-go's list index rules: ints, uints and integral doubles.
fn list_index(i: &Value) -> Result<i64, Fault> {
    match i {
        Value::Int(n) => Ok(*n),
        Value::Uint(u) => i64::try_from(*u).map_err(|_| Fault::err(format!("index out of bounds: {u}"))),
        Value::Double(d) if d.fract() == 0.0 && d.abs() < 9.2e18 => Ok(*d as i64),
        Value::Double(d) => Err(Fault::err(format!("unsupported index value {} in list", format_double(*d)))),
        other => Err(Fault::err(format!("unsupported index type '{}' in list", other.type_name()))),
    }
}

/// cel-go's `no such key: K`, with the key printed bare.
pub(crate) fn no_such_key(key: &Value) -> Fault {
    let text = match key {
        Value::String(s) => s.to_string(),
        Value::Double(d) => format_double(*d),
        Value::Uint(u) => u.to_string(),
        other => other.to_string(),
    };
    Fault::err(format!("no such key: {text}"))
}

fn contains(v: &Value, container: &Value) -> Result<Value, Fault> {
    match container {
        Value::List(items) => Ok(Value::Bool(items.iter().any(|x| equals(v, x)))),
        Value::Map(map) => Ok(Value::Bool(MapKey::from_value(v).is_some_and(|k| map.contains_key(&k)))),
        _ => Err(Fault::no_overload()),
    }
}

fn size(v: &Value) -> Result<Value, Fault> {
    let n = match v {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(items) => items.len(),
        Value::Map(map) => map.len(),
        _ => return Err(Fault::err("no such overload: size")),
    };
    Ok(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)))
}

fn conversion_error(from: &Value, to: &str) -> Fault {
    Fault::err(format!("type conversion error from '{}' to '{to}'", from.type_name()))
}

/// The type conversion functions (cel-go `ConvertToType` of each type).
fn convert(to: &str, v: &Value) -> Result<Value, Fault> {
    match (to, v) {
        ("int", _) => to_int(v),
        ("uint", _) => to_uint(v),
        ("double", Value::Int(i)) => Ok(Value::Double(*i as f64)),
        ("double", Value::Uint(u)) => Ok(Value::Double(*u as f64)),
        ("double", Value::Double(d)) => Ok(Value::Double(*d)),
        ("double", Value::String(s)) => parse_go_float(s).map(Value::Double).ok_or_else(|| conversion_error(v, to)),
        ("string", _) => to_string(v),
        ("bool", Value::Bool(b)) => Ok(Value::Bool(*b)),
        ("bool", Value::String(s)) => parse_go_bool(s).map(Value::Bool).ok_or_else(|| conversion_error(v, to)),
        ("bytes", Value::Bytes(b)) => Ok(Value::Bytes(b.clone())),
        ("bytes", Value::String(s)) => Ok(Value::bytes(s.as_bytes())),
        _ => Err(conversion_error(v, to)),
    }
}

fn to_int(v: &Value) -> Result<Value, Fault> {
    match v {
        Value::Int(i) => Ok(Value::Int(*i)),
        Value::Uint(u) => i64::try_from(*u).map(Value::Int).map_err(|_| int_overflow()),
        // cel-go `doubleToInt64Checked`: both ends of the range are excluded.
        Value::Double(d) if *d > i64::MIN as f64 && *d < i64::MAX as f64 => Ok(Value::Int(*d as i64)),
        Value::Double(_) => Err(int_overflow()),
        Value::String(s) => s.parse().map(Value::Int).map_err(|_| conversion_error(v, "int")),
        _ => Err(conversion_error(v, "int")),
    }
}

fn to_uint(v: &Value) -> Result<Value, Fault> {
    match v {
        Value::Int(i) => u64::try_from(*i).map(Value::Uint).map_err(|_| uint_overflow()),
        Value::Uint(u) => Ok(Value::Uint(*u)),
        Value::Double(d) if *d >= 0.0 && *d < 1.8446744073709552e19 => Ok(Value::Uint(*d as u64)),
        Value::Double(_) => Err(uint_overflow()),
        // Go's `ParseUint` takes no sign, unlike Rust's parser.
        Value::String(s) if !s.starts_with('+') => s.parse().map(Value::Uint).map_err(|_| conversion_error(v, "uint")),
        _ => Err(conversion_error(v, "uint")),
    }
}

fn to_string(v: &Value) -> Result<Value, Fault> {
    let s = match v {
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::String(s) => return Ok(Value::String(s.clone())),
        Value::Bytes(b) => std::str::from_utf8(b)
            .map_err(|_| Fault::err("invalid UTF-8 in bytes, cannot convert to string"))?
            .to_owned(),
        _ => return Err(Fault::err(format!("no such overload: string({})", v.type_name()))),
    };
    Ok(Value::String(Rc::from(s)))
}

/// Go's `strconv.ParseFloat` for decimal text: also takes `_` between digits.
fn parse_go_float(s: &str) -> Option<f64> {
    if !s.contains('_') {
        return s.parse().ok();
    }
    let b = s.as_bytes();
    let separates_digits = |i: usize| {
        i > 0 && b.get(i - 1).is_some_and(u8::is_ascii_digit) && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    let ok = b.iter().enumerate().all(|(i, c)| *c != b'_' || separates_digits(i));
    if ok { s.replace('_', "").parse().ok() } else { None }
}

/// Go's `strconv.ParseBool`.
fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Strings: the standard library's and ext.Strings v2 (cel-go `ext/strings.go`)
// ---------------------------------------------------------------------------------------

fn strings(function: &str, args: &[Value]) -> Result<Value, Fault> {
    let Some(Value::String(s)) = args.first() else { return list_join(function, args) };
    match (function, args.get(1..).unwrap_or_default()) {
        ("contains", [Value::String(t)]) => Ok(Value::Bool(s.contains(&**t))),
        ("startsWith", [Value::String(t)]) => Ok(Value::Bool(s.starts_with(&**t))),
        ("endsWith", [Value::String(t)]) => Ok(Value::Bool(s.ends_with(&**t))),
        ("matches", [Value::String(re)]) => matches(s, re),
        ("charAt", [Value::Int(i)]) => char_at(s, *i),
        ("indexOf", [Value::String(t)]) => index_of(s, t, 0),
        ("indexOf", [Value::String(t), Value::Int(off)]) => index_of(s, t, *off),
        ("lastIndexOf", [Value::String(t)]) => last_index_of(s, t, None),
        ("lastIndexOf", [Value::String(t), Value::Int(off)]) => last_index_of(s, t, Some(*off)),
        ("lowerAscii", []) => Ok(Value::string(&s.to_ascii_lowercase())),
        ("upperAscii", []) => Ok(Value::string(&s.to_ascii_uppercase())),
        ("trim", []) => Ok(Value::string(s.trim())),
        ("replace", [Value::String(a), Value::String(b)]) => Ok(Value::string(&s.replace(&**a, b))),
        ("replace", [Value::String(a), Value::String(b), Value::Int(n)]) => Ok(Value::string(&replace_n(s, a, b, *n))),
        ("split", [Value::String(sep)]) => Ok(split_n(s, sep, -1)),
        ("split", [Value::String(sep), Value::Int(n)]) => Ok(split_n(s, sep, *n)),
        ("substring", [Value::Int(start)]) => substring(s, *start, None),
        ("substring", [Value::Int(start), Value::Int(end)]) => substring(s, *start, Some(*end)),
        _ => Err(no_overload_for(function)),
    }
}

fn no_overload_for(function: &str) -> Fault {
    if function == "size" { Fault::err("no such overload: size") } else { Fault::no_overload() }
}

fn list_join(function: &str, args: &[Value]) -> Result<Value, Fault> {
    let (Some(Value::List(items)), "join") = (args.first(), function) else { return Err(no_overload_for(function)) };
    let sep = match args.get(1) {
        None => "",
        Some(Value::String(sep)) => sep,
        Some(_) => return Err(Fault::no_overload()),
    };
    let mut parts = Vec::with_capacity(items.len());
    for item in items.iter() {
        let Value::String(s) = item else { return Err(Fault::err(format!("join: invalid input: {item}"))) };
        parts.push(&**s);
    }
    Ok(Value::string(&parts.join(sep)))
}

/// `matches` with RE2 syntax (regex-lite is close to RE2: no backreferences or lookaround);
/// a bad pattern is a run-time error, as in cel-go.
fn matches(s: &str, pattern: &str) -> Result<Value, Fault> {
    let re = regex_lite::Regex::new(pattern).map_err(|e| {
        let detail = e.to_string();
        Fault::err(format!("error parsing regexp: {}", detail.lines().last().unwrap_or_default()))
    })?;
    Ok(Value::Bool(re.is_match(s)))
}

fn out_of_range(i: i64) -> Fault {
    Fault::err(format!("index out of range: {i}"))
}

fn char_at(s: &str, i: i64) -> Result<Value, Fault> {
    let chars: Vec<char> = s.chars().collect();
    let k = usize::try_from(i).ok().filter(|k| *k <= chars.len()).ok_or_else(|| out_of_range(i))?;
    Ok(Value::string(&chars.get(k).map(char::to_string).unwrap_or_default()))
}

/// Code point index of `sub` in `s` at or after `offset`.
fn index_of(s: &str, sub: &str, offset: i64) -> Result<Value, Fault> {
    let off = usize::try_from(offset).map_err(|_| out_of_range(offset))?;
    let runes: Vec<char> = s.chars().collect();
    let sub: Vec<char> = sub.chars().collect();
    if sub.is_empty() {
        return Ok(Value::Int(offset.min(runes.len() as i64)));
    }
    if off >= runes.len() {
        return Ok(Value::Int(-1));
    }
    let found = (off..runes.len()).find(|&i| runes.get(i..i + sub.len()).is_some_and(|w| w == sub.as_slice()));
    Ok(Value::Int(found.map_or(-1, |i| i as i64)))
}

/// Code point index of the last `sub` in `s` starting at or before `offset` (default: end).
fn last_index_of(s: &str, sub: &str, offset: Option<i64>) -> Result<Value, Fault> {
    let runes: Vec<char> = s.chars().collect();
    let subr: Vec<char> = sub.chars().collect();
    let Some(offset) = offset else {
        if subr.is_empty() {
            return Ok(Value::Int(runes.len() as i64));
        }
        if s.len() < sub.len() {
            return Ok(Value::Int(-1));
        }
        return last_index_of(s, sub, Some(runes.len() as i64 - 1));
    };
    let off = usize::try_from(offset).map_err(|_| out_of_range(offset))?;
    if subr.is_empty() {
        return Ok(Value::Int(offset.min(runes.len() as i64)));
    }
    if off >= runes.len() {
        return Ok(Value::Int(-1));
    }
    let Some(last_start) = runes.len().checked_sub(subr.len()) else { return Ok(Value::Int(-1)) };
    let found = (0..=off.min(last_start)).rev().find(|&i| runes.get(i..i + subr.len()) == Some(subr.as_slice()));
    Ok(Value::Int(found.map_or(-1, |i| i as i64)))
}

/// Go's `strings.Replace(s, old, new, n)`: all when `n < 0`.
fn replace_n(s: &str, old: &str, new: &str, n: i64) -> String {
    match usize::try_from(n) {
        Ok(n) => s.replacen(old, new, n),
        Err(_) => s.replace(old, new),
    }
}

/// Go's `strings.SplitN`: `n == 0` gives no parts, `n < 0` all of them, an empty separator
/// splits into code points.
fn split_n(s: &str, sep: &str, n: i64) -> Value {
    let parts: Vec<String> = match (usize::try_from(n), sep.is_empty()) {
        (Ok(0), _) => Vec::new(),
        (Err(_), true) => s.chars().map(String::from).collect(),
        (Err(_), false) => s.split(sep).map(str::to_owned).collect(),
        (Ok(n), true) => {
            let chars: Vec<char> = s.chars().collect();
            let head = chars.len().min(n - 1);
            let mut parts: Vec<String> = chars.iter().take(head).map(|c| c.to_string()).collect();
            if chars.len() > head {
                parts.push(chars.get(head..).unwrap_or_default().iter().collect());
            }
            parts
        }
        (Ok(n), false) => s.splitn(n, sep).map(str::to_owned).collect(),
    };
    Value::list(parts.iter().map(|p| Value::string(p)).collect())
}

fn substring(s: &str, start: i64, end: Option<i64>) -> Result<Value, Fault> {
    let runes: Vec<char> = s.chars().collect();
    let len = runes.len() as i64;
    if let Some(end) = end
        && start > end
    {
        return Err(Fault::err(format!("invalid substring range. start: {start}, end: {end}")));
    }
    if start < 0 || start > len {
        return Err(out_of_range(start));
    }
    let end = end.unwrap_or(len);
    if end < 0 || end > len {
        return Err(out_of_range(end));
    }
    let slice = runes.get(start as usize..end as usize).unwrap_or_default();
    Ok(Value::string(&slice.iter().collect::<String>()))
}

/// The static type a signature position stands for, with type parameters already bound.
pub(crate) fn concrete(p: P) -> Option<Type> {
    Some(match p {
        P::Dyn => Type::Dyn,
        P::Bool => Type::Bool,
        P::Int => Type::Int,
        P::Uint => Type::Uint,
        P::Double => Type::Double,
        P::String => Type::String,
        P::Bytes => Type::Bytes,
        P::Quantity => Type::Quantity,
        P::Semver => Type::Semver,
        P::TypeOf => Type::Type,
        P::ListString => Type::list(Type::String),
        P::A | P::B | P::ListA | P::MapAB => return None,
    })
}
