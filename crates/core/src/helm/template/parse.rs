//! Actions into a tree, as text/template/parse/parse.go builds it: pipelines of commands,
//! `if`/`range`/`with` with their `else` chains, `define`d templates, variables checked in
//! scope and functions checked by name, nesting bounded.

use std::collections::BTreeMap;

use super::functions;
use super::lex::{self, Segment, Tok, Token};

/// How deep `if`/`range`/`with` and parentheses may nest in one template.
const MAX_NESTING: usize = 100;

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Text(String),
    Action(Pipe),
    If(Branch),
    Range(Branch),
    With(Branch),
    Template { pos: usize, name: String, pipe: Option<Pipe> },
    Break(usize),
    Continue(usize),
}

/// The parts `if`, `range` and `with` share.
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    pub pos: usize,
    pub pipe: Pipe,
    pub list: Vec<Node>,
    pub else_list: Option<Vec<Node>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pipe {
    pub pos: usize,
    /// Variables it declares (`$x :=`, `$i, $v :=`) or assigns (`$x =`).
    pub decl: Vec<String>,
    pub is_assign: bool,
    pub cmds: Vec<Command>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub pos: usize,
    pub args: Vec<Arg>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Function {
        pos: usize,
        name: String,
    },
    /// `.a.b.c`
    Field {
        pos: usize,
        names: Vec<String>,
    },
    /// `$x.a.b`
    Variable {
        pos: usize,
        name: String,
        fields: Vec<String>,
    },
    /// `(pipe).a.b`, or a parenthesized pipeline alone.
    Chain {
        pos: usize,
        pipe: Box<Pipe>,
        fields: Vec<String>,
    },
    Dot(usize),
    Nil(usize),
    Bool(usize, bool),
    Number {
        pos: usize,
        raw: String,
    },
    Str {
        pos: usize,
        value: String,
        raw: String,
    },
}

impl Arg {
    pub fn pos(&self) -> usize {
        match self {
            Arg::Function { pos, .. }
            | Arg::Field { pos, .. }
            | Arg::Variable { pos, .. }
            | Arg::Chain { pos, .. }
            | Arg::Number { pos, .. }
            | Arg::Str { pos, .. } => *pos,
            Arg::Dot(pos) | Arg::Nil(pos) | Arg::Bool(pos, _) => *pos,
        }
    }
}

/// A template file parsed: its own body and the templates it `define`s.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    pub body: Vec<Node>,
    pub defines: BTreeMap<String, Vec<Node>>,
}

/// A parse error: byte offset and Go's message.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub pos: usize,
    pub message: String,
}

impl From<lex::LexError> for ParseError {
    fn from(e: lex::LexError) -> ParseError {
        ParseError { pos: e.pos, message: e.message }
    }
}

/// Parses one file.
pub fn parse(text: &str) -> Result<Parsed, ParseError> {
    let segments = lex::segments(text)?;
    let mut parser =
        Parser { segments, at: 0, vars: vec!["$".into()], depth: 0, defines: BTreeMap::new(), chained_else: None };
    let (body, end) = parser.list(true)?;
    if let Some((word, pos)) = end {
        return Err(ParseError { pos, message: format!("unexpected {{{{{word}}}}}") });
    }
    Ok(Parsed { body, defines: parser.defines })
}

struct Parser {
    segments: Vec<Segment>,
    at: usize,
    vars: Vec<String>,
    depth: usize,
    defines: BTreeMap<String, Vec<Node>>,
    chained_else: Option<Vec<Token>>,
}

/// What ended a list: `end` or `else` (with the tokens after `else`) and where.
type ListEnd = Option<(String, usize)>;

impl Parser {
    /// Nodes until `{{end}}`/`{{else…}}` (returned) or the end of the file.
    fn list(&mut self, top: bool) -> Result<(Vec<Node>, ListEnd), ParseError> {
        let mut nodes = Vec::new();
        while let Some(segment) = self.segments.get(self.at).cloned() {
            self.at += 1;
            let (tokens, pos) = match segment {
                Segment::Text(text) => {
                    nodes.push(Node::Text(text));
                    continue;
                }
                Segment::Action(tokens, pos) => (tokens, pos),
            };
            let keyword = match tokens.first().map(|t| &t.tok) {
                Some(Tok::Ident(word)) => word.as_str(),
                _ => "",
            };
            match keyword {
                "end" => {
                    expect_alone(&tokens, "end")?;
                    return Ok((nodes, Some(("end".into(), pos))));
                }
                "else" => {
                    // `else if …`/`else with …`: the words after `else` are for the caller.
                    self.chained_else = (tokens.len() > 1).then(|| tokens[1..].to_vec());
                    return Ok((nodes, Some(("else".into(), pos))));
                }
                "define" if top => self.define(&tokens, pos)?,
                "define" => return Err(ParseError { pos, message: "unexpected <define> in command".into() }),
                _ => nodes.push(self.action(&tokens, pos)?),
            }
        }
        Ok((nodes, None))
    }

    fn action(&mut self, tokens: &[Token], pos: usize) -> Result<Node, ParseError> {
        let keyword = match tokens.first().map(|t| &t.tok) {
            Some(Tok::Ident(word)) => word.clone(),
            _ => String::new(),
        };
        match keyword.as_str() {
            "if" | "range" | "with" => self.branch(&keyword, &tokens[1..], tokens[0].pos),
            "template" => self.template(&tokens[1..], tokens[0].pos),
            "block" => Err(ParseError {
                pos,
                message: "block is not available in the lab: define the template and use include".into(),
            }),
            "break" | "continue" => {
                expect_alone(tokens, &keyword)?;
                Ok(if keyword == "break" { Node::Break(tokens[0].pos) } else { Node::Continue(tokens[0].pos) })
            }
            // A declaration in an action lasts to the end of the enclosing control structure.
            _ => Ok(Node::Action(self.pipe(tokens, pos, "command")?)),
        }
    }

    fn branch(&mut self, keyword: &str, tokens: &[Token], pos: usize) -> Result<Node, ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ParseError { pos, message: "max expression depth exceeded".into() });
        }
        let mark = self.vars.len();
        let pipe = self.pipe(tokens, pos, keyword)?;
        let (list, end) = self.list(false)?;
        let else_list = match end {
            None => return Err(ParseError { pos, message: "unexpected EOF".into() }),
            Some((word, _)) if word == "end" => None,
            Some((_, else_pos)) => Some(self.else_list(keyword, else_pos)?),
        };
        self.vars.truncate(mark);
        self.depth -= 1;
        let branch = Branch { pos, pipe, list, else_list };
        Ok(match keyword {
            "if" => Node::If(branch),
            "range" => Node::Range(branch),
            _ => Node::With(branch),
        })
    }

    /// After `{{else}}`: the else list to `{{end}}`, or an `else if`/`else with` chain that
    /// shares the outer `end`.
    fn else_list(&mut self, keyword: &str, pos: usize) -> Result<Vec<Node>, ParseError> {
        if let Some(tokens) = self.chained_else.take() {
            let word = match &tokens[0].tok {
                Tok::Ident(w) if w == "if" || (w == "with" && keyword != "range") => w.clone(),
                _ => return Err(ParseError { pos, message: "unexpected tokens after else".into() }),
            };
            return Ok(vec![self.branch(&word, &tokens[1..], tokens[0].pos)?]);
        }
        let (list, end) = self.list(false)?;
        match end {
            Some((word, _)) if word == "end" => Ok(list),
            Some((_, at)) => Err(ParseError { pos: at, message: "expected end; found {{else}}".into() }),
            None => Err(ParseError { pos, message: "unexpected EOF".into() }),
        }
    }

    fn define(&mut self, tokens: &[Token], pos: usize) -> Result<(), ParseError> {
        let name = match tokens.get(1).map(|t| &t.tok) {
            Some(Tok::Str(name)) if tokens.len() == 2 => name.clone(),
            _ => return Err(ParseError { pos, message: "unexpected token in define clause".into() }),
        };
        let saved = std::mem::replace(&mut self.vars, vec!["$".into()]);
        let (list, end) = self.list(false)?;
        self.vars = saved;
        match end {
            Some((word, _)) if word == "end" => {
                self.defines.insert(name, list);
                Ok(())
            }
            Some((_, at)) => Err(ParseError { pos: at, message: "unexpected {{else}}".into() }),
            None => Err(ParseError { pos, message: "unexpected EOF".into() }),
        }
    }

    fn template(&mut self, tokens: &[Token], pos: usize) -> Result<Node, ParseError> {
        let name = match tokens.first().map(|t| &t.tok) {
            Some(Tok::Str(name)) => name.clone(),
            _ => return Err(ParseError { pos, message: "unexpected token in template clause".into() }),
        };
        let pipe = if tokens.len() > 1 { Some(self.pipe(&tokens[1..], pos, "template clause")?) } else { None };
        Ok(Node::Template { pos, name, pipe })
    }

    /// A pipeline: optional declaration, then commands separated by `|`.
    fn pipe(&mut self, tokens: &[Token], pos: usize, context: &str) -> Result<Pipe, ParseError> {
        let (decl, is_assign, rest) = self.declaration(tokens, context)?;
        let mut cmds = Vec::new();
        let mut at = 0;
        while at < rest.len() {
            let (cmd, used) = self.command(&rest[at..], context)?;
            at += used;
            cmds.push(cmd);
            match rest.get(at).map(|t| &t.tok) {
                Some(Tok::Pipe) => {
                    at += 1;
                    if at == rest.len() {
                        return Err(ParseError { pos: rest[at - 1].pos, message: "missing command".into() });
                    }
                }
                None => {}
                Some(_) => {
                    return Err(ParseError {
                        pos: rest[at].pos,
                        message: format!("unexpected {} in {context}", describe(&rest[at])),
                    });
                }
            }
        }
        if cmds.is_empty() {
            return Err(ParseError { pos, message: format!("missing value for {context}") });
        }
        let pos = rest.first().map_or(pos, |t| t.pos);
        Ok(Pipe { pos, decl, is_assign, cmds })
    }

    fn declaration<'t>(
        &mut self,
        tokens: &'t [Token],
        context: &str,
    ) -> Result<(Vec<String>, bool, &'t [Token]), ParseError> {
        let var = |i: usize| match tokens.get(i).map(|t| &t.tok) {
            Some(Tok::Var(name)) => Some(name.clone()),
            _ => None,
        };
        let op = |i: usize| tokens.get(i).map(|t| t.tok.clone());
        if let (Some(first), Some(Tok::Comma), Some(second), Some(Tok::Declare | Tok::Assign)) =
            (var(0), op(1), var(2), op(3))
        {
            if context != "range" {
                return Err(ParseError { pos: tokens[1].pos, message: format!("too many declarations in {context}") });
            }
            let assign = op(3) == Some(Tok::Assign);
            self.declare(&[&first, &second], assign, tokens[0].pos)?;
            return Ok((vec![first, second], assign, &tokens[4..]));
        }
        if let (Some(first), Some(Tok::Declare | Tok::Assign)) = (var(0), op(1)) {
            let assign = op(1) == Some(Tok::Assign);
            self.declare(&[&first], assign, tokens[0].pos)?;
            return Ok((vec![first], assign, &tokens[2..]));
        }
        Ok((Vec::new(), false, tokens))
    }

    fn declare(&mut self, names: &[&String], assign: bool, pos: usize) -> Result<(), ParseError> {
        for name in names {
            if assign {
                self.check_var(name, pos)?;
            } else {
                self.vars.push((*name).clone());
            }
        }
        Ok(())
    }

    fn check_var(&self, name: &str, pos: usize) -> Result<(), ParseError> {
        if self.vars.iter().any(|v| v == name) {
            Ok(())
        } else {
            Err(ParseError { pos, message: format!("undefined variable \"{name}\"") })
        }
    }

    /// One command: operands up to `|`, `)` or the end. Returns it and the tokens it used.
    fn command(&mut self, tokens: &[Token], context: &str) -> Result<(Command, usize), ParseError> {
        let pos = tokens[0].pos;
        let mut args = Vec::new();
        let mut at = 0;
        while let Some(token) = tokens.get(at) {
            if matches!(token.tok, Tok::Pipe | Tok::RightParen) {
                break;
            }
            if !args.is_empty() && !token.spaced && !matches!(token.tok, Tok::LeftParen) {
                return Err(ParseError {
                    pos: token.pos,
                    message: format!("unexpected {} in operand", describe(token)),
                });
            }
            let (arg, used) = self.operand(&tokens[at..], context)?;
            args.push(arg);
            at += used;
        }
        if args.is_empty() {
            let found = tokens.first().map_or("end of action".to_string(), describe);
            return Err(ParseError { pos, message: format!("missing value for command; found {found}") });
        }
        if let [Arg::Nil(p)] = args.as_slice() {
            return Err(ParseError { pos: *p, message: "nil is not a command".into() });
        }
        Ok((Command { pos, args }, at))
    }

    /// A term and the `.field`s written right after it.
    fn operand(&mut self, tokens: &[Token], context: &str) -> Result<(Arg, usize), ParseError> {
        let token = &tokens[0];
        let pos = token.pos;
        let (mut arg, mut used) = match &token.tok {
            Tok::Ident(name) => {
                functions::check(name).map_err(|message| ParseError { pos, message })?;
                (Arg::Function { pos, name: name.clone() }, 1)
            }
            Tok::Field(name) => (Arg::Field { pos, names: vec![name.clone()] }, 1),
            Tok::Var(name) => {
                self.check_var(name, pos)?;
                (Arg::Variable { pos, name: name.clone(), fields: Vec::new() }, 1)
            }
            Tok::Dot => (Arg::Dot(pos), 1),
            Tok::Nil => (Arg::Nil(pos), 1),
            Tok::Bool(b) => (Arg::Bool(pos, *b), 1),
            Tok::Number(raw) => (Arg::Number { pos, raw: raw.clone() }, 1),
            Tok::Str(value) => (Arg::Str { pos, value: value.clone(), raw: token.raw.clone() }, 1),
            Tok::LeftParen => self.parenthesized(tokens, context)?,
            _ => return Err(ParseError { pos, message: format!("unexpected {} in operand", describe(token)) }),
        };
        let mut chain = Vec::new();
        let mut chain_pos = None;
        while let Some(Token { tok: Tok::Field(name), spaced: false, pos: p, .. }) = tokens.get(used) {
            chain_pos.get_or_insert(*p);
            chain.push(name.clone());
            used += 1;
        }
        if !chain.is_empty() {
            arg = extend(arg, chain, chain_pos.unwrap_or(pos))?;
        }
        Ok((arg, used))
    }

    fn parenthesized(&mut self, tokens: &[Token], context: &str) -> Result<(Arg, usize), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ParseError { pos: tokens[0].pos, message: "max expression depth exceeded".into() });
        }
        let mut level = 0usize;
        let close = tokens.iter().position(|t| {
            match t.tok {
                Tok::LeftParen => level += 1,
                Tok::RightParen => level -= 1,
                _ => {}
            }
            level == 0
        });
        let Some(close) = close else {
            return Err(ParseError { pos: tokens[0].pos, message: "unclosed left paren".into() });
        };
        let pipe = self.pipe(&tokens[1..close], tokens[0].pos, context)?;
        self.depth -= 1;
        Ok((Arg::Chain { pos: tokens[0].pos, pipe: Box::new(pipe), fields: Vec::new() }, close + 1))
    }
}

/// Adds a field chain to a term, as parse.go's `operand` does (a chain of fields is one field
/// node placed at its second field, a variable's chain stays the variable's).
fn extend(arg: Arg, chain: Vec<String>, chain_pos: usize) -> Result<Arg, ParseError> {
    Ok(match arg {
        Arg::Field { mut names, .. } => {
            names.extend(chain);
            Arg::Field { pos: chain_pos, names }
        }
        Arg::Variable { pos, name, mut fields } => {
            fields.extend(chain);
            Arg::Variable { pos, name, fields }
        }
        Arg::Chain { pos, pipe, mut fields } => {
            fields.extend(chain);
            Arg::Chain { pos, pipe, fields }
        }
        Arg::Dot(pos) => return Err(ParseError { pos, message: "unexpected . after term \".\"".into() }),
        other => {
            let pos = other.pos();
            return Err(ParseError {
                pos,
                message: format!("unexpected . after term {}", super::node_text::arg(&other)),
            });
        }
    })
}

fn expect_alone(tokens: &[Token], word: &str) -> Result<(), ParseError> {
    match tokens.get(1) {
        None => Ok(()),
        Some(extra) => Err(ParseError { pos: extra.pos, message: format!("unexpected {} in {word}", describe(extra)) }),
    }
}

/// How parse errors name a token (`<.x>`, `"|"`).
fn describe(token: &Token) -> String {
    match token.tok {
        Tok::Pipe | Tok::Comma | Tok::LeftParen | Tok::RightParen | Tok::Declare | Tok::Assign => {
            format!("\"{}\"", token.raw)
        }
        _ => format!("<{}>", token.raw),
    }
}
