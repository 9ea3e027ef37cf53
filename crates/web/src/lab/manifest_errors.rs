//! Finds the line of the manifest an `kubectl apply` error is about, so the editor can mark it:
//! YAML syntax errors name a line within their document (`yaml: line 4: …`, counted as
//! upstream's YAMLReader does, from the document's start), and decoding errors name a field
//! path (`unknown field "spec.replica"`), looked up here in the text.

use crate::engine;

/// The 1-based line of `text` that the apply error `output` is about, when it says.
pub fn error_line(text: &str, output: &str) -> Option<usize> {
    if output.contains("yaml: line ") {
        return syntax_error_line(text);
    }
    let path = quoted_after(output, "unknown field \"").or_else(|| field_after(output, "Go struct field "))?;
    documents(text).into_iter().find_map(|(start, document)| path_line(&document, &path).map(|line| start + line - 1))
}

/// The first document that fails to parse, and the line its parser names.
fn syntax_error_line(text: &str) -> Option<usize> {
    let engine = engine::get()?;
    documents(text).into_iter().find_map(|(start, document)| {
        let message = engine.manifest_error(&document)?;
        let rest = message.split("yaml: line ").nth(1)?;
        let line: usize = rest.split(':').next()?.parse().ok()?;
        Some(start + line - 1)
    })
}

/// Each `---`-separated document with the 1-based line it starts on (mirrors the core's
/// `manifest::split_documents`, which drops the separator lines).
fn documents(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![(1, String::new())];
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_end();
        if trimmed == "---" || (trimmed.starts_with("--- ") && trimmed[4..].trim_start().starts_with('#')) {
            out.push((index + 2, String::new()));
        } else if let Some((_, current)) = out.last_mut() {
            current.push_str(line);
        }
    }
    out
}

fn quoted_after(output: &str, marker: &str) -> Option<String> {
    Some(output.split(marker).nth(1)?.split('"').next()?.to_string())
}

fn field_after(output: &str, marker: &str) -> Option<String> {
    Some(output.split(marker).nth(1)?.split_whitespace().next()?.to_string())
}

/// One non-blank, non-comment line: its number, indent, where its content starts past any
/// `- `, whether it opens a sequence item, and its mapping key.
struct Line<'a> {
    number: usize,
    indent: usize,
    content_col: usize,
    dash: bool,
    key: Option<&'a str>,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let content = trimmed.strip_prefix("- ").map(str::trim_start).unwrap_or(trimmed);
        let key = content.split_once(':').map(|(key, _)| key.trim().trim_matches(|c| c == '"' || c == '\''));
        out.push(Line {
            number: index + 1,
            indent: raw.len() - trimmed.len(),
            content_col: raw.len() - content.len(),
            dash: content.len() < trimmed.len(),
            key,
        });
    }
    out
}

/// The line of the field at a path like `spec.template.spec.containers[0].image`, when every
/// part of it is found.
fn path_line(text: &str, path: &str) -> Option<usize> {
    let all = lines(text);
    let mut block: &[Line<'_>] = &all;
    let mut found = None;
    for part in path.split('.') {
        let (key, indices) = split_indices(part);
        let (line, children) = find_key(block, key)?;
        found = Some(line);
        block = children;
        for index in indices {
            let (line, item) = find_item(block, index)?;
            found = Some(line);
            block = item;
        }
    }
    found
}

/// `containers[0]` → (`containers`, [0]).
fn split_indices(part: &str) -> (&str, Vec<usize>) {
    let mut pieces = part.split('[');
    let key = pieces.next().unwrap_or(part);
    (key, pieces.filter_map(|p| p.trim_end_matches(']').parse().ok()).collect())
}

fn find_key<'a, 'b>(block: &'b [Line<'a>], key: &str) -> Option<(usize, &'b [Line<'a>])> {
    let level = block.iter().map(|l| l.content_col).min()?;
    let at = block.iter().position(|l| l.content_col == level && l.key == Some(key))?;
    let col = block[at].content_col;
    let end = block[at + 1..].iter().position(|l| l.content_col <= col).map_or(block.len(), |p| at + 1 + p);
    Some((block[at].number, &block[at + 1..end]))
}

fn find_item<'a, 'b>(block: &'b [Line<'a>], index: usize) -> Option<(usize, &'b [Line<'a>])> {
    let indent = block.iter().filter(|l| l.dash).map(|l| l.indent).min()?;
    let starts: Vec<usize> = (0..block.len()).filter(|&i| block[i].dash && block[i].indent == indent).collect();
    let start = *starts.get(index)?;
    let end = starts.get(index + 1).copied().unwrap_or(block.len());
    Some((block[start].number, &block[start..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replica: 3\n  template:\n    spec:\n      containers:\n      - name: a\n        image: x\n      - name: b\n        imagePullPolcy: Always\n";

    #[test]
    fn unknown_fields_point_at_their_key() {
        let output = "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\"\n";
        assert_eq!(error_line(DEPLOYMENT, output), Some(6));
        let nested = "strict decoding error: unknown field \"spec.template.spec.containers[1].imagePullPolcy\"";
        assert_eq!(error_line(DEPLOYMENT, nested), Some(13));
    }

    #[test]
    fn type_errors_point_at_their_field() {
        let output =
            "json: cannot unmarshal string into Go struct field spec.template.spec.containers[0].image of type string";
        assert_eq!(error_line(DEPLOYMENT, output), Some(11));
    }

    #[test]
    fn syntax_errors_count_from_their_document() {
        let text = "kind: A\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels: a: b\n";
        let output = "error: error parsing STDIN: error converting YAML to JSON: yaml: line 5: mapping values are not allowed in this context";
        assert_eq!(error_line(text, output), Some(7));
    }

    #[test]
    fn other_errors_have_no_line() {
        assert_eq!(error_line(DEPLOYMENT, "Error from server (AlreadyExists): x"), None);
        assert_eq!(error_line(DEPLOYMENT, "unknown field \"spec.nothere\""), None);
    }
}
