//! Splits CEL source into tokens (the lexer rules of cel-spec's `CEL.g4`), with code point
//! offsets for error positions and ANTLR's "token recognition error" reporting and recovery.

use super::error::Issue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Eof,
    Ident,
    Int,
    Uint,
    Float,
    String,
    Bytes,
    True,
    False,
    Null,
    In,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Dot,
    Colon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Bang,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl Tok {
    /// Order of the token types in `CEL.g4`, which is the order ANTLR lists expected tokens in.
    pub fn grammar_order(self) -> u8 {
        use Tok::*;
        match self {
            EqEq => 1,
            NotEq => 2,
            In => 3,
            Lt => 4,
            Le => 5,
            Ge => 6,
            Gt => 7,
            And => 8,
            Or => 9,
            LBracket => 10,
            RBracket => 11,
            LBrace => 12,
            RBrace => 13,
            LParen => 14,
            RParen => 15,
            Dot => 16,
            Comma => 17,
            Minus => 18,
            Bang => 19,
            Question => 20,
            Colon => 21,
            Plus => 22,
            Star => 23,
            Slash => 24,
            Percent => 25,
            True => 26,
            False => 27,
            Null => 28,
            Float => 31,
            Int => 32,
            Uint => 33,
            String => 34,
            Bytes => 35,
            Ident => 36,
            Eof => 0,
        }
    }

    /// How ANTLR names the token type in an "expecting" list.
    pub fn grammar_name(self) -> &'static str {
        use Tok::*;
        match self {
            EqEq => "'=='",
            NotEq => "'!='",
            In => "'in'",
            Lt => "'<'",
            Le => "'<='",
            Ge => "'>='",
            Gt => "'>'",
            And => "'&&'",
            Or => "'||'",
            LBracket => "'['",
            RBracket => "']'",
            LBrace => "'{'",
            RBrace => "'}'",
            LParen => "'('",
            RParen => "')'",
            Dot => "'.'",
            Comma => "','",
            Minus => "'-'",
            Bang => "'!'",
            Question => "'?'",
            Colon => "':'",
            Plus => "'+'",
            Star => "'*'",
            Slash => "'/'",
            Percent => "'%'",
            True => "'true'",
            False => "'false'",
            Null => "'null'",
            Float => "NUM_FLOAT",
            Int => "NUM_INT",
            Uint => "NUM_UINT",
            String => "STRING",
            Bytes => "BYTES",
            Ident => "IDENTIFIER",
            Eof => "<EOF>",
        }
    }
}

/// A token: its kind, where it starts (in code points) and its source text.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub kind: Tok,
    pub offset: usize,
    pub text: String,
}

impl Token {
    /// The token as ANTLR quotes it in messages: its text, or `<EOF>`.
    pub fn display(&self) -> String {
        if self.kind == Tok::Eof { "<EOF>".to_owned() } else { self.text.clone() }
    }
}

/// Tokens (ending with `Eof`) and the lexer's recognition errors.
pub(crate) fn tokenize(src: &[char]) -> (Vec<Token>, Vec<Issue>) {
    let mut lx = Lexer { src, pos: 0, tokens: Vec::new(), issues: Vec::new() };
    lx.run();
    (lx.tokens, lx.issues)
}

struct Lexer<'a> {
    src: &'a [char],
    pos: usize,
    tokens: Vec<Token>,
    issues: Vec<Issue>,
}

/// Where a string scan stopped without a closing quote: the index of the offending char
/// (`src.len()` for the end of input).
struct Unterminated(usize);

impl Lexer<'_> {
    fn at(&self, i: usize) -> Option<char> {
        self.src.get(i).copied()
    }

    fn push(&mut self, kind: Tok, start: usize, end: usize) {
        let text = self.src.get(start..end).unwrap_or_default().iter().collect();
        self.tokens.push(Token { kind, offset: start, text });
        self.pos = end;
    }

    fn run(&mut self) {
        loop {
            self.skip_space();
            let start = self.pos;
            let Some(c) = self.at(start) else { break };
            if c.is_ascii_digit() || (c == '.' && self.at(start + 1).is_some_and(|d| d.is_ascii_digit())) {
                self.number(start);
            } else if c == '"' || c == '\'' {
                self.string(start, start, Tok::String);
            } else if c.is_ascii_alphabetic() || c == '_' {
                self.word(start);
            } else {
                self.punct(start, c);
            }
        }
        let end = self.src.len();
        self.tokens.push(Token { kind: Tok::Eof, offset: end, text: String::new() });
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.at(self.pos) {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}') {
                self.pos += 1;
            } else if c == '/' && self.at(self.pos + 1) == Some('/') {
                while self.at(self.pos).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// ANTLR's lexer error: the text from the token start through the offending char, then
    /// recovery skips that one char.
    fn recognition_error(&mut self, start: usize, fail: usize) {
        let end = (fail + 1).min(self.src.len());
        let text: String = self.src.get(start..end).unwrap_or_default().iter().collect();
        self.issues.push(Issue::at(start, format!("Syntax error: token recognition error at: '{text}'")));
        self.pos = end.max(start + 1).min(self.src.len());
    }

    fn punct(&mut self, start: usize, c: char) {
        let next = self.at(start + 1);
        let two = match (c, next) {
            ('=', Some('=')) => Some(Tok::EqEq),
            ('!', Some('=')) => Some(Tok::NotEq),
            ('<', Some('=')) => Some(Tok::Le),
            ('>', Some('=')) => Some(Tok::Ge),
            ('&', Some('&')) => Some(Tok::And),
            ('|', Some('|')) => Some(Tok::Or),
            _ => None,
        };
        if let Some(kind) = two {
            return self.push(kind, start, start + 2);
        }
        let one = match c {
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            ',' => Tok::Comma,
            '.' => Tok::Dot,
            ':' => Tok::Colon,
            '?' => Tok::Question,
            '+' => Tok::Plus,
            '-' => Tok::Minus,
            '*' => Tok::Star,
            '/' => Tok::Slash,
            '%' => Tok::Percent,
            '!' => Tok::Bang,
            '<' => Tok::Lt,
            '>' => Tok::Gt,
            // `=`, `&` and `|` only start `==`, `&&` and `||`: ANTLR fails on the char after.
            '=' | '&' | '|' => return self.recognition_error(start, start + 1),
            _ => return self.recognition_error(start, start),
        };
        self.push(one, start, start + 1);
    }

    fn digits_from(&self, mut i: usize, hex: bool) -> usize {
        while self.at(i).is_some_and(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }) {
            i += 1;
        }
        i
    }

    /// The end of a well-formed exponent starting at `i` (`e`, sign, digits), if there is one.
    fn exponent_end(&self, i: usize) -> Option<usize> {
        if !matches!(self.at(i), Some('e' | 'E')) {
            return None;
        }
        let mut j = i + 1;
        if matches!(self.at(j), Some('+' | '-')) {
            j += 1;
        }
        let end = self.digits_from(j, false);
        (end > j).then_some(end)
    }

    /// NUM_INT, NUM_UINT or NUM_FLOAT, longest match first as ANTLR does (`1e` is `1` then `e`).
    fn number(&mut self, start: usize) {
        let is_hex = self.at(start) == Some('0')
            && self.at(start + 1) == Some('x')
            && self.at(start + 2).is_some_and(|c| c.is_ascii_hexdigit());
        if is_hex {
            let end = self.digits_from(start + 2, true);
            return self.int_suffix(start, end);
        }
        let int_end = self.digits_from(start, false);
        let mut end = int_end;
        let mut float = false;
        if self.at(end) == Some('.') && self.at(end + 1).is_some_and(|c| c.is_ascii_digit()) {
            end = self.digits_from(end + 1, false);
            float = true;
        }
        if let Some(e) = self.exponent_end(end) {
            end = e;
            float = true;
        }
        if float { self.push(Tok::Float, start, end) } else { self.int_suffix(start, int_end) }
    }

    fn int_suffix(&mut self, start: usize, end: usize) {
        if matches!(self.at(end), Some('u' | 'U')) {
            self.push(Tok::Uint, start, end + 1);
        } else {
            self.push(Tok::Int, start, end);
        }
    }

    /// Identifiers and keywords; `r'…'`, `b'…'` and `br'…'` prefixes start string literals.
    fn word(&mut self, start: usize) {
        let mut end = start;
        while self.at(end).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            end += 1;
        }
        let word: String = self.src.get(start..end).unwrap_or_default().iter().collect();
        let quote_next = matches!(self.at(end), Some('"' | '\''));
        if quote_next {
            let lower = word.to_ascii_lowercase();
            let kind = match lower.as_str() {
                "r" => Some(Tok::String),
                "b" | "br" => Some(Tok::Bytes),
                _ => None,
            };
            if let Some(kind) = kind {
                return self.string(start, end, kind);
            }
        }
        let kind = match word.as_str() {
            "true" => Tok::True,
            "false" => Tok::False,
            "null" => Tok::Null,
            "in" => Tok::In,
            _ => Tok::Ident,
        };
        self.push(kind, start, end);
    }

    /// A string or bytes literal whose opening quote is at `quote_at` (after any prefix).
    fn string(&mut self, start: usize, quote_at: usize, kind: Tok) {
        let raw = self.src.get(start..quote_at).is_some_and(|p| p.iter().any(|c| matches!(c, 'r' | 'R')));
        let Some(q) = self.at(quote_at) else { return };
        let triple = self.at(quote_at + 1) == Some(q) && self.at(quote_at + 2) == Some(q);
        let body = if triple { quote_at + 3 } else { quote_at + 1 };
        match self.scan_body(body, q, raw, triple) {
            Ok(end) => self.push(kind, start, end),
            Err(Unterminated(fail)) => {
                if triple {
                    // ANTLR falls back to the longest token it had accepted: the empty string
                    // `''` (with its prefix); the third quote starts the next token.
                    return self.push(kind, start, quote_at + 2);
                }
                if quote_at > start {
                    // The prefix alone (`r`, `b`, `br`) was an identifier.
                    return self.push(Tok::Ident, start, quote_at);
                }
                self.recognition_error(start, fail)
            }
        }
    }

    /// Scans a string body up to and including the closing quote(s); validates escapes the
    /// way the grammar's `ESC_SEQ` does (decoding happens in the parser).
    fn scan_body(&self, mut i: usize, q: char, raw: bool, triple: bool) -> Result<usize, Unterminated> {
        loop {
            let Some(c) = self.at(i) else { return Err(Unterminated(i)) };
            if triple {
                if c == q && self.at(i + 1) == Some(q) && self.at(i + 2) == Some(q) {
                    return Ok(i + 3);
                }
            } else if c == q {
                return Ok(i + 1);
            } else if c == '\n' || c == '\r' {
                return Err(Unterminated(i));
            }
            if c == '\\' && !raw {
                i = self.escape_end(i + 1)?;
            } else {
                i += 1;
            }
        }
    }

    /// The index after one escape sequence whose letter is at `i`.
    fn escape_end(&self, i: usize) -> Result<usize, Unterminated> {
        let hex_run = |from: usize, n: usize| -> Result<usize, Unterminated> {
            for k in from..from + n {
                if !self.at(k).is_some_and(|c| c.is_ascii_hexdigit()) {
                    return Err(Unterminated(k));
                }
            }
            Ok(from + n)
        };
        match self.at(i) {
            Some('a' | 'b' | 'f' | 'n' | 'r' | 't' | 'v' | '"' | '\'' | '\\' | '?' | '`') => Ok(i + 1),
            Some('x' | 'X') => hex_run(i + 1, 2),
            Some('u') => hex_run(i + 1, 4),
            Some('U') => hex_run(i + 1, 8),
            Some('0'..='3') => {
                for k in i + 1..i + 3 {
                    if !matches!(self.at(k), Some('0'..='7')) {
                        return Err(Unterminated(k));
                    }
                }
                Ok(i + 3)
            }
            _ => Err(Unterminated(i)),
        }
    }
}
