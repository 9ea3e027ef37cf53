//! Parses tokens into an `ast::Expr` (the grammar rules of cel-spec's `CEL.g4`), expanding
//! macros as cel-go's parser does and wording syntax errors the way cel-go's ANTLR parser
//! reports the common ones (`mismatched input`, `extraneous input`, `missing`, `no viable
//! alternative`). Only the first syntax error is reported, besides the lexer's.
//!
//! Recursion is bounded: the parser recurses only through nested sub-expressions (at most
//! `MAX_EXPR_DEPTH`), binary operators are folded with an explicit stack, and every node's
//! height is capped, so hostile input cannot exhaust the stack here or in later passes.
//! Measured at the 250-level limit: about 0.5 MiB of stack in release builds (under wasm's
//! 1 MiB default), about 2 MiB in unoptimized ones.

use super::ast::{Bind, Comprehension, Expr, ExprKind, MacroKind};
use super::error::Issue;
use super::lexer::{Tok, Token, tokenize};
use std::rc::Rc;

/// cel-go's `maxRecursionDepth` as its ANTLR listener applies it: nesting of the `expr` rule.
pub(crate) const MAX_EXPR_DEPTH: usize = 250;
/// cel-go's `maxRecursionDepth` as its parse-tree visitor applies it: ternaries, binary
/// operators, selects, member calls and indexes along one path.
const MAX_VISIT_DEPTH: u16 = 250;
/// This evaluator's own bound on tree height, which keeps the checker's and evaluator's
/// recursion within a small stack (cel-go needs none: Go stacks grow).
const MAX_TREE_DEPTH: u16 = 1000;
/// cel-go's `expressionSizeCodePointLimit`.
const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's `reservedIds`: legal as field names, not as identifiers.
const RESERVED: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

const EXPR_START: &[Tok] = &[
    Tok::LBracket,
    Tok::LBrace,
    Tok::LParen,
    Tok::Dot,
    Tok::Minus,
    Tok::Bang,
    Tok::True,
    Tok::False,
    Tok::Null,
    Tok::Float,
    Tok::Int,
    Tok::Uint,
    Tok::String,
    Tok::Bytes,
    Tok::Ident,
];

/// Parses CEL source; on failure returns every issue found (lexer errors, the first syntax
/// error, literal and macro errors).
pub(crate) fn parse(source: &str) -> Result<Expr, Vec<Issue>> {
    let chars: Vec<char> = source.chars().collect();
    if chars.len() > MAX_CODE_POINTS {
        let msg = format!("expression code point size exceeds limit: size: {}, limit {}", chars.len(), MAX_CODE_POINTS);
        return Err(vec![Issue::nowhere(msg)]);
    }
    let (tokens, issues) = tokenize(&chars);
    let mut p = Parser { tokens, pos: 0, issues, depth: 0, ctx: vec![Ctx::Top] };
    match p.start() {
        Ok(e) if p.issues.is_empty() => Ok(e),
        _ => Err(p.issues),
    }
}

/// Parsing stopped; the reason is already in `Parser::issues`.
struct Stop;

type PResult = Result<Expr, Stop>;

/// What encloses the expression being parsed: decides which tokens may follow a construct
/// (ANTLR's context-sensitive follow set, for its "missing X" messages).
#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    Top,
    Paren,
    Args,
    List,
    MapKey,
    MapValue,
    Index,
    TernaryMiddle,
}

impl Ctx {
    fn closers(self) -> &'static [Tok] {
        match self {
            Ctx::Top => &[Tok::Eof],
            Ctx::Paren => &[Tok::RParen],
            Ctx::Args => &[Tok::Comma, Tok::RParen],
            Ctx::List => &[Tok::Comma, Tok::RBracket],
            Ctx::MapKey | Ctx::TernaryMiddle => &[Tok::Colon],
            Ctx::MapValue => &[Tok::Comma, Tok::RBrace],
            Ctx::Index => &[Tok::RBracket],
        }
    }
}

/// Tokens that may follow any complete operand.
const AFTER_OPERAND: &[Tok] = &[
    Tok::EqEq,
    Tok::NotEq,
    Tok::In,
    Tok::Lt,
    Tok::Le,
    Tok::Ge,
    Tok::Gt,
    Tok::And,
    Tok::Or,
    Tok::LBracket,
    Tok::Dot,
    Tok::Minus,
    Tok::Question,
    Tok::Plus,
    Tok::Star,
    Tok::Slash,
    Tok::Percent,
];

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    issues: Vec<Issue>,
    depth: usize,
    ctx: Vec<Ctx>,
}

fn binary_op(t: Tok) -> Option<(&'static str, u8)> {
    Some(match t {
        Tok::EqEq => ("_==_", 1),
        Tok::NotEq => ("_!=_", 1),
        Tok::Lt => ("_<_", 1),
        Tok::Le => ("_<=_", 1),
        Tok::Gt => ("_>_", 1),
        Tok::Ge => ("_>=_", 1),
        Tok::In => ("@in", 1),
        Tok::Plus => ("_+_", 2),
        Tok::Minus => ("_-_", 2),
        Tok::Star => ("_*_", 3),
        Tok::Slash => ("_/_", 3),
        Tok::Percent => ("_%_", 3),
        _ => return None,
    })
}

/// ANTLR's rendering of an expected-token set: sorted by token type, braced when plural.
fn token_set(toks: &[Tok]) -> String {
    let mut toks = toks.to_vec();
    toks.sort_by_key(|t| t.grammar_order());
    toks.dedup();
    let names: Vec<&str> = toks.iter().map(|t| t.grammar_name()).collect();
    if names.len() == 1 { names.concat() } else { format!("{{{}}}", names.join(", ")) }
}

impl Parser {
    fn cur(&self) -> &Token {
        // `tokenize` always ends with Eof and `advance` never moves past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_kind(&self, ahead: usize) -> Tok {
        self.tokens.get(self.pos + ahead).map_or(Tok::Eof, |t| t.kind)
    }

    fn advance(&mut self) -> Token {
        let t = self.cur().clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    #[cold]
    #[inline(never)]
    fn syntax<T>(&mut self, offset: usize, msg: String) -> Result<T, Stop> {
        self.issues.push(Issue::at(offset, format!("Syntax error: {msg}")));
        Err(Stop)
    }

    #[cold]
    #[inline(never)]
    fn fatal<T>(&mut self, msg: &str) -> Result<T, Stop> {
        self.issues.push(Issue::nowhere(msg));
        Err(Stop)
    }

    /// Builds a node and enforces the depth limits on it.
    fn node(&mut self, offset: usize, kind: ExprKind, counted: bool) -> PResult {
        self.checked(Expr::new(offset, kind, counted))
    }

    fn checked(&mut self, e: Expr) -> PResult {
        if e.visit_depth > MAX_VISIT_DEPTH || e.depth > MAX_TREE_DEPTH {
            return self.fatal("max recursion depth exceeded");
        }
        Ok(e)
    }

    /// `start: expr EOF`.
    #[inline(never)]
    fn start(&mut self) -> PResult {
        let e = self.expr()?;
        let t = self.cur().clone();
        if t.kind != Tok::Eof {
            let how = if self.peek_kind(1) == Tok::Eof { "extraneous" } else { "mismatched" };
            return self.syntax(t.offset, format!("{how} input '{}' expecting <EOF>", t.display()));
        }
        Ok(e)
    }

    /// An error for a token that cannot start the expression expected here; `extra` are the
    /// other tokens the grammar would also accept at this point.
    #[cold]
    #[inline(never)]
    fn expected_expr<T>(&mut self, extra: &[Tok]) -> Result<T, Stop> {
        let t = self.cur().clone();
        let mut set = EXPR_START.to_vec();
        set.extend_from_slice(extra);
        let next = self.peek_kind(1);
        let how = if t.kind != Tok::Eof && set.contains(&next) { "extraneous" } else { "mismatched" };
        self.syntax(t.offset, format!("{how} input '{}' expecting {}", t.display(), token_set(&set)))
    }

    fn at_expr_start(&self) -> bool {
        EXPR_START.contains(&self.cur().kind)
    }

    /// Matches one expected token, or reports it the way ANTLR's `recoverInline` does.
    fn expect(&mut self, want: Tok) -> Result<Token, Stop> {
        if self.cur().kind == want {
            return Ok(self.advance());
        }
        self.expect_error(want)
    }

    #[cold]
    #[inline(never)]
    fn expect_error(&mut self, want: Tok) -> Result<Token, Stop> {
        let t = self.cur().clone();
        let name = want.grammar_name();
        if self.peek_kind(1) == want {
            return self.syntax(t.offset, format!("extraneous input '{}' expecting {name}", t.display()));
        }
        let follow: Vec<Tok> = if want == Tok::Colon {
            EXPR_START.to_vec()
        } else {
            let outer = self.ctx.last().copied().unwrap_or(Ctx::Top);
            AFTER_OPERAND.iter().chain(outer.closers()).copied().collect()
        };
        if follow.contains(&t.kind) {
            return self.syntax(t.offset, format!("missing {name} at '{}'", t.display()));
        }
        self.syntax(t.offset, format!("mismatched input '{}' expecting {name}", t.display()))
    }

    /// After a list element or map entry: a comma or the closer must come next.
    #[cold]
    #[inline(never)]
    fn separator_error<T>(&mut self, closer: Tok) -> Result<T, Stop> {
        let t = self.cur().clone();
        let set = [closer, Tok::Comma];
        let how = if set.contains(&self.peek_kind(1)) { "extraneous" } else { "mismatched" };
        self.syntax(t.offset, format!("{how} input '{}' expecting {}", t.display(), token_set(&set)))
    }

    /// Parses a nested `expr` inside the given context.
    #[inline(always)]
    fn expr_in(&mut self, ctx: Ctx) -> PResult {
        self.ctx.push(ctx);
        let r = self.expr();
        self.ctx.pop();
        r
    }

    /// `expr: conditionalOr ('?' conditionalOr ':' expr)?`. The functions on the recursion
    /// path are kept few and lean: each nesting level costs their frames once.
    fn expr(&mut self) -> PResult {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            return self.fatal(&format!("expression recursion limit exceeded: {MAX_EXPR_DEPTH}"));
        }
        let r = self.expr_body();
        self.depth -= 1;
        r
    }

    #[inline(always)]
    fn expr_body(&mut self) -> PResult {
        let cond = self.logical()?;
        if self.cur().kind != Tok::Question {
            return Ok(cond);
        }
        let q = self.advance().offset;
        self.ctx.push(Ctx::TernaryMiddle);
        let then = self.logical();
        self.ctx.pop();
        let then = then?;
        self.expect(Tok::Colon)?;
        let otherwise = self.expr()?;
        self.checked(Expr::call(q, "_?_:_", vec![cond, then, otherwise], true))
    }

    /// `conditionalOr` of `conditionalAnd`s, in one frame. Chains become balanced trees, as
    /// cel-go's `balancer` builds them (so long chains stay shallow).
    // Merged into its caller in optimized builds: fewer frames per nesting level.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn logical(&mut self) -> PResult {
        let mut ors = Vec::new();
        let mut or_ops = Vec::new();
        loop {
            let mut ands = vec![Some(self.binary()?)];
            let mut and_ops = Vec::new();
            while self.cur().kind == Tok::And {
                and_ops.push(self.advance().offset);
                ands.push(Some(self.binary()?));
            }
            ors.push(Some(self.chain("_&&_", ands, &and_ops)?));
            if self.cur().kind != Tok::Or {
                break;
            }
            or_ops.push(self.advance().offset);
        }
        self.chain("_||_", ors, &or_ops)
    }

    #[inline(never)]
    fn chain(&mut self, function: &str, mut terms: Vec<Option<Expr>>, ops: &[usize]) -> PResult {
        if ops.is_empty() {
            return terms.pop().flatten().ok_or(Stop);
        }
        self.balanced(function, &mut terms, ops, 0, ops.len() - 1)
    }

    /// cel-go `balancer.balancedTree` over `ops[lo..=hi]`; depth is logarithmic in the chain.
    #[inline(never)]
    fn balanced(&mut self, function: &str, terms: &mut [Option<Expr>], ops: &[usize], lo: usize, hi: usize) -> PResult {
        let mid = (lo + hi).div_ceil(2);
        let left = if mid == lo {
            terms.get_mut(mid).and_then(Option::take)
        } else {
            Some(self.balanced(function, terms, ops, lo, mid - 1)?)
        };
        let right = if mid + 1 > hi {
            terms.get_mut(mid + 1).and_then(Option::take)
        } else {
            Some(self.balanced(function, terms, ops, mid + 1, hi)?)
        };
        let (Some(left), Some(right), Some(&offset)) = (left, right, ops.get(mid)) else { return Err(Stop) };
        self.checked(Expr::call(offset, function, vec![left, right], false))
    }

    /// `relation` and `calc`: left-associative binary operators in three precedence levels,
    /// folded with an explicit operator stack instead of recursion.
    fn binary(&mut self) -> PResult {
        let mut operands = vec![self.unary()?];
        let mut ops: Vec<(&'static str, u8, usize)> = Vec::new();
        while let Some((name, prec)) = binary_op(self.cur().kind) {
            let offset = self.advance().offset;
            while ops.last().is_some_and(|&(_, p, _)| p >= prec) {
                self.reduce(&mut operands, &mut ops)?;
            }
            ops.push((name, prec, offset));
            if !self.at_expr_start() {
                return self.expected_expr(&[]);
            }
            operands.push(self.unary()?);
        }
        while !ops.is_empty() {
            self.reduce(&mut operands, &mut ops)?;
        }
        operands.pop().ok_or(Stop)
    }

    fn reduce(&mut self, operands: &mut Vec<Expr>, ops: &mut Vec<(&'static str, u8, usize)>) -> Result<(), Stop> {
        let (Some((name, _, offset)), Some(rhs), Some(lhs)) = (ops.pop(), operands.pop(), operands.pop()) else {
            return Err(Stop);
        };
        let e = self.checked(Expr::call(offset, name, vec![lhs, rhs], true))?;
        operands.push(e);
        Ok(())
    }

    /// `unary: member | '!'+ member | '-'+ member`. An even run of the same operator cancels
    /// out (cel-go drops it); a single `-` before a number is part of the literal.
    // Merged into its caller in optimized builds: fewer frames per nesting level.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unary(&mut self) -> PResult {
        let t = self.cur().clone();
        if !matches!(t.kind, Tok::Bang | Tok::Minus)
            || (t.kind == Tok::Minus && matches!(self.peek_kind(1), Tok::Int | Tok::Float))
        {
            let e = self.primary()?;
            return self.postfix(e);
        }
        let mut count = 0usize;
        while self.cur().kind == t.kind {
            self.advance();
            count += 1;
        }
        if !self.at_expr_start() {
            return self.expected_expr(&[]);
        }
        let operand = self.primary()?;
        let operand = self.postfix(operand)?;
        if count.is_multiple_of(2) {
            return Ok(operand);
        }
        let function = if t.kind == Tok::Bang { "!_" } else { "-_" };
        self.checked(Expr::call(t.offset, function, vec![operand], false))
    }

    /// The rest of `member` after its primary: selects, member calls and indexes.
    #[inline(never)]
    fn postfix(&mut self, mut e: Expr) -> PResult {
        loop {
            match self.cur().kind {
                Tok::Dot => e = self.select(e)?,
                Tok::LBracket => {
                    let open = self.advance();
                    if !self.at_expr_start() {
                        return self.expected_expr(&[Tok::Question]);
                    }
                    let index = self.expr_in(Ctx::Index)?;
                    self.expect(Tok::RBracket)?;
                    e = self.node(
                        open.offset,
                        ExprKind::Call { function: "_[_]".into(), target: None, args: vec![e, index] },
                        true,
                    )?;
                }
                _ => return Ok(e),
            }
        }
    }

    #[inline(never)]
    fn select(&mut self, operand: Expr) -> PResult {
        let dot = self.advance();
        let t = self.cur().clone();
        if t.kind != Tok::Ident {
            if matches!(t.kind, Tok::True | Tok::False | Tok::Null) {
                return self.syntax(t.offset, format!("mismatched input '{}' expecting IDENTIFIER", t.text));
            }
            return self.syntax(t.offset, format!("no viable alternative at input '.{}'", t.text));
        }
        self.advance();
        if self.cur().kind == Tok::LParen {
            let open = self.advance();
            let args = self.args()?;
            return self.call(open.offset, &t.text, Some(operand), args);
        }
        self.node(dot.offset, ExprKind::Select { operand: Box::new(operand), field: t.text, test_only: false }, true)
    }

    /// Call arguments after `(`, through the closing `)`.
    #[inline(never)]
    fn args(&mut self) -> Result<Vec<Expr>, Stop> {
        let mut args = Vec::new();
        if self.cur().kind == Tok::RParen {
            self.advance();
            return Ok(args);
        }
        loop {
            if !self.at_expr_start() {
                let extra: &[Tok] = if args.is_empty() { &[Tok::RParen] } else { &[] };
                return self.expected_expr(extra);
            }
            args.push(self.expr_in(Ctx::Args)?);
            if self.cur().kind == Tok::Comma {
                self.advance();
                continue;
            }
            self.expect(Tok::RParen)?;
            return Ok(args);
        }
    }

    // Merged into its caller in optimized builds: fewer frames per nesting level.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn primary(&mut self) -> PResult {
        let t = self.cur().clone();
        match t.kind {
            Tok::Dot | Tok::Ident => self.ident_or_call(),
            Tok::LParen => {
                self.advance();
                if !self.at_expr_start() {
                    return self.expected_expr(&[]);
                }
                let e = self.expr_in(Ctx::Paren)?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBracket => self.list(),
            Tok::LBrace => self.map(),
            _ => self.literal(),
        }
    }

    #[inline(never)]
    fn ident_or_call(&mut self) -> PResult {
        let mut name = String::new();
        if self.cur().kind == Tok::Dot {
            self.advance();
            name.push('.');
            if self.cur().kind != Tok::Ident {
                let t = self.cur().clone();
                return self.syntax(t.offset, format!("no viable alternative at input '.{}'", t.text));
            }
        }
        let id = self.advance();
        name.push_str(&id.text);
        if RESERVED.contains(&id.text.as_str()) {
            self.issues.push(Issue::at(id.offset, format!("reserved identifier: {}", id.text)));
        }
        if self.cur().kind == Tok::LParen {
            let open = self.advance();
            let args = self.args()?;
            return self.call(open.offset, &name, None, args);
        }
        if self.at_struct_name() {
            return self.construction(name);
        }
        self.node(id.offset, ExprKind::Ident(name), false)
    }

    /// Whether `(. IDENT)* {` follows: the rest of a message construction's type name.
    fn at_struct_name(&self) -> bool {
        let mut ahead = 0;
        while self.peek_kind(ahead) == Tok::Dot && self.peek_kind(ahead + 1) == Tok::Ident {
            ahead += 2;
        }
        self.peek_kind(ahead) == Tok::LBrace
    }

    /// CEL's `CreateMessage`: `Name.more{field: value, …}` after its first identifier.
    #[inline(never)]
    fn construction(&mut self, mut type_name: String) -> PResult {
        while self.cur().kind == Tok::Dot {
            self.advance();
            type_name.push('.');
            type_name.push_str(&self.advance().text);
        }
        let open = self.advance();
        let mut fields = Vec::new();
        while self.cur().kind != Tok::RBrace {
            let field = self.expect(Tok::Ident)?;
            self.expect(Tok::Colon)?;
            if !self.at_expr_start() {
                return self.expected_expr(&[]);
            }
            fields.push((field.text, self.expr_in(Ctx::MapValue)?));
            match self.cur().kind {
                Tok::Comma => {
                    self.advance();
                }
                Tok::RBrace => break,
                _ => return self.separator_error(Tok::RBrace),
            }
        }
        self.advance();
        self.node(open.offset, ExprKind::Struct { type_name, fields }, false)
    }

    #[inline(never)]
    fn list(&mut self) -> PResult {
        let open = self.advance();
        let mut items = Vec::new();
        loop {
            match self.cur().kind {
                Tok::RBracket => break,
                Tok::Comma if items.is_empty() => {
                    // `[,]`: the grammar allows a lone trailing comma.
                    self.advance();
                    self.expect(Tok::RBracket)?;
                    return self.node(open.offset, ExprKind::List(items), false);
                }
                _ if self.at_expr_start() => items.push(self.expr_in(Ctx::List)?),
                _ if items.is_empty() => return self.expected_expr(&[Tok::RBracket, Tok::Comma, Tok::Question]),
                _ => {
                    self.expect(Tok::RBracket)?;
                    return self.node(open.offset, ExprKind::List(items), false);
                }
            }
            match self.cur().kind {
                Tok::Comma => {
                    self.advance();
                }
                Tok::RBracket => break,
                _ => return self.separator_error(Tok::RBracket),
            }
        }
        self.advance();
        self.node(open.offset, ExprKind::List(items), false)
    }

    #[inline(never)]
    fn map(&mut self) -> PResult {
        let open = self.advance();
        let mut entries = Vec::new();
        loop {
            match self.cur().kind {
                Tok::RBrace => break,
                Tok::Comma if entries.is_empty() => {
                    self.advance();
                    self.expect(Tok::RBrace)?;
                    return self.node(open.offset, ExprKind::Map(entries), false);
                }
                _ if self.at_expr_start() => {
                    let key = self.expr_in(Ctx::MapKey)?;
                    self.expect(Tok::Colon)?;
                    if !self.at_expr_start() {
                        return self.expected_expr(&[]);
                    }
                    let value = self.expr_in(Ctx::MapValue)?;
                    entries.push((key, value));
                }
                _ if entries.is_empty() => return self.expected_expr(&[Tok::RBrace, Tok::Comma, Tok::Question]),
                _ => {
                    self.expect(Tok::RBrace)?;
                    return self.node(open.offset, ExprKind::Map(entries), false);
                }
            }
            match self.cur().kind {
                Tok::Comma => {
                    self.advance();
                }
                Tok::RBrace => break,
                _ => return self.separator_error(Tok::RBrace),
            }
        }
        self.advance();
        self.node(open.offset, ExprKind::Map(entries), false)
    }

    #[inline(never)]
    fn literal(&mut self) -> PResult {
        let t = self.cur().clone();
        let negative = t.kind == Tok::Minus;
        let tok = if negative { self.tokens.get(self.pos + 1).cloned().unwrap_or(t.clone()) } else { t.clone() };
        if negative && !matches!(tok.kind, Tok::Int | Tok::Float) {
            return self.expected_expr(&[]);
        }
        let kind = match tok.kind {
            Tok::Int => parse_int(&tok.text, negative).map(ExprKind::Int).ok_or("invalid int literal"),
            Tok::Float => parse_double(&tok.text, negative).map(ExprKind::Double).ok_or("invalid double literal"),
            Tok::Uint => parse_uint(&tok.text).map(ExprKind::Uint).ok_or("invalid uint literal"),
            Tok::String => {
                unescape(&tok.text, false).map(|b| ExprKind::String(Rc::from(String::from_utf8_lossy(&b).as_ref())))
            }
            Tok::Bytes => unescape(tok.text.get(1..).unwrap_or_default(), true).map(|b| ExprKind::Bytes(Rc::from(b))),
            Tok::True => Ok(ExprKind::Bool(true)),
            Tok::False => Ok(ExprKind::Bool(false)),
            Tok::Null => Ok(ExprKind::Null),
            _ => return self.expected_expr(&[]),
        };
        if negative {
            self.advance();
        }
        self.advance();
        let kind = kind.unwrap_or_else(|msg| {
            self.issues.push(Issue::at(t.offset, msg));
            ExprKind::Null
        });
        self.node(t.offset, kind, false)
    }

    /// A call, or the macro it spells (cel-go `parser/macro.go` and `ext.Bindings`).
    #[inline(never)]
    fn call(&mut self, offset: usize, function: &str, target: Option<Expr>, mut args: Vec<Expr>) -> PResult {
        let comprehension = match (function, args.len()) {
            ("all", 2) => Some(MacroKind::All),
            ("exists", 2) => Some(MacroKind::Exists),
            ("exists_one", 2) => Some(MacroKind::ExistsOne),
            ("filter", 2) => Some(MacroKind::Filter),
            ("map", 2) => Some(MacroKind::Map),
            ("map", 3) => Some(MacroKind::MapFilter),
            _ => None,
        };
        match target {
            None if function == "has" && args.len() == 1 => self.has_macro(offset, args.pop()),
            Some(range) if comprehension.is_some() => {
                let kind = comprehension.unwrap_or(MacroKind::All);
                self.comprehension(offset, kind, range, args)
            }
            Some(t) if function == "bind" && args.len() == 3 && t.ident_name() == Some("cel") => {
                self.bind_macro(offset, args)
            }
            target => {
                let counted = target.is_some();
                let kind = ExprKind::Call { function: function.to_owned(), target: target.map(Box::new), args };
                self.node(offset, kind, counted)
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn macro_error(&mut self, offset: usize, msg: &str) -> PResult {
        self.issues.push(Issue::at(offset, msg));
        self.node(offset, ExprKind::Null, false)
    }

    #[inline(never)]
    fn has_macro(&mut self, offset: usize, arg: Option<Expr>) -> PResult {
        match arg {
            Some(Expr { kind: ExprKind::Select { operand, field, test_only: false }, .. }) => {
                self.node(offset, ExprKind::Select { operand, field, test_only: true }, false)
            }
            other => {
                let at = other.map_or(offset, |a| a.offset);
                self.macro_error(at, "invalid argument to has() macro")
            }
        }
    }

    #[inline(never)]
    fn comprehension(&mut self, offset: usize, kind: MacroKind, range: Expr, args: Vec<Expr>) -> PResult {
        let mut args = args.into_iter();
        let (Some(var), Some(first)) = (args.next(), args.next()) else { return Err(Stop) };
        let Some(name) = var.ident_name().map(str::to_owned) else {
            return self.macro_error(var.offset, "argument must be a simple name");
        };
        let second = args.next();
        let (pred, transform) = match kind {
            MacroKind::Map => (None, Some(first)),
            MacroKind::MapFilter => (Some(first), second),
            _ => (Some(first), None),
        };
        let c = Comprehension { kind, var: name, range, pred, transform };
        self.node(offset, ExprKind::Comprehension(Box::new(c)), true)
    }

    #[inline(never)]
    fn bind_macro(&mut self, offset: usize, args: Vec<Expr>) -> PResult {
        let mut args = args.into_iter();
        let (Some(var), Some(init), Some(body)) = (args.next(), args.next(), args.next()) else { return Err(Stop) };
        let Some(name) = var.ident_name().map(str::to_owned) else {
            return self.macro_error(var.offset, "cel.bind() variable names must be simple identifiers");
        };
        self.node(offset, ExprKind::Bind(Box::new(Bind { var: name, init, body })), true)
    }
}

fn parse_int(text: &str, negative: bool) -> Option<i64> {
    let magnitude = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => text.parse::<u64>().ok()?,
    };
    if negative { 0i64.checked_sub_unsigned(magnitude) } else { i64::try_from(magnitude).ok() }
}

fn parse_uint(text: &str) -> Option<u64> {
    let digits = text.get(..text.len().saturating_sub(1))?;
    match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    }
}

/// Go's `strconv.ParseFloat`, which rejects values beyond the double range.
fn parse_double(text: &str, negative: bool) -> Option<f64> {
    let v: f64 = text.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    Some(if negative { -v } else { v })
}

/// cel-go `parser/unescape.go`: strips quotes (and an `r` prefix), normalizes newlines and
/// decodes escapes. Bytes keep `\x` and octal escapes as raw bytes and reject `\u`/`\U`.
fn unescape(text: &str, is_bytes: bool) -> Result<Vec<u8>, &'static str> {
    const BAD: &str = "unable to unescape string";
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let (raw, quoted) = match text.strip_prefix(['r', 'R']) {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let body = ["'''", "\"\"\"", "'", "\""]
        .iter()
        .find_map(|q| quoted.strip_prefix(q).and_then(|s| s.strip_suffix(q)).filter(|_| quoted.len() >= 2 * q.len()))
        .ok_or(BAD)?;
    if raw || !body.contains('\\') {
        return Ok(body.as_bytes().to_vec());
    }
    let mut out = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        unescape_one(&mut chars, is_bytes, &mut out)?;
    }
    Ok(out)
}

fn unescape_one(chars: &mut std::str::Chars<'_>, is_bytes: bool, out: &mut Vec<u8>) -> Result<(), &'static str> {
    const BAD: &str = "unable to unescape string";
    let c = chars.next().ok_or("unable to unescape string, found '\\' as last character")?;
    let simple = match c {
        'a' => Some(7u8),
        'b' => Some(8),
        'f' => Some(12),
        'n' => Some(b'\n'),
        'r' => Some(b'\r'),
        't' => Some(b'\t'),
        'v' => Some(11),
        '\\' | '\'' | '"' | '`' | '?' => Some(c as u8),
        _ => None,
    };
    if let Some(b) = simple {
        out.push(b);
        return Ok(());
    }
    let (digits, radix) = match c {
        'x' | 'X' => (2, 16),
        'u' | 'U' if is_bytes => return Err(BAD),
        'u' => (4, 16),
        'U' => (8, 16),
        '0'..='3' => (2, 8),
        _ => return Err(BAD),
    };
    let mut v: u32 = if radix == 8 { c as u32 - '0' as u32 } else { 0 };
    for _ in 0..digits {
        let d = chars.next().and_then(|d| d.to_digit(radix)).ok_or(BAD)?;
        v = v * radix + d;
    }
    if is_bytes && matches!(c, 'x' | 'X' | '0'..='3') {
        out.push(v as u8);
        return Ok(());
    }
    let ch = char::from_u32(v).ok_or("invalid unicode code point")?;
    let mut buf = [0u8; 4];
    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    Ok(())
}
