//! The part of ash's grammar the guest's shell reads: words with quotes, `$VAR` and escapes;
//! `;`, newlines, `&&`, `||`; `>`, `>>`, `2>`, `2>&1`; `while`/`until`/`if` compounds; `!`.
//! Pipes and command substitution are refused with a syntax error rather than run wrongly.

/// A piece of a word: text, or a variable to look up when the command runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Lit(String),
    Var(String),
}

/// A word: its parts, and whether any of it was quoted (a quoted word is never a keyword).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub parts: Vec<Part>,
    pub quoted: bool,
}

impl Word {
    /// The word as written, when it is plain unquoted text (keywords, assignments).
    pub fn literal(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [Part::Lit(text)] if !self.quoted => Some(text),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(Word),
    Separator,
    And,
    Or,
    /// `>` (append: false) or `>>`, for file descriptor 1 or 2.
    Redirect {
        fd: u8,
        append: bool,
    },
    /// `2>&1`: stderr goes where stdout goes; both reach the log anyway.
    Merge,
}

/// Where a command's output goes instead of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub fd: u8,
    pub append: bool,
    pub target: Word,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Simple {
        words: Vec<Word>,
        redirects: Vec<Redirect>,
    },
    /// `while` (until: false) or `until`.
    Loop {
        until: bool,
        condition: Script,
        body: Script,
    },
    If {
        branches: Vec<(Script, Script)>,
        otherwise: Option<Script>,
    },
    Not(Box<Command>),
}

/// `a && b || c`: the first command, then each next with the operator before it (`true`: `&&`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AndOr {
    pub first: Command,
    pub rest: Vec<(bool, Command)>,
}

pub type Script = Vec<AndOr>;

/// Parses a script; the error is ash's wording (`syntax error: unexpected "done"`).
pub fn parse(text: &str) -> Result<Script, String> {
    let tokens = lex(text)?;
    let mut parser = Parser { tokens, at: 0 };
    let script = parser.script(&[])?;
    match parser.peek() {
        None => Ok(script),
        Some(token) => Err(unexpected(Some(token))),
    }
}

fn unexpected(token: Option<&Token>) -> String {
    match token {
        None => "syntax error: unexpected end of file".into(),
        Some(Token::Word(word)) => format!("syntax error: unexpected \"{}\"", word.literal().unwrap_or("word")),
        Some(Token::Separator) => "syntax error: unexpected \";\"".into(),
        Some(Token::And) => "syntax error: unexpected \"&&\"".into(),
        Some(Token::Or) => "syntax error: unexpected \"||\"".into(),
        Some(_) => "syntax error: unexpected redirection".into(),
    }
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn keyword(&self) -> Option<&str> {
        match self.peek() {
            Some(Token::Word(word)) => word.literal(),
            _ => None,
        }
    }

    fn skip_separators(&mut self) {
        while self.peek() == Some(&Token::Separator) {
            self.at += 1;
        }
    }

    /// Commands up to one of `ends` (a keyword, left for the caller) or the end.
    fn script(&mut self, ends: &[&str]) -> Result<Script, String> {
        let mut script = Vec::new();
        loop {
            self.skip_separators();
            match self.keyword() {
                Some(word) if ends.contains(&word) => return Ok(script),
                _ if self.peek().is_none() => return Ok(script),
                _ => script.push(self.and_or()?),
            }
        }
    }

    fn and_or(&mut self) -> Result<AndOr, String> {
        let first = self.command()?;
        let mut rest = Vec::new();
        while let Some(op @ (Token::And | Token::Or)) = self.peek() {
            let and = *op == Token::And;
            self.at += 1;
            self.skip_separators();
            rest.push((and, self.command()?));
        }
        Ok(AndOr { first, rest })
    }

    fn expect(&mut self, keyword: &str) -> Result<(), String> {
        if self.keyword() == Some(keyword) {
            self.at += 1;
            Ok(())
        } else {
            Err(unexpected(self.peek()))
        }
    }

    fn command(&mut self) -> Result<Command, String> {
        match self.keyword() {
            Some("!") => {
                self.at += 1;
                Ok(Command::Not(Box::new(self.command()?)))
            }
            Some(word @ ("while" | "until")) => {
                let until = word == "until";
                self.at += 1;
                let condition = self.script(&["do"])?;
                self.expect("do")?;
                let body = self.script(&["done"])?;
                self.expect("done")?;
                Ok(Command::Loop { until, condition, body })
            }
            Some("if") => self.if_command(),
            Some(word @ ("do" | "done" | "then" | "elif" | "else" | "fi")) => {
                Err(format!("syntax error: unexpected \"{word}\""))
            }
            _ => self.simple(),
        }
    }

    fn if_command(&mut self) -> Result<Command, String> {
        let mut branches = Vec::new();
        let mut otherwise = None;
        self.at += 1;
        loop {
            let condition = self.script(&["then"])?;
            self.expect("then")?;
            let body = self.script(&["elif", "else", "fi"])?;
            branches.push((condition, body));
            match self.keyword() {
                Some("elif") => self.at += 1,
                Some("else") => {
                    self.at += 1;
                    otherwise = Some(self.script(&["fi"])?);
                    self.expect("fi")?;
                    break;
                }
                _ => {
                    self.expect("fi")?;
                    break;
                }
            }
        }
        Ok(Command::If { branches, otherwise })
    }

    fn simple(&mut self) -> Result<Command, String> {
        let (mut words, mut redirects) = (Vec::new(), Vec::new());
        loop {
            match self.peek().cloned() {
                Some(Token::Word(word)) => {
                    self.at += 1;
                    words.push(word);
                }
                Some(Token::Redirect { fd, append }) => {
                    self.at += 1;
                    let Some(Token::Word(target)) = self.peek().cloned() else {
                        return Err(unexpected(self.peek()));
                    };
                    self.at += 1;
                    redirects.push(Redirect { fd, append, target });
                }
                Some(Token::Merge) => self.at += 1,
                _ => break,
            }
        }
        if words.is_empty() && redirects.is_empty() {
            return Err(unexpected(self.peek()));
        }
        Ok(Command::Simple { words, redirects })
    }
}

/// Splits a script into tokens.
fn lex(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut lexer = Lexer { chars, at: 0, tokens: Vec::new(), word: Word::default(), in_word: false };
    lexer.run()?;
    Ok(lexer.tokens)
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    tokens: Vec<Token>,
    word: Word,
    in_word: bool,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn run(&mut self) -> Result<(), String> {
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' => self.end_word(),
                '\n' | ';' => self.operator(Token::Separator, 1),
                '&' if self.peek(1) == Some('&') => self.operator(Token::And, 2),
                '|' if self.peek(1) == Some('|') => self.operator(Token::Or, 2),
                // A background job runs in the foreground here: the guest has one process.
                '&' => self.operator(Token::Separator, 1),
                '|' => return Err("syntax error: pipes are not supported".into()),
                '>' => self.redirect(),
                '#' if !self.in_word => self.skip_comment(),
                '\'' => self.single_quoted()?,
                '"' => self.double_quoted()?,
                '\\' => {
                    self.at += 1;
                    if let Some(next) = self.peek(0).filter(|c| *c != '\n') {
                        self.push_char(next);
                    }
                    self.word.quoted = true;
                    self.at += 1;
                }
                '$' => self.dollar()?,
                _ => {
                    self.push_char(c);
                    self.at += 1;
                }
            }
        }
        self.end_word();
        Ok(())
    }

    fn push_char(&mut self, c: char) {
        self.in_word = true;
        match self.word.parts.last_mut() {
            Some(Part::Lit(text)) => text.push(c),
            _ => self.word.parts.push(Part::Lit(c.to_string())),
        }
    }

    fn end_word(&mut self) {
        if self.in_word {
            self.tokens.push(Token::Word(std::mem::take(&mut self.word)));
            self.in_word = false;
        }
        if self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.at += 1;
        }
    }

    fn operator(&mut self, token: Token, width: usize) {
        self.end_word();
        self.tokens.push(token);
        self.at += width;
    }

    /// `>`, `>>`, `2>`, `1>`, `2>&1`, `>&2`.
    fn redirect(&mut self) {
        let fd = match self.word.literal() {
            Some(digit @ ("1" | "2")) if self.in_word => {
                let fd = if digit == "1" { 1 } else { 2 };
                self.word = Word::default();
                self.in_word = false;
                fd
            }
            _ => {
                self.end_word();
                1
            }
        };
        self.at += 1;
        if self.peek(0) == Some('&') {
            self.at += 1;
            while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                self.at += 1;
            }
            self.tokens.push(Token::Merge);
            return;
        }
        let append = self.peek(0) == Some('>');
        if append {
            self.at += 1;
        }
        self.tokens.push(Token::Redirect { fd, append });
    }

    fn skip_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.at += 1;
        }
    }

    fn single_quoted(&mut self) -> Result<(), String> {
        self.at += 1;
        self.in_word = true;
        self.word.quoted = true;
        while let Some(c) = self.peek(0) {
            self.at += 1;
            if c == '\'' {
                return Ok(());
            }
            self.push_char(c);
        }
        Err("syntax error: unterminated quoted string".into())
    }

    fn double_quoted(&mut self) -> Result<(), String> {
        self.at += 1;
        self.in_word = true;
        self.word.quoted = true;
        while let Some(c) = self.peek(0) {
            match c {
                '"' => {
                    self.at += 1;
                    return Ok(());
                }
                '\\' if matches!(self.peek(1), Some('"' | '\\' | '$' | '`')) => {
                    self.push_char(self.peek(1).unwrap_or('\\'));
                    self.at += 2;
                }
                '$' => self.dollar()?,
                _ => {
                    self.push_char(c);
                    self.at += 1;
                }
            }
        }
        Err("syntax error: unterminated quoted string".into())
    }

    /// `$NAME`, `${NAME}`, `$?`, `$1`; a lone `$` is text.
    fn dollar(&mut self) -> Result<(), String> {
        self.in_word = true;
        let name = match self.peek(1) {
            Some('(') => return Err("syntax error: command substitution is not supported".into()),
            Some('{') => {
                let end = (self.at + 2..self.chars.len()).find(|&i| self.chars[i] == '}');
                let end = end.ok_or("syntax error: bad substitution")?;
                let name: String = self.chars[self.at + 2..end].iter().collect();
                self.at = end + 1;
                name
            }
            Some(c @ ('?' | '$' | '#' | '0'..='9')) => {
                self.at += 2;
                c.to_string()
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let start = self.at + 1;
                let mut end = start;
                while self.chars.get(end).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
                    end += 1;
                }
                self.at = end;
                self.chars[start..end].iter().collect()
            }
            _ => {
                self.push_char('$');
                self.at += 1;
                return Ok(());
            }
        };
        self.word.parts.push(Part::Var(name));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(text: &str) -> Word {
        Word { parts: vec![Part::Lit(text.into())], quoted: false }
    }

    #[test]
    fn lists_and_loops_parse_as_ash_reads_them() {
        let script = parse("echo 'a b' $HOME && false || true; while true; do sleep 1; done").unwrap();
        assert_eq!(script.len(), 2);
        let Command::Simple { words, .. } = &script[0].first else { panic!("{script:?}") };
        assert_eq!(words[1], Word { parts: vec![Part::Lit("a b".into())], quoted: true });
        assert_eq!(words[2], Word { parts: vec![Part::Var("HOME".into())], quoted: false });
        assert_eq!(script[0].rest.iter().map(|(and, _)| *and).collect::<Vec<_>>(), vec![true, false]);
        assert!(matches!(&script[1].first, Command::Loop { until: false, body, .. } if body.len() == 1));
    }

    #[test]
    fn redirects_and_conditionals_parse() {
        let script = parse("if [ -f /tmp/x ]; then echo yes > /tmp/y 2>&1; else echo no >> /tmp/y; fi").unwrap();
        let Command::If { branches, otherwise } = &script[0].first else { panic!("{script:?}") };
        let Command::Simple { redirects, .. } = &branches[0].1[0].first else { panic!() };
        assert_eq!(redirects, &vec![Redirect { fd: 1, append: false, target: lit("/tmp/y") }]);
        assert!(otherwise.is_some());
    }

    #[test]
    fn bad_scripts_are_syntax_errors_in_ashs_words() {
        assert_eq!(parse("while true; do").unwrap_err(), "syntax error: unexpected end of file");
        assert_eq!(parse("done").unwrap_err(), "syntax error: unexpected \"done\"");
        assert_eq!(parse("echo 'open").unwrap_err(), "syntax error: unterminated quoted string");
        assert_eq!(parse("&& ls").unwrap_err(), "syntax error: unexpected \"&&\"");
    }
}
