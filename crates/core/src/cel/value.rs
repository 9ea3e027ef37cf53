//! Runtime CEL values (cel-go `ref.Val`) and CEL's heterogeneous equality (cel-spec "Equality").

use super::semver::Semver;
use crate::api::quantity::Quantity;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// A CEL value. Compound values are reference counted so that copying one is cheap.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Rc<str>),
    Bytes(Rc<[u8]>),
    List(Rc<Vec<Value>>),
    Map(Rc<MapValue>),
    Quantity(Quantity),
    Semver(Semver),
    Object(Rc<ObjectValue>),
    /// A type value such as `int` (what `type(1)` returns), by its runtime type name.
    Type(Rc<str>),
}

impl Value {
    pub fn string(s: &str) -> Value {
        Value::String(Rc::from(s))
    }

    pub fn bytes(b: &[u8]) -> Value {
        Value::Bytes(Rc::from(b))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub fn map(map: MapValue) -> Value {
        Value::Map(Rc::new(map))
    }

    pub fn object(object: ObjectValue) -> Value {
        Value::Object(Rc::new(object))
    }

    /// The name of the value's runtime type, as `type(value)` reports it.
    pub fn type_name(&self) -> &str {
        match self {
            Value::Null => "null_type",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Map(_) => "map",
            Value::Quantity(_) => "kubernetes.Quantity",
            Value::Semver(_) => "kubernetes.Semver",
            Value::Object(o) => &o.type_name,
            Value::Type(_) => "type",
        }
    }
}

/// A map key: CEL allows bool, int, uint and string keys.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MapKey {
    Bool(bool),
    Int(i64),
    Uint(u64),
    String(Rc<str>),
}

impl MapKey {
    /// The key a value stands for, if it can be one; an integral double looks up as an int
    /// (cel-spec: numeric keys compare across int, uint and double).
    pub(crate) fn from_value(v: &Value) -> Option<MapKey> {
        match v {
            Value::Bool(b) => Some(MapKey::Bool(*b)),
            Value::Int(i) => Some(MapKey::Int(*i)),
            Value::Uint(u) => Some(MapKey::Uint(*u)),
            Value::String(s) => Some(MapKey::String(s.clone())),
            Value::Double(d)
                if d.fract() == 0.0 && *d >= -9.223_372_036_854_776e18 && *d < 9.223_372_036_854_776e18 =>
            {
                Some(MapKey::Int(*d as i64))
            }
            _ => None,
        }
    }

    pub(crate) fn to_value(&self) -> Value {
        match self {
            MapKey::Bool(b) => Value::Bool(*b),
            MapKey::Int(i) => Value::Int(*i),
            MapKey::Uint(u) => Value::Uint(*u),
            MapKey::String(s) => Value::String(s.clone()),
        }
    }

    /// The same number under the other integer kind, for cross-type lookups.
    fn numeric_twin(&self) -> Option<MapKey> {
        match self {
            MapKey::Int(i) => u64::try_from(*i).ok().map(MapKey::Uint),
            MapKey::Uint(u) => i64::try_from(*u).ok().map(MapKey::Int),
            _ => None,
        }
    }
}

impl From<&str> for MapKey {
    fn from(s: &str) -> MapKey {
        MapKey::String(Rc::from(s))
    }
}

impl From<i64> for MapKey {
    fn from(i: i64) -> MapKey {
        MapKey::Int(i)
    }
}

impl From<bool> for MapKey {
    fn from(b: bool) -> MapKey {
        MapKey::Bool(b)
    }
}

impl fmt::Display for MapKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapKey::Bool(b) => write!(f, "{b}"),
            MapKey::Int(i) => write!(f, "{i}"),
            MapKey::Uint(u) => write!(f, "{u}"),
            MapKey::String(s) => f.write_str(s),
        }
    }
}

/// A CEL map. `missing`, when set, is what looking up an absent key yields instead of the
/// error `no such key: K` — Kubernetes DRA's `newStringInterfaceMapWithDefault`, which makes
/// `device.attributes["unknown.domain"]` an empty map. `in` still reports absent keys as absent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapValue {
    entries: BTreeMap<MapKey, Value>,
    pub missing: Option<Value>,
}

impl MapValue {
    pub fn new() -> MapValue {
        MapValue::default()
    }

    /// Adds or replaces an entry; returns the map for chaining.
    pub fn with(mut self, key: impl Into<MapKey>, value: Value) -> MapValue {
        self.insert(key, value);
        self
    }

    pub fn insert(&mut self, key: impl Into<MapKey>, value: Value) {
        self.entries.insert(key.into(), value);
    }

    /// Sets the value absent keys look up as (see the type's documentation).
    pub fn with_missing(mut self, missing: Value) -> MapValue {
        self.missing = Some(missing);
        self
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry for a key, comparing numeric keys across int and uint.
    pub fn get(&self, key: &MapKey) -> Option<&Value> {
        self.entries.get(key).or_else(|| key.numeric_twin().and_then(|k| self.entries.get(&k)))
    }

    pub fn contains_key(&self, key: &MapKey) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&MapKey, &Value)> {
        self.entries.iter()
    }

    pub fn keys(&self) -> impl Iterator<Item = &MapKey> {
        self.entries.keys()
    }
}

/// An object's field values by name; the type name is what `type(obj)` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectValue {
    pub type_name: String,
    fields: BTreeMap<String, Value>,
}

impl ObjectValue {
    pub fn new(type_name: &str) -> ObjectValue {
        ObjectValue { type_name: type_name.to_owned(), fields: BTreeMap::new() }
    }

    /// Sets a field; returns the object for chaining.
    pub fn with(mut self, field: &str, value: Value) -> ObjectValue {
        self.fields.insert(field.to_owned(), value);
        self
    }

    pub fn get(&self, field: &str) -> Option<&Value> {
        self.fields.get(field)
    }

    /// The fields set, by name.
    pub fn fields(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.fields.iter()
    }
}

/// CEL equality (cel-spec "Equality", cel-go heterogeneous equality): numbers compare by value
/// across int, uint and double; values of different kinds are unequal, never an error.
pub(crate) fn equals(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equals(p, q)),
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equals(v, w)))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.type_name == y.type_name
                && x.fields.len() == y.fields.len()
                && x.fields.iter().all(|(k, v)| y.fields.get(k).is_some_and(|w| equals(v, w)))
        }
        _ => match numeric_cmp(a, b) {
            Some(ord) => ord == std::cmp::Ordering::Equal,
            None => scalar_eq(a, b),
        },
    }
}

fn scalar_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Quantity(x), Value::Quantity(y)) => x.cmp_value(y) == std::cmp::Ordering::Equal,
        (Value::Semver(x), Value::Semver(y)) => x == y,
        (Value::Type(x), Value::Type(y)) => x == y,
        _ => false,
    }
}

/// Orders two numbers of any numeric kinds exactly (no rounding through f64 for int/uint);
/// `None` when either is not a number or a double is NaN.
pub(crate) fn numeric_cmp(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Uint(x), Value::Uint(y)) => Some(x.cmp(y)),
        (Value::Double(x), Value::Double(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Uint(y)) => Some(if *x < 0 { Ordering::Less } else { (*x as u64).cmp(y) }),
        (Value::Uint(_), Value::Int(_)) => numeric_cmp(b, a).map(Ordering::reverse),
        (Value::Int(x), Value::Double(y)) => cmp_i128_f64(i128::from(*x), *y),
        (Value::Uint(x), Value::Double(y)) => cmp_i128_f64(i128::from(*x), *y),
        (Value::Double(_), Value::Int(_) | Value::Uint(_)) => numeric_cmp(b, a).map(Ordering::reverse),
        _ => None,
    }
}

fn cmp_i128_f64(x: i128, y: f64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if y.is_nan() {
        return None;
    }
    // Beyond ±2^64 every i64/u64 is on one side; inside, compare the integer part exactly.
    if y >= 1.8446744073709552e19 {
        return Some(Ordering::Less);
    }
    if y < i64::MIN as f64 {
        return Some(Ordering::Greater);
    }
    let floor = y.floor();
    let whole = floor as i128;
    match x.cmp(&whole) {
        Ordering::Equal if y > floor => Some(Ordering::Less),
        other => Some(other),
    }
}

/// CEL-like text for a value (for messages and tests): strings quoted, uints with `u`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Uint(u) => write!(f, "{u}u"),
            Value::Double(d) => f.write_str(&format_double(*d)),
            Value::String(s) => write!(f, "{s:?}"),
            Value::Bytes(b) => write!(f, "b{:?}", String::from_utf8_lossy(b)),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    write!(f, "{}{v}", if i == 0 { "" } else { ", " })?;
                }
                f.write_str("]")
            }
            Value::Map(m) => {
                f.write_str("{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    write!(f, "{}{}: {v}", if i == 0 { "" } else { ", " }, k.to_value())?;
                }
                f.write_str("}")
            }
            Value::Quantity(q) => write!(f, "quantity({:?})", q.to_string()),
            Value::Semver(v) => write!(f, "semver({:?})", v.to_string()),
            Value::Object(o) => {
                write!(f, "{}{{", o.type_name)?;
                for (i, (k, v)) in o.fields.iter().enumerate() {
                    write!(f, "{}{k}: {v}", if i == 0 { "" } else { ", " })?;
                }
                f.write_str("}")
            }
            Value::Type(t) => f.write_str(t),
        }
    }
}

/// Go's `strconv.FormatFloat(d, 'g', -1, 64)`, which cel-go's `string(double)` uses:
/// the shortest digits that round-trip, in exponent form below 1e-4 and from 1e6 up
/// (`1e+06`, `1.5e-05`), plain otherwise.
pub(crate) fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let sign = if d.is_sign_negative() { "-" } else { "" };
    if d == 0.0 {
        return format!("{sign}0");
    }
    // Rust's `{:e}` gives the same shortest round-trip digits: "1.234567e6".
    let sci = format!("{:e}", d.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let dot = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}e{esign}{:02}", exp.abs());
    }
    let point = exp + 1;
    if point <= 0 {
        return format!("{sign}0.{}{digits}", "0".repeat(point.unsigned_abs() as usize));
    }
    let point = point as usize;
    if digits.len() <= point {
        return format!("{sign}{digits}{}", "0".repeat(point - digits.len()));
    }
    let (int, frac) = digits.split_at(point);
    format!("{sign}{int}.{frac}")
}
