//! The part of Go's `fmt` that templates use: `printf`'s verbs with flags, width and
//! precision, `%q`'s quoting, and `fmt.Sprint`'s spacing.

use super::value::{Value, format_float, format_value};

/// `fmt.Sprintf(format, args...)`, with Go's `%!verb(type=value)` for a mismatched argument.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&flag) = chars.peek() {
            match flag {
                '-' => spec.left = true,
                '0' => spec.zero = true,
                '+' => spec.plus = true,
                ' ' | '#' => {}
                _ => break,
            }
            chars.next();
        }
        spec.width = digits(&mut chars);
        if chars.peek() == Some(&'.') {
            chars.next();
            spec.precision = Some(digits(&mut chars).unwrap_or(0));
        }
        let Some(verb) = chars.next() else {
            out.push_str("%!(NOVERB)");
            break;
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        match args.get(next) {
            Some(arg) => out.push_str(&spec.pad(&verb_text(verb, arg, spec.precision, spec.plus))),
            None => out.push_str(&format!("%!{verb}(MISSING)")),
        }
        next += 1;
    }
    if next < args.len() {
        let extra: Vec<String> = args[next..].iter().map(|a| format!("{}={}", a.go_type(), format_value(a))).collect();
        out.push_str(&format!("%!(EXTRA {})", extra.join(", ")));
    }
    out
}

#[derive(Default)]
struct Spec {
    left: bool,
    zero: bool,
    plus: bool,
    width: Option<usize>,
    precision: Option<usize>,
}

impl Spec {
    fn pad(&self, text: &str) -> String {
        let width = self.width.unwrap_or(0);
        let len = text.chars().count();
        if len >= width {
            return text.to_string();
        }
        let fill = width - len;
        if self.left {
            format!("{text}{}", " ".repeat(fill))
        } else if self.zero {
            match text.strip_prefix('-') {
                Some(rest) => format!("-{}{rest}", "0".repeat(fill)),
                None => format!("{}{text}", "0".repeat(fill)),
            }
        } else {
            format!("{}{text}", " ".repeat(fill))
        }
    }
}

fn digits(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<usize> {
    let mut n: Option<usize> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize).min(1 << 16));
        chars.next();
    }
    n
}

fn verb_text(verb: char, arg: &Value, precision: Option<usize>, plus: bool) -> String {
    let bad = || format!("%!{verb}({}={})", arg.go_type(), format_value(arg));
    match (verb, arg) {
        ('v', _) => format_value(arg),
        ('s', Value::Str(s)) => truncate(s, precision),
        ('s', Value::List(_) | Value::Map(_) | Value::Bool(_)) => format_value(arg),
        ('s', Value::Nil) => "%!s(<nil>)".into(),
        ('q', Value::Str(s)) => go_quote(s),
        ('d', Value::Int(i)) if plus && *i >= 0 => format!("+{i}"),
        ('d', Value::Int(i)) => i.to_string(),
        ('x', Value::Int(i)) => format!("{i:x}"),
        ('X', Value::Int(i)) => format!("{i:X}"),
        ('x', Value::Str(s)) => s.bytes().map(|b| format!("{b:02x}")).collect(),
        ('t', Value::Bool(b)) => b.to_string(),
        ('f' | 'F', Value::Float(f)) => format!("{f:.*}", precision.unwrap_or(6)),
        ('f' | 'F', Value::Int(_)) => bad(),
        ('g', Value::Float(f)) => format_float(*f),
        ('T', _) => arg.go_type().to_string(),
        _ => bad(),
    }
}

fn truncate(text: &str, precision: Option<usize>) -> String {
    match precision {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    }
}

/// `strconv.Quote`: `%q` and sprig's `quote`.
pub fn go_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `fmt.Sprint`: a space between operands when neither is a string.
pub fn sprint(args: &[Value]) -> String {
    let mut out = String::new();
    for (i, arg) in args.iter().enumerate() {
        let is_string = |v: &Value| matches!(v, Value::Str(_));
        if i > 0 && !is_string(arg) && !is_string(&args[i - 1]) {
            out.push(' ');
        }
        out.push_str(&format_value(arg));
    }
    out
}

/// `fmt.Sprintln`: spaces between all operands and a newline.
pub fn sprintln(args: &[Value]) -> String {
    let parts: Vec<String> = args.iter().map(format_value).collect();
    format!("{}\n", parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_verbs_as_go() {
        let name = Value::str("web");
        assert_eq!(sprintf("%s-%s", &[name.clone(), Value::str("x")]), "web-x");
        assert_eq!(sprintf("%d replicas", &[Value::Float(3.0)]), "%!d(float64=3) replicas");
        assert_eq!(sprintf("%v/%q", &[Value::Float(3.0), name.clone()]), "3/\"web\"");
        assert_eq!(sprintf("%-5s|%03d", &[name, Value::Int(7)]), "web  |007");
        assert_eq!(sprintf("%s %s", &[Value::str("a")]), "a %!s(MISSING)");
    }
}
