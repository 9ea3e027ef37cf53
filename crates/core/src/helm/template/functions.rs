//! The functions a chart may call: text/template's builtins and the part of Sprig and Helm
//! (pkg/engine/funcs.go) that charts commonly use, each typed as its Go signature so a wrong
//! argument fails as it fails in Helm. Everything else is refused by name at parse time.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::printf::{go_quote, sprint, sprintf, sprintln};
use super::value::{Value, format_value};

/// Functions the executor runs itself: they evaluate lazily or execute templates.
pub const SPECIAL: &[&str] = &["and", "or", "include"];

/// Every function the lab renders.
const SUPPORTED: &[&str] = &[
    "and",
    "or",
    "not",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "len",
    "index",
    "print",
    "printf",
    "println",
    "include",
    "default",
    "empty",
    "required",
    "fail",
    "quote",
    "squote",
    "trunc",
    "trim",
    "trimSuffix",
    "trimPrefix",
    "replace",
    "upper",
    "lower",
    "title",
    "contains",
    "hasPrefix",
    "hasSuffix",
    "b64enc",
    "b64dec",
    "toString",
    "int",
    "int64",
    "float64",
    "toYaml",
    "toJson",
    "indent",
    "nindent",
    "list",
    "dict",
    "ternary",
    "coalesce",
    "join",
    "repeat",
    "add",
    "sub",
    "mul",
];

/// Helm's and Sprig's other functions: refused by name rather than reported as unknown.
const REFUSED: &[&str] = &[
    "tpl",
    "lookup",
    "getHostByName",
    "semverCompare",
    "semver",
    "toToml",
    "fromToml",
    "fromYaml",
    "fromYamlArray",
    "fromJson",
    "fromJsonArray",
    "toYamlPretty",
    "toPrettyJson",
    "sha256sum",
    "sha1sum",
    "randAlphaNum",
    "randAlpha",
    "randNumeric",
    "uuidv4",
    "now",
    "date",
    "htpasswd",
    "genPrivateKey",
    "genCA",
    "genSelfSignedCert",
    "genSignedCert",
    "derivePassword",
    "encryptAES",
    "decryptAES",
    "regexMatch",
    "regexReplaceAll",
    "regexFind",
    "splitList",
    "split",
    "merge",
    "mergeOverwrite",
    "deepCopy",
    "keys",
    "values",
    "pick",
    "omit",
    "hasKey",
    "get",
    "set",
    "unset",
    "until",
    "untilStep",
    "seq",
    "kindIs",
    "kindOf",
    "typeOf",
    "typeIs",
    "cat",
    "nospace",
    "wrap",
    "abbrev",
    "plural",
    "sortAlpha",
    "uniq",
    "first",
    "last",
    "rest",
    "initial",
    "append",
    "prepend",
    "concat",
    "compact",
    "slice",
    "call",
    "html",
    "js",
    "urlquery",
    "block",
    "mustToYaml",
];

/// Whether a template may call `name`; Go's parse-time wording when it may not.
pub fn check(name: &str) -> std::result::Result<(), String> {
    if SUPPORTED.contains(&name) {
        Ok(())
    } else if REFUSED.contains(&name) {
        Err(format!("function \"{name}\" is not available in the lab's Helm"))
    } else {
        Err(format!("function \"{name}\" not defined"))
    }
}

/// How a call failed: an error the function returned (`error calling NAME: …`), or an
/// argument Go could not pass (reported as it is).
#[derive(Debug, PartialEq)]
pub enum CallError {
    Returned(String),
    Argument(String),
}

type Result<T> = std::result::Result<T, CallError>;

/// Calls a function that needs nothing from the executor.
pub fn call(name: &str, args: &[Value]) -> Result<Value> {
    match name {
        "not" => one(name, args).map(|v| Value::Bool(!v.truthy())),
        "eq" | "ne" | "lt" | "le" | "gt" | "ge" => compare(name, args),
        "len" => length(one(name, args)?),
        "index" => index(args),
        "print" => Ok(Value::str(sprint(args))),
        "println" => Ok(Value::str(sprintln(args))),
        "printf" => match args.split_first() {
            Some((format, rest)) => Ok(Value::str(sprintf(&string(format)?, rest))),
            None => Err(arity(name, 1, 0)),
        },
        "default" => match args {
            [d] => Ok(d.clone()),
            [d, given, ..] => Ok(if empty(given) { d.clone() } else { given.clone() }),
            [] => Err(arity(name, 1, 0)),
        },
        "empty" => one(name, args).map(|v| Value::Bool(empty(v))),
        "required" => required(args),
        "fail" => Err(CallError::Returned(helm_error(&string(one(name, args)?)?))),
        "quote" => Ok(Value::str(quoted(args, |s| go_quote(&s)))),
        "squote" => Ok(Value::str(quoted(args, |s| format!("'{s}'")))),
        "ternary" => match args {
            [yes, no, condition] => Ok(if condition.truthy() { yes.clone() } else { no.clone() }),
            _ => Err(arity(name, 3, args.len())),
        },
        "coalesce" => Ok(args.iter().find(|v| !empty(v)).cloned().unwrap_or(Value::Nil)),
        "list" => Ok(Value::List(Rc::new(args.to_vec()))),
        "dict" => Ok(dict(args)),
        "toString" => Ok(Value::str(to_string(one(name, args)?))),
        "int" | "int64" => Ok(Value::Int(to_int(one(name, args)?))),
        "float64" => Ok(Value::Float(to_float(one(name, args)?))),
        "toYaml" => Ok(Value::str(to_yaml(one(name, args)?))),
        "toJson" => Ok(Value::str(to_json(one(name, args)?))),
        "add" | "sub" | "mul" => arithmetic(name, args),
        _ => strings(name, args),
    }
}

/// The functions over strings, typed `func(…string…) string` in Sprig.
fn strings(name: &str, args: &[Value]) -> Result<Value> {
    let text = |s: String| Ok(Value::str(s));
    match (name, args) {
        ("upper", [s]) => text(string(s)?.to_uppercase()),
        ("lower", [s]) => text(string(s)?.to_lowercase()),
        ("title", [s]) => text(title(&string(s)?)),
        ("trim", [s]) => text(string(s)?.trim().to_string()),
        ("trimSuffix", [a, b]) => {
            let (a, b) = (string(a)?, string(b)?);
            text(b.strip_suffix(a.as_str()).unwrap_or(&b).to_string())
        }
        ("trimPrefix", [a, b]) => {
            let (a, b) = (string(a)?, string(b)?);
            text(b.strip_prefix(a.as_str()).unwrap_or(&b).to_string())
        }
        ("replace", [old, new, src]) => text(string(src)?.replace(string(old)?.as_str(), &string(new)?)),
        ("contains", [sub, s]) => Ok(Value::Bool(string(s)?.contains(string(sub)?.as_str()))),
        ("hasPrefix", [s, prefix]) => Ok(Value::Bool(string(prefix)?.starts_with(string(s)?.as_str()))),
        ("hasSuffix", [s, suffix]) => Ok(Value::Bool(string(suffix)?.ends_with(string(s)?.as_str()))),
        ("b64enc", [s]) => text(crate::api::secret::base64_encode(string(s)?.as_bytes())),
        ("b64dec", [s]) => match crate::api::secret::base64_decode(&string(s)?) {
            Some(bytes) => text(String::from_utf8_lossy(&bytes).into_owned()),
            None => text("illegal base64 data at input byte 0".into()),
        },
        ("trunc", [count, s]) => text(trunc(int(count)?, &string(s)?)),
        ("indent", [count, s]) => text(indent(int(count)?, &string(s)?)),
        ("nindent", [count, s]) => text(format!("\n{}", indent(int(count)?, &string(s)?))),
        ("repeat", [count, s]) => {
            let count = int(count)?.clamp(0, 1 << 20) as usize;
            let s = string(s)?;
            if s.len().saturating_mul(count) > super::MAX_OUTPUT_BYTES {
                return Err(CallError::Returned("repeat count too large for the lab".into()));
            }
            text(s.repeat(count))
        }
        ("join", [sep, list]) => {
            let parts: Vec<String> = match list {
                Value::List(items) => items.iter().map(to_string).collect(),
                other => vec![to_string(other)],
            };
            text(parts.join(&string(sep)?))
        }
        _ => Err(arity(name, expected_arity(name), args.len())),
    }
}

fn expected_arity(name: &str) -> usize {
    match name {
        "replace" => 3,
        "trimSuffix" | "trimPrefix" | "contains" | "hasPrefix" | "hasSuffix" | "trunc" | "indent" | "nindent"
        | "repeat" | "join" => 2,
        _ => 1,
    }
}

fn arity(name: &str, want: usize, got: usize) -> CallError {
    CallError::Argument(format!("wrong number of args for {name}: want {want} got {got}"))
}

fn one<'a>(name: &str, args: &'a [Value]) -> Result<&'a Value> {
    match args {
        [v] => Ok(v),
        _ => Err(arity(name, 1, args.len())),
    }
}

/// A `string` parameter: only a string passes, as reflect's assignability allows.
fn string(value: &Value) -> Result<String> {
    match value {
        Value::Str(s) => Ok(s.to_string()),
        Value::Nil => Err(CallError::Argument("invalid value; expected string".into())),
        other => Err(CallError::Argument(format!("wrong type for value; expected string; got {}", other.go_type()))),
    }
}

/// An `int` parameter.
fn int(value: &Value) -> Result<i64> {
    match value {
        Value::Int(i) => Ok(*i),
        Value::Nil => Err(CallError::Argument("invalid value; expected int".into())),
        other => Err(CallError::Argument(format!("wrong type for value; expected int; got {}", other.go_type()))),
    }
}

/// Sprig's `empty`: nil, false, zero, and empty strings, lists and maps.
pub fn empty(value: &Value) -> bool {
    !value.truthy()
}

/// Helm's `required`: nil or "" stops rendering with the message.
fn required(args: &[Value]) -> Result<Value> {
    let [warn, value] = args else { return Err(arity("required", 2, args.len())) };
    let warn = string(warn)?;
    match value {
        Value::Nil => Err(CallError::Returned(helm_error(&warn))),
        Value::Str(s) if s.is_empty() => Err(CallError::Returned(helm_error(&warn))),
        other => Ok(other.clone()),
    }
}

/// Helm marks the messages of `required` and `fail` so that the error shows them alone.
pub fn helm_error(message: &str) -> String {
    format!("HELM_ERR_START{message}HELM_ERR_END")
}

/// Sprig's `strval`: what `toString`, `quote` and `join` make of a value.
pub fn to_string(value: &Value) -> String {
    match value {
        Value::Str(s) => s.to_string(),
        other => format_value(other),
    }
}

fn quoted(args: &[Value], quote: impl Fn(String) -> String) -> String {
    let parts: Vec<String> = args.iter().filter(|v| **v != Value::Nil).map(|v| quote(to_string(v))).collect();
    parts.join(" ")
}

/// spf13/cast's `ToInt`, which Sprig's `int` calls: strings parse (0 when they do not).
fn to_int(value: &Value) -> i64 {
    match value {
        Value::Int(i) => *i,
        Value::Float(f) => *f as i64,
        Value::Bool(b) => i64::from(*b),
        Value::Str(s) => s.trim().parse::<i64>().ok().or_else(|| s.parse::<f64>().ok().map(|f| f as i64)).unwrap_or(0),
        _ => 0,
    }
}

fn to_float(value: &Value) -> f64 {
    match value {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Str(s) => s.trim().parse().unwrap_or(0.0),
        _ => 0.0,
    }
}

/// Helm's `toYaml`: sigs.k8s.io/yaml's text without its final newline.
pub fn to_yaml(value: &Value) -> String {
    let yaml = crate::kubectl::yaml::to_yaml(&value.to_json());
    yaml.strip_suffix('\n').unwrap_or(&yaml).to_string()
}

/// Helm's `toJson`: encoding/json, which escapes `<`, `>` and `&` for HTML.
fn to_json(value: &Value) -> String {
    let text = serde_json::to_string(&value.to_json()).unwrap_or_default();
    text.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

fn trunc(count: i64, text: &str) -> String {
    let len = text.len() as i64;
    let cut = |at: i64| text.get(at as usize..).map(str::to_string).unwrap_or_default();
    if count < 0 && len + count > 0 {
        cut(len + count)
    } else if count >= 0 && len > count {
        text.get(..count as usize).unwrap_or(text).to_string()
    } else {
        text.to_string()
    }
}

fn indent(count: i64, text: &str) -> String {
    let pad = " ".repeat(count.clamp(0, 1 << 12) as usize);
    format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
}

fn title(text: &str) -> String {
    let mut out = String::new();
    let mut start = true;
    for c in text.chars() {
        out.extend(if start { c.to_uppercase().collect::<Vec<_>>() } else { vec![c] });
        start = c.is_whitespace();
    }
    out
}

fn dict(args: &[Value]) -> Value {
    let mut map = BTreeMap::new();
    for pair in args.chunks(2) {
        let value = pair.get(1).cloned().unwrap_or(Value::str(""));
        map.insert(to_string(&pair[0]), value);
    }
    Value::Map(Rc::new(map))
}

fn length(value: &Value) -> Result<Value> {
    let n = match value {
        Value::Str(s) => s.len(),
        Value::List(items) => items.len(),
        Value::Map(map) => map.len(),
        Value::Nil => return Err(CallError::Returned("len of nil pointer".into())),
        other => return Err(CallError::Returned(format!("len of type {}", other.go_type()))),
    };
    Ok(Value::Int(n as i64))
}

fn index(args: &[Value]) -> Result<Value> {
    let Some((mut item, keys)) = args.split_first().map(|(a, rest)| (a.clone(), rest)) else {
        return Err(arity("index", 1, 0));
    };
    for key in keys {
        item = match (&item, key) {
            (Value::Map(map), Value::Str(k)) => map.get(&**k).cloned().unwrap_or(Value::Nil),
            (Value::List(items), Value::Int(i)) => match usize::try_from(*i).ok().and_then(|i| items.get(i)) {
                Some(v) => v.clone(),
                None => return Err(CallError::Returned(format!("error calling index: index out of range: {i}"))),
            },
            (Value::Nil, _) => return Err(CallError::Returned("index of untyped nil".into())),
            (Value::Map(_), other) => {
                return Err(CallError::Returned(format!("value has type {}; should be string", other.go_type())));
            }
            (other, _) => return Err(CallError::Returned(format!("can't index item of type {}", other.go_type()))),
        };
    }
    Ok(item)
}

/// text/template's comparison functions, with their "incompatible types" refusal.
fn compare(name: &str, args: &[Value]) -> Result<Value> {
    let Some((first, rest)) = args.split_first() else { return Err(arity(name, 2, 0)) };
    if rest.is_empty() {
        return Err(CallError::Returned("missing argument for comparison".into()));
    }
    let incompatible = || CallError::Returned("incompatible types for comparison".into());
    match name {
        "eq" | "ne" => {
            let mut equal = false;
            for other in rest {
                let same = match (first, other) {
                    (Value::Nil, Value::Nil) => true,
                    (Value::Nil, _) | (_, Value::Nil) => false,
                    (Value::Bool(a), Value::Bool(b)) => a == b,
                    (Value::Int(a), Value::Int(b)) => a == b,
                    (Value::Float(a), Value::Float(b)) => a == b,
                    (Value::Str(a), Value::Str(b)) => a == b,
                    (Value::List(_) | Value::Map(_), _) | (_, Value::List(_) | Value::Map(_)) => {
                        return Err(CallError::Returned(format!(
                            "non-comparable type {}: {}",
                            format_value(first),
                            first.go_type()
                        )));
                    }
                    _ => return Err(incompatible()),
                };
                equal |= same;
                if name == "ne" {
                    break;
                }
            }
            Ok(Value::Bool(if name == "eq" { equal } else { !equal }))
        }
        _ => {
            let ordering = match (first, &rest[0]) {
                (Value::Int(a), Value::Int(b)) => a.partial_cmp(b),
                (Value::Float(a), Value::Float(b)) => a.partial_cmp(b),
                (Value::Str(a), Value::Str(b)) => a.partial_cmp(b),
                (Value::Bool(_), Value::Bool(_)) => {
                    return Err(CallError::Returned("invalid type for comparison".into()));
                }
                _ => return Err(incompatible()),
            };
            use std::cmp::Ordering::*;
            let truth = matches!(
                (name, ordering),
                ("lt", Some(Less)) | ("le", Some(Less | Equal)) | ("gt", Some(Greater)) | ("ge", Some(Greater | Equal))
            );
            Ok(Value::Bool(truth))
        }
    }
}

/// Sprig's `add`/`sub`/`mul`, which take any numbers and answer int64.
fn arithmetic(name: &str, args: &[Value]) -> Result<Value> {
    let numbers: Vec<i64> = args.iter().map(to_int).collect();
    let result = match (name, numbers.as_slice()) {
        ("sub", [a, b]) => a.wrapping_sub(*b),
        ("sub", _) => return Err(arity(name, 2, args.len())),
        ("add", _) => numbers.iter().fold(0i64, |a, b| a.wrapping_add(*b)),
        _ => numbers.iter().fold(1i64, |a, b| a.wrapping_mul(*b)),
    };
    Ok(Value::Int(result))
}
