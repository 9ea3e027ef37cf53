//! `--sort-by=.lastTimestamp`: orders objects by one JSONPath field, as kubectl's sorting printer
//! does — missing values first, strings in natural order (`pod-9` before `pod-10`), numbers by
//! value. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go (`TableSorter`, `isLess`)
//! and `RelaxedJSONPathExpression` in staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go.

use crate::api::Object;
use serde_json::Value;
use std::cmp::Ordering;

/// A parsed `--sort-by` field: its `{.a.b}` spelling and the steps to it.
pub struct SortField {
    pub expression: String,
    steps: Vec<Step>,
}

enum Step {
    Key(String),
    Index(usize),
}

impl SortField {
    /// `RelaxedJSONPathExpression` plus the simple paths kubectl users sort by
    /// (`.metadata.name`, `{.status.containerStatuses[0].restartCount}`).
    pub fn parse(text: &str) -> Result<SortField, String> {
        let body = match text.strip_prefix('{') {
            Some(inner) => inner.strip_suffix('}'),
            None => Some(text),
        };
        let body = body.filter(|b| !b.contains(['{', '}'])).map(|b| b.strip_prefix('.').unwrap_or(b));
        let Some(body) = body.filter(|b| !b.is_empty()) else {
            return Err("error: unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".into());
        };
        let expression = format!("{{.{body}}}");
        let mut steps = Vec::new();
        for part in body.split('.') {
            let (key, indexes) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
            if key.is_empty() && indexes.is_empty() {
                return Err(format!("error: sorting error: invalid path {expression}"));
            }
            if !key.is_empty() {
                steps.push(Step::Key(key.to_string()));
            }
            for index in indexes.split('[').filter(|i| !i.is_empty()) {
                let number = index.strip_suffix(']').and_then(|n| n.parse().ok());
                let number =
                    number.ok_or_else(|| format!("error: sorting error: invalid array index in {expression}"))?;
                steps.push(Step::Index(number));
            }
        }
        Ok(SortField { expression, steps })
    }

    /// The field's value in `object`, if it has one.
    fn lookup(&self, object: &Value) -> Option<Value> {
        let mut current = object;
        for step in &self.steps {
            current = match step {
                Step::Key(key) => current.get(key)?,
                Step::Index(index) => current.get(*index)?,
            };
        }
        (!current.is_null()).then(|| current.clone())
    }
}

/// Sorts `objects` by `field` (stable); an error when more than one object and none has it.
pub fn sort_objects(objects: &mut Vec<Object>, field: &SortField) -> Result<(), String> {
    let keyed: Vec<(Option<Value>, Object)> =
        objects.drain(..).map(|o| (field.lookup(&o.to_json_value()), o)).collect();
    if keyed.len() > 1 && keyed.iter().all(|(key, _)| key.is_none()) {
        let message = format!("error: couldn't find any field with path {:?} in the list of objects", field.expression);
        objects.extend(keyed.into_iter().map(|(_, o)| o));
        return Err(message);
    }
    let mut keyed = keyed;
    keyed.sort_by(|(a, _), (b, _)| compare(a.as_ref(), b.as_ref()));
    objects.extend(keyed.into_iter().map(|(_, o)| o));
    Ok(())
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(Value::String(a)), Some(Value::String(b))) => natural_cmp(a, b),
        (Some(Value::Number(a)), Some(Value::Number(b))) => {
            let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            a.partial_cmp(&b).unwrap_or(Ordering::Equal)
        }
        (Some(Value::Bool(a)), Some(Value::Bool(b))) => a.cmp(b),
        _ => Ordering::Equal,
    }
}

/// `sortorder.NaturalLess` as an ordering: digit runs compare by value, digits before others.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (digit_a, digit_b) = (a[i].is_ascii_digit(), b[j].is_ascii_digit());
        if digit_a != digit_b {
            return if digit_a { Ordering::Less } else { Ordering::Greater };
        }
        if !digit_a {
            if a[i] != b[j] {
                return a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
            continue;
        }
        let (zeros_a, zeros_b) = (skip(a, i, |c| c == b'0'), skip(b, j, |c| c == b'0'));
        let (end_a, end_b) = (skip(a, zeros_a, |c| c.is_ascii_digit()), skip(b, zeros_b, |c| c.is_ascii_digit()));
        let by_length = (end_a - zeros_a).cmp(&(end_b - zeros_b));
        let by_digits = a[zeros_a..end_a].cmp(&b[zeros_b..end_b]);
        let by_zeros = zeros_a.cmp(&zeros_b);
        let order = by_length.then(by_digits).then(by_zeros);
        if order != Ordering::Equal {
            return order;
        }
        (i, j) = (end_a, end_b);
    }
    a.len().cmp(&b.len())
}

fn skip(text: &[u8], from: usize, while_: impl Fn(u8) -> bool) -> usize {
    let mut at = from;
    while at < text.len() && while_(text[at]) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_parse_in_every_relaxed_spelling() {
        for text in [".metadata.name", "metadata.name", "{.metadata.name}", "{metadata.name}"] {
            assert_eq!(SortField::parse(text).unwrap().expression, "{.metadata.name}");
        }
        let field = SortField::parse(".status.containerStatuses[0].restartCount").unwrap();
        let pod = serde_json::json!({"status": {"containerStatuses": [{"restartCount": 3}]}});
        assert_eq!(field.lookup(&pod), Some(serde_json::json!(3)));
        assert!(SortField::parse("{.a}}").is_err());
    }

    #[test]
    fn strings_sort_naturally() {
        assert_eq!(natural_cmp("pod-9", "pod-10"), Ordering::Less);
        assert_eq!(natural_cmp("a", "b"), Ordering::Less);
        assert_eq!(natural_cmp("2025-01-01T00:00:09Z", "2025-01-01T00:00:10Z"), Ordering::Less);
        assert_eq!(natural_cmp("abc", "abc"), Ordering::Equal);
        assert_eq!(natural_cmp("ab", "abc"), Ordering::Less);
        assert_eq!(natural_cmp("x01", "x1"), Ordering::Greater);
    }
}
