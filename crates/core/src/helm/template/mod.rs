//! Go's text/template as Helm 3 runs it (pkg/engine): a chart's templates parsed into one set
//! so that `define`d names are shared, each file rendered with `.Values`, `.Release`,
//! `.Chart`, `.Capabilities` and `.Template`, missing values rendered empty, and errors
//! worded as Helm prints them.

pub mod exec;
pub mod functions;
pub mod lex;
pub mod node_text;
pub mod parse;
pub mod printf;
pub mod value;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::rc::Rc;

use parse::Node;
pub use value::Value;

/// Commands and `range` turns one rendering may run.
pub const MAX_STEPS: u64 = 100_000;
/// Bytes one rendering may print (a release Secret holds at most 1 MiB).
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;
/// How deep `include` and `template` may nest (Helm allows 1000 per name; the lab's stack
/// in the browser is smaller).
pub const MAX_DEPTH: usize = 32;

/// A chart's templates, parsed together.
#[derive(Default)]
pub struct TemplateSet {
    texts: BTreeMap<String, String>,
    named: BTreeMap<String, (String, Rc<Vec<Node>>)>,
}

impl TemplateSet {
    /// Parses every file (`hello/templates/x.yaml` → text). As Helm does, the longest paths
    /// are parsed first, so a chart's own `define` wins over a subchart's.
    pub fn parse(files: &BTreeMap<String, String>) -> Result<TemplateSet, String> {
        let mut set = TemplateSet { texts: files.clone(), named: BTreeMap::new() };
        let mut order: Vec<&String> = files.keys().collect();
        order.sort_by(|a, b| b.len().cmp(&a.len()).then(b.cmp(a)));
        for name in order {
            let parsed = parse::parse(&files[name]).map_err(|e| {
                let location = set.location(name, e.pos, false);
                cleanup_parse_error(name, &format!("template: {location}: {}", e.message))
            })?;
            for (define, nodes) in parsed.defines {
                set.named.insert(define, (name.clone(), Rc::new(nodes)));
            }
            set.named.insert(name.clone(), (name.clone(), Rc::new(parsed.body)));
        }
        Ok(set)
    }

    /// A named template: the file it is in and its nodes.
    pub fn named(&self, name: &str) -> Option<(&str, &[Node])> {
        self.named.get(name).map(|(file, nodes)| (file.as_str(), nodes.as_slice()))
    }

    /// `FILE:LINE` or `FILE:LINE:COL` of a byte offset (the column counts bytes from 0).
    pub fn location(&self, file: &str, pos: usize, with_column: bool) -> String {
        let text = self.texts.get(file).map_or("", String::as_str);
        let before = &text[..pos.min(text.len())];
        let line = 1 + before.matches('\n').count();
        if !with_column {
            return format!("{file}:{line}");
        }
        let column = before.rfind('\n').map_or(pos, |nl| pos - nl - 1);
        format!("{file}:{line}:{column}")
    }

    /// Renders one file with `data` as its dot; `<no value>` removed as Helm removes it.
    pub fn render(&self, file: &str, data: &Value) -> Result<String, String> {
        let Some((_, nodes)) = self.named(file) else { return Ok(String::new()) };
        let mut budget = exec::Budget::default();
        let mut state = exec::State {
            set: self,
            file,
            name: file,
            vars: vec![("$".into(), data.clone())],
            out: String::new(),
            depth: 0,
            budget: &mut budget,
        };
        match state.list(data, nodes) {
            Ok(()) => Ok(state.out.replace("<no value>", "")),
            Err(exec::Stop::Error(text)) => Err(cleanup_exec_error(file, &text)),
            Err(_) => Err(format!("template: {file}: break or continue outside range")),
        }
    }
}

/// Renders every template that is not a partial (`_helpers.tpl`), as pkg/engine's `render`.
pub fn render_all(files: &BTreeMap<String, String>, values: &Value) -> Result<BTreeMap<String, String>, String> {
    let set = TemplateSet::parse(files)?;
    let mut rendered = BTreeMap::new();
    for name in files.keys() {
        let base = name.rsplit('/').next().unwrap_or(name);
        if base.starts_with('_') {
            continue;
        }
        let data = with_template(values, name);
        rendered.insert(name.clone(), set.render(name, &data)?);
    }
    Ok(rendered)
}

/// The values plus `.Template.Name` and `.Template.BasePath` for one file.
fn with_template(values: &Value, name: &str) -> Value {
    let mut map = match values {
        Value::Map(map) => (**map).clone(),
        _ => BTreeMap::new(),
    };
    let base_path = name.rsplit_once('/').map_or("", |(dir, _)| dir);
    let template = exec::map([("Name".into(), Value::str(name)), ("BasePath".into(), Value::str(base_path))]);
    map.insert("Template".into(), template);
    Value::Map(Rc::new(map))
}

/// pkg/engine's cleanupParseError: `parse error at (FILE:LINE): MESSAGE`.
fn cleanup_parse_error(file: &str, text: &str) -> String {
    let tokens: Vec<&str> = text.split(": ").collect();
    if tokens.len() == 1 {
        return format!("parse error in ({file}): {text}");
    }
    format!("parse error at ({}): {}", tokens[1], tokens[tokens.len() - 1])
}

/// pkg/engine's cleanupExecError: a `required`/`fail` message alone with its location;
/// anything else as text/template wrote it.
fn cleanup_exec_error(file: &str, text: &str) -> String {
    let tokens: Vec<&str> = text.splitn(3, ": ").collect();
    if tokens.len() != 3 {
        return format!("execution error in ({file}): {text}");
    }
    let start = tokens[2].find("HELM_ERR_START");
    let end = tokens[2].rfind("HELM_ERR_END");
    match (start, end) {
        (Some(start), Some(end)) if start + 14 <= end => {
            format!("execution error at ({}): {}", tokens[1], &tokens[2][start + 14..end])
        }
        _ => text.to_string(),
    }
}
