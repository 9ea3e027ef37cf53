//! The JSONPath subset checks use: `.a.b`, `[0]`, `['key.with.dots']` and one equality filter
//! `[?(@.type=="Available")]`, with or without kubectl's `{…}`. Results print as
//! `kubectl get -o jsonpath` prints them: strings bare, several joined by a space.

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Key(String),
    Index(usize),
    /// `[?(@.a.b=="v")]`: the array items whose field at the path equals the value.
    Filter(Vec<String>, String),
}

/// A parsed path.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonPath {
    segments: Vec<Segment>,
}

impl JsonPath {
    pub fn parse(text: &str) -> Result<JsonPath, String> {
        let body = text.trim();
        let body = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')).unwrap_or(body);
        let err = |why: &str| format!("JSONPath \"{text}\": {why}");
        if !body.starts_with(['.', '[']) {
            return Err(err("must start with . (like .spec.replicas)"));
        }
        let mut segments = Vec::new();
        let mut rest = body;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('.') {
                let end = after.find(['.', '[']).unwrap_or(after.len());
                if end == 0 {
                    return Err(err("empty field name"));
                }
                segments.push(Segment::Key(after[..end].to_string()));
                rest = &after[end..];
            } else if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']').ok_or_else(|| err("unclosed ["))?;
                segments.push(bracket(&after[..end]).ok_or_else(|| err("unsupported [...] expression"))?);
                rest = &after[end + 1..];
            } else {
                return Err(err("expected . or ["));
            }
        }
        Ok(JsonPath { segments })
    }

    /// Every value the path reaches in `root`, in document order.
    pub fn find<'a>(&self, root: &'a Value) -> Vec<&'a Value> {
        let mut current = vec![root];
        for segment in &self.segments {
            current = current.into_iter().flat_map(|v| step(segment, v)).collect();
        }
        current
    }
}

fn bracket(inside: &str) -> Option<Segment> {
    let inside = inside.trim();
    if let Ok(index) = inside.parse() {
        return Some(Segment::Index(index));
    }
    if let Some(key) = quoted(inside) {
        return Some(Segment::Key(key.to_string()));
    }
    let filter = inside.strip_prefix("?(@.")?.strip_suffix(')')?;
    let (path, value) = filter.split_once("==")?;
    let value = quoted(value.trim())?.to_string();
    Some(Segment::Filter(path.trim().split('.').map(str::to_string).collect(), value))
}

fn quoted(text: &str) -> Option<&str> {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .or_else(|| text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')))
}

fn step<'a>(segment: &Segment, value: &'a Value) -> Vec<&'a Value> {
    match segment {
        Segment::Key(key) => value.get(key).into_iter().collect(),
        Segment::Index(index) => value.get(*index).into_iter().collect(),
        Segment::Filter(path, expected) => {
            let items: Vec<&Value> = value.as_array().map(|a| a.iter().collect()).unwrap_or_default();
            items
                .into_iter()
                .filter(|item| {
                    let field = path.iter().try_fold(*item, |v, key| v.get(key));
                    field.is_some_and(|f| render(f) == *expected)
                })
                .collect()
        }
    }
}

/// One value as jsonpath output prints it.
pub fn render(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_indexes_and_filters() {
        let doc = json!({
            "spec": {"replicas": 3},
            "metadata": {"annotations": {"deployment.kubernetes.io/revision": "2"}},
            "status": {"conditions": [
                {"type": "Progressing", "status": "True"},
                {"type": "Available", "status": "False"}
            ]}
        });
        let find = |p: &str| JsonPath::parse(p).unwrap().find(&doc).into_iter().map(render).collect::<Vec<_>>();
        assert_eq!(find(".spec.replicas"), ["3"]);
        assert_eq!(find("{.spec.replicas}"), ["3"]);
        assert_eq!(find(".status.conditions[?(@.type==\"Available\")].status"), ["False"]);
        assert_eq!(find(".status.conditions[0].type"), ["Progressing"]);
        assert_eq!(find(".metadata.annotations['deployment.kubernetes.io/revision']"), ["2"]);
        assert_eq!(find(".spec.missing"), Vec::<String>::new());
    }

    #[test]
    fn paths_outside_the_subset_are_refused() {
        for bad in ["spec.replicas", ".spec..x", ".a[", ".a[?(@.x>1)]", ".items[*]"] {
            assert!(JsonPath::parse(bad).is_err(), "{bad}");
        }
    }
}
