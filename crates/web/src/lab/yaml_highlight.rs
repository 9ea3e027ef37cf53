//! The manifest editor's coloured copy of its text: HTML spans from `yaml_tokens`, one line per
//! line, with the line kubectl complained about marked and its message beside it.

use crate::lab::yaml_tokens::{TokenKind, tokenize_line};

/// The highlighted HTML for `text`; `error` is a 1-based line and the message to show on it.
pub fn to_html(text: &str, error: Option<(usize, &str)>) -> String {
    let mut html = String::with_capacity(text.len() * 2);
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            html.push('\n');
        }
        match error {
            Some((number, message)) if number == index + 1 => {
                html.push_str("<span class=\"yaml-error-line\">");
                push_line(&mut html, line);
                html.push_str("</span><span class=\"yaml-error-note\">  ← ");
                push_escaped(&mut html, message);
                html.push_str("</span>");
            }
            _ => push_line(&mut html, line),
        }
    }
    // A trailing newline in a <pre> takes no height; the textarea's last line needs it.
    html.push('\n');
    html
}

fn push_line(html: &mut String, line: &str) {
    for (kind, token) in tokenize_line(line) {
        match class(kind) {
            Some(class) => {
                html.push_str("<span class=\"");
                html.push_str(class);
                html.push_str("\">");
                push_escaped(html, token);
                html.push_str("</span>");
            }
            None => push_escaped(html, token),
        }
    }
}

fn class(kind: TokenKind) -> Option<&'static str> {
    match kind {
        TokenKind::Key => Some("y-key"),
        TokenKind::String => Some("y-str"),
        TokenKind::Number => Some("y-num"),
        TokenKind::Literal => Some("y-lit"),
        TokenKind::Comment => Some("y-com"),
        TokenKind::Punct => Some("y-pun"),
        TokenKind::Plain => None,
    }
}

fn push_escaped(html: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '&' => html.push_str("&amp;"),
            '"' => html.push_str("&quot;"),
            _ => html.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_escapes() {
        assert_eq!(
            to_html("a: <b>\n# c", None),
            "<span class=\"y-key\">a</span><span class=\"y-pun\">:</span> &lt;b&gt;\n<span class=\"y-com\"># c</span>\n"
        );
    }

    #[test]
    fn marks_the_error_line_with_its_message() {
        let html = to_html("a: 1\nb c: :\n", Some((2, "mapping values are not allowed")));
        assert!(html.contains("\n<span class=\"yaml-error-line\">"));
        assert!(html.contains("<span class=\"yaml-error-note\">  ← mapping values are not allowed</span>"));
        assert_eq!(html.matches('\n').count(), 3);
    }
}
