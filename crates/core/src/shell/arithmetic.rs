//! `$((…))`: integer arithmetic as ash evaluates it (64-bit, C precedence, names read as
//! variables with or without `$`).

/// The value of `expression`, or ash's message (`arithmetic syntax error`, `divide by zero`).
pub fn evaluate(expression: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<i64, String> {
    let tokens = tokens(expression, lookup)?;
    let mut parser = Parser { tokens, at: 0, depth: 0 };
    let value = parser.binary(0)?;
    if parser.at != parser.tokens.len() {
        return Err(syntax_error());
    }
    Ok(value)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(i64),
    Op(&'static str),
}

const OPERATORS: [&str; 19] =
    ["||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "+", "-", "*", "/", "%", "(", ")", "!", "~"];

fn tokens(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Token::Number(number(&text[start..i])?));
        } else if c == b'$' || c.is_ascii_alphabetic() || c == b'_' {
            let start = if c == b'$' { i + 1 } else { i };
            i = start;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let value = lookup(&text[start..i]).unwrap_or_default();
            let value = value.trim();
            out.push(Token::Number(if value.is_empty() { 0 } else { number(value)? }));
        } else {
            let op = OPERATORS.iter().find(|op| text[i..].starts_with(**op)).ok_or_else(syntax_error)?;
            out.push(Token::Op(op));
            i += op.len();
        }
    }
    Ok(out)
}

fn number(text: &str) -> Result<i64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16),
        None if text.len() > 1 && text.starts_with('0') => i64::from_str_radix(&text[1..], 8),
        None => text.parse(),
    };
    parsed.map_err(|_| syntax_error())
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

/// Binary operators by precedence, loosest first.
const LEVELS: [&[&str]; 8] =
    [&["||"], &["&&"], &["==", "!="], &["<", ">", "<=", ">="], &["<<", ">>"], &["+", "-"], &["*", "/", "%"], &[]];

impl Parser {
    fn binary(&mut self, level: usize) -> Result<i64, String> {
        if LEVELS[level].is_empty() {
            return self.unary();
        }
        let mut left = self.binary(level + 1)?;
        while let Some(Token::Op(op)) = self.tokens.get(self.at).cloned() {
            if !LEVELS[level].contains(&op) {
                break;
            }
            self.at += 1;
            let right = self.binary(level + 1)?;
            left = apply(op, left, right)?;
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<i64, String> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(syntax_error());
        }
        let token = self.tokens.get(self.at).cloned().ok_or_else(syntax_error)?;
        self.at += 1;
        let value = match token {
            Token::Number(n) => n,
            Token::Op("-") => self.unary()?.wrapping_neg(),
            Token::Op("+") => self.unary()?,
            Token::Op("!") => i64::from(self.unary()? == 0),
            Token::Op("~") => !self.unary()?,
            Token::Op("(") => {
                let value = self.binary(0)?;
                if self.tokens.get(self.at) != Some(&Token::Op(")")) {
                    return Err(syntax_error());
                }
                self.at += 1;
                value
            }
            Token::Op(_) => return Err(syntax_error()),
        };
        self.depth -= 1;
        Ok(value)
    }
}

fn apply(op: &str, a: i64, b: i64) -> Result<i64, String> {
    Ok(match op {
        "||" => i64::from(a != 0 || b != 0),
        "&&" => i64::from(a != 0 && b != 0),
        "==" => i64::from(a == b),
        "!=" => i64::from(a != b),
        "<" => i64::from(a < b),
        ">" => i64::from(a > b),
        "<=" => i64::from(a <= b),
        ">=" => i64::from(a >= b),
        "<<" => a.wrapping_shl(b as u32),
        ">>" => a.wrapping_shr(b as u32),
        "+" => a.wrapping_add(b),
        "-" => a.wrapping_sub(b),
        "*" => a.wrapping_mul(b),
        "/" | "%" if b == 0 => return Err("divide by zero".into()),
        "/" => a.wrapping_div(b),
        _ => a.wrapping_rem(b),
    })
}

fn syntax_error() -> String {
    "arithmetic syntax error".into()
}
