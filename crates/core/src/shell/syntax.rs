//! The shell's grammar: words with their quoting and expansions, and the command tree
//! (pipelines, `&&`/`||` lists, `for`, `while`, `until`, `if`, groups). A subset of POSIX
//! sh as busybox ash parses it; `$(…)` bodies are kept as text and parsed when expanded.

/// Deepest nesting of compound commands (and of `$(…)`, counted by the interpreter).
pub const MAX_NESTING: usize = 16;

/// A piece of a word before expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Literal text; `quoted` text is never split or taken as a keyword.
    Text { text: String, quoted: bool },
    /// `$NAME`, `${NAME}`, `${NAME:-word}`, `${#NAME}`, `$?`, `$1`.
    Param { name: String, op: ParamOp, quoted: bool },
    /// `$(…)` or `` `…` ``: the script inside.
    Command { script: String, quoted: bool },
    /// `$((…))`.
    Arithmetic { expression: String, quoted: bool },
}

/// What `${NAME…}` does with the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamOp {
    Plain,
    Length,
    /// `${X:-w}` (`colon`: also when empty) and `${X-w}`.
    Default {
        word: String,
        colon: bool,
    },
    /// `${X:=w}`.
    Assign {
        word: String,
        colon: bool,
    },
    /// `${X:+w}`.
    Alternative {
        word: String,
        colon: bool,
    },
}

pub type Word = Vec<Part>;

/// The word as plain text when it has no expansions and no quotes (keywords, names).
pub fn bare(word: &Word) -> Option<&str> {
    match word.as_slice() {
        [Part::Text { text, quoted: false }] => Some(text),
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Word(Word),
    /// `;`, `&`, `&&`, `|`, `||`, `(`, `)`, newline (`\n`).
    Op(&'static str),
    /// `[n]>`, `[n]>>`, `[n]<`, `[n]>&m`.
    Redirect {
        fd: u8,
        op: &'static str,
    },
}

/// Where a command's stream goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub fd: u8,
    pub op: &'static str,
    pub target: Word,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Simple {
        assignments: Vec<(String, Word)>,
        words: Vec<Word>,
        redirects: Vec<Redirect>,
    },
    For {
        variable: String,
        items: Option<Vec<Word>>,
        body: List,
    },
    /// `while` (`until`: the condition negated).
    While {
        condition: List,
        body: List,
        until: bool,
    },
    If {
        branches: Vec<(List, List)>,
        otherwise: Option<List>,
    },
    /// `{ …; }` and `( … )` (a subshell: its variable changes do not leak).
    Group {
        body: List,
        subshell: bool,
        redirects: Vec<Redirect>,
    },
}

/// `!`? command (`|` command)*.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub negated: bool,
    pub commands: Vec<Command>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connector {
    Always,
    And,
    Or,
}

/// Pipelines joined by `;`, `&`, newline, `&&` and `||`.
pub type List = Vec<(Connector, Pipeline)>;

/// Parses a whole script.
pub fn parse(script: &str) -> Result<List, String> {
    let tokens = tokenize(script)?;
    let mut parser = Parser { tokens, at: 0, depth: 0 };
    let list = parser.list(&[])?;
    match parser.peek() {
        None => Ok(list),
        Some(token) => Err(format!("unexpected {}", describe(token))),
    }
}

fn describe(token: &Token) -> String {
    match token {
        Token::Op("\n") => "newline".into(),
        Token::Op(op) => op.to_string(),
        Token::Redirect { op, .. } => op.to_string(),
        Token::Word(word) => bare(word).unwrap_or("word").to_string(),
    }
}

/// Splits a script into words and operators, as ash's tokenizer does.
pub fn tokenize(script: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = script.chars().collect();
    let mut tokens = Vec::new();
    let mut word: Word = Vec::new();
    let mut started = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let operator = match (c, next) {
            ('&', Some('&')) => Some("&&"),
            ('|', Some('|')) => Some("||"),
            (';', _) => Some(";"),
            ('&', _) => Some("&"),
            ('|', _) => Some("|"),
            ('(', _) => Some("("),
            (')', _) => Some(")"),
            ('\n', _) => Some("\n"),
            _ => None,
        };
        if let Some(op) = operator {
            flush(&mut tokens, &mut word, &mut started);
            tokens.push(Token::Op(op));
            i += op.len().min(2);
            continue;
        }
        match c {
            ' ' | '\t' | '\r' => {
                flush(&mut tokens, &mut word, &mut started);
                i += 1;
            }
            '#' if !started => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '>' | '<' => {
                let fd = match (started, word.as_slice()) {
                    (true, [Part::Text { text, quoted: false }])
                        if text.len() == 1 && text.as_bytes()[0].is_ascii_digit() =>
                    {
                        let fd = text.as_bytes()[0] - b'0';
                        word.clear();
                        started = false;
                        Some(fd)
                    }
                    _ => None,
                };
                flush(&mut tokens, &mut word, &mut started);
                let (op, len) = match (c, next) {
                    ('>', Some('>')) => (">>", 2),
                    ('>', Some('&')) => (">&", 2),
                    ('<', Some('&')) => ("<&", 2),
                    ('>', _) => (">", 1),
                    _ => ("<", 1),
                };
                tokens.push(Token::Redirect { fd: fd.unwrap_or(if c == '<' { 0 } else { 1 }), op });
                i += len;
            }
            '\'' => {
                let end = find(&chars, i + 1, '\'').ok_or("unterminated quoted string")?;
                push_text(&mut word, chars[i + 1..end].iter().collect(), true);
                started = true;
                i = end + 1;
            }
            '"' => {
                i = double_quoted(&chars, i + 1, &mut word)?;
                started = true;
            }
            '\\' => {
                match next {
                    Some('\n') => {}
                    Some(escaped) => push_text(&mut word, escaped.to_string(), true),
                    None => push_text(&mut word, "\\".into(), false),
                }
                started = true;
                i += 2;
            }
            '$' | '`' => {
                let (part, end) = dollar(&chars, i, false)?;
                word.push(part);
                started = true;
                i = end;
            }
            other => {
                push_text(&mut word, other.to_string(), false);
                started = true;
                i += 1;
            }
        }
    }
    flush(&mut tokens, &mut word, &mut started);
    Ok(tokens)
}

fn flush(tokens: &mut Vec<Token>, word: &mut Word, started: &mut bool) {
    if *started {
        tokens.push(Token::Word(std::mem::take(word)));
        *started = false;
    }
}

/// Appends text, merging with the previous piece when both are quoted alike.
fn push_text(word: &mut Word, text: String, quoted: bool) {
    if let Some(Part::Text { text: last, quoted: last_quoted }) = word.last_mut()
        && *last_quoted == quoted
    {
        last.push_str(&text);
        return;
    }
    word.push(Part::Text { text, quoted });
}

fn find(chars: &[char], from: usize, wanted: char) -> Option<usize> {
    (from..chars.len()).find(|&i| chars[i] == wanted)
}

/// `"…"` from just after the opening quote; returns the index after the closing one.
fn double_quoted(chars: &[char], mut i: usize, word: &mut Word) -> Result<usize, String> {
    // An empty "" is still a word.
    push_text(word, String::new(), true);
    while i < chars.len() {
        match chars[i] {
            '"' => return Ok(i + 1),
            '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                if chars[i + 1] != '\n' {
                    push_text(word, chars[i + 1].to_string(), true);
                }
                i += 2;
            }
            '$' | '`' => {
                let (part, end) = dollar(chars, i, true)?;
                word.push(part);
                i = end;
            }
            other => {
                push_text(word, other.to_string(), true);
                i += 1;
            }
        }
    }
    Err("unterminated quoted string".into())
}

/// An expansion starting at `chars[i]` (`$` or a backquote); returns it and the index after it.
fn dollar(chars: &[char], i: usize, quoted: bool) -> Result<(Part, usize), String> {
    if chars[i] == '`' {
        let end = find(chars, i + 1, '`').ok_or("unterminated quoted string")?;
        return Ok((Part::Command { script: chars[i + 1..end].iter().collect(), quoted }, end + 1));
    }
    let text = |s: &str| Part::Text { text: s.to_string(), quoted };
    match chars.get(i + 1) {
        Some('(') if chars.get(i + 2) == Some(&'(') => {
            let end = matching_paren(chars, i + 1)?;
            let inner: String = chars[i + 3..end].iter().collect();
            let expression = inner.strip_suffix(')').ok_or("missing '))'")?.to_string();
            Ok((Part::Arithmetic { expression, quoted }, end + 1))
        }
        Some('(') => {
            let end = matching_paren(chars, i + 1)?;
            Ok((Part::Command { script: chars[i + 2..end].iter().collect(), quoted }, end + 1))
        }
        Some('{') => {
            let end = find(chars, i + 2, '}').ok_or("missing '}'")?;
            let inner: String = chars[i + 2..end].iter().collect();
            Ok((braced(&inner, quoted)?, end + 1))
        }
        Some(c) if matches!(c, '?' | '#' | '$' | '@' | '*' | '!' | '-') || c.is_ascii_digit() => {
            Ok((Part::Param { name: c.to_string(), op: ParamOp::Plain, quoted }, i + 2))
        }
        Some(c) if c.is_ascii_alphabetic() || *c == '_' => {
            let mut end = i + 1;
            while end < chars.len() && (chars[end].is_ascii_alphanumeric() || chars[end] == '_') {
                end += 1;
            }
            Ok((Part::Param { name: chars[i + 1..end].iter().collect(), op: ParamOp::Plain, quoted }, end))
        }
        _ => Ok((text("$"), i + 1)),
    }
}

/// The index of the `)` closing the `(` at `open`, skipping quotes and nested parentheses.
fn matching_paren(chars: &[char], open: usize) -> Result<usize, String> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            '\'' => i = find(chars, i + 1, '\'').ok_or("unterminated quoted string")?,
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
            }
            '\\' => i += 1,
            _ => {}
        }
        i += 1;
    }
    Err("unexpected end of file (expecting \")\")".into())
}

/// `${…}`'s inside: `NAME`, `#NAME`, `NAME:-word` and the other operators.
fn braced(inner: &str, quoted: bool) -> Result<Part, String> {
    let bad = || format!("${{{inner}}}: bad substitution");
    if let Some(name) = inner.strip_prefix('#').filter(|n| !n.is_empty()) {
        return Ok(Part::Param { name: name.to_string(), op: ParamOp::Length, quoted });
    }
    let end = inner.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '?')).unwrap_or(inner.len());
    let (name, rest) = inner.split_at(end);
    if name.is_empty() {
        return Err(bad());
    }
    let (colon, rest) = match rest.strip_prefix(':') {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let op = match rest.chars().next() {
        None if !colon => ParamOp::Plain,
        Some('-') => ParamOp::Default { word: rest[1..].to_string(), colon },
        Some('=') => ParamOp::Assign { word: rest[1..].to_string(), colon },
        Some('+') => ParamOp::Alternative { word: rest[1..].to_string(), colon },
        _ => return Err(bad()),
    };
    Ok(Part::Param { name: name.to_string(), op, quoted })
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn peek_keyword(&self) -> Option<&str> {
        match self.peek()? {
            Token::Word(word) => bare(word),
            _ => None,
        }
    }

    fn skip_newlines(&mut self) {
        while self.peek() == Some(&Token::Op("\n")) {
            self.at += 1;
        }
    }

    fn expect_keyword(&mut self, keyword: &str) -> Result<(), String> {
        self.skip_newlines();
        if self.peek_keyword() == Some(keyword) {
            self.at += 1;
            return Ok(());
        }
        match self.peek() {
            None => Err(format!("unexpected end of file (expecting \"{keyword}\")")),
            Some(token) => Err(format!("unexpected {} (expecting \"{keyword}\")", describe(token))),
        }
    }

    /// A list up to (not including) one of `stops` (keywords, or `)`), or the end.
    fn list(&mut self, stops: &[&str]) -> Result<List, String> {
        let mut list = Vec::new();
        let mut connector = Connector::Always;
        loop {
            self.skip_newlines();
            let at_stop = match self.peek() {
                None => true,
                Some(Token::Op(")")) => stops.contains(&")"),
                Some(Token::Word(word)) => bare(word).is_some_and(|w| stops.contains(&w)),
                _ => false,
            };
            if at_stop {
                if connector != Connector::Always {
                    return Err(self.unexpected());
                }
                return Ok(list);
            }
            list.push((connector, self.pipeline()?));
            connector = match self.peek() {
                Some(Token::Op(";" | "&" | "\n")) => {
                    self.at += 1;
                    Connector::Always
                }
                Some(Token::Op("&&")) => {
                    self.at += 1;
                    Connector::And
                }
                Some(Token::Op("||")) => {
                    self.at += 1;
                    Connector::Or
                }
                _ => Connector::Always,
            };
        }
    }

    fn unexpected(&self) -> String {
        match self.peek() {
            None => "unexpected end of file".into(),
            Some(token) => format!("unexpected {}", describe(token)),
        }
    }

    fn pipeline(&mut self) -> Result<Pipeline, String> {
        let negated = self.peek_keyword() == Some("!");
        if negated {
            self.at += 1;
        }
        let mut commands = vec![self.command()?];
        while self.peek() == Some(&Token::Op("|")) {
            self.at += 1;
            self.skip_newlines();
            commands.push(self.command()?);
        }
        Ok(Pipeline { negated, commands })
    }

    fn command(&mut self) -> Result<Command, String> {
        let keyword = self.peek_keyword().map(str::to_string);
        let compound = matches!(keyword.as_deref(), Some("for" | "while" | "until" | "if" | "{"))
            || self.peek() == Some(&Token::Op("("));
        if compound {
            self.depth += 1;
            if self.depth > MAX_NESTING {
                return Err("nested too deeply".into());
            }
            let command = self.compound(keyword.as_deref());
            self.depth -= 1;
            return command;
        }
        if let Some(word @ ("do" | "done" | "then" | "fi" | "elif" | "else" | "}" | "in")) = keyword.as_deref() {
            return Err(format!("unexpected \"{word}\""));
        }
        self.simple()
    }

    fn compound(&mut self, keyword: Option<&str>) -> Result<Command, String> {
        self.at += 1;
        match keyword {
            Some("for") => self.for_loop(),
            Some(word @ ("while" | "until")) => {
                let condition = self.list(&["do"])?;
                self.expect_keyword("do")?;
                let body = self.list(&["done"])?;
                self.expect_keyword("done")?;
                Ok(Command::While { condition, body, until: word == "until" })
            }
            Some("if") => self.if_clause(),
            Some("{") => {
                let body = self.list(&["}"])?;
                self.expect_keyword("}")?;
                Ok(Command::Group { body, subshell: false, redirects: self.redirects()? })
            }
            _ => {
                let body = self.list(&[")"])?;
                if self.peek() != Some(&Token::Op(")")) {
                    return Err("unexpected end of file (expecting \")\")".into());
                }
                self.at += 1;
                Ok(Command::Group { body, subshell: true, redirects: self.redirects()? })
            }
        }
    }

    fn for_loop(&mut self) -> Result<Command, String> {
        let variable = match self.peek() {
            Some(Token::Word(word)) => bare(word).filter(|w| is_name(w)).map(str::to_string),
            _ => None,
        };
        let Some(variable) = variable else { return Err("bad for loop variable".into()) };
        self.at += 1;
        let mut items = None;
        if self.peek_keyword() == Some("in") {
            self.at += 1;
            let mut words = Vec::new();
            while let Some(Token::Word(word)) = self.peek() {
                words.push(word.clone());
                self.at += 1;
            }
            items = Some(words);
        }
        if matches!(self.peek(), Some(Token::Op(";" | "\n"))) {
            self.at += 1;
        }
        self.expect_keyword("do")?;
        let body = self.list(&["done"])?;
        self.expect_keyword("done")?;
        Ok(Command::For { variable, items, body })
    }

    fn if_clause(&mut self) -> Result<Command, String> {
        let mut branches = Vec::new();
        let mut otherwise = None;
        loop {
            let condition = self.list(&["then"])?;
            self.expect_keyword("then")?;
            let body = self.list(&["elif", "else", "fi"])?;
            branches.push((condition, body));
            match self.peek_keyword() {
                Some("elif") => self.at += 1,
                Some("else") => {
                    self.at += 1;
                    otherwise = Some(self.list(&["fi"])?);
                    self.expect_keyword("fi")?;
                    break;
                }
                _ => {
                    self.expect_keyword("fi")?;
                    break;
                }
            }
        }
        Ok(Command::If { branches, otherwise })
    }

    fn redirects(&mut self) -> Result<Vec<Redirect>, String> {
        let mut redirects = Vec::new();
        while let Some(Token::Redirect { fd, op }) = self.peek().cloned() {
            self.at += 1;
            redirects.push(self.redirect_target(fd, op)?);
        }
        Ok(redirects)
    }

    fn redirect_target(&mut self, fd: u8, op: &'static str) -> Result<Redirect, String> {
        match self.peek().cloned() {
            Some(Token::Word(target)) => {
                self.at += 1;
                Ok(Redirect { fd, op, target })
            }
            Some(token) => Err(format!("unexpected {}", describe(&token))),
            None => Err("unexpected end of file".into()),
        }
    }

    fn simple(&mut self) -> Result<Command, String> {
        let (mut assignments, mut words, mut redirects) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            match self.peek().cloned() {
                Some(Token::Word(word)) => {
                    self.at += 1;
                    match assignment(&word).filter(|_| words.is_empty()) {
                        Some(pair) => assignments.push(pair),
                        None => words.push(word),
                    }
                }
                Some(Token::Redirect { fd, op }) => {
                    self.at += 1;
                    redirects.push(self.redirect_target(fd, op)?);
                }
                _ => break,
            }
        }
        if assignments.is_empty() && words.is_empty() && redirects.is_empty() {
            return Err(self.unexpected());
        }
        Ok(Command::Simple { assignments, words, redirects })
    }
}

pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `NAME=value` at the start of a simple command.
fn assignment(word: &Word) -> Option<(String, Word)> {
    let Some(Part::Text { text, quoted: false }) = word.first() else { return None };
    let (name, value) = text.split_once('=')?;
    if !is_name(name) {
        return None;
    }
    let mut rest: Word = Vec::new();
    if !value.is_empty() {
        rest.push(Part::Text { text: value.to_string(), quoted: false });
    }
    rest.extend(word[1..].iter().cloned());
    Some((name.to_string(), rest))
}
