//! `kubectl get -o yaml` output byte for byte: a port of what kubectl runs, sigs.k8s.io/yaml → gopkg.in/yaml.v2.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

/// libyaml's `best_width`: a plain or quoted scalar folds at a space once its line is past this column.
const BEST_WIDTH: usize = 80;
/// libyaml's `best_indent`.
const BEST_INDENT: isize = 2;

/// Renders `value` byte-for-byte as `kubectl get -o yaml` prints one object; the text ends with a newline.
pub fn to_yaml(value: &Value) -> String {
    let mut emitter = Emitter::new();
    emitter.node(value, false);
    // yaml_emitter_emit_document_end for an implicit end: only finish the current line.
    emitter.write_indent();
    emitter.out
}

/// The scalar styles go-yaml v2 produces (it never asks for folded `>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
}

/// The state of libyaml's `yaml_emitter_t` that shapes block output. Flow collections only ever appear empty
/// (`{}`, `[]`), so every scalar is written at flow level 0.
struct Emitter {
    out: String,
    /// Characters (not bytes) on the current line.
    column: usize,
    /// The last thing written was whitespace (or nothing), so an indicator needs no separating space.
    whitespace: bool,
    /// Only indentation has been written on the current line (libyaml's spelling).
    indention: bool,
    /// Indentation of the current block; -1 before the root node.
    indent: isize,
}

impl Emitter {
    /// yaml_emitter_emit_stream_start's initial state.
    fn new() -> Self {
        Emitter { out: String::new(), column: 0, whitespace: true, indention: true, indent: -1 }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// emitterc.go `write_break`: `\n` is a line break; other breaks (CR, NEL, LS, PS) are copied as they are.
    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    /// yaml_emitter_increase_indent; returns the indent to restore afterwards.
    fn increase_indent(&mut self, flow: bool, indentless: bool) -> isize {
        let saved = self.indent;
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
        saved
    }

    /// yaml_emitter_write_indent: start a new line unless only indentation is on this one, then pad to the indent.
    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// yaml_emitter_write_indicator.
    fn write_indicator(&mut self, indicator: &str, need_whitespace: bool, is_whitespace: bool, is_indention: bool) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        indicator.chars().for_each(|c| self.put(c));
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// yaml_emitter_emit_node for one value; `mapping_context` is set for a mapping's key or value.
    fn node(&mut self, value: &Value, mapping_context: bool) {
        match value {
            Value::Null => self.scalar("null", Style::Plain, false),
            Value::Bool(b) => self.scalar(if *b { "true" } else { "false" }, Style::Plain, false),
            Value::Number(n) => self.scalar(&format_number(n), Style::Plain, false),
            Value::String(s) => {
                let s = yaml_read_back(s);
                self.scalar(&s, string_style(&s), false);
            }
            // yaml_emitter_emit_sequence_start/_mapping_start: empty collections are written in flow style.
            Value::Array(items) if items.is_empty() => self.empty_flow("[", "]"),
            Value::Object(map) if map.is_empty() => self.empty_flow("{", "}"),
            Value::Array(items) => self.block_sequence(items, mapping_context),
            Value::Object(map) => self.block_mapping(map),
        }
    }

    /// yaml_emitter_emit_flow_sequence_item/_mapping_key with no items.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// yaml_emitter_emit_block_sequence_item. A sequence that is a mapping's value is not indented
    /// (`containers:\n- name: x`); a sequence inside a sequence is (`- - a`).
    fn block_sequence(&mut self, items: &[Value], mapping_context: bool) {
        let saved = self.increase_indent(false, mapping_context && !self.indention);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, false);
        }
        self.indent = saved;
    }

    /// yaml_emitter_emit_block_mapping_key/_value: `key: value`, or `? key` then `: value` for a key that
    /// yaml_emitter_check_simple_key rejects (multi-line, or longer than 128 bytes).
    fn block_mapping(&mut self, map: &Map<String, Value>) {
        let saved = self.increase_indent(false, false);
        for (key, value) in sorted_entries(map) {
            self.write_indent();
            let analysis = analyze(&key);
            if !analysis.multiline && key.len() <= 128 {
                self.scalar_analyzed(&key, string_style(&key), &analysis, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.scalar_analyzed(&key, string_style(&key), &analysis, false);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, true);
        }
        self.indent = saved;
    }

    fn scalar(&mut self, value: &str, requested: Style, simple_key: bool) {
        self.scalar_analyzed(value, requested, &analyze(value), simple_key);
    }

    /// yaml_emitter_emit_scalar: settle the style, then write the text one indent deeper than its parent.
    /// Simple keys never fold.
    fn scalar_analyzed(&mut self, value: &str, requested: Style, analysis: &Analysis, simple_key: bool) {
        let style = select_style(requested, analysis, value.is_empty(), simple_key);
        let saved = self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_plain(value, !simple_key),
            Style::SingleQuoted => self.write_single_quoted(value, !simple_key),
            Style::DoubleQuoted => self.write_double_quoted(value, !simple_key),
            Style::Literal => self.write_literal(value),
        }
        self.indent = saved;
    }

    /// yaml_emitter_write_plain_scalar: the first space of a run breaks the line when past `BEST_WIDTH`.
    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let chars: Vec<char> = value.chars().collect();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                let next_is_space = chars.get(i + 1) == Some(&' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !next_is_space {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                (spaces, breaks) = (false, false);
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    /// yaml_emitter_write_single_quoted_scalar: `'` doubles; folds like plain text but never at either end.
    fn write_single_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let chars: Vec<(usize, char)> = value.char_indices().collect();
        let (mut spaces, mut breaks) = (false, false);
        for (k, &(i, c)) in chars.iter().enumerate() {
            if c == ' ' {
                let inner = i > 0 && i + 1 < value.len() && chars.get(k + 1).is_some_and(|&(_, n)| n != ' ');
                if allow_breaks && !spaces && self.column > BEST_WIDTH && inner {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                (spaces, breaks) = (false, false);
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// yaml_emitter_write_double_quoted_scalar: escapes non-printables, breaks, `"` and `\`; a fold before a second
    /// space leaves a `\` so the space survives. (libyaml's `is_bom` looks at the value's start, so a value that
    /// begins with U+FEFF has every character escaped.)
    fn write_double_quoted(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let starts_with_bom = value.starts_with('\u{feff}');
        let chars: Vec<(usize, char)> = value.char_indices().collect();
        let mut spaces = false;
        for (k, &(i, c)) in chars.iter().enumerate() {
            if !is_printable(c) || starts_with_bom || is_break(c) || c == '"' || c == '\\' {
                self.write_escape(c);
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i + 1 < value.len() {
                    self.write_indent();
                    if chars.get(k + 1).is_some_and(|&(_, n)| n == ' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The escape yaml_emitter_write_double_quoted_scalar writes for `c`: a short form, else `\x`, `\u` or `\U` hex.
    fn write_escape(&mut self, c: char) {
        let short = match c {
            '\0' => "0",
            '\u{7}' => "a",
            '\u{8}' => "b",
            '\t' => "t",
            '\n' => "n",
            '\u{b}' => "v",
            '\u{c}' => "f",
            '\r' => "r",
            '\u{1b}' => "e",
            '"' => "\"",
            '\\' => "\\",
            '\u{85}' => "N",
            '\u{a0}' => "_",
            '\u{2028}' => "L",
            '\u{2029}' => "P",
            _ => "",
        };
        let v = u32::from(c);
        let escape = match (short, v) {
            ("", 0..=0xFF) => format!("\\x{v:02X}"),
            ("", 0x100..=0xFFFF) => format!("\\u{v:04X}"),
            ("", _) => format!("\\U{v:08X}"),
            _ => format!("\\{short}"),
        };
        escape.chars().for_each(|e| self.put(e));
    }

    /// yaml_emitter_write_literal_scalar: `|` plus hints, then each line at the scalar's indent, never folded.
    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(value);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for c in value.chars() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// yaml_emitter_write_block_scalar_hints: an indentation digit when the text starts with a space or break, then
    /// `-` (no final break) or `+` (more than one final break); one final break needs no hint.
    fn write_block_scalar_hints(&mut self, value: &str) {
        if value.chars().next().is_some_and(|c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let mut from_end = value.chars().rev();
        let chomp = match (from_end.next(), from_end.next()) {
            (Some(last), _) if !is_break(last) => Some("-"),
            (None, _) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(before)) if is_break(before) => Some("+"),
            _ => None,
        };
        if let Some(hint) = chomp {
            self.write_indicator(hint, false, false, false);
        }
    }
}

/// What yaml_emitter_analyze_scalar finds out about a scalar, reduced to what matters outside flow collections.
#[derive(Debug)]
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// yaml_emitter_analyze_scalar: which styles can carry `value` unchanged.
fn analyze(value: &str) -> Analysis {
    if value.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let chars: Vec<char> = value.chars().collect();
    let last = chars.len() - 1;
    // Only block indicators matter: flow indicators would only restrict scalars inside flow collections.
    let mut indicators = value.starts_with("---") || value.starts_with("...");
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading, mut trailing, mut break_space, mut space_break) = (false, false, false, false);
    let (mut preceded_by_whitespace, mut previous_space, mut previous_break) = (true, false, false);
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&n| n == ' ' || n == '\t');
        indicators |= match c {
            '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@' | '`' => i == 0,
            '?' | '-' => i == 0 && followed_by_whitespace,
            ':' => followed_by_whitespace,
            _ => false,
        } || (c == '#' && preceded_by_whitespace);
        special |= !is_printable(c);
        if c == ' ' || is_break(c) {
            line_breaks |= c != ' ';
            leading |= i == 0;
            trailing |= i == last;
            break_space |= c == ' ' && previous_break;
            space_break |= c != ' ' && previous_space;
        }
        (previous_space, previous_break) = (c == ' ', is_break(c));
        preceded_by_whitespace = matches!(c, ' ' | '\t' | '\0') || is_break(c);
    }
    let quote_breaking = break_space || space_break || special;
    Analysis {
        multiline: line_breaks,
        block_plain_allowed: !(leading || trailing || line_breaks || indicators || quote_breaking),
        single_quoted_allowed: !quote_breaking,
        block_allowed: !(chars[last] == ' ' || space_break || special),
    }
}

/// yaml_emitter_select_scalar_style at flow level 0: fall back to single, then double quotes when the text needs it.
fn select_style(requested: Style, analysis: &Analysis, empty: bool, simple_key: bool) -> Style {
    let mut style = requested;
    if simple_key && analysis.multiline {
        style = Style::DoubleQuoted;
    }
    if style == Style::Plain && (!analysis.block_plain_allowed || (empty && simple_key)) {
        style = Style::SingleQuoted;
    }
    if style == Style::SingleQuoted && !analysis.single_quoted_allowed {
        style = Style::DoubleQuoted;
    }
    if style == Style::Literal && (!analysis.block_allowed || simple_key) {
        style = Style::DoubleQuoted;
    }
    style
}

/// libyaml `is_printable` (4-byte UTF-8, i.e. beyond U+FFFF, is not printable, so an emoji gets a `\U` escape).
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}') && c != '\u{feff}'
}

/// libyaml `is_break`: CR, LF, NEL, LS, PS.
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A string as go-yaml holds it after reading kubectl's JSON. encoding/json leaves exactly one line break unescaped,
/// NEL (U+0085), and yaml_parser_scan_flow_scalar folds it: a run of spaces and NELs becomes one space, or one `\n`
/// per NEL after the first.
fn yaml_read_back(s: &str) -> Cow<'_, str> {
    const NEL: char = '\u{85}';
    if !s.contains(NEL) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find([' ', NEL]) {
        out.push_str(&rest[..start]);
        let run_len = rest[start..].find(|c| c != ' ' && c != NEL).unwrap_or(rest.len() - start);
        let run = &rest[start..start + run_len];
        match run.matches(NEL).count() {
            0 => out.push_str(run),
            1 => out.push(' '),
            breaks => out.extend(std::iter::repeat_n('\n', breaks - 1)),
        }
        rest = &rest[start + run_len..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// encode.go `stringv`: literal when the text has a newline, double-quoted when a plain scalar would not read back
/// as this string (go-yaml's resolver, or a YAML 1.1 base-60 float), else plain (the emitter may still quote it).
fn string_style(s: &str) -> Style {
    if s.contains('\n') {
        Style::Literal
    } else if resolves_to_string(s) && !is_base60_float(s) {
        Style::Plain
    } else {
        Style::DoubleQuoted
    }
}

/// resolve.go `resolveMap`: plain scalars read as bool, null or the special floats (`""` and `<<` aside).
const RESOLVE_MAP: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no", "No", "NO", "false",
    "False", "FALSE", "off", "Off", "OFF", "~", "null", "Null", "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF",
    "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
];

/// resolve.go `resolve("", s)` gives `!!str`. The first byte picks what is tried (`resolveTable`): the map for
/// `yYnNtTfFoO~`, a float for `.`, timestamps and numbers for signs and digits; anything else is a string.
fn resolves_to_string(s: &str) -> bool {
    let Some(&first) = s.as_bytes().first() else {
        return false; // "" is null
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => !RESOLVE_MAP.contains(&s),
        b'.' => !RESOLVE_MAP.contains(&s) && !is_go_float_after_dot(s),
        b'+' | b'-' | b'0'..=b'9' => !RESOLVE_MAP.contains(&s) && !is_number_or_timestamp(s),
        _ => true,
    }
}

/// resolve.go's branch for a leading sign or digit: a timestamp; else, with `_` dropped, a Go int or uint (base
/// prefixes allowed), a `yamlStyleFloat` that parses finite, or a `0b`/`-0b` binary. (Later sigs.k8s.io forks also
/// try big.Int; kubectl 1.32 does not, so `0x10000000000000000` stays a plain string.)
fn is_number_or_timestamp(s: &str) -> bool {
    if is_timestamp(s) {
        return true;
    }
    let plain = s.replace('_', "");
    if go_parse_int(&plain, 0) || go_parse_uint(&plain, 0).is_some() {
        return true;
    }
    if is_yaml_style_float(&plain) && plain.parse::<f64>().is_ok_and(f64::is_finite) {
        return true;
    }
    if let Some(digits) = plain.strip_prefix("0b") {
        if go_parse_int(digits, 2) || go_parse_uint(digits, 2).is_some() {
            return true;
        }
    } else if let Some(digits) = plain.strip_prefix("-0b") {
        return go_parse_int(&format!("-{digits}"), 2);
    }
    false
}

/// `strconv.ParseUint(s, base, 64)`; base 0 reads Go's prefixes. (`_` never gets here: resolve drops it first.)
fn go_parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let (digits, base) = if base == 0 { split_base_prefix(s) } else { (s, base) };
    digits.chars().try_fold(0u64, |n, c| {
        let d = c.to_digit(36).filter(|&d| d < base)?;
        n.checked_mul(u64::from(base))?.checked_add(u64::from(d))
    })
}

/// `strconv.ParseInt(s, base, 64)` succeeds: an optional sign, then a ParseUint magnitude that fits an int64.
fn go_parse_int(s: &str, base: u32) -> bool {
    let (negative, magnitude) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    go_parse_uint(magnitude, base).is_some_and(|n| n < 1 << 63 || (negative && n == 1 << 63))
}

/// ParseUint's base-0 prefixes: `0b`, `0o`, `0x` when a digit may follow, else a leading `0` means octal.
fn split_base_prefix(s: &str) -> (&str, u32) {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'0') {
        return (s, 10);
    }
    let base = match bytes.get(1).map(u8::to_ascii_lowercase) {
        Some(b'b') if bytes.len() >= 3 => 2,
        Some(b'o') if bytes.len() >= 3 => 8,
        Some(b'x') if bytes.len() >= 3 => 16,
        _ => return (&s[1..], 8),
    };
    (&s[2..], base)
}

/// resolve.go `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let bytes = s.as_bytes();
    let digits_at = |i: usize| bytes.get(i..).map_or(0, |rest| rest.iter().take_while(|c| c.is_ascii_digit()).count());
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let whole = digits_at(i);
    i += whole;
    if bytes.get(i) == Some(&b'.') {
        let fraction = digits_at(i + 1);
        if whole == 0 && fraction == 0 {
            return false;
        }
        i += 1 + fraction;
    } else if whole == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
        let exponent = digits_at(i);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == bytes.len()
}

/// `strconv.ParseFloat` accepts a string that starts with `.` (resolve.go's `.` hint): `.digits`, an optional
/// exponent, Go's `_` digit separators, and a finite value.
fn is_go_float_after_dot(s: &str) -> bool {
    let bytes = s.as_bytes();
    let digits_at = |i: usize| {
        bytes.get(i..).map_or(0, |rest| rest.iter().take_while(|c| c.is_ascii_digit() || **c == b'_').count())
    };
    let mut end = 1 + digits_at(1);
    if !bytes.get(1..end).is_some_and(|m| m.iter().any(u8::is_ascii_digit)) {
        return false;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        end += 1 + usize::from(matches!(bytes.get(end + 1), Some(b'+' | b'-')));
        if !bytes.get(end).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        end += digits_at(end);
    }
    end == bytes.len()
        && underscores_between_digits(bytes)
        && format!("0{}", s.replace('_', "")).parse::<f64>().is_ok_and(f64::is_finite)
}

/// strconv's `underscoreOK` for a decimal: every `_` sits between two digits.
fn underscores_between_digits(bytes: &[u8]) -> bool {
    let digit = |i: Option<usize>| i.and_then(|i| bytes.get(i)).is_some_and(u8::is_ascii_digit);
    bytes.iter().enumerate().all(|(i, &c)| c != b'_' || (digit(i.checked_sub(1)) && digit(Some(i + 1))))
}

/// encode.go `isBase60Float`: `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$` (YAML 1.1 sexagesimal, which
/// go-yaml does not read but quotes for other parsers).
fn is_base60_float(s: &str) -> bool {
    let bytes = s.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let mut i = usize::from(matches!(at(0), Some(b'+' | b'-')));
    if !at(i).is_some_and(|c| c.is_ascii_digit()) {
        return false;
    }
    i += 1;
    while at(i).is_some_and(|c| c.is_ascii_digit() || c == b'_') {
        i += 1;
    }
    let group_ends = |j: usize| matches!(at(j), None | Some(b':' | b'.'));
    let mut groups = 0;
    while at(i) == Some(b':') {
        // `[0-5]?[0-9]`: two digits only when the first is 0-5 and the group ends after them.
        if matches!(at(i + 1), Some(b'0'..=b'5')) && at(i + 2).is_some_and(|c| c.is_ascii_digit()) && group_ends(i + 3)
        {
            i += 3;
        } else if at(i + 1).is_some_and(|c| c.is_ascii_digit()) && group_ends(i + 2) {
            i += 2;
        } else {
            return false;
        }
        groups += 1;
    }
    if at(i) == Some(b'.') {
        i += 1;
        while at(i).is_some_and(|c| c.is_ascii_digit() || c == b'_') {
            i += 1;
        }
    }
    groups > 0 && i == bytes.len()
}

/// resolve.go `parseTimestamp`: `YYYY-`, then one of go-yaml's `time.Parse` layouts (`2006-1-2T15:4:5.999999999Z07:00`,
/// also with `t`; `2006-1-2 15:4:5.999999999` with one or more spaces; `2006-1-2`) with Go's range checks.
fn is_timestamp(s: &str) -> bool {
    let bytes = s.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let year = bytes[..4].iter().fold(0, |y, d| y * 10 + u32::from(d - b'0'));
    let Some((month, rest)) = go_getnum(&bytes[5..]) else { return false };
    let Some((day, rest)) = rest.strip_prefix(b"-").and_then(go_getnum) else { return false };
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(month, year) {
        return false;
    }
    match rest.split_first() {
        None => true,
        Some((b'T' | b't', clock)) => parse_clock(clock).is_some_and(is_zone),
        Some((b' ', _)) => {
            // A space in a Go layout matches one or more spaces.
            let clock = &rest[rest.iter().take_while(|&&c| c == b' ').count()..];
            parse_clock(clock).is_some_and(<[u8]>::is_empty)
        }
        Some(_) => false,
    }
}

/// Go time's `getnum(s, false)`: one or two digits.
fn go_getnum(s: &[u8]) -> Option<(u32, &[u8])> {
    match s {
        [a @ b'0'..=b'9', b @ b'0'..=b'9', rest @ ..] => Some((u32::from(a - b'0') * 10 + u32::from(b - b'0'), rest)),
        [a @ b'0'..=b'9', rest @ ..] => Some((u32::from(a - b'0'), rest)),
        _ => None,
    }
}

/// `15:4:5.999999999`: hour, minute, second in range, then an optional `.` or `,` fraction of any length.
fn parse_clock(s: &[u8]) -> Option<&[u8]> {
    let (hour, rest) = go_getnum(s)?;
    let (minute, rest) = go_getnum(rest.strip_prefix(b":")?)?;
    let (second, rest) = go_getnum(rest.strip_prefix(b":")?)?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    match rest {
        [b'.' | b',', b'0'..=b'9', ..] => {
            Some(&rest[1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count()..])
        }
        _ => Some(rest),
    }
}

/// `Z07:00`: `Z`, or `±hh:mm` with Go's lenient limits (hour ≤ 24, minute ≤ 60), and nothing after.
fn is_zone(s: &[u8]) -> bool {
    match s {
        b"Z" => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] if [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()) => {
            (h1 - b'0') * 10 + (h2 - b'0') <= 24 && (m1 - b'0') * 10 + (m2 - b'0') <= 60
        }
        _ => false,
    }
}

/// Go time's `daysIn`.
fn days_in_month(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A JSON number as kubectl prints it. Integers that fit int64 print as they are. Anything else went through Go as
/// a float64 (apimachinery's JSON decoding falls back to float64), which encoding/json writes without an exponent
/// below 1e21, so an integral value reads back as a go-yaml int when it fits int64/uint64 and prints in full.
fn format_number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    let Some(f) = n.as_f64() else {
        return n.to_string();
    };
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        let (digits, exponent) = shortest_digits(f.abs());
        let text = fixed_notation(if f < 0.0 { "-" } else { "" }, &digits, exponent);
        if let Ok(i) = text.parse::<i64>() {
            return i.to_string();
        }
        if let Ok(u) = text.parse::<u64>() {
            return u.to_string();
        }
    }
    go_format_float(f)
}

/// encode.go `floatv`: `strconv.FormatFloat(f, 'g', -1, 64)`, i.e. shortest digits, exponent form (`1e+06`,
/// `1.5e-07`) when the exponent is below -4 or at least 6, and `.inf`/`-.inf`/`.nan` for the specials.
fn go_format_float(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let (digits, exponent) = shortest_digits(f.abs());
    if !(-4..6).contains(&exponent) {
        let mut rest = digits.chars();
        let first = rest.next().unwrap_or('0');
        let fraction: String = rest.collect();
        let dot = if fraction.is_empty() { "" } else { "." };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}{fraction}e{exponent_sign}{:02}", exponent.unsigned_abs());
    }
    fixed_notation(sign, &digits, exponent)
}

/// strconv's 'f' layout of shortest `digits` whose first digit has decimal `exponent` (from -4 up here).
fn fixed_notation(sign: &str, digits: &str, exponent: i32) -> String {
    let point = usize::try_from(exponent + 1).unwrap_or(0); // digits before the decimal point
    if exponent < 0 {
        let zeros = "0".repeat(usize::try_from(-exponent - 1).unwrap_or(0));
        format!("{sign}0.{zeros}{digits}")
    } else if point >= digits.len() {
        format!("{sign}{digits}{}", "0".repeat(point - digits.len()))
    } else {
        let (whole, fraction) = digits.split_at(point);
        format!("{sign}{whole}.{fraction}")
    }
}

/// The shortest significant digits that read back as `x` (non-negative), and the decimal exponent of the first.
/// Rust's `{:e}` and Go's Ryū agree except when `x` lies exactly halfway between two shortest candidates: Go rounds
/// half to even, Rust up (1763314816698602.25 is `1.7633148166986022e+15` in Go), so take the even one then.
fn shortest_digits(x: f64) -> (String, i32) {
    let scientific = format!("{x:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let even = half_even_digits(&digits, exponent, x);
    (even.unwrap_or(digits), exponent)
}

/// `digits` with its odd last digit lowered by one, when `x` is exactly halfway between the two and both read back
/// as `x`. (A double's exact expansion has at most 767 significant digits, so 800 shows all of it.)
fn half_even_digits(digits: &str, exponent: i32, x: f64) -> Option<String> {
    let (head, last) = digits.split_at_checked(digits.len().checked_sub(1)?)?;
    let last = last.parse::<u8>().ok().filter(|d| d % 2 == 1 && !(head.is_empty() && *d == 1))?;
    let lower = format!("{head}{}", last - 1);
    let exact = format!("{x:.800e}");
    let (exact_mantissa, exact_exponent) = exact.split_once('e')?;
    let exact_digits = exact_mantissa.replace('.', "");
    let tie = exact_exponent.parse() == Ok(exponent) && exact_digits.trim_end_matches('0') == format!("{lower}5");
    let (first, rest) = lower.split_at_checked(1)?;
    let reads_back = format!("{first}.{rest}0e{exponent}").parse() == Ok(x);
    (tie && reads_back).then_some(lower)
}

/// Map entries as go-yaml holds and orders them: keys read back through `yaml_read_back`, sorted as encode.go `mapv`
/// does with sorter.go `keyList.Less`, whatever order the `Map` keeps. A merge sort, because it cannot panic even if
/// that comparison is not a total order (Go's own result would then depend on map iteration order).
fn sorted_entries(map: &Map<String, Value>) -> Vec<(Cow<'_, str>, &Value)> {
    merge_sort(map.iter().map(|(k, v)| (yaml_read_back(k), v)).collect())
}

fn merge_sort<'a>(mut entries: Vec<(Cow<'a, str>, &'a Value)>) -> Vec<(Cow<'a, str>, &'a Value)> {
    if entries.len() < 2 {
        return entries;
    }
    let right = merge_sort(entries.split_off(entries.len() / 2));
    let left = merge_sort(entries);
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(a), Some(b)) = (left.peek(), right.peek()) {
        let next = if key_less(&b.0, &a.0) { right.next() } else { left.next() };
        merged.extend(next);
    }
    merged.extend(left);
    merged.extend(right);
    merged
}

/// sorter.go `keyList.Less` for string keys: at the first difference, letters sort after everything else and runs
/// of digits compare by value (`a9` < `a10`, `a_b` < `aB`).
fn key_less(a: &str, b: &str) -> bool {
    let (ar, br): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    for (i, (&ac, &bc)) in ar.iter().zip(&br).enumerate() {
        if ac == bc {
            continue;
        }
        let (a_letter, b_letter) = (is_letter(ac), is_letter(bc));
        if a_letter && b_letter {
            return ac < bc;
        }
        if a_letter || b_letter {
            return b_letter;
        }
        // A zero after a nonzero digit is part of a larger number, not a leading zero.
        let seed = (ac == '0' || bc == '0') && ar[..i].iter().rev().take_while(|c| is_digit(**c)).any(|&c| c != '0');
        let (an, a_end) = digit_run(&ar, i, i64::from(seed));
        let (bn, b_end) = digit_run(&br, i, i64::from(seed));
        if an != bn {
            return an < bn;
        }
        if a_end != b_end {
            return a_end < b_end;
        }
        return ac < bc;
    }
    ar.len() < br.len()
}

/// The value of the digits starting at `start` (Go's wrapping int64 arithmetic) and where they end.
fn digit_run(chars: &[char], start: usize, seed: i64) -> (i64, usize) {
    let mut value = seed;
    let mut end = start;
    while let Some(&c) = chars.get(end).filter(|c| is_digit(**c)) {
        value = value.wrapping_mul(10).wrapping_add(i64::from(u32::from(c)) - i64::from(u32::from('0')));
        end += 1;
    }
    (value, end)
}

/// Go's `unicode.IsLetter` (category L): exact for ASCII and letter-like numerals (Ⅻ); std has no category
/// lookup, so other non-ASCII "alphabetic" characters (combining vowel signs, Ⓐ) count as letters here.
fn is_letter(c: char) -> bool {
    c.is_alphabetic() && !c.is_numeric()
}

/// Go's `unicode.IsDigit` (category Nd), approximated the same way: numeric and not alphabetic, which also admits
/// a few non-decimal numerals (½, ①) that Go does not count.
fn is_digit(c: char) -> bool {
    c.is_numeric() && !c.is_alphabetic()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `value` printed as the only field `k` of an object.
    fn field(value: Value) -> String {
        to_yaml(&json!({ "k": value }))
    }

    /// The expected text is what kubectl 1.32.4 prints for this object (`kubectl label --local -f - -o yaml`).
    #[test]
    fn deployment_prints_as_kubectl_does() {
        let last_applied = concat!(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"hello","#,
            r#""namespace":"default"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"hello"}}}}"#,
            "\n"
        );
        let deployment = json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {
                "annotations": {
                    "deployment.kubernetes.io/revision": "1",
                    "kubectl.kubernetes.io/last-applied-configuration": last_applied,
                },
                "creationTimestamp": "2025-01-01T00:00:05Z",
                "generation": 1,
                "labels": { "app": "hello" },
                "name": "hello",
                "namespace": "default",
                "resourceVersion": "12",
                "uid": "6f1c2a9e-3b7d-4c1e-9a2f-1d2e3f4a5b6c",
            },
            "spec": {
                "progressDeadlineSeconds": 600,
                "replicas": 2,
                "revisionHistoryLimit": 10,
                "selector": { "matchLabels": { "app": "hello" } },
                "strategy": {
                    "rollingUpdate": { "maxSurge": "25%", "maxUnavailable": "25%" },
                    "type": "RollingUpdate",
                },
                "template": {
                    "metadata": { "creationTimestamp": null, "labels": { "app": "hello" } },
                    "spec": {
                        "containers": [{
                            "args": ["sh", "-c", "echo hello && sleep 3600"],
                            "image": "hello:v1",
                            "imagePullPolicy": "IfNotPresent",
                            "name": "hello",
                            "ports": [{ "containerPort": 8080, "name": "http", "protocol": "TCP" }],
                            "resources": {
                                "limits": { "cpu": "500m", "memory": "128Mi" },
                                "requests": { "cpu": "250m", "memory": "64Mi" },
                            },
                            "terminationMessagePath": "/dev/termination-log",
                            "terminationMessagePolicy": "File",
                        }],
                        "dnsPolicy": "ClusterFirst",
                        "restartPolicy": "Always",
                        "schedulerName": "default-scheduler",
                        "securityContext": {},
                        "terminationGracePeriodSeconds": 30,
                    },
                },
            },
            "status": {
                "availableReplicas": 2,
                "conditions": [
                    {
                        "lastTransitionTime": "2025-01-01T00:00:07Z",
                        "lastUpdateTime": "2025-01-01T00:00:07Z",
                        "message": "Deployment has minimum availability.",
                        "reason": "MinimumReplicasAvailable",
                        "status": "True",
                        "type": "Available",
                    },
                    {
                        "lastTransitionTime": "2025-01-01T00:00:05Z",
                        "lastUpdateTime": "2025-01-01T00:00:07Z",
                        "message": "ReplicaSet \"hello-7d4b9c8f6d\" has successfully progressed.",
                        "reason": "NewReplicaSetAvailable",
                        "status": "True",
                        "type": "Progressing",
                    },
                ],
                "observedGeneration": 1,
                "readyReplicas": 2,
                "replicas": 2,
                "updatedReplicas": 2,
            },
        });
        let expected = r#"apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "1"
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"hello","namespace":"default"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"hello"}}}}
  creationTimestamp: "2025-01-01T00:00:05Z"
  generation: 1
  labels:
    app: hello
  name: hello
  namespace: default
  resourceVersion: "12"
  uid: 6f1c2a9e-3b7d-4c1e-9a2f-1d2e3f4a5b6c
spec:
  progressDeadlineSeconds: 600
  replicas: 2
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: hello
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: hello
    spec:
      containers:
      - args:
        - sh
        - -c
        - echo hello && sleep 3600
        image: hello:v1
        imagePullPolicy: IfNotPresent
        name: hello
        ports:
        - containerPort: 8080
          name: http
          protocol: TCP
        resources:
          limits:
            cpu: 500m
            memory: 128Mi
          requests:
            cpu: 250m
            memory: 64Mi
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 2
  conditions:
  - lastTransitionTime: "2025-01-01T00:00:07Z"
    lastUpdateTime: "2025-01-01T00:00:07Z"
    message: Deployment has minimum availability.
    reason: MinimumReplicasAvailable
    status: "True"
    type: Available
  - lastTransitionTime: "2025-01-01T00:00:05Z"
    lastUpdateTime: "2025-01-01T00:00:07Z"
    message: ReplicaSet "hello-7d4b9c8f6d" has successfully progressed.
    reason: NewReplicaSetAvailable
    status: "True"
    type: Progressing
  observedGeneration: 1
  readyReplicas: 2
  replicas: 2
  updatedReplicas: 2
"#;
        assert_eq!(to_yaml(&deployment), expected);
    }

    /// Pod status lines as captured from real `kubectl get pod -o yaml` output: a long single-quoted message folds
    /// at the first space past column 80 and continues two spaces deeper; at exactly column 80 it does not fold.
    #[test]
    fn long_messages_fold_like_kubectl() {
        let pod_status = |message: &str| {
            json!({ "status": { "conditions": [{
                "lastProbeTime": null,
                "lastTransitionTime": "2024-08-21T21:45:46Z",
                "message": message,
                "reason": "Unschedulable",
                "status": "False",
                "type": "PodScheduled",
            }], "phase": "Pending", "qosClass": "Burstable" } })
        };
        let folded = pod_status(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption \
             victims found for incoming pod.",
        );
        assert_eq!(
            to_yaml(&folded),
            "status:
  conditions:
  - lastProbeTime: null
    lastTransitionTime: \"2024-08-21T21:45:46Z\"
    message: '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are
      available: 1 No preemption victims found for incoming pod.'
    reason: Unschedulable
    status: \"False\"
    type: PodScheduled
  phase: Pending
  qosClass: Burstable
"
        );
        let at_width = pod_status("0/1 nodes are available: 1 node(s) had taints that the pod didn't tolerate.");
        assert!(
            to_yaml(&at_width).contains(
                "    message: '0/1 nodes are available: 1 node(s) had taints that the pod didn''t tolerate.'\n"
            )
        );
    }

    #[test]
    fn plain_and_double_quoted_text_folds_at_column_80() {
        let words = |n: usize| vec!["abcdefghi"; n].join(" ");
        // "message: " ends at column 9; each word and space adds 10, so a line breaks after 8 words.
        let plain = to_yaml(&json!({ "message": words(20) }));
        assert_eq!(plain, format!("message: {}\n  {}\n  {}\n", words(8), words(8), words(4)));
        // A tab forces double quotes; a fold before a second space keeps it with a `\`.
        let double = field(json!(format!("\t{}  end", words(8))));
        assert_eq!(double, format!("k: \"\\t{}\n  \\ end\"\n", words(8)));
        // Simple keys never fold.
        let key = words(12);
        assert_eq!(to_yaml(&json!({ key.clone(): 1 })), format!("{key}: 1\n"));
    }

    #[test]
    fn scalars_render_like_go_yaml_v2() {
        for (input, expected) in [
            // Plain when the resolver reads the text back as the same string.
            ("hello", "hello"),
            ("25%", "25%"),
            ("hello:v1", "hello:v1"),
            ("-c", "-c"),
            ("--x", "--x"),
            (":x", ":x"),
            ("?x", "?x"),
            ("a#b", "a#b"),
            ("500m", "500m"),
            ("<<", "<<"),
            ("é", "é"),
            ("1e999", "1e999"),
            ("2025-02-30", "2025-02-30"),
            ("2025-13-01", "2025-13-01"),
            ("2025-01-01T00:00:05z", "2025-01-01T00:00:05z"),
            ("0x", "0x"),
            ("0b", "0b"),
            ("1:60", "1:60"),
            ("12:34:567", "12:34:567"),
            ("._5", "._5"),
            ("0x10000000000000000", "0x10000000000000000"),
            // Double-quoted when a plain scalar would read as null, bool, number, timestamp or base-60 float.
            ("", r#""""#),
            ("null", r#""null""#),
            ("Null", r#""Null""#),
            ("~", r#""~""#),
            ("true", r#""true""#),
            ("False", r#""False""#),
            ("YES", r#""YES""#),
            ("no", r#""no""#),
            ("on", r#""on""#),
            ("Off", r#""Off""#),
            ("y", r#""y""#),
            ("N", r#""N""#),
            ("12", r#""12""#),
            ("-12", r#""-12""#),
            ("+12", r#""+12""#),
            ("1_000", r#""1_000""#),
            ("017", r#""017""#),
            ("08", r#""08""#),
            ("0x1F", r#""0x1F""#),
            ("0o17", r#""0o17""#),
            ("0b101", r#""0b101""#),
            ("0b-101", r#""0b-101""#),
            ("-0b101", r#""-0b101""#),
            ("18446744073709551615", r#""18446744073709551615""#),
            ("1.5", r#""1.5""#),
            ("1.", r#""1.""#),
            ("1e3", r#""1e3""#),
            ("-1.5E-3", r#""-1.5E-3""#),
            (".5", r#"".5""#),
            (".5_5", r#"".5_5""#),
            (".inf", r#"".inf""#),
            ("-.Inf", r#""-.Inf""#),
            (".NaN", r#"".NaN""#),
            ("1:20", r#""1:20""#),
            ("-190:20:30.15", r#""-190:20:30.15""#),
            ("2025-01-01T00:00:05Z", r#""2025-01-01T00:00:05Z""#),
            ("2025-1-1t1:2:3.123456789123+05:30", r#""2025-1-1t1:2:3.123456789123+05:30""#),
            ("2025-01-01", r#""2025-01-01""#),
            ("2024-02-29", r#""2024-02-29""#),
            ("2025-01-01  10:00:00,5", r#""2025-01-01  10:00:00,5""#),
            // Single-quoted when YAML syntax forbids plain text.
            ("-", "'-'"),
            ("- x", "'- x'"),
            ("---", "'---'"),
            ("...", "'...'"),
            ("a: b", "'a: b'"),
            ("key:", "'key:'"),
            ("? x", "'? x'"),
            ("a #b", "'a #b'"),
            ("#x", "'#x'"),
            ("*x", "'*x'"),
            ("&x", "'&x'"),
            ("!x", "'!x'"),
            ("|", "'|'"),
            (">x", "'>x'"),
            ("%x", "'%x'"),
            ("@x", "'@x'"),
            ("`x", "'`x'"),
            ("{a}", "'{a}'"),
            ("[a]", "'[a]'"),
            (",x", "',x'"),
            ("'q'", "'''q'''"),
            ("\"q\"", r#"'"q"'"#),
            (" lead", "' lead'"),
            ("trail ", "'trail '"),
            ("it's: x", "'it''s: x'"),
            // Double-quoted with escapes when a character cannot be printed as is.
            ("a\tb", r#""a\tb""#),
            ("bell\u{7}", r#""bell\a""#),
            ("nul\u{0}", r#""nul\0""#),
            ("ctl\u{1}", r#""ctl\x01""#),
            ("\u{1F600}", r#""\U0001F600""#),
            ("\u{feff}ab", r#""\uFEFF\x61\x62""#),
            ("cr\r", r#""cr\r""#),
            ("back\\slash\t", r#""back\\slash\t""#),
            // Multi-line text is a literal block; chomping and indentation hints as libyaml writes them.
            ("a\nb", "|-\n  a\n  b"),
            ("a\n", "|\n  a\n"),
            ("a\n\n", "|+\n  a\n\n"),
            ("\n", "|2+\n\n"),
            (" a\nb", "|2-\n   a\n  b"),
            ("a\n\nb", "|-\n  a\n\n  b"),
            ("a \nb", r#""a \nb""#),
            ("a\nb ", r#""a\nb ""#),
            ("tab\t\nx", r#""tab\t\nx""#),
            // A line separator is a break but printable: single-quoted, the next line indented (libyaml's quirk).
            ("ls\u{2028}x", "'ls\u{2028}  x'"),
            ("nbsp\u{a0}x", "nbsp\u{a0}x"),
            // NEL is the one break encoding/json leaves raw; go-yaml's scanner folds it on the way in.
            ("a \u{85} b", "a b"),
            ("a\u{85}", "'a '"),
            ("a\u{85}\u{85}b", "|-\n  a\n  b"),
            ("x\u{85}\u{85}\u{85} y", "|-\n  x\n\n  y"),
        ] {
            let rendered = field(json!(input));
            let wanted = format!("k: {expected}{}", if expected.ends_with('\n') { "" } else { "\n" });
            assert_eq!(rendered, wanted, "input {input:?}");
        }
    }

    #[test]
    fn numbers_render_like_go_yaml_v2() {
        for (input, expected) in [
            (json!(0), "0"),
            (json!(-5), "-5"),
            (json!(i64::MAX), "9223372036854775807"),
            (json!(i64::MIN), "-9223372036854775808"),
            (json!(u64::MAX), "1.8446744073709552e+19"),
            (json!(0.5), "0.5"),
            (json!(2.75), "2.75"),
            (json!(-0.25), "-0.25"),
            (json!(1.0), "1"),
            (json!(-0.0), "0"),
            (json!(100000.5), "100000.5"),
            (json!(1234567.5), "1.2345675e+06"),
            (json!(0.0001), "0.0001"),
            (json!(0.00001), "1e-05"),
            (json!(1.5e-7), "1.5e-07"),
            (json!(1e20), "1e+20"),
            (json!(1e21), "1e+21"),
            (json!(1.5e300), "1.5e+300"),
            (json!(1_763_314_816_698_602.0 + 0.25), "1.7633148166986022e+15"),
            (json!(-1_763_314_816_698_602.0 - 0.75), "-1.7633148166986028e+15"),
            (json!(0.3), "0.3"),
            (json!(1_152_921_504_606_846_976.0), "1152921504606847000"),
            (json!(1e19), "10000000000000000000"),
            (json!(true), "true"),
            (json!(false), "false"),
            (json!(null), "null"),
        ] {
            assert_eq!(field(input.clone()), format!("k: {expected}\n"), "input {input}");
        }
    }

    #[test]
    fn layout_matches_go_yaml_v2() {
        for (input, expected) in [
            (json!({}), "{}\n"),
            (json!([]), "[]\n"),
            (json!("hello"), "hello\n"),
            (json!("a\nb"), "|-\n  a\n  b\n"),
            (json!(7), "7\n"),
            (json!(null), "null\n"),
            (json!({ "annotations": {}, "args": [] }), "annotations: {}\nargs: []\n"),
            (json!([{}, [], "x"]), "- {}\n- []\n- x\n"),
            (json!([["a", "b"], "c"]), "- - a\n  - b\n- c\n"),
            (json!([[["a"]]]), "- - - a\n"),
            (json!([{ "a": 1, "b": [2, 3] }]), "- a: 1\n  b:\n  - 2\n  - 3\n"),
            (json!({ "a": [{ "b": { "c": [] } }] }), "a:\n- b:\n    c: []\n"),
            (json!({ "a": ["x\ny"] }), "a:\n- |-\n  x\n  y\n"),
            (json!({ "": 1, "true": 2, "12": 3 }), "\"\": 1\n\"12\": 3\n\"true\": 2\n"),
            (json!({ "a: b": 1 }), "'a: b': 1\n"),
            (json!({ "a\nb": 1 }), "? |-\n  a\n  b\n: 1\n"),
            (json!({ "a\nb": { "c": 1 } }), "? |-\n  a\n  b\n: c: 1\n"),
        ] {
            assert_eq!(to_yaml(&input), expected, "input {input}");
        }
        let long_key = "k".repeat(129);
        assert_eq!(to_yaml(&json!({ long_key.clone(): "v" })), format!("? {long_key}\n: v\n"));
        let key_128 = "k".repeat(128);
        assert_eq!(to_yaml(&json!({ key_128.clone(): "v" })), format!("{key_128}: v\n"));
    }

    #[test]
    fn keys_sort_as_go_yaml_v2_does() {
        let map = json!({ "a10": 1, "a9": 2, "aB": 3, "a_b": 4, "b01": 5, "b1": 6, "b/02": 7, "b/2": 8 });
        assert_eq!(to_yaml(&map), "a_b: 4\na9: 2\na10: 1\naB: 3\nb/2: 8\nb/02: 7\nb1: 6\nb01: 5\n");
        // The string keys of go-yaml's own TestSortedOutput, in its expected order.
        let go_test_order = [
            "", ".1", ".2", ".a", "1", "2", "a!10", "a/0001", "a/002", "a/3", "a/10", "a/11", "a/0012", "a/100",
            "a~10", "ab/1", "b/1", "b/01", "b/2", "b/02", "b/3", "b/03", "b1", "b01", "b3", "c2.10", "c10.2", "d1",
            "d7", "d7abc", "d12", "d12a",
        ];
        let map: Map<String, Value> = go_test_order.iter().rev().map(|k| (k.to_string(), json!(1))).collect();
        let keys: Vec<String> = sorted_entries(&map).into_iter().map(|(k, _)| k.into_owned()).collect();
        assert_eq!(keys, go_test_order);
    }

    #[test]
    fn odd_input_never_panics() {
        let nasty = [
            "\u{2028}",
            "\u{85}x",
            "a\u{2029}b\n",
            "\r\n",
            " \n ",
            "\u{feff}",
            "0",
            "-",
            "+",
            "-0b",
            "0b2",
            ".",
            ".e1",
            "1e",
            "+.5",
            "2025-",
            "2025-1-1T",
            "2025-1-1 ",
            "9999-99-99",
            "1:",
            ":",
            "0x_1",
            "\u{10FFFF}",
        ];
        for s in nasty {
            let out = to_yaml(&json!({ s: [s, { s: s }] }));
            assert!(out.ends_with('\n'), "{s:?} -> {out:?}");
        }
    }
}
