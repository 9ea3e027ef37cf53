//! Finds the line of a value in a lesson's YAML text by its path (`steps[2].task.solution`),
//! so errors found after parsing (a script that does not parse, a task already done) still
//! point at a line. Block-style YAML is followed exactly; inside flow style (`{a: 1}`) it
//! answers with the nearest enclosing line it found.

/// One step of a path: a mapping key or a sequence index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(&'static str),
    Index(usize),
}

/// A non-blank, non-comment line: its number, where its first character is, and where its
/// content starts once sequence dashes (`- `) are stripped.
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    number: usize,
    indent: usize,
    content_col: usize,
    content: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = raw.len() - trimmed.len();
        let mut content = trimmed;
        while let Some(rest) = content.strip_prefix('-').filter(|r| r.is_empty() || r.starts_with(' ')) {
            content = rest.trim_start();
        }
        let content_col = raw.len() - content.len();
        out.push(Line { number: i + 1, indent, content_col, content });
    }
    out
}

/// The 1-based line of the value at `path` (of its key, or its `- ` item), else of the nearest
/// ancestor found; 1 for the empty path.
pub fn line_of(text: &str, path: &[Segment]) -> usize {
    let all = lines(text);
    let mut range: &[Line<'_>] = &all;
    let mut found = 1;
    for segment in path {
        let next = match segment {
            Segment::Key(key) => find_key(range, key),
            Segment::Index(index) => find_item(range, *index),
        };
        let Some((line, children)) = next else { break };
        found = line;
        range = children;
    }
    found
}

/// The line holding `key:` at the mapping's own level, and the lines of its value.
fn find_key<'a, 'b>(range: &'b [Line<'a>], key: &str) -> Option<(usize, &'b [Line<'a>])> {
    let level = range.iter().map(|l| l.content_col).min()?;
    let at = range.iter().position(|l| l.content_col == level && key_of(l.content) == Some(key))?;
    let col = range[at].content_col;
    let end = range[at + 1..]
        .iter()
        .position(|l| l.indent < col || (l.indent == col && !l.content.is_empty() && l.indent == l.content_col))
        .map_or(range.len(), |p| at + 1 + p);
    // The value's lines, plus the key line itself when the value sits on it (`key: - x` never does).
    Some((range[at].number, &range[at + 1..end]))
}

/// The `index`-th `- ` item of a sequence, and its lines (the first holds the item's first key).
fn find_item<'a, 'b>(range: &'b [Line<'a>], index: usize) -> Option<(usize, &'b [Line<'a>])> {
    let dash_col = range.iter().map(|l| l.indent).min()?;
    let items: Vec<usize> =
        (0..range.len()).filter(|&i| range[i].indent == dash_col && range[i].content_col > dash_col).collect();
    let start = *items.get(index)?;
    let end = items.get(index + 1).copied().unwrap_or(range.len());
    Some((range[start].number, &range[start..end]))
}

fn key_of(content: &str) -> Option<&str> {
    let (key, _) = content.split_once(':')?;
    Some(key.trim().trim_matches(|c| c == '"' || c == '\''))
}

/// Where the text of a script at `path` starts: the line after `key: |`, or the key's own line
/// for a one-line value (or an item of `commands`).
pub fn script_start(text: &str, path: &[Segment]) -> usize {
    let line = line_of(text, path);
    let holder = text.lines().nth(line - 1).unwrap_or("");
    let value = holder.split_once(':').map_or("", |(_, v)| v.trim());
    let block = matches!(path.last(), Some(Segment::Key(_))) && value.starts_with(['|', '>']);
    if block { line + 1 } else { line }
}

#[cfg(test)]
mod tests {
    use super::Segment::{Index, Key};
    use super::*;

    const TEXT: &str = "\
id: x
setup: |
  kubectl apply -f - <<EOF
  steps: not-a-key
  EOF
steps:
- title: one
  commands:
  - kubectl get pods
  - kubectl get nodes
# a comment
- title: two
  task:
    goal: g
    checks:
      - pods: {selector: app=hello}
      - ran:
          verb: delete
    solution: |
      kubectl delete pod x
";

    #[test]
    fn keys_items_and_nesting() {
        assert_eq!(line_of(TEXT, &[Key("setup")]), 2);
        assert_eq!(line_of(TEXT, &[Key("steps")]), 6);
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(0), Key("commands"), Index(1)]), 10);
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(1)]), 12);
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(1), Key("task"), Key("checks"), Index(1)]), 17);
        assert_eq!(
            line_of(TEXT, &[Key("steps"), Index(1), Key("task"), Key("checks"), Index(1), Key("ran"), Key("verb")]),
            18
        );
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(1), Key("task"), Key("solution")]), 19);
    }

    #[test]
    fn missing_parts_fall_back_to_the_nearest_ancestor() {
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(5)]), 6);
        assert_eq!(line_of(TEXT, &[Key("steps"), Index(1), Key("task"), Key("checks"), Index(0), Key("pods")]), 16);
        assert_eq!(line_of(TEXT, &[Key("quiz")]), 1);
    }

    #[test]
    fn scripts_start_after_a_block_indicator() {
        assert_eq!(script_start(TEXT, &[Key("setup")]), 3);
        assert_eq!(script_start(TEXT, &[Key("steps"), Index(0), Key("commands"), Index(0)]), 9);
        assert_eq!(script_start(TEXT, &[Key("steps"), Index(1), Key("task"), Key("solution")]), 20);
    }
}
