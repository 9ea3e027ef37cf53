//! Lesson prose (markdown) to HTML with pulldown-cmark: paragraphs, lists, code, emphasis and
//! tables. Raw HTML in the source is shown as text, never injected into the page.

use pulldown_cmark::{Event, Options, Parser, html};

/// Renders markdown to an HTML fragment that is safe to set as `innerHTML`.
pub fn to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_lesson_subset() {
        let html = to_html("Hello **bold** and *it* `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<strong>bold</strong>"), "{html}");
        assert!(html.contains("<em>it</em>"));
        assert!(html.contains("<code>code</code>"));
        assert!(html.contains("<li>one</li>"));
        assert!(html.contains("<table>"));
    }

    #[test]
    fn raw_html_is_escaped() {
        let html = to_html("a <script>alert(1)</script> b\n\n<div onclick=x>\n");
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;"));
    }
}
