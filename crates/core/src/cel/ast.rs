//! The parsed expression tree (cel-go `ast.Expr`), with macros already expanded.

use std::rc::Rc;

/// One expression node. `offset` is the code point offset cel-go reports errors at: a
/// literal's or identifier's first character, an operator token, a call's `(`, a select's `.`,
/// an index's `[`. `depth` is the node's height and `visit_depth` the number of nodes of the
/// kinds cel-go's parser counts toward its recursion limit (see `parser::MAX_VISIT_DEPTH`).
#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub offset: usize,
    pub kind: ExprKind,
    pub depth: u16,
    pub visit_depth: u16,
}

#[derive(Clone, Debug)]
pub(crate) enum ExprKind {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(Rc<str>),
    Bytes(Rc<[u8]>),
    /// A name: a variable, a comprehension or `cel.bind` variable, or a type name such as `int`.
    Ident(String),
    /// `operand.field`; `test_only` is the `has(operand.field)` macro.
    Select {
        operand: Box<Expr>,
        field: String,
        test_only: bool,
    },
    /// A function or operator call (`_+_`, `_[_]`, `_?_:_`, …); `target` for `x.f(…)`.
    Call {
        function: String,
        target: Option<Box<Expr>>,
        args: Vec<Expr>,
    },
    List(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    /// `range.all(var, …)` and the other comprehension macros.
    Comprehension(Box<Comprehension>),
    /// `cel.bind(var, init, body)` (cel-go `ext.Bindings`): `init` evaluates lazily, once.
    Bind(Box<Bind>),
    /// `Name{field: value, …}`, message construction (`Object.spec{replicas: 1}`,
    /// `JSONPatch{op: "add", …}`); the name is the dotted type name as written.
    Struct {
        type_name: String,
        fields: Vec<(String, Expr)>,
    },
}

/// Which comprehension macro a `Comprehension` node came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MacroKind {
    All,
    Exists,
    ExistsOne,
    /// `map(x, f)`
    Map,
    /// `map(x, pred, f)`
    MapFilter,
    Filter,
}

#[derive(Clone, Debug)]
pub(crate) struct Comprehension {
    pub kind: MacroKind,
    pub var: String,
    pub range: Expr,
    /// The predicate (`all`, `exists`, `exists_one`, `filter`, the filter of `MapFilter`).
    pub pred: Option<Expr>,
    /// The mapped value (`Map`, `MapFilter`).
    pub transform: Option<Expr>,
}

#[derive(Clone, Debug)]
pub(crate) struct Bind {
    pub var: String,
    pub init: Expr,
    pub body: Expr,
}

impl ExprKind {
    /// Calls `f` on each direct child.
    pub fn for_each_child(&self, mut f: impl FnMut(&Expr)) {
        match self {
            ExprKind::Select { operand, .. } => f(operand),
            ExprKind::Call { target, args, .. } => {
                if let Some(t) = target {
                    f(t);
                }
                args.iter().for_each(f);
            }
            ExprKind::List(items) => items.iter().for_each(f),
            ExprKind::Map(entries) => {
                for (k, v) in entries {
                    f(k);
                    f(v);
                }
            }
            ExprKind::Comprehension(c) => {
                f(&c.range);
                c.pred.iter().for_each(&mut f);
                c.transform.iter().for_each(&mut f);
            }
            ExprKind::Bind(b) => {
                f(&b.init);
                f(&b.body);
            }
            ExprKind::Struct { fields, .. } => fields.iter().for_each(|(_, v)| f(v)),
            _ => {}
        }
    }
}

impl Expr {
    /// A node with its depths computed from its children; `counted` marks the kinds cel-go's
    /// parser visitor counts (ternaries, binary operators, selects, member calls, indexes).
    pub fn new(offset: usize, kind: ExprKind, counted: bool) -> Expr {
        let (mut depth, mut visit_depth) = (0u16, 0u16);
        kind.for_each_child(|c| {
            depth = depth.max(c.depth);
            visit_depth = visit_depth.max(c.visit_depth);
        });
        Expr {
            offset,
            kind,
            depth: depth.saturating_add(1),
            visit_depth: visit_depth.saturating_add(u16::from(counted)),
        }
    }

    pub fn call(offset: usize, function: &str, args: Vec<Expr>, counted: bool) -> Expr {
        Expr::new(offset, ExprKind::Call { function: function.to_owned(), target: None, args }, counted)
    }

    pub fn ident_name(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Ident(name) => Some(name),
            _ => None,
        }
    }
}
