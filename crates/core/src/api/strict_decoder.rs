//! A serde deserializer over a JSON value that remembers where an error happened, so the
//! decoder can name the field as the apiserver does (`spec.template.spec.containers[0].imagee`).
//!
//! Why not serde_json's value deserializer wrapped in serde_path_to_error: the wrapper adds two
//! layers of generic code around every type's visitor, and with the whole Kubernetes object
//! model behind it that was about a sixth of the browser bundle. Here each type is decoded by
//! exactly one layer; the path is collected as an error travels back out of the value tree.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A decoding error and the path of the field it happened in.
#[derive(Debug, Clone, PartialEq)]
pub struct PathError {
    /// Innermost segment first: segments are added while the error unwinds.
    segments: Vec<Segment>,
    message: String,
    /// The innermost struct the error passed through (encoding/json names it: `Container`).
    go_struct: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq)]
enum Segment {
    /// A key of an object; `Field` once the object turned out to be a struct.
    Key(String),
    Field(String),
    Index(usize),
}

impl PathError {
    /// The field path, outermost first: `spec.containers[0].image`, or `.` for the root.
    pub fn path(&self) -> String {
        let mut path = String::new();
        for segment in self.segments.iter().rev() {
            match segment {
                Segment::Key(key) | Segment::Field(key) if path.is_empty() => path.push_str(key),
                Segment::Key(key) | Segment::Field(key) => {
                    path.push('.');
                    path.push_str(key);
                }
                Segment::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        if path.is_empty() { ".".to_string() } else { path }
    }

    /// The field as encoding/json names it in an UnmarshalTypeError: the innermost struct,
    /// then the struct fields from the root, without indices or map keys
    /// (`EnvVar.spec.template.spec.containers.env.value`).
    pub fn go_field(&self) -> String {
        let fields: Vec<&str> = self
            .segments
            .iter()
            .rev()
            .filter_map(|segment| match segment {
                Segment::Field(field) => Some(field.as_str()),
                _ => None,
            })
            .collect();
        match self.go_struct {
            Some(name) => format!("{name}.{}", fields.join(".")),
            None => fields.join("."),
        }
    }

    /// The error as it leaves the struct `name`: the key it came through is one of its fields.
    fn through_struct(mut self, name: &'static str) -> Self {
        if let Some(Segment::Key(key)) = self.segments.last_mut() {
            let key = std::mem::take(key);
            *self.segments.last_mut().expect("checked") = Segment::Field(key);
            self.go_struct.get_or_insert(name);
        }
        self
    }

    /// What went wrong, without the path (serde's wording, as serde_json words it).
    pub fn message(&self) -> &str {
        &self.message
    }

    fn within(mut self, segment: Segment) -> Self {
        self.segments.push(segment);
        self
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path(), self.message)
    }
}

impl std::error::Error for PathError {}

impl de::Error for PathError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        PathError { segments: Vec::new(), message: message.to_string(), go_struct: None }
    }

    // serde_json says "null" where serde's default says "unit value"; keep its wording.
    fn invalid_type(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!("invalid type: {}, expected {expected}", JsonUnexpected(unexpected)))
    }

    fn invalid_value(unexpected: de::Unexpected, expected: &dyn de::Expected) -> Self {
        Self::custom(format_args!("invalid value: {}, expected {expected}", JsonUnexpected(unexpected)))
    }
}

struct JsonUnexpected<'a>(de::Unexpected<'a>);

impl fmt::Display for JsonUnexpected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            de::Unexpected::Unit => f.write_str("null"),
            other => other.fmt(f),
        }
    }
}

/// Decodes `T` from a JSON value; on failure the error carries the offending field's path.
pub fn from_value<T: de::DeserializeOwned>(value: Value) -> Result<T, PathError> {
    T::deserialize(ValueDeserializer(value))
}

struct ValueDeserializer(Value);

impl<'de> Deserializer<'de> for ValueDeserializer {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
            scalar => visit_scalar(scalar, visitor),
        }
    }

    /// An object only. serde's derived struct visitors also accept an array, field by field in
    /// order; the API server does not ("cannot unmarshal array into Go struct field"), and not
    /// asking for it keeps a `visit_seq` per kind of object out of the browser bundle.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Object(map) => visit_object(map, visitor).map_err(|e| e.through_struct(name)),
            Value::Array(_) => Err(de::Error::invalid_type(de::Unexpected::Seq, &visitor)),
            scalar => visit_scalar(scalar, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.0 {
            // A unit variant: "Always".
            Value::String(variant) => visitor.visit_enum(variant.into_deserializer()),
            // Any other variant: {"Variant": content}, exactly one key.
            Value::Object(map) if map.len() == 1 => {
                let (variant, content) = map.into_iter().next().expect("one entry");
                visitor.visit_enum(EnumAccess { variant, content })
            }
            other => Err(de::Error::invalid_type(unexpected(&other), &"a string or a map with a single key")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

/// Null, booleans, numbers and strings (arrays and objects have their own visits).
fn visit_scalar<'de, V: Visitor<'de>>(value: Value, visitor: V) -> Result<V::Value, PathError> {
    match value {
        Value::Null => visitor.visit_unit(),
        Value::Bool(b) => visitor.visit_bool(b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                visitor.visit_u64(u)
            } else if let Some(i) = n.as_i64() {
                visitor.visit_i64(i)
            } else {
                visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => visitor.visit_string(s),
        other => Err(de::Error::invalid_type(unexpected(&other), &visitor)),
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

fn visit_array<'de, V: Visitor<'de>>(items: Vec<Value>, visitor: V) -> Result<V::Value, PathError> {
    let len = items.len();
    let mut access = SeqAccess { items: items.into_iter().enumerate() };
    let value = visitor.visit_seq(&mut access)?;
    match access.items.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(len, &"fewer elements in array")),
    }
}

fn visit_object<'de, V: Visitor<'de>>(map: Map<String, Value>, visitor: V) -> Result<V::Value, PathError> {
    let len = map.len();
    let mut access = MapAccess { entries: map.into_iter(), pending: None };
    let value = visitor.visit_map(&mut access)?;
    match access.entries.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(len, &"fewer elements in map")),
    }
}

struct SeqAccess {
    items: std::iter::Enumerate<std::vec::IntoIter<Value>>,
}

impl<'de> de::SeqAccess<'de> for SeqAccess {
    type Error = PathError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, PathError> {
        let Some((index, item)) = self.items.next() else { return Ok(None) };
        seed.deserialize(ValueDeserializer(item)).map(Some).map_err(|e| e.within(Segment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct MapAccess {
    entries: serde_json::map::IntoIter,
    /// The entry whose key was just read: its value comes next.
    pending: Option<(String, Value)>,
}

impl<'de> de::MapAccess<'de> for MapAccess {
    type Error = PathError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, PathError> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        // An unknown key fails here, with the path of the object that holds it.
        let decoded = seed.deserialize(de::value::StrDeserializer::<PathError>::new(&key))?;
        self.pending = Some((key, value));
        Ok(Some(decoded))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, PathError> {
        let (key, value) = self.pending.take().ok_or_else(|| de::Error::custom("value is missing"))?;
        seed.deserialize(ValueDeserializer(value)).map_err(|e| e.within(Segment::Key(key)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct EnumAccess {
    variant: String,
    content: Value,
}

impl<'de> de::EnumAccess<'de> for EnumAccess {
    type Error = PathError;
    type Variant = VariantAccess;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, VariantAccess), PathError> {
        let variant = seed.deserialize(de::value::StrDeserializer::<PathError>::new(&self.variant))?;
        Ok((variant, VariantAccess { variant: self.variant, content: self.content }))
    }
}

struct VariantAccess {
    variant: String,
    content: Value,
}

impl VariantAccess {
    fn content(self) -> (ValueDeserializer, Segment) {
        (ValueDeserializer(self.content), Segment::Key(self.variant))
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess {
    type Error = PathError;

    fn unit_variant(self) -> Result<(), PathError> {
        let (content, at) = self.content();
        de::Deserialize::deserialize(content).map_err(|e: PathError| e.within(at))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, PathError> {
        let (content, at) = self.content();
        seed.deserialize(content).map_err(|e| e.within(at))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, PathError> {
        let (content, at) = self.content();
        content.deserialize_seq(visitor).map_err(|e| e.within(at))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        let (content, at) = self.content();
        content.deserialize_map(visitor).map_err(|e| e.within(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Spec {
        replicas: Option<i32>,
        #[serde(default)]
        containers: Vec<Container>,
        policy: Option<Policy>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Container {
        name: String,
        image: Option<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Policy {
        Always,
        Limit(u8),
    }

    fn error(value: Value) -> String {
        from_value::<Spec>(value).unwrap_err().to_string()
    }

    #[test]
    fn decodes_what_serde_json_decodes() {
        let spec: Spec =
            from_value(json!({"replicas": 3, "containers": [{"name": "a", "image": "x"}], "policy": "Always"}))
                .unwrap();
        let via_serde_json: Spec = serde_json::from_value(
            json!({"replicas": 3, "containers": [{"name": "a", "image": "x"}], "policy": "Always"}),
        )
        .unwrap();
        assert_eq!(spec, via_serde_json);
        let limited: Spec = from_value(json!({"policy": {"Limit": 2}, "replicas": null})).unwrap();
        assert_eq!(limited, Spec { replicas: None, containers: vec![], policy: Some(Policy::Limit(2)) });
    }

    #[test]
    fn errors_name_the_path_to_the_field() {
        assert_eq!(
            error(json!({"replica": 3})),
            ".: unknown field `replica`, expected one of `replicas`, `containers`, `policy`"
        );
        assert_eq!(
            error(json!({"containers": [{"name": "a"}, {"name": "b", "imagee": "x"}]})),
            "containers[1]: unknown field `imagee`, expected `name` or `image`"
        );
        assert_eq!(error(json!({"replicas": "three"})), "replicas: invalid type: string \"three\", expected i32");
        assert_eq!(
            error(json!({"containers": [{"name": null}]})),
            "containers[0].name: invalid type: null, expected a string"
        );
        assert_eq!(error(json!({"containers": [{}]})), "containers[0]: missing field `name`");
        assert_eq!(error(json!({"policy": {"Limit": 300}})), "policy.Limit: invalid value: integer `300`, expected u8");
    }
}
