//! Manifests: multi-document YAML (or JSON) text in, one JSON value per document out, with
//! kubectl's wording for syntax errors (`error converting YAML to JSON: yaml: line 7: …`).
//! Mirrors k8s.io/apimachinery/pkg/util/yaml (YAMLReader splits on `---` lines, then each
//! document is converted on its own, so line numbers count from its document's start).

use serde_json::Value;

/// One document that failed to parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    pub message: String,
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Splits on `---` separator lines, as upstream's YAMLReader does.
pub fn split_documents(text: &str) -> Vec<String> {
    let mut documents = vec![String::new()];
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == "---" || (trimmed.starts_with("--- ") && trimmed[4..].trim_start().starts_with('#')) {
            documents.push(String::new());
        } else if let Some(current) = documents.last_mut() {
            current.push_str(line);
        }
    }
    documents
}

/// Parses every non-empty document; stops at the first that fails.
pub fn parse_documents(text: &str) -> Result<Vec<Value>, ManifestError> {
    let mut values = Vec::new();
    for document in split_documents(text) {
        if let Some(value) = parse_document(&document)? {
            values.push(value);
        }
    }
    Ok(values)
}

/// One document to JSON; `None` if it holds nothing (only comments or whitespace). JSON
/// lists of objects (`kind: List`) are expanded by the caller.
pub fn parse_document(document: &str) -> Result<Option<Value>, ManifestError> {
    let yaml: serde_yaml::Value = match serde_yaml::from_str(document) {
        Ok(v) => v,
        Err(e) => return Err(yaml_error(&e)),
    };
    if yaml.is_null() {
        return Ok(None);
    }
    let mut json = yaml_to_json(yaml)?;
    crate::yaml11::apply_booleans(document, &mut json);
    Ok(Some(json))
}

fn yaml_error(e: &serde_yaml::Error) -> ManifestError {
    let text = e.to_string();
    // serde_yaml says "… at line 7 column 9"; go-yaml says "yaml: line 7: …".
    let description = text.split(" at line ").next().unwrap_or(&text);
    let message = match e.location() {
        Some(loc) => format!("error converting YAML to JSON: yaml: line {}: {description}", loc.line()),
        None => format!("error converting YAML to JSON: yaml: {description}"),
    };
    ManifestError { message }
}

/// YAML to JSON as sigs.k8s.io/yaml does: map keys must be strings (numbers and bools are
/// turned into their text); tags are dropped.
pub fn yaml_to_json(yaml: serde_yaml::Value) -> Result<Value, ManifestError> {
    use serde_yaml::Value as Y;
    Ok(match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => serde_json::to_value(&n).unwrap_or(Value::Null),
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(items.into_iter().map(yaml_to_json).collect::<Result<_, _>>()?),
        Y::Mapping(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let key = match k {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    Y::Null => "null".to_string(),
                    other => {
                        let message = format!("error converting YAML to JSON: yaml: unsupported map key: {other:?}");
                        return Err(ManifestError { message });
                    }
                };
                out.insert(key, yaml_to_json(v)?);
            }
            Value::Object(out)
        }
        Y::Tagged(tagged) => yaml_to_json(tagged.value)?,
    })
}

/// Expands `kind: List` documents (what `kubectl get -o yaml` of several objects prints).
pub fn expand_lists(values: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::new();
    for value in values {
        let is_list = value.get("kind").and_then(Value::as_str) == Some("List");
        match value.get("items").and_then(Value::as_array) {
            Some(items) if is_list => out.extend(items.iter().cloned()),
            _ => out.push(value),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_split_on_separator_lines_and_skip_empty_ones() {
        let text = "---\na: 1\n---\n# only a comment\n---\nb: 2\n";
        let values = parse_documents(text).unwrap();
        assert_eq!(values, vec![serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
    }

    #[test]
    fn syntax_errors_count_lines_within_their_document() {
        let text = "a: 1\n---\nkind: Pod\nmetadata:\n  name: x\n  labels: a: b\n";
        let err = parse_documents(text).unwrap_err();
        assert_eq!(
            err.message,
            "error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context"
        );
    }
}
