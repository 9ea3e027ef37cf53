//! `--sort-by=.lastTimestamp`: orders objects by one JSONPath field, as kubectl's sorting printer
//! does — missing values first, strings byte by byte unless both are quantities, numbers by
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
    // kubectl sorts with Go's sort.Sort, which is not stable: equal keys end where it leaves them.
    super::go_sort::sort(&mut keyed, |(a, _), (b, _)| compare(a.as_ref(), b.as_ref()) == Ordering::Less);
    objects.extend(keyed.into_iter().map(|(_, o)| o));
    Ok(())
}

fn compare(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(Value::String(a)), Some(Value::String(b))) => string_cmp(a, b),
        (Some(Value::Number(a)), Some(Value::Number(b))) => {
            let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            a.partial_cmp(&b).unwrap_or(Ordering::Equal)
        }
        (Some(Value::Bool(a)), Some(Value::Bool(b))) => a.cmp(b),
        _ => Ordering::Equal,
    }
}

/// kubectl's `isLess` for two strings (since 1.31): as quantities when both read as one
/// (`500m` before `2`), otherwise byte by byte (`pod-10` before `pod-9`, as kubectl sorts
/// them now that natural order is gone).
pub fn string_cmp(a: &str, b: &str) -> Ordering {
    use crate::api::quantity::Quantity;
    match (Quantity::parse(a), Quantity::parse(b)) {
        (Ok(qa), Ok(qb)) => qa.cmp_value(&qb),
        _ => a.cmp(b),
    }
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
    fn strings_sort_byte_by_byte_and_quantities_by_value() {
        assert_eq!(string_cmp("pod-9", "pod-10"), Ordering::Greater);
        assert_eq!(string_cmp("trainer-2759g", "trainer-2prl7"), Ordering::Less);
        assert_eq!(string_cmp("2025-01-01T00:00:09Z", "2025-01-01T00:00:10Z"), Ordering::Less);
        assert_eq!(string_cmp("abc", "abc"), Ordering::Equal);
        assert_eq!(string_cmp("500m", "2"), Ordering::Less);
        assert_eq!(string_cmp("10", "9"), Ordering::Greater);
        assert_eq!(string_cmp("1Gi", "900Mi"), Ordering::Greater);
    }
}
