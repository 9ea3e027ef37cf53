//! kubectl's JSONPath templates (`-o jsonpath=…`, `-o custom-columns=…`): text and `{…}`
//! actions with fields, `..`, `[*]`, `[n]`, slices, `['key']`, filters `[?(@.a=="b")]`,
//! `{range …}…{end}` and string literals. Mirrors k8s.io/client-go/util/jsonpath (parser.go,
//! jsonpath.go) with missing keys allowed, as kubectl's printer sets.

use serde_json::Value;

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    nodes: Vec<Node>,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Expr(Vec<Step>),
    Range(Vec<Step>, Vec<Node>),
}

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Field(String),
    Wildcard,
    /// `..`: the value and all its descendants.
    Descendants,
    Index(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Filter(Box<Filter>),
    Literal(Value),
}

#[derive(Clone, Debug, PartialEq)]
struct Filter {
    left: Vec<Step>,
    /// `None`: an existence test (`[?(@.x)]`).
    compare: Option<(String, Vec<Step>)>,
}

impl Template {
    /// Parses `text` (e.g. `{range .items[*]}{.metadata.name}{"\n"}{end}`).
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut actions = split_actions(text)?.into_iter();
        let nodes = parse_nodes(&mut actions, false)?;
        Ok(Template { nodes })
    }

    /// The template applied to `data`, as kubectl prints it (no newline added).
    pub fn execute(&self, data: &Value) -> String {
        let mut out = String::new();
        execute_nodes(&self.nodes, data, &mut out);
        out
    }

    /// Each action's results (for custom columns): the values, unformatted.
    pub fn find_results(&self, data: &Value) -> Vec<Vec<Value>> {
        let mut found = Vec::new();
        for node in &self.nodes {
            match node {
                Node::Expr(steps) => found.push(evaluate(steps, data)),
                Node::Text(text) => found.push(vec![Value::String(text.clone())]),
                Node::Range(..) => {}
            }
        }
        found
    }
}

/// One piece of the template: literal text or the inside of a `{…}`.
enum Piece {
    Text(String),
    Action(String),
}

fn split_actions(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_string()));
        }
        let close = action_end(&rest[open + 1..]).ok_or("unclosed action")?;
        pieces.push(Piece::Action(rest[open + 1..open + 1 + close].trim().to_string()));
        rest = &rest[open + 1 + close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_string()));
    }
    Ok(pieces)
}

/// Where the action's `}` is, skipping quoted text.
fn action_end(text: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(_), '\\') if !escaped => {
                escaped = true;
                continue;
            }
            (Some(q), c) if c == q && !escaped => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '}') => return Some(i),
            _ => {}
        }
        escaped = false;
    }
    None
}

fn parse_nodes(pieces: &mut impl Iterator<Item = Piece>, in_range: bool) -> Result<Vec<Node>, String> {
    let mut nodes = Vec::new();
    while let Some(piece) = pieces.next() {
        match piece {
            Piece::Text(text) => nodes.push(Node::Text(text)),
            Piece::Action(action) if action == "end" => {
                return if in_range { Ok(nodes) } else { Err("not in range, nothing to end".into()) };
            }
            Piece::Action(action) => match action.strip_prefix("range ") {
                Some(expr) => {
                    let steps = parse_expr(expr.trim())?;
                    nodes.push(Node::Range(steps, parse_nodes(pieces, true)?));
                }
                None => nodes.push(Node::Expr(parse_expr(&action)?)),
            },
        }
    }
    if in_range { Err("unclosed range".into()) } else { Ok(nodes) }
}

/// An action's expression: `.a.b[*]`, `..name`, `@`, `$.x`, `"literal"`, `3`.
fn parse_expr(text: &str) -> Result<Vec<Step>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '$' | '@' | ' ' => i += 1,
            '.' if chars.get(i + 1) == Some(&'.') => {
                steps.push(Step::Descendants);
                i += 2;
                i = parse_field(&chars, i, &mut steps);
            }
            '.' => i = parse_field(&chars, i + 1, &mut steps),
            '[' => {
                let end = bracket_end(&chars, i).ok_or("unclosed array expect ]")?;
                let inner: String = chars[i + 1..end].iter().collect();
                steps.push(parse_bracket(inner.trim())?);
                i = end + 1;
            }
            '"' | '\'' => {
                let literal: String = chars[i..].iter().collect();
                steps.push(Step::Literal(Value::String(unquote(&literal)?)));
                i = chars.len();
            }
            c if c.is_ascii_alphanumeric() || c == '-' => {
                let word: String = chars[i..].iter().collect();
                steps.push(Step::Literal(literal(word.trim())?));
                i = chars.len();
            }
            c => return Err(format!("unrecognized character in action: U+{:04X} '{c}'", c as u32)),
        }
    }
    Ok(steps)
}

/// A bare number or boolean (the right side of a filter).
fn literal(word: &str) -> Result<Value, String> {
    match word {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if let Ok(int) = word.parse::<i64>() {
        return Ok(Value::from(int));
    }
    let float = word.parse::<f64>().ok().and_then(serde_json::Number::from_f64);
    float.map(Value::Number).ok_or_else(|| format!("unrecognized identifier {word}"))
}

/// A field name after `.` (`\.` escapes a dot); `*` is a wildcard. Returns where it ended.
fn parse_field(chars: &[char], mut i: usize, steps: &mut Vec<Step>) -> usize {
    let mut name = String::new();
    while let Some(&c) = chars.get(i) {
        match c {
            '\\' if chars.get(i + 1).is_some() => {
                name.push(chars[i + 1]);
                i += 2;
                continue;
            }
            '.' | '[' | ' ' | '(' | ')' | '=' | '!' | '<' | '>' => break,
            _ => name.push(c),
        }
        i += 1;
    }
    match name.as_str() {
        "*" => steps.push(Step::Wildcard),
        "" => {}
        _ => steps.push(Step::Field(name)),
    }
    i
}

fn bracket_end(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn parse_bracket(inner: &str) -> Result<Step, String> {
    if inner == "*" {
        return Ok(Step::Wildcard);
    }
    if let Some(filter) = inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')')) {
        return parse_filter(filter.trim());
    }
    if inner.starts_with('\'') || inner.starts_with('"') {
        return Ok(Step::Field(unquote(inner)?));
    }
    if inner.contains(':') {
        let parts: Vec<Option<i64>> = inner.split(':').map(|p| p.trim().parse::<i64>().ok()).collect();
        return Ok(Step::Slice(parts[0], parts.get(1).copied().flatten(), parts.get(2).copied().flatten()));
    }
    inner.parse::<i64>().map(Step::Index).map_err(|_| format!("invalid array index {inner}"))
}

fn parse_filter(text: &str) -> Result<Step, String> {
    let operator = ["==", "!=", "<=", ">=", "<", ">"]
        .iter()
        .filter_map(|op| find_outside_quotes(text, op).map(|at| (at, *op)))
        .min();
    let filter = match operator {
        Some((at, op)) => Filter {
            left: parse_expr(text[..at].trim())?,
            compare: Some((op.to_string(), parse_expr(text[at + op.len()..].trim())?)),
        },
        None => Filter { left: parse_expr(text)?, compare: None },
    };
    Ok(Step::Filter(Box::new(filter)))
}

fn find_outside_quotes(text: &str, needle: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, _) if text[i..].starts_with(needle) => return Some(i),
            _ => {}
        }
    }
    None
}

/// A quoted string with Go's escapes (`\n`, `\t`, `\\`, `\"`).
fn unquote(text: &str) -> Result<String, String> {
    let quote = text.chars().next().ok_or("unmatched quote")?;
    let body = text[1..].strip_suffix(quote).ok_or("unmatched quote")?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => return Err("unmatched quote".into()),
        }
    }
    Ok(out)
}

fn execute_nodes(nodes: &[Node], data: &Value, out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(text) => out.push_str(text),
            Node::Expr(steps) => {
                let results = evaluate(steps, data);
                let texts: Vec<String> = results.iter().map(to_text).collect();
                out.push_str(&texts.join(" "));
            }
            Node::Range(steps, body) => {
                for item in evaluate(steps, data) {
                    execute_nodes(body, &item, out);
                }
            }
        }
    }
}

/// Every value `steps` reaches from `data` (missing keys yield nothing).
fn evaluate(steps: &[Step], data: &Value) -> Vec<Value> {
    let mut current = vec![data.clone()];
    for step in steps {
        current = current.iter().flat_map(|value| apply(step, value)).collect();
    }
    current
}

fn apply(step: &Step, value: &Value) -> Vec<Value> {
    match (step, value) {
        (Step::Literal(literal), _) => vec![literal.clone()],
        (Step::Field(name), Value::Object(map)) => map.get(name).cloned().into_iter().collect(),
        (Step::Wildcard, Value::Array(items)) => items.clone(),
        (Step::Wildcard, Value::Object(map)) => map.values().cloned().collect(),
        (Step::Descendants, _) => {
            let mut all = Vec::new();
            descendants(value, &mut all);
            all
        }
        (Step::Index(index), Value::Array(items)) => {
            let at = if *index < 0 { items.len() as i64 + index } else { *index };
            usize::try_from(at).ok().and_then(|at| items.get(at)).cloned().into_iter().collect()
        }
        (Step::Slice(start, end, step), Value::Array(items)) => slice(items, *start, *end, *step),
        (Step::Filter(filter), Value::Array(items)) => {
            items.iter().filter(|item| holds(filter, item)).cloned().collect()
        }
        _ => Vec::new(),
    }
}

fn descendants(value: &Value, all: &mut Vec<Value>) {
    all.push(value.clone());
    match value {
        Value::Array(items) => items.iter().for_each(|item| descendants(item, all)),
        Value::Object(map) => map.values().for_each(|item| descendants(item, all)),
        _ => {}
    }
}

fn slice(items: &[Value], start: Option<i64>, end: Option<i64>, step: Option<i64>) -> Vec<Value> {
    let len = items.len() as i64;
    let clamp = |at: i64| if at < 0 { (len + at).max(0) } else { at.min(len) };
    let (start, end) = (clamp(start.unwrap_or(0)), clamp(end.unwrap_or(len)));
    let step = step.filter(|s| *s > 0).unwrap_or(1) as usize;
    if start >= end {
        return Vec::new();
    }
    items[start as usize..end as usize].iter().step_by(step).cloned().collect()
}

fn holds(filter: &Filter, item: &Value) -> bool {
    let left = evaluate(&filter.left, item);
    let Some((op, right)) = &filter.compare else { return !left.is_empty() };
    let (Some(left), Some(right)) = (left.first(), evaluate(right, item).first().cloned()) else { return false };
    let ordering = match (left, &right) {
        (Value::Number(a), Value::Number(b)) => a.as_f64().partial_cmp(&b.as_f64()),
        _ => Some(to_text(left).cmp(&to_text(&right))),
    };
    let Some(ordering) = ordering else { return false };
    match op.as_str() {
        "==" => ordering.is_eq(),
        "!=" => !ordering.is_eq(),
        "<" => ordering.is_lt(),
        ">" => ordering.is_gt(),
        "<=" => ordering.is_le(),
        _ => ordering.is_ge(),
    }
}

/// How a result prints: strings bare, scalars as Go prints them, objects and arrays as JSON.
pub fn to_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "<nil>".into(),
        Value::Bool(_) | Value::Number(_) => value.to_string(),
        Value::Array(_) | Value::Object(_) => serde_json::to_string(value).unwrap_or_default(),
    }
}

/// Go's `%v` of a decoded JSON value (custom columns): `map[k:v]`, `[a b]`.
pub fn go_value(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(go_value).collect::<Vec<_>>().join(" ")),
        Value::Object(map) => {
            let pairs: Vec<String> = map.iter().map(|(k, v)| format!("{k}:{}", go_value(v))).collect();
            format!("map[{}]", pairs.join(" "))
        }
        other => to_text(other),
    }
}

/// kubectl's RelaxedJSONPathExpression: `.a.b`, `a.b` or `{.a.b}` all mean `{.a.b}`.
pub fn relaxed(expression: &str) -> String {
    let trimmed = expression.trim();
    if trimmed.starts_with('{') && trimmed.ends_with('}') {
        return trimmed.to_string();
    }
    let path = trimmed.strip_prefix('.').unwrap_or(trimmed);
    format!("{{.{path}}}")
}

/// `RelaxedJSONPathExpression` as `kubectl wait` uses it, refusing what its pattern
/// (`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`) does not match; empty stays empty. Mirrors
/// staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go.
pub fn relaxed_expression(expression: &str) -> Result<String, String> {
    if expression.is_empty() {
        return Ok(String::new());
    }
    let braced = expression.strip_prefix('{').and_then(|inner| inner.strip_suffix('}'));
    let body = braced.unwrap_or(expression);
    // The optional dot gives way when it is all there is (`{.}` is the field `.`).
    let field = body.strip_prefix('.').filter(|rest| !rest.is_empty()).unwrap_or(body);
    if field.is_empty() || field.contains(['{', '}']) {
        return Err(
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"
                .into(),
        );
    }
    Ok(format!("{{.{field}}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store() -> Value {
        json!({
            "Name": "jsonpath",
            "Book": [
                {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
                {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
                {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99}
            ],
            "Bicycle": [{"Color": "red", "Price": 19.95, "IsNew": true}, {"Color": "green", "Price": 20.01, "IsNew": false}],
            "Labels": {"engineer": 10, "web/html": 15, "k8s-app": 20},
            "Employees": {"jason": "manager", "dan": "clerk"}
        })
    }

    #[test]
    fn upstream_store_cases() {
        let cases = [
            ("plain", "hello jsonpath", "hello jsonpath"),
            ("quote", r#"{"{"}"#, "{"),
            ("array", "{.Book[1].Author}", "Evelyn Waugh"),
            ("negative index", "{.Book[-1].Title}", "Moby Dick"),
            ("slice", "{.Book[1:3].Price}", "12.99 8.99"),
            ("all", "{.Book[*].Author}", "Nigel Rees Evelyn Waugh Herman Melville"),
            ("descendants", "{..Price}", "19.95 20.01 8.95 12.99 8.99"),
            ("filter less", "{.Book[?(@.Price<10)].Title}", "Sayings of the Centurey Moby Dick"),
            ("filter equal", r#"{.Bicycle[?(@.Color=="red")].Price}"#, "19.95"),
            ("filter bool", "{.Bicycle[?(@.IsNew==true)].Color}", "red"),
            ("exists", "{.Bicycle[?(@.IsNew)].Color}", "red green"),
            ("escaped key", r"{.Labels.web/html}", "15"),
            ("bracket key", "{.Labels['k8s-app']}", "20"),
            ("missing", "{.Nope}{.Book[7]}", ""),
            ("map", "{.Employees}", r#"{"dan":"clerk","jason":"manager"}"#),
            ("range", r#"{range .Book[*]}{.Author}{"\n"}{end}"#, "Nigel Rees\nEvelyn Waugh\nHerman Melville\n"),
            ("nested range", "{range .Book[0:2]}[{range .Category}{@}{end}]{end}", "[reference][fiction]"),
        ];
        for (name, template, expected) in cases {
            let actual = Template::parse(template).map(|t| t.execute(&store()));
            assert_eq!(actual.as_deref(), Ok(expected), "{name}: {template}");
        }
    }

    #[test]
    fn the_seeds_condition_listing() {
        let deployment = json!({"status": {"conditions": [
            {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable"},
            {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}
        ]}});
        let template =
            Template::parse(r#"{range .status.conditions[*]}{.type}={.status} {.reason}{"\n"}{end}"#).unwrap();
        assert_eq!(
            template.execute(&deployment),
            "Available=True MinimumReplicasAvailable\nProgressing=False ProgressDeadlineExceeded\n"
        );
    }

    #[test]
    fn malformed_templates_are_errors_not_panics() {
        for bad in ["{.a", "{.a[}", "{end}", "{range .a}", r#"{"x}"#, "{.a[?(@.b==}", "{%}", "{.a[x]}", "{[}"] {
            assert!(Template::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(relaxed(".metadata.name"), "{.metadata.name}");
        assert_eq!(relaxed("metadata.name"), "{.metadata.name}");
        assert_eq!(go_value(&json!({"a": [1, "b"]})), "map[a:[1 b]]");
    }

    #[test]
    fn relaxed_expressions_are_checked_as_upstreams_pattern_checks_them() {
        for (given, relaxed) in [
            ("{.a.b}", "{.a.b}"),
            ("a.b", "{.a.b}"),
            (".a", "{.a}"),
            ("{a}", "{.a}"),
            ("{.}", "{..}"),
            (".", "{..}"),
            ("", ""),
        ] {
            assert_eq!(relaxed_expression(given).as_deref(), Ok(relaxed), "{given}");
        }
        for bad in ["{.a", ".a}", "{}", "{", "}", "{.a}{.b}"] {
            assert!(relaxed_expression(bad).is_err(), "{bad}");
        }
    }
}
