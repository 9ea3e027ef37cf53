//! Label selectors (`app=web,tier in (a,b),!canary`): the parser, matcher and label key/value validators behind `kubectl -l`, ported from k8s.io/apimachinery/pkg/labels/selector.go.
//!
//! Error messages are upstream's, byte for byte, because users compare them with what a real
//! API server or kubectl prints: a bad requirement renders as its `field.Error` (`values[0][x]:
//! Invalid value: "a b": ...`), several as an aggregate (`[e1, e2]`).

use crate::api::string_map::StringMap;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// How a requirement relates its key to its values (upstream `selection.Operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    Equals,
    DoubleEquals,
    NotEquals,
    In,
    NotIn,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

impl Operator {
    /// Upstream's spelling of the operator (`selection.Operator` string values).
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::In => "in",
            Operator::NotIn => "notin",
            Operator::Exists => "exists",
            Operator::DoesNotExist => "!",
            Operator::GreaterThan => "gt",
            Operator::LessThan => "lt",
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Upstream's `binaryOperators`, joined as `parseOperator` prints them.
const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

/// A selector parse or requirement error, carrying upstream's exact message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorError {
    message: String,
}

impl SelectorError {
    fn new(message: impl Into<String>) -> Self {
        SelectorError { message: message.into() }
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SelectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SelectorError {}

// ---------------------------------------------------------------------------------------------
// Requirements
// ---------------------------------------------------------------------------------------------

/// One `key op values` clause; all clauses of a selector are ANDed (upstream `Requirement`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    key: String,
    operator: Operator,
    /// Sorted, so matching can binary-search and `Display` needs no copy (upstream sorts on output).
    values: Vec<String>,
}

impl Requirement {
    /// Upstream `NewRequirement`: the key must be a qualified name, every value a label value;
    /// `in`/`notin` need values, `=`/`==`/`!=` exactly one, `exists`/`!` none, `gt`/`lt` one integer.
    pub fn new(key: impl Into<String>, operator: Operator, values: Vec<String>) -> Result<Requirement, SelectorError> {
        Self::build(key.into(), operator, values, "[]")
    }

    /// `NewRequirement` as `LabelSelectorAsSelector` calls it: an empty value list is Go's nil
    /// slice there, which error messages print as `null` rather than `[]`.
    pub(crate) fn new_from_selector_api(
        key: impl Into<String>,
        operator: Operator,
        values: Vec<String>,
    ) -> Result<Requirement, SelectorError> {
        Self::build(key.into(), operator, values, "null")
    }

    fn build(
        key: String,
        operator: Operator,
        mut values: Vec<String>,
        empty_values: &str,
    ) -> Result<Requirement, SelectorError> {
        if let Some(err) = aggregate(requirement_errors(&key, operator, &values, empty_values)) {
            return Err(err);
        }
        values.sort();
        Ok(Requirement { key, operator, values })
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The values, sorted (duplicates kept, as upstream keeps them).
    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// Upstream `Requirement.Matches`: `notin`/`!=` also match labels lacking the key, while
    /// `in`/`=`/`==`/`gt`/`lt` need it present; `gt`/`lt` compare as int64 and fail otherwise.
    pub fn matches(&self, labels: &StringMap) -> bool {
        let value = labels.get(&self.key);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => value.is_some_and(|v| self.has_value(v)),
            Operator::NotIn | Operator::NotEquals => value.is_none_or(|v| !self.has_value(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => self.compare_int(value),
        }
    }

    fn has_value(&self, value: &str) -> bool {
        self.values.binary_search_by(|v| v.as_str().cmp(value)).is_ok()
    }

    /// The `gt`/`lt` branch of upstream `Matches`: both sides must parse as base-10 int64.
    fn compare_int(&self, label_value: Option<&str>) -> bool {
        let Some(Ok(have)) = label_value.map(str::parse::<i64>) else {
            return false;
        };
        let [bound] = self.values.as_slice() else {
            return false;
        };
        match bound.parse::<i64>() {
            Ok(bound) if self.operator == Operator::GreaterThan => have > bound,
            Ok(bound) => have < bound,
            Err(_) => false,
        }
    }
}

/// Upstream `Requirement.String()`: `!k`, `k`, `k=v`, `k==v`, `k!=v`, `k>v`, `k<v`,
/// `k in (a,b)`, `k notin (a,b)`.
impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, infix) = match self.operator {
            Operator::Exists => ("", None),
            Operator::DoesNotExist => ("!", None),
            Operator::Equals => ("", Some("=")),
            Operator::DoubleEquals => ("", Some("==")),
            Operator::NotEquals => ("", Some("!=")),
            Operator::GreaterThan => ("", Some(">")),
            Operator::LessThan => ("", Some("<")),
            Operator::In => ("", Some(" in (")),
            Operator::NotIn => ("", Some(" notin (")),
        };
        write!(f, "{prefix}{}", self.key)?;
        let Some(infix) = infix else {
            return Ok(());
        };
        write!(f, "{infix}{}", self.values.join(","))?;
        if matches!(self.operator, Operator::In | Operator::NotIn) {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// The field errors upstream `NewRequirement` collects, each rendered as `field.Error.Error()`.
/// The field path is nil there, so paths start at `key` / `values`.
fn requirement_errors(key: &str, operator: Operator, values: &[String], empty_values: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let key_errs = validate_label_key(key);
    if !key_errs.is_empty() {
        errs.push(field_invalid("key", &go_quote(key), &key_errs.join("; ")));
    }
    let all_values = || match values {
        [] => empty_values.to_string(),
        _ => go_json_strings(values),
    };
    let count_error = match operator {
        Operator::In | Operator::NotIn if values.is_empty() => {
            Some("for 'in', 'notin' operators, values set can't be empty")
        }
        Operator::Equals | Operator::DoubleEquals | Operator::NotEquals if values.len() != 1 => {
            Some("exact-match compatibility requires one single value")
        }
        Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
            Some("values set must be empty for exists and does not exist")
        }
        Operator::GreaterThan | Operator::LessThan if values.len() != 1 => {
            Some("for 'Gt', 'Lt' operators, exactly one value is required")
        }
        _ => None,
    };
    if let Some(detail) = count_error {
        errs.push(field_invalid("values", &all_values(), detail));
    }
    if matches!(operator, Operator::GreaterThan | Operator::LessThan) {
        for (i, v) in values.iter().enumerate() {
            if v.parse::<i64>().is_err() {
                let detail = "for 'Gt', 'Lt' operators, the value must be an integer";
                errs.push(field_invalid(&format!("values[{i}]"), &go_quote(v), detail));
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let msgs = validate_label_value(v);
        if !msgs.is_empty() {
            let path = format!("values[{i}][{key}]");
            errs.push(field_invalid(&path, &go_quote(v), &msgs.join("; ")));
        }
    }
    errs
}

// ---------------------------------------------------------------------------------------------
// Selectors
// ---------------------------------------------------------------------------------------------

/// A set of requirements, ANDed and kept sorted by key; or `Nothing`, which matches no labels.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selector {
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Requirements(Vec<Requirement>),
    Nothing,
}

impl Selector {
    /// Upstream `labels.Parse`. The empty (or all-blank) string selects everything.
    pub fn parse(s: &str) -> Result<Selector, SelectorError> {
        let requirements = Parser::new(s).parse().map_err(SelectorError::new)?;
        Ok(Selector::from_requirements(requirements))
    }

    /// Matches every label set (upstream `Everything()`).
    pub fn everything() -> Selector {
        Selector::from_requirements(Vec::new())
    }

    /// Matches no label set (upstream `Nothing()`, what a nil `LabelSelector` converts to).
    pub fn nothing() -> Selector {
        Selector { kind: Kind::Nothing }
    }

    /// Upstream `NewSelector().Add(reqs...)`: requirements sorted by key. The sort is stable, so
    /// same-key requirements keep their order (upstream's insertion sort does the same up to 12).
    pub fn from_requirements(mut requirements: Vec<Requirement>) -> Selector {
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Selector { kind: Kind::Requirements(requirements) }
    }

    /// Upstream `SelectorFromValidatedSet`: `k=v` for each entry, unvalidated (a Service's
    /// `spec.selector`, a ReplicationController's selector).
    pub fn from_set(labels: &StringMap) -> Selector {
        let requirements = labels
            .iter()
            .map(|(k, v)| Requirement { key: k.to_string(), operator: Operator::Equals, values: vec![v.to_string()] })
            .collect();
        Selector::from_requirements(requirements)
    }

    /// True when every requirement matches; `Nothing` never matches.
    pub fn matches(&self, labels: &StringMap) -> bool {
        match &self.kind {
            Kind::Requirements(reqs) => reqs.iter().all(|r| r.matches(labels)),
            Kind::Nothing => false,
        }
    }

    /// True when the selector does not restrict anything (upstream `Empty()`; false for `Nothing`).
    pub fn is_empty(&self) -> bool {
        matches!(&self.kind, Kind::Requirements(reqs) if reqs.is_empty())
    }

    /// True for the selector that matches nothing.
    pub fn is_nothing(&self) -> bool {
        self.kind == Kind::Nothing
    }

    /// The requirements, sorted by key (empty for `Nothing`).
    pub fn requirements(&self) -> &[Requirement] {
        match &self.kind {
            Kind::Requirements(reqs) => reqs,
            Kind::Nothing => &[],
        }
    }

    /// Upstream `RequiresExactMatch`: the value the first requirement on `label` pins it to
    /// (`=`, `==`, or `in` with one value), so callers such as field selectors can index.
    pub fn requires_exact_match(&self, label: &str) -> Option<&str> {
        let req = self.requirements().iter().find(|r| r.key == label)?;
        match (req.operator, req.values.as_slice()) {
            (Operator::Equals | Operator::DoubleEquals | Operator::In, [value]) => Some(value),
            _ => None,
        }
    }
}

impl Default for Selector {
    fn default() -> Self {
        Selector::everything()
    }
}

/// Upstream `String()`: requirements comma-joined in key order (`""` for everything and nothing).
impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, req) in self.requirements().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{req}")?;
        }
        Ok(())
    }
}

impl FromStr for Selector {
    type Err = SelectorError;

    fn from_str(s: &str) -> Result<Selector, SelectorError> {
        Selector::parse(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Lexer (upstream `Lexer`): works on bytes, treats byte 0 as end of input like upstream's read()
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

/// Upstream `string2token`: the literals that are tokens rather than identifiers.
fn keyword(literal: &str) -> Option<Token> {
    Some(match literal {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::DoesNotExist,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::GreaterThan,
        "in" => Token::In,
        "<" => Token::LessThan,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(ch: u8) -> bool {
    matches!(ch, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special_symbol(ch: u8) -> bool {
    matches!(ch, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

struct Lexer<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn new(s: &'a str) -> Self {
        Lexer { s, pos: 0 }
    }

    /// Upstream `read`: the next byte, or 0 at the end (a NUL byte reads the same).
    fn read(&mut self) -> u8 {
        match self.s.as_bytes().get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                b
            }
            None => 0,
        }
    }

    /// Upstream `Lex`: skip blanks, then an operator or an identifier/keyword.
    fn lex(&mut self) -> (Token, &'a str) {
        let mut ch = self.read();
        while is_whitespace(ch) {
            ch = self.read();
        }
        if ch == 0 {
            return (Token::EndOfString, "");
        }
        self.pos -= 1;
        if is_special_symbol(ch) { self.scan_special_symbol() } else { self.scan_id_or_keyword() }
    }

    /// Upstream `scanIDOrKeyword`: bytes up to a blank or operator; `in`/`notin` are keywords.
    /// Every split point is an ASCII byte, so the slice is always on a char boundary.
    fn scan_id_or_keyword(&mut self) -> (Token, &'a str) {
        let start = self.pos;
        let end = loop {
            let before = self.pos;
            let ch = self.read();
            if ch == 0 {
                break before;
            }
            if is_special_symbol(ch) || is_whitespace(ch) {
                self.pos -= 1;
                break self.pos;
            }
        };
        let literal = &self.s[start..end];
        (keyword(literal).unwrap_or(Token::Identifier), literal)
    }

    /// Upstream `scanSpecialSymbol`: the longest run of operator bytes that is still a token
    /// (`!=` over `!`, `==` over `=`). Every single operator byte is a token, so upstream's
    /// ErrorToken branch cannot fire and is not ported.
    fn scan_special_symbol(&mut self) -> (Token, &'a str) {
        let start = self.pos;
        let mut last = (Token::EndOfString, start);
        loop {
            let ch = self.read();
            if ch == 0 {
                break;
            }
            if !is_special_symbol(ch) {
                self.pos -= 1;
                break;
            }
            match keyword(&self.s[start..self.pos]) {
                Some(token) => last = (token, self.pos),
                None => {
                    self.pos -= 1;
                    break;
                }
            }
        }
        (last.0, &self.s[start..last.1])
    }
}

// ---------------------------------------------------------------------------------------------
// Parser (upstream `Parser`): scans every token first, then recursive descent with lookahead
// ---------------------------------------------------------------------------------------------

/// Upstream `ParserContext`: in `Values`, the keywords `in`/`notin` read as plain identifiers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

struct Parser<'a> {
    items: Vec<(Token, &'a str)>,
    position: usize,
}

impl<'a> Parser<'a> {
    /// Upstream `scan`: lex everything up to and including the end-of-string token.
    fn new(s: &'a str) -> Self {
        let mut lexer = Lexer::new(s);
        let mut items = Vec::new();
        loop {
            let item = lexer.lex();
            items.push(item);
            if item.0 == Token::EndOfString {
                return Parser { items, position: 0 };
            }
        }
    }

    /// Upstream `lookahead`. Reads past the end repeat the end token (upstream would index out
    /// of range, but its grammar never gets there).
    fn lookahead(&self, context: Context) -> (Token, &'a str) {
        let (token, literal) = self.items[self.position.min(self.items.len() - 1)];
        match token {
            Token::In | Token::NotIn if context == Context::Values => (Token::Identifier, literal),
            _ => (token, literal),
        }
    }

    /// Upstream `consume`: `lookahead`, then advance.
    fn consume(&mut self, context: Context) -> (Token, &'a str) {
        let item = self.lookahead(context);
        self.position += 1;
        item
    }

    /// Upstream `parse`: requirements separated by commas, up to the end of the string.
    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut requirements = Vec::new();
        loop {
            let (token, literal) = self.lookahead(Context::Values);
            match token {
                Token::Identifier | Token::DoesNotExist => {
                    let req = self.parse_requirement().map_err(|e| format!("unable to parse requirement: {e}"))?;
                    requirements.push(req);
                    let (t, l) = self.consume(Context::Values);
                    match t {
                        Token::EndOfString => return Ok(requirements),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(Context::Values);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!("found '{l2}', expected: identifier after ','"));
                            }
                        }
                        _ => return Err(format!("found '{l}', expected: ',' or 'end of string'")),
                    }
                }
                Token::EndOfString => return Ok(requirements),
                _ => {
                    return Err(format!("found '{literal}', expected: !, identifier, or 'end of string'"));
                }
            }
        }
    }

    /// Upstream `parseRequirement`.
    fn parse_requirement(&mut self) -> Result<Requirement, String> {
        let (key, inferred) = self.parse_key_and_infer_operator()?;
        if let Some(operator) = inferred {
            return Requirement::new(key, operator, Vec::new()).map_err(|e| e.message);
        }
        let operator = self.parse_operator()?;
        let values = match operator {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        let values = values.into_iter().map(str::to_string).collect();
        Requirement::new(key, operator, values).map_err(|e| e.message)
    }

    /// Upstream `parseKeyAndInferOperator`: an optional `!`, the key, and `Exists` when the key
    /// stands alone. A `!key` followed by more (`!x=a`) stays DoesNotExist and fails later.
    fn parse_key_and_infer_operator(&mut self) -> Result<(&'a str, Option<Operator>), String> {
        let mut operator = None;
        let (mut token, mut literal) = self.consume(Context::Values);
        if token == Token::DoesNotExist {
            operator = Some(Operator::DoesNotExist);
            (token, literal) = self.consume(Context::Values);
        }
        if token != Token::Identifier {
            return Err(format!("found '{literal}', expected: identifier"));
        }
        let errs = validate_label_key(literal);
        if !errs.is_empty() {
            // The parser's own field path is nil, which Go prints as "<nil>".
            return Err(field_invalid("<nil>", &go_quote(literal), &errs.join("; ")));
        }
        let (next, _) = self.lookahead(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) && operator.is_none() {
            operator = Some(Operator::Exists);
        }
        Ok((literal, operator))
    }

    /// Upstream `parseOperator`.
    fn parse_operator(&mut self) -> Result<Operator, String> {
        let (token, literal) = self.consume(Context::KeyAndOperator);
        Ok(match token {
            Token::In => Operator::In,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::GreaterThan => Operator::GreaterThan,
            Token::LessThan => Operator::LessThan,
            Token::NotIn => Operator::NotIn,
            Token::NotEquals => Operator::NotEquals,
            _ => return Err(format!("found '{literal}', expected: {BINARY_OPERATORS}")),
        })
    }

    /// Upstream `parseValues`: `( ... )`; `()` is the set holding only the empty string.
    fn parse_values(&mut self) -> Result<BTreeSet<&'a str>, String> {
        let (token, literal) = self.consume(Context::Values);
        if token != Token::OpenPar {
            return Err(format!("found '{literal}' expected: '('"));
        }
        let (token, literal) = self.lookahead(Context::Values);
        match token {
            Token::Identifier | Token::Comma => {
                let values = self.parse_identifiers_list()?;
                if self.consume(Context::Values).0 != Token::ClosedPar {
                    return Err(format!("found '{literal}', expected: ')'"));
                }
                Ok(values)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(BTreeSet::from([""]))
            }
            _ => Err(format!("found '{literal}', expected: ',', ')' or identifier")),
        }
    }

    /// Upstream `parseIdentifiersList`: comma-separated, possibly empty, identifiers up to (not
    /// including) `)`. Empty slots (`(,a)`, `(a,)`, `(a,,b)`) contribute the empty string.
    fn parse_identifiers_list(&mut self) -> Result<BTreeSet<&'a str>, String> {
        let mut values = BTreeSet::new();
        loop {
            let (token, literal) = self.consume(Context::Values);
            match token {
                Token::Identifier => {
                    values.insert(literal);
                    let (next, next_literal) = self.lookahead(Context::Values);
                    match next {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(values),
                        _ => return Err(format!("found '{next_literal}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if values.is_empty() {
                        values.insert("");
                    }
                    match self.lookahead(Context::Values).0 {
                        Token::ClosedPar => {
                            values.insert("");
                            return Ok(values);
                        }
                        Token::Comma => {
                            self.consume(Context::Values);
                            values.insert("");
                        }
                        _ => {}
                    }
                }
                _ => return Err(format!("found '{literal}', expected: ',', or identifier")),
            }
        }
    }

    /// Upstream `parseExactValue`: one identifier, or the empty string before `,`/end.
    fn parse_exact_value(&mut self) -> Result<BTreeSet<&'a str>, String> {
        let (next, _) = self.lookahead(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) {
            return Ok(BTreeSet::from([""]));
        }
        let (token, literal) = self.consume(Context::Values);
        if token == Token::Identifier {
            return Ok(BTreeSet::from([literal]));
        }
        Err(format!("found '{literal}', expected: identifier"))
    }
}

// ---------------------------------------------------------------------------------------------
// Label key/value validation (upstream content.IsLabelKey / IsLabelValue, formerly
// validation.IsQualifiedName / IsValidLabelValue)
// ---------------------------------------------------------------------------------------------

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR_MSG: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX_LENGTH: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// Upstream `IsQualifiedName` (= `content.IsLabelKey`): an optional DNS-subdomain prefix and
/// `/`, then a name of at most 63 alphanumerics, `-`, `_`, `.`. Empty when valid.
pub fn validate_label_key(key: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = key.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                let msgs = validate_dns1123_subdomain(prefix);
                errs.extend(msgs.into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            let regex = regex_error(LABEL_KEY_ERR_MSG, LABEL_KEY_FMT, &LABEL_KEY_EXAMPLES);
            return vec![format!(
                "a valid label key {regex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > LABEL_KEY_MAX_LENGTH {
        errs.push(format!("name part {}", max_len_error(LABEL_KEY_MAX_LENGTH)));
    }
    if !is_label_name(name) {
        let regex = regex_error(LABEL_KEY_ERR_MSG, LABEL_KEY_FMT, &LABEL_KEY_EXAMPLES);
        errs.push(format!("name part {regex}"));
    }
    errs
}

const LABEL_KEY_EXAMPLES: [&str; 3] = ["MyName", "my.name", "123-abc"];

/// Upstream `IsValidLabelValue` (= `content.IsLabelValue`): empty, or at most 63 alphanumerics,
/// `-`, `_`, `.` starting and ending alphanumeric. Empty when valid.
pub fn validate_label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errs.push(max_len_error(LABEL_VALUE_MAX_LENGTH));
    }
    if !value.is_empty() && !is_label_name(value) {
        let examples = ["MyValue", "my_value", "12345"];
        errs.push(regex_error(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, &examples));
    }
    errs
}

/// Upstream `IsDNS1123Subdomain`.
fn validate_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errs.push(max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if !value.split('.').all(is_dns1123_label) {
        let examples = ["example.com"];
        errs.push(regex_error(DNS1123_SUBDOMAIN_ERR_MSG, DNS1123_SUBDOMAIN_FMT, &examples));
    }
    errs
}

/// Matches `LABEL_KEY_FMT` exactly: alphanumeric ends, `[-A-Za-z0-9_.]` between.
fn is_label_name(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (Some(first), Some(last)) = (bytes.first(), bytes.last()) else {
        return false;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// One dot-separated piece of `DNS1123_SUBDOMAIN_FMT`: lowercase alphanumeric ends, `-` between.
fn is_dns1123_label(s: &str) -> bool {
    let lower_alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let bytes = s.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            lower_alnum(first) && lower_alnum(last) && bytes.iter().all(|b| lower_alnum(b) || *b == b'-')
        }
        _ => false,
    }
}

/// Upstream `MaxLenError`.
fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} bytes")
}

/// Upstream `RegexError`, including its doubled space before each " or ".
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{regex}')");
    }
    let quoted: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!("{msg} (e.g. {}regex used for validation is '{regex}')", quoted.join(" or "))
}

// ---------------------------------------------------------------------------------------------
// Rendering upstream's field.Error / aggregate strings
// ---------------------------------------------------------------------------------------------

/// `field.Invalid(path, value, detail).Error()`, with `bad_value` already rendered.
fn field_invalid(path: &str, bad_value: &str, detail: &str) -> String {
    format!("{path}: {}", invalid_body(bad_value, detail))
}

/// `field.Invalid(...).ErrorBody()`: the message without the field path.
pub(crate) fn invalid_body(bad_value: &str, detail: &str) -> String {
    format!("Invalid value: {bad_value}: {detail}")
}

/// `ErrorList.ToAggregate().Error()`: repeats dropped, one message bare, several as `[a, b]`.
fn aggregate(errs: Vec<String>) -> Option<SelectorError> {
    let mut unique: Vec<String> = Vec::with_capacity(errs.len());
    for e in errs {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    match unique.len() {
        0 => None,
        1 => unique.pop().map(SelectorError::new),
        _ => Some(SelectorError::new(format!("[{}]", unique.join(", ")))),
    }
}

/// Go's `%q` (`strconv.Quote`), how field errors print a bad string value. Non-ASCII runes are
/// kept unless they are controls, blanks or format marks (an approximation of Go's IsPrint).
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

fn go_printable(c: char) -> bool {
    let format_mark = matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}');
    !c.is_control() && !c.is_whitespace() && !format_mark
}

/// Go's `json.Marshal` of a `[]string`, how field errors print a bad list of values
/// (HTML-sensitive `<`, `>`, `&` and U+2028/9 escaped as Go does).
fn go_json_strings(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| go_json_string(v)).collect();
    format!("[{}]", quoted.join(","))
}

fn go_json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label set as written in a table row.
    type Labels<'a> = &'a [(&'a str, &'a str)];

    fn set(pairs: Labels) -> StringMap {
        pairs.iter().copied().collect()
    }

    fn req(key: &str, op: Operator, values: &[&str]) -> Requirement {
        let values = values.iter().map(|v| v.to_string()).collect();
        Requirement::new(key, op, values).unwrap()
    }

    fn parse_err(s: &str) -> String {
        Selector::parse(s).unwrap_err().to_string()
    }

    /// Upstream TestSelectorParse (good strings): the canonical form is the input minus blanks.
    #[test]
    fn parse_round_trips_to_canonical_form() {
        let good = ["x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"];
        for input in good {
            let sel = Selector::parse(input).unwrap();
            assert_eq!(sel.to_string(), input.replace(' ', ""), "{input:?}");
        }
    }

    /// Upstream TestSelectorParse (bad strings), with the messages upstream's parser returns.
    #[test]
    fn parse_rejects_with_upstream_messages() {
        let value_regex = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        let cases = [
            (
                "x=a||y=b",
                format!(
                    "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": {value_regex}"
                ),
            ),
            ("x==a==b", "found '==', expected: ',' or 'end of string'".into()),
            ("!x=a", "found '=', expected: ',' or 'end of string'".into()),
            (
                "x<a",
                "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer".into(),
            ),
            ("x,,y", "found ',', expected: identifier after ','".into()),
            (",x,y", "found ',', expected: !, identifier, or 'end of string'".into()),
            (
                "x nott in (y)",
                "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"
                    .into(),
            ),
            ("a in (xyz),", "found '', expected: identifier after ','".into()),
            ("a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'".into()),
            (
                "a in (xyz abc)",
                "unable to parse requirement: found 'abc', expected: ',' or ')'".into(),
            ),
            (
                "a notin(",
                "unable to parse requirement: found '', expected: ',', ')' or identifier".into(),
            ),
            (
                "a (",
                "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"
                    .into(),
            ),
            ("(", "found '(', expected: !, identifier, or 'end of string'".into()),
            ("x in a", "unable to parse requirement: found 'a' expected: '('".into()),
            ("!,", "unable to parse requirement: found ',', expected: identifier".into()),
            ("x=(", "unable to parse requirement: found '(', expected: identifier".into()),
            (
                "x in (a,,)",
                "unable to parse requirement: found ')', expected: ',', or identifier".into(),
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_err(input), want, "{input:?}");
        }
    }

    /// A bad key is reported by the parser itself, under Go's nil field path.
    #[test]
    fn parse_reports_bad_keys_at_nil_path() {
        assert_eq!(
            parse_err("a/b/c"),
            "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        );
        assert_eq!(
            parse_err("Example.com/app"),
            "unable to parse requirement: <nil>: Invalid value: \"Example.com/app\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        );
    }

    /// Upstream TestDeterministicParse.
    #[test]
    fn parse_sorts_by_key() {
        let a = Selector::parse("x=a,a=x").unwrap();
        let b = Selector::parse("a=x,x=a").unwrap();
        assert_eq!(a.to_string(), "a=x,x=a");
        assert_eq!(a, b);
    }

    /// Upstream TestSetSelectorParser: input in, canonical string out.
    #[test]
    fn parse_set_based_forms() {
        let cases = [
            ("", ""),
            ("\rx", "x"),
            ("this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash"),
            (
                "this-is-another-dns.domain.com/key-with-dash in (so,what)",
                "this-is-another-dns.domain.com/key-with-dash in (so,what)",
            ),
            (
                "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
                "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)",
            ),
            ("foo  in\t (abc)", "foo in (abc)"),
            ("x notin\n (abc)", "x notin (abc)"),
            ("x  notin\t\t\t(abc,def)", "x notin (abc,def)"),
            ("x in (abc,def)", "x in (abc,def)"),
            ("x in (abc,)", "x in (,abc)"),
            ("x in ()", "x in ()"),
            ("x notin (abc,,def),bar,z in (),w", "bar,w,x notin (,abc,def),z in ()"),
            ("x,y in (a)", "x,y in (a)"),
            ("x=a", "x=a"),
            ("x>1", "x>1"),
            ("x<7", "x<7"),
            ("x=a,y!=b", "x=a,y!=b"),
            ("x=a,y!=b,z in (h,i,j)", "x=a,y!=b,z in (h,i,j)"),
            ("x notin ( )", "x notin ()"),
            ("x notin (, a)", "x notin (,a)"),
            ("a ", "a"),
            ("a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)"),
            ("notin=in", "notin=in"),
            ("in in (in)", "in in (in)"),
            ("x in (b,a,b)", "x in (a,b)"),
            ("x==a", "x==a"),
            ("x=a\0,y", "x=a,y"),
            ("x=a\0", "x=a"),
            ("\0x=y", ""),
        ];
        for (input, want) in cases {
            let sel = Selector::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(sel.to_string(), want, "{input:?}");
        }
    }

    /// Upstream TestLexer: one token per input; operators take the longest match.
    #[test]
    fn lexer_single_tokens() {
        let cases = [
            ("", Token::EndOfString),
            (",", Token::Comma),
            ("notin", Token::NotIn),
            ("in", Token::In),
            ("=", Token::Equals),
            ("==", Token::DoubleEquals),
            (">", Token::GreaterThan),
            ("<", Token::LessThan),
            ("!", Token::DoesNotExist),
            ("!=", Token::NotEquals),
            ("(", Token::OpenPar),
            (")", Token::ClosedPar),
            ("~", Token::Identifier),
            ("||", Token::Identifier),
        ];
        for (input, want) in cases {
            assert_eq!(Lexer::new(input).lex(), (want, input), "{input:?}");
        }
    }

    /// Upstream TestLexerSequence / TestParserLookahead.
    #[test]
    fn lexer_sequences() {
        use Token::*;
        let cases: [(&str, &[Token]); 11] = [
            ("key in ( value )", &[Identifier, In, OpenPar, Identifier, ClosedPar]),
            ("key notin ( value )", &[Identifier, NotIn, OpenPar, Identifier, ClosedPar]),
            ("key in ( value1, value2 )", &[Identifier, In, OpenPar, Identifier, Comma, Identifier, ClosedPar]),
            ("key", &[Identifier]),
            ("!key", &[DoesNotExist, Identifier]),
            ("()", &[OpenPar, ClosedPar]),
            ("", &[]),
            ("x in (),y", &[Identifier, In, OpenPar, ClosedPar, Comma, Identifier]),
            ("== != (), = notin", &[DoubleEquals, NotEquals, OpenPar, ClosedPar, Comma, Equals, NotIn]),
            ("key>2", &[Identifier, GreaterThan, Identifier]),
            ("key<1", &[Identifier, LessThan, Identifier]),
        ];
        for (input, want) in cases {
            let parser = Parser::new(input);
            let tokens: Vec<Token> = parser.items.iter().map(|i| i.0).collect();
            let mut expected = want.to_vec();
            expected.push(EndOfString);
            assert_eq!(tokens, expected, "{input:?}");
        }
    }

    /// Upstream TestParseOperator.
    #[test]
    fn parse_operator_tokens() {
        let good = ["in", "=", "==", ">", "<", "notin", "!="];
        for input in good {
            assert!(Parser::new(input).parse_operator().is_ok(), "{input:?}");
        }
        for (input, found) in [("!", "!"), ("exists", "exists"), ("(", "(")] {
            let err = Parser::new(input).parse_operator().unwrap_err();
            assert_eq!(err, format!("found '{found}', expected: {BINARY_OPERATORS}"));
        }
    }

    /// Upstream TestSelectorMatches: selector string, labels, verdict.
    #[test]
    fn selector_matches() {
        let labelset = [("foo", "bar"), ("baz", "blah")];
        let cases: [(&str, Labels, bool); 24] = [
            ("", &[("x", "y")], true),
            ("x=y", &[("x", "y")], true),
            ("x=y,z=w", &[("x", "y"), ("z", "w")], true),
            ("x!=y,z!=w", &[("x", "z"), ("z", "a")], true),
            ("notin=in", &[("notin", "in")], true),
            ("x", &[("x", "z")], true),
            ("!x", &[("y", "z")], true),
            ("x>1", &[("x", "2")], true),
            ("x<1", &[("x", "0")], true),
            ("x=z", &[], false),
            ("x=y", &[("x", "z")], false),
            ("x=y,z=w", &[("x", "w"), ("z", "w")], false),
            ("x!=y,z!=w", &[("x", "z"), ("z", "w")], false),
            ("x", &[("y", "z")], false),
            ("!x", &[("x", "z")], false),
            ("x>1", &[("x", "0")], false),
            ("x<1", &[("x", "2")], false),
            ("foo=bar", &labelset, true),
            ("baz=blah", &labelset, true),
            ("foo=bar,baz=blah", &labelset, true),
            ("foo=blah", &labelset, false),
            ("baz=bar", &labelset, false),
            ("foo=bar,foobar=bar,baz=blah", &labelset, false),
            ("x notin (a),y!=b", &[], true),
        ];
        for (selector, labels, want) in cases {
            let sel = Selector::parse(selector).unwrap();
            assert_eq!(sel.matches(&set(labels)), want, "{selector:?} on {labels:?}");
        }
    }

    /// Upstream TestRequirementSelectorMatching: built requirements, labels, verdict.
    #[test]
    fn requirement_matches() {
        use Operator::*;
        let cases: [(Labels, Vec<Requirement>, bool); 9] = [
            (&[("x", "foo"), ("y", "baz")], vec![req("x", In, &["foo"]), req("y", NotIn, &["alpha"])], true),
            (&[("x", "foo"), ("y", "baz")], vec![req("x", In, &["foo"]), req("y", In, &["alpha"])], false),
            (&[("y", "")], vec![req("x", NotIn, &[""]), req("y", Exists, &[])], true),
            (&[("y", "")], vec![req("x", DoesNotExist, &[]), req("y", Exists, &[])], true),
            (&[("y", "")], vec![req("x", NotIn, &[""]), req("y", DoesNotExist, &[])], false),
            (&[("y", "baz")], vec![req("x", In, &[""])], false),
            (&[("z", "2")], vec![req("z", GreaterThan, &["1"])], true),
            (&[("z", "v2")], vec![req("z", GreaterThan, &["1"])], false),
            (&[("z", "-3")], vec![req("z", LessThan, &["0"])], true),
        ];
        for (labels, reqs, want) in cases {
            let sel = Selector::from_requirements(reqs);
            assert_eq!(sel.matches(&set(labels)), want, "{sel} on {labels:?}");
        }
    }

    /// Upstream TestToString: built requirements out as canonical strings.
    #[test]
    fn requirements_to_string() {
        use Operator::*;
        let cases = [
            (
                vec![req("x", In, &["abc", "def"]), req("y", NotIn, &["jkl"]), req("z", Exists, &[])],
                "x in (abc,def),y notin (jkl),z",
            ),
            (
                vec![req("x", NotIn, &["def", "abc"]), req("y", NotEquals, &["jkl"]), req("z", DoesNotExist, &[])],
                "x notin (abc,def),y!=jkl,!z",
            ),
            (
                vec![req("x", NotIn, &["abc"]), req("y", In, &["jkl", "mno"]), req("z", NotIn, &[""])],
                "x notin (abc),y in (jkl,mno),z notin ()",
            ),
            (
                vec![
                    req("x", Equals, &["abc"]),
                    req("y", DoubleEquals, &["jkl"]),
                    req("z", NotEquals, &["a"]),
                    req("z", Exists, &[]),
                ],
                "x=abc,y==jkl,z!=a,z",
            ),
            (vec![req("x", GreaterThan, &["2"]), req("y", LessThan, &["8"]), req("z", Exists, &[])], "x>2,y<8,z"),
        ];
        for (reqs, want) in cases {
            assert_eq!(Selector::from_requirements(reqs).to_string(), want);
        }
    }

    /// Upstream TestRequirementConstructor, with the full messages (upstream compares all but
    /// Detail; here Detail is included too).
    #[test]
    fn requirement_constructor_errors() {
        use Operator::*;
        let long = "a".repeat(254);
        let value_regex = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        let cases: Vec<(&str, Operator, Vec<&str>, Option<String>)> = vec![
            (
                "x1",
                In,
                vec![],
                Some("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty".into()),
            ),
            (
                "x2",
                NotIn,
                vec![],
                Some("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty".into()),
            ),
            ("x3", In, vec!["foo"], None),
            ("x4", NotIn, vec!["foo"], None),
            (
                "x5",
                Equals,
                vec!["foo", "bar"],
                Some(
                    "values: Invalid value: [\"foo\",\"bar\"]: exact-match compatibility requires one single value"
                        .into(),
                ),
            ),
            ("x6", Exists, vec![], None),
            ("x7", DoesNotExist, vec![], None),
            (
                "x8",
                Exists,
                vec!["foo"],
                Some("values: Invalid value: [\"foo\"]: values set must be empty for exists and does not exist".into()),
            ),
            ("x9", In, vec!["bar"], None),
            ("1foo", In, vec!["bar"], None),
            ("1234", In, vec!["bar"], None),
            ("x11", GreaterThan, vec!["1"], None),
            ("x12", LessThan, vec!["6"], None),
            (
                "x13",
                GreaterThan,
                vec![],
                Some("values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required".into()),
            ),
            (
                "x14",
                GreaterThan,
                vec!["bar"],
                Some(
                    "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer".into(),
                ),
            ),
            (
                "x15",
                LessThan,
                vec!["bar"],
                Some(
                    "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer".into(),
                ),
            ),
            (
                &long,
                Exists,
                vec![],
                Some(format!("key: Invalid value: \"{long}\": name part must be no more than 63 bytes")),
            ),
            (
                "x16",
                Equals,
                vec![&long],
                Some(format!("values[0][x16]: Invalid value: \"{long}\": must be no more than 63 bytes")),
            ),
            ("x17", Equals, vec!["a b"], Some(format!("values[0][x17]: Invalid value: \"a b\": {value_regex}"))),
            ("x18", GreaterThan, vec!["-1"], Some(format!("values[0][x18]: Invalid value: \"-1\": {value_regex}"))),
            (
                "",
                Equals,
                vec!["a", "<"],
                Some(format!(
                    "[key: Invalid value: \"\": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values: Invalid value: [\"a\",\"\\u003c\"]: exact-match compatibility requires one single value, values[1][]: Invalid value: \"<\": {value_regex}]"
                )),
            ),
        ];
        for (key, op, values, want) in cases {
            let values = values.into_iter().map(String::from).collect();
            let got = Requirement::new(key, op, values).err().map(|e| e.to_string());
            assert_eq!(got, want, "{key} {op}");
        }
    }

    /// Upstream TestRequiresExactMatch.
    #[test]
    fn requires_exact_match() {
        use Operator::*;
        let cases = [
            (vec![req("key", In, &["value"])], "key", Some("value")),
            (vec![req("key", In, &["value", "value2"])], "key", None),
            (vec![req("key", In, &["value", "value1"]), req("key2", In, &["value2"])], "key2", Some("value2")),
            (vec![req("key", Equals, &["value"])], "key", Some("value")),
            (vec![req("key", DoubleEquals, &["value"])], "key", Some("value")),
            (vec![req("key", NotEquals, &["value"])], "key", None),
            (vec![req("key", In, &["value"]), req("key2", In, &["value2"])], "key", Some("value")),
        ];
        for (reqs, label, want) in cases {
            let sel = Selector::from_requirements(reqs);
            assert_eq!(sel.requires_exact_match(label), want, "{sel} {label}");
        }
    }

    /// Upstream TestEverything / TestSetIsEmpty / TestSetMatches, plus Nothing.
    #[test]
    fn everything_nothing_and_sets() {
        let labels = set(&[("foo", "bar"), ("baz", "blah")]);
        assert!(Selector::everything().is_empty());
        assert!(Selector::everything().matches(&labels));
        assert!(!Selector::nothing().is_empty());
        assert!(!Selector::nothing().matches(&labels));
        assert!(!Selector::nothing().matches(&StringMap::new()));
        assert_eq!(Selector::nothing().to_string(), "");
        assert!(Selector::from_set(&StringMap::new()).is_empty());
        let cases: [(Labels, bool); 5] = [
            (&[], true),
            (&[("foo", "bar")], true),
            (&[("baz", "blah")], true),
            (&[("foo", "bar"), ("baz", "blah")], true),
            (&[("foo", "bar"), ("foobar", "bar")], false),
        ];
        for (sel, want) in cases {
            assert_eq!(Selector::from_set(&set(sel)).matches(&labels), want, "{sel:?}");
        }
        let sel = Selector::from_set(&set(&[("tier", "web"), ("app", "hello")]));
        assert_eq!(sel.to_string(), "app=hello,tier=web");
    }

    /// Upstream validation tests for IsQualifiedName / IsValidLabelValue, in brief.
    #[test]
    fn label_key_and_value_validation() {
        let good_keys = [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
            &"a".repeat(63),
            &format!("{}/b", "a".repeat(253)),
        ];
        for key in good_keys {
            assert_eq!(validate_label_key(key), Vec::<String>::new(), "{key}");
        }
        let bad_keys = [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
            &"a".repeat(64),
            &format!("{}/b", "a".repeat(254)),
        ];
        for key in bad_keys {
            assert!(!validate_label_key(key).is_empty(), "{key}");
        }
        assert_eq!(validate_label_key("/x"), vec!["prefix part must be non-empty"]);
        let good_values = [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "end-with-num-1",
            "1234",
            "",
            "A.B_C-d",
            &"a".repeat(63),
        ];
        for v in good_values {
            assert!(validate_label_value(v).is_empty(), "{v}");
        }
        let bad_values = ["nospecialchars%^=@", "Tama-nui-te-rā.Atua", "-starts", "ends-", "a b"];
        for v in bad_values {
            assert_eq!(validate_label_value(v).len(), 1, "{v}");
        }
        assert_eq!(validate_label_value(&"a".repeat(64)), vec!["must be no more than 63 bytes"]);
    }

    /// Go's %q and json.Marshal renderings used inside messages.
    #[test]
    fn go_renderings() {
        let cases = [
            ("plain", "\"plain\""),
            ("q\"b\\", "\"q\\\"b\\\\\""),
            ("\t\n\u{1}\u{7f}", "\"\\t\\n\\x01\\x7f\""),
            ("rā", "\"rā\""),
            ("\u{a0}\u{200b}", "\"\\u00a0\\u200b\""),
        ];
        for (input, want) in cases {
            assert_eq!(go_quote(input), want, "{input:?}");
        }
        let values = ["<a&b>".to_string(), "\u{1}\n".to_string()];
        assert_eq!(go_json_strings(&values), "[\"\\u003ca\\u0026b\\u003e\",\"\\u0001\\n\"]");
    }

    /// Odd and random strings never panic the parser, and whatever parses re-parses from its
    /// canonical string to the same selector.
    #[test]
    fn random_strings_never_panic() {
        let alphabet: Vec<char> = "ab=!(),<> \t\r\nin notin01-_./\0~|é🙂Zx".chars().collect();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let fixed = [
            "",
            "!",
            "!!",
            "(((",
            ")))",
            ",,,",
            "=",
            "==",
            "!==",
            "in",
            "notin",
            "in in",
            "x in",
            "x in (",
            "x in (,",
            "x in (,,",
            "x in (a",
            "x=\0",
            "\0",
            "é=é",
            "🙂",
            "a\u{0}b=c",
            "x>99999999999999999999",
            "x>-",
            "!=!=",
            "<><>",
        ];
        let check = |input: &str| {
            let labels = set(&[("a", "1"), ("x", "in"), ("b", "")]);
            if let Ok(sel) = Selector::parse(input) {
                let _ = sel.matches(&labels);
                let again = Selector::parse(&sel.to_string()).unwrap_or_else(|e| panic!("{input:?} -> {sel}: {e}"));
                assert_eq!(again, sel, "{input:?}");
            }
        };
        for input in fixed {
            check(input);
        }
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let s: String = (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            check(&s);
        }
    }
}
