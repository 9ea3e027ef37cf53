//! A small line-by-line YAML tokenizer for the manifest editor's highlighting: keys, scalars,
//! comments and punctuation, enough to colour a Kubernetes manifest (not a YAML parser; the
//! core's parser is the one that judges the text).

/// What a run of characters is, as the highlighter colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Key,
    String,
    Number,
    /// `true`, `false`, `null`, `~`.
    Literal,
    Comment,
    /// `-`, `:`, `|`, `>`, `---`, flow brackets.
    Punct,
    /// Anything else: plain scalars, spaces.
    Plain,
}

/// Splits one line into tokens that, joined, give the line back exactly.
pub fn tokenize_line(line: &str) -> Vec<(TokenKind, &str)> {
    let mut tokens = Vec::new();
    let trimmed = line.trim_end();
    if trimmed == "---" || trimmed == "..." {
        tokens.push((TokenKind::Punct, line));
        return tokens;
    }
    let mut rest = line;
    // Indentation and sequence dashes.
    loop {
        let spaces = rest.len() - rest.trim_start().len();
        push(&mut tokens, TokenKind::Plain, &rest[..spaces]);
        rest = &rest[spaces..];
        if rest == "-" || rest.starts_with("- ") {
            push(&mut tokens, TokenKind::Punct, &rest[..1]);
            rest = &rest[1..];
        } else {
            break;
        }
    }
    if let Some(colon) = key_end(rest) {
        push(&mut tokens, TokenKind::Key, &rest[..colon]);
        push(&mut tokens, TokenKind::Punct, &rest[colon..colon + 1]);
        rest = &rest[colon + 1..];
    }
    value_tokens(rest, &mut tokens);
    tokens
}

fn push<'a>(tokens: &mut Vec<(TokenKind, &'a str)>, kind: TokenKind, text: &'a str) {
    if !text.is_empty() {
        tokens.push((kind, text));
    }
}

/// Where a mapping key's `:` is (followed by a space or the line's end), outside quotes and
/// before any comment.
fn key_end(text: &str) -> Option<usize> {
    if text.starts_with('#') || text.starts_with('{') || text.starts_with('[') {
        return None;
    }
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if i == 0 => quote = Some(c),
            (None, '#') if text[..i].ends_with(' ') => return None,
            (None, ':') if text[i + 1..].is_empty() || text[i + 1..].starts_with(' ') => return Some(i),
            _ => {}
        }
    }
    None
}

/// A value after the key (or a bare item): spaces, the scalar, a trailing comment.
fn value_tokens<'a>(text: &'a str, tokens: &mut Vec<(TokenKind, &'a str)>) {
    let spaces = text.len() - text.trim_start().len();
    push(tokens, TokenKind::Plain, &text[..spaces]);
    let body = &text[spaces..];
    if body.starts_with('#') {
        push(tokens, TokenKind::Comment, body);
        return;
    }
    let (scalar, comment) = split_comment(body);
    let value = scalar.trim_end();
    push(tokens, scalar_kind(value), value);
    push(tokens, TokenKind::Plain, &scalar[value.len()..]);
    push(tokens, TokenKind::Comment, comment);
}

/// Splits off a ` #` comment that is not inside quotes.
fn split_comment(text: &str) -> (&str, &str) {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if i == 0 || text[..i].ends_with(' ') => return (&text[..i], &text[i..]),
            _ => {}
        }
    }
    (text, "")
}

fn scalar_kind(value: &str) -> TokenKind {
    match value {
        "true" | "false" | "null" | "~" | "True" | "False" | "Null" => TokenKind::Literal,
        "|" | "|-" | "|+" | ">" | ">-" | ">+" | "[]" | "{}" => TokenKind::Punct,
        _ if value.starts_with('"') || value.starts_with('\'') => TokenKind::String,
        _ if value.parse::<f64>().is_ok() => TokenKind::Number,
        _ => TokenKind::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::TokenKind::*;
    use super::*;

    fn joined(line: &str) -> std::string::String {
        tokenize_line(line).iter().map(|(_, text)| *text).collect()
    }

    #[test]
    fn keys_and_scalars() {
        assert_eq!(
            tokenize_line("  replicas: 3"),
            vec![(Plain, "  "), (Key, "replicas"), (Punct, ":"), (Plain, " "), (Number, "3")]
        );
        assert_eq!(
            tokenize_line("kind: Deployment  # the kind"),
            vec![
                (Key, "kind"),
                (Punct, ":"),
                (Plain, " "),
                (Plain, "Deployment"),
                (Plain, "  "),
                (Comment, "# the kind")
            ]
        );
        assert_eq!(
            tokenize_line("  ready: true"),
            vec![(Plain, "  "), (Key, "ready"), (Punct, ":"), (Plain, " "), (Literal, "true")]
        );
    }

    #[test]
    fn sequence_items_and_quotes() {
        assert_eq!(
            tokenize_line("- name: \"a: b # c\""),
            vec![(Punct, "-"), (Plain, " "), (Key, "name"), (Punct, ":"), (Plain, " "), (String, "\"a: b # c\"")]
        );
        assert_eq!(tokenize_line("  - web"), vec![(Plain, "  "), (Punct, "-"), (Plain, " "), (Plain, "web")]);
        assert_eq!(
            tokenize_line("image: nginx:1.25"),
            vec![(Key, "image"), (Punct, ":"), (Plain, " "), (Plain, "nginx:1.25")]
        );
    }

    #[test]
    fn comments_separators_and_block_scalars() {
        assert_eq!(tokenize_line("# hello: there"), vec![(Comment, "# hello: there")]);
        assert_eq!(tokenize_line("---"), vec![(Punct, "---")]);
        assert_eq!(tokenize_line("script: |"), vec![(Key, "script"), (Punct, ":"), (Plain, " "), (Punct, "|")]);
    }

    #[test]
    fn tokens_give_the_line_back() {
        for line in ["", "   ", "a:b", "- - x", "  key:   value   # c ", "'q': \"x\"", "{a: 1}", "é: ü # ö"] {
            assert_eq!(joined(line), line);
        }
    }
}
