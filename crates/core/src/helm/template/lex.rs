//! Splits a template into text and actions, and an action into tokens, as Go's
//! text/template/parse/lex.go does: `{{- ` and ` -}}` trim the text beside them, `{{/* */}}`
//! is a comment, and every token keeps its byte offset for the `FILE:LINE:COL` of errors.

/// One token inside `{{ }}`.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A function name or keyword (`if`, `range`, `include`…).
    Ident(String),
    /// `.Name`: the name without its dot.
    Field(String),
    /// `$name`, or `$` alone.
    Var(String),
    Dot,
    Str(String),
    Number(String),
    Bool(bool),
    Nil,
    LeftParen,
    RightParen,
    Pipe,
    Comma,
    Declare,
    Assign,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: usize,
    /// Written right after a space: `$x.y` is a chain, `$x .y` two arguments.
    pub spaced: bool,
    /// The token as written (a string's quotes included), for the `<…>` of errors.
    pub raw: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    Text(String),
    /// The tokens of one action and the offset of its `{{`.
    Action(Vec<Token>, usize),
}

/// A lexing error: its byte offset and Go's message.
#[derive(Clone, Debug, PartialEq)]
pub struct LexError {
    pub pos: usize,
    pub message: String,
}

/// Splits `text` into segments, trimming around `{{-` / `-}}`; comments disappear.
pub fn segments(text: &str) -> Result<Vec<Segment>, LexError> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut trim_next = false;
    while at < text.len() {
        let open = text[at..].find("{{").map(|i| at + i);
        let mut chunk = &text[at..open.unwrap_or(text.len())];
        if trim_next {
            chunk = chunk.trim_start_matches(is_space);
        }
        let Some(open) = open else {
            push_text(&mut out, chunk);
            break;
        };
        let body_start = open + 2;
        let trim_left = text[body_start..].starts_with('-') && text[body_start + 1..].starts_with(is_space);
        if trim_left {
            chunk = chunk.trim_end_matches(is_space);
        }
        push_text(&mut out, chunk);
        let inner_start = if trim_left { body_start + 2 } else { body_start };
        let (tokens, end, trim_right) = action(text, inner_start, open)?;
        if let Some(tokens) = tokens {
            out.push(Segment::Action(tokens, open));
        }
        trim_next = trim_right;
        at = end;
    }
    Ok(out)
}

fn push_text(out: &mut Vec<Segment>, text: &str) {
    if !text.is_empty() {
        out.push(Segment::Text(text.to_string()));
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// Where a right delimiter starts at `at`: `}}` or ` -}}` (whitespace, dash, braces).
fn right_delim(text: &str, at: usize) -> Option<(usize, bool)> {
    let rest = &text[at..];
    if rest.starts_with("}}") {
        return Some((at + 2, false));
    }
    let spaces = rest.len() - rest.trim_start_matches(is_space).len();
    if spaces > 0 && rest[spaces..].starts_with("-}}") {
        return Some((at + spaces + 3, true));
    }
    None
}

/// Lexes one action from `at` (just past `{{` and any trim marker). Returns its tokens (None
/// for a comment), where it ends and whether it trims the text after it.
fn action(text: &str, mut at: usize, open: usize) -> Result<(Option<Vec<Token>>, usize, bool), LexError> {
    let skipped = text[at..].len() - text[at..].trim_start_matches(is_space).len();
    if text[at + skipped..].starts_with("/*") {
        return comment(text, at + skipped);
    }
    let mut tokens = Vec::new();
    let mut spaced = true;
    loop {
        if let Some((end, trim)) = right_delim(text, at) {
            return Ok((Some(tokens), end, trim));
        }
        let Some(c) = text[at..].chars().next() else {
            return Err(LexError { pos: open, message: "unclosed action".into() });
        };
        if is_space(c) {
            at += c.len_utf8();
            spaced = true;
            continue;
        }
        let (tok, len) = token(text, at)?;
        tokens.push(Token { tok, pos: at, spaced, raw: text[at..at + len].to_string() });
        at += len;
        spaced = false;
    }
}

fn comment(text: &str, at: usize) -> Result<(Option<Vec<Token>>, usize, bool), LexError> {
    let Some(close) = text[at + 2..].find("*/").map(|i| at + 2 + i + 2) else {
        return Err(LexError { pos: at, message: "unclosed comment".into() });
    };
    match right_delim(text, close) {
        Some((end, trim)) => Ok((None, end, trim)),
        None => Err(LexError { pos: at, message: "comment ends before closing delimiter".into() }),
    }
}

/// One token at `at`: what it is and how many bytes it takes.
fn token(text: &str, at: usize) -> Result<(Tok, usize), LexError> {
    let rest = &text[at..];
    let c = rest.chars().next().unwrap_or(' ');
    let err = |message: String| LexError { pos: at, message };
    let simple = match c {
        '(' => Some(Tok::LeftParen),
        ')' => Some(Tok::RightParen),
        '|' => Some(Tok::Pipe),
        ',' => Some(Tok::Comma),
        '=' => Some(Tok::Assign),
        _ => None,
    };
    if let Some(tok) = simple {
        return Ok((tok, 1));
    }
    if rest.starts_with(":=") {
        return Ok((Tok::Declare, 2));
    }
    match c {
        '"' => quoted(rest).map_err(err),
        '`' => match rest[1..].find('`') {
            Some(end) => Ok((Tok::Str(rest[1..1 + end].to_string()), end + 2)),
            None => Err(err("unterminated raw quoted string".into())),
        },
        '\'' => char_constant(rest).map_err(err),
        '.' if rest[1..].starts_with(|c: char| c.is_ascii_digit()) => Ok(number(rest)),
        '.' => {
            let len = word_len(&rest[1..]);
            if len == 0 { Ok((Tok::Dot, 1)) } else { Ok((Tok::Field(rest[1..1 + len].to_string()), 1 + len)) }
        }
        '$' => {
            let len = word_len(&rest[1..]);
            Ok((Tok::Var(rest[..1 + len].to_string()), 1 + len))
        }
        '+' | '-' | '0'..='9' => Ok(number(rest)),
        c if c == '_' || c.is_alphabetic() => {
            let word = &rest[..word_len(rest)];
            let tok = match word {
                "true" => Tok::Bool(true),
                "false" => Tok::Bool(false),
                "nil" => Tok::Nil,
                _ => Tok::Ident(word.to_string()),
            };
            Ok((tok, word.len()))
        }
        other => Err(err(format!("unrecognized character in action: {}", go_rune(other)))),
    }
}

fn word_len(text: &str) -> usize {
    text.char_indices().find(|(_, c)| !(*c == '_' || c.is_alphanumeric())).map_or(text.len(), |(i, _)| i)
}

fn number(text: &str) -> (Tok, usize) {
    let len = text
        .char_indices()
        .find(|&(i, c)| {
            let sign_ok = (c == '+' || c == '-') && (i == 0 || text[..i].ends_with(['e', 'E']));
            !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || sign_ok)
        })
        .map_or(text.len(), |(i, _)| i);
    (Tok::Number(text[..len].to_string()), len)
}

/// Go's `%#U` of a rune, as lex errors print it (`U+0040 '@'`).
fn go_rune(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

/// A double-quoted string with Go's escapes.
fn quoted(text: &str) -> Result<(Tok, usize), String> {
    let mut value = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((Tok::Str(value), i + 1)),
            '\n' => break,
            '\\' => {
                let Some((_, e)) = chars.next() else { break };
                match e {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    '\\' => value.push('\\'),
                    '"' => value.push('"'),
                    '\'' => value.push('\''),
                    '0' => value.push('\0'),
                    'a' => value.push('\x07'),
                    'b' => value.push('\x08'),
                    'f' => value.push('\x0c'),
                    'v' => value.push('\x0b'),
                    'x' | 'u' => {
                        let width = if e == 'x' { 2 } else { 4 };
                        let hex: String = (0..width).filter_map(|_| chars.next().map(|(_, h)| h)).collect();
                        let code = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
                        value.push(code.ok_or_else(|| "invalid syntax".to_string())?);
                    }
                    _ => return Err("invalid syntax".into()),
                }
            }
            c => value.push(c),
        }
    }
    Err("unterminated quoted string".into())
}

/// `'a'`: a rune constant, which Go treats as a number.
fn char_constant(text: &str) -> Result<(Tok, usize), String> {
    let mut chars = text.char_indices().skip(1);
    let Some((_, c)) = chars.next() else { return Err("unterminated character constant".into()) };
    match chars.next() {
        Some((i, '\'')) => Ok((Tok::Number((c as u32).to_string()), i + 1)),
        _ => Err("unterminated character constant".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<String> {
        segments(source)
            .unwrap()
            .into_iter()
            .map(|s| match s {
                Segment::Text(t) => format!("T({t})"),
                Segment::Action(tokens, _) => {
                    format!("A({})", tokens.iter().map(|t| t.raw.as_str()).collect::<Vec<_>>().join(" "))
                }
            })
            .collect()
    }

    #[test]
    fn trim_markers_eat_the_whitespace_beside_them() {
        assert_eq!(texts("a  {{- .x -}}  \n b"), ["T(a)", "A(.x)", "T(b)"]);
        assert_eq!(texts("a {{.x}} b"), ["T(a )", "A(.x)", "T( b)"]);
        assert_eq!(texts("a\n{{- /* note */ -}}\nb"), ["T(a)", "T(b)"]);
    }

    #[test]
    fn actions_split_into_tokens() {
        assert_eq!(texts(r#"{{ $x := .Values.a | default "b" }}"#), [r#"A($x := .Values .a | default "b")"#]);
        assert_eq!(segments("{{ .x ").unwrap_err().message, "unclosed action");
    }
}
