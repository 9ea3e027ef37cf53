//! Static type checking (cel-go `checker`): resolves names against the declared variables,
//! picks function overloads, and reports cel-go's messages (`undeclared reference`, `found no
//! matching overload`, `undefined field`, …). `dyn` is assignable to and from every type.

use super::Env;
use super::ast::{Bind, Comprehension, Expr, ExprKind, MacroKind};
use super::error::Issue;
use super::functions::{self, Overload, P};
use super::types::Type;

/// Type names usable as values, as in `type(x) == int`.
const TYPE_NAMES: &[&str] = &["bool", "bytes", "double", "int", "list", "map", "null_type", "string", "type", "uint"];

/// Checks an expression; returns its type, or every issue found.
pub(crate) fn check(expr: &Expr, env: &Env) -> Result<Type, Vec<Issue>> {
    let mut c = Checker { env, scopes: Vec::new(), issues: Vec::new() };
    let t = c.check(expr);
    if c.issues.is_empty() { Ok(t) } else { Err(c.issues) }
}

struct Checker<'a> {
    env: &'a Env,
    /// Comprehension and `cel.bind` variables in scope, innermost last.
    scopes: Vec<(String, Type)>,
    issues: Vec<Issue>,
}

/// Bindings of the type parameters `A` and `B` while matching one overload.
#[derive(Default)]
struct Bindings {
    a: Option<Type>,
    b: Option<Type>,
}

/// The most specific type both are assignable to, if any: equal types, or `dyn` with anything
/// (cel-go widens a type parameter bound to `T` and then `dyn` to `dyn`).
fn join(x: &Type, y: &Type) -> Option<Type> {
    match (x, y) {
        _ if x == y => Some(x.clone()),
        (Type::Dyn, _) | (_, Type::Dyn) => Some(Type::Dyn),
        (Type::List(a), Type::List(b)) => join(a, b).map(Type::list),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => Some(Type::map(join(k1, k2)?, join(v1, v2)?)),
        (Type::Null, Type::Object(_)) => Some(y.clone()),
        (Type::Object(_), Type::Null) => Some(x.clone()),
        _ => None,
    }
}

fn bind_var(slot: &mut Option<Type>, t: &Type) -> bool {
    let joined = match slot {
        None => Some(t.clone()),
        Some(cur) => join(cur, t),
    };
    let ok = joined.is_some();
    if ok {
        *slot = joined;
    }
    ok
}

fn bind_param(p: P, t: &Type, b: &mut Bindings) -> bool {
    match (p, t) {
        (P::Dyn, _) => true,
        (P::A, _) => bind_var(&mut b.a, t),
        (P::B, _) => bind_var(&mut b.b, t),
        (P::ListA, Type::List(e)) => bind_var(&mut b.a, e),
        (P::MapAB, Type::Map(k, v)) => bind_var(&mut b.a, k) && bind_var(&mut b.b, v),
        // `dyn` fits a container parameter without binding its element types.
        (P::ListA | P::MapAB, Type::Dyn) => true,
        (P::ListA | P::MapAB, _) => false,
        (P::ListString, Type::List(e)) => matches!(**e, Type::String | Type::Dyn),
        (_, Type::Dyn) => true,
        (p, t) => functions::concrete(p).as_ref() == Some(t),
    }
}

fn result_of(p: P, b: &Bindings) -> Type {
    let a = || b.a.clone().unwrap_or(Type::Dyn);
    match p {
        P::A => a(),
        P::B => b.b.clone().unwrap_or(Type::Dyn),
        P::ListA => Type::list(a()),
        P::MapAB => Type::map(a(), b.b.clone().unwrap_or(Type::Dyn)),
        other => functions::concrete(other).unwrap_or(Type::Dyn),
    }
}

fn try_overload(o: &Overload, args: &[Type]) -> Option<Type> {
    let mut b = Bindings::default();
    o.params.iter().zip(args).all(|(p, t)| bind_param(*p, t, &mut b)).then(|| result_of(o.result, &b))
}

/// cel-go's rendering of a call's argument types: `(int, string)` or `string.(int)`.
fn signature(args: &[Type], member: bool) -> String {
    let names: Vec<String> = args.iter().map(Type::error_name).collect();
    match names.split_first() {
        Some((recv, rest)) if member => format!("{recv}.({})", rest.join(", ")),
        _ => format!("({})", names.join(", ")),
    }
}

impl Checker<'_> {
    fn error(&mut self, offset: usize, message: String) -> Type {
        self.issues.push(Issue::at(offset, message));
        Type::Dyn
    }

    fn check(&mut self, e: &Expr) -> Type {
        match &e.kind {
            ExprKind::Null => Type::Null,
            ExprKind::Bool(_) => Type::Bool,
            ExprKind::Int(_) => Type::Int,
            ExprKind::Uint(_) => Type::Uint,
            ExprKind::Double(_) => Type::Double,
            ExprKind::String(_) => Type::String,
            ExprKind::Bytes(_) => Type::Bytes,
            ExprKind::Ident(name) => self.ident(e.offset, name),
            ExprKind::Select { operand, field, test_only } => self.select(e.offset, operand, field, *test_only),
            ExprKind::Call { function, target, args } => self.call(e.offset, function, target.as_deref(), args),
            ExprKind::List(items) => self.list(items),
            ExprKind::Map(entries) => self.map(entries),
            ExprKind::Comprehension(c) => self.comprehension(e.offset, c),
            ExprKind::Bind(b) => self.bind(b),
            ExprKind::Struct { type_name, fields } => self.construction(e.offset, type_name, fields),
        }
    }

    /// `Name{field: value}`: the name must be a declared object type, and, unless the type is
    /// open, each field one of its own.
    fn construction(&mut self, offset: usize, type_name: &str, fields: &[(String, Expr)]) -> Type {
        let declared = self.env.struct_type(type_name);
        for (field, value) in fields {
            self.check(value);
            if let Some((t, false)) = &declared
                && t.field(field).is_none()
            {
                self.error(value.offset, format!("undefined field '{field}'"));
            }
        }
        match declared {
            Some((t, _)) => Type::Object(t),
            None => self.error(offset, format!("undeclared reference to '{type_name}' (in container '')")),
        }
    }

    fn ident(&mut self, offset: usize, name: &str) -> Type {
        // A leading dot names the root scope, skipping comprehension variables.
        let (absolute, bare) = match name.strip_prefix('.') {
            Some(bare) => (true, bare),
            None => (false, name),
        };
        if !absolute && let Some((_, t)) = self.scopes.iter().rev().find(|(n, _)| n == bare) {
            return t.clone();
        }
        if let Some(t) = self.env.lookup(bare) {
            return t.clone();
        }
        if TYPE_NAMES.contains(&bare) {
            return Type::Type;
        }
        self.error(offset, format!("undeclared reference to '{name}' (in container '')"))
    }

    fn select(&mut self, offset: usize, operand: &Expr, field: &str, test_only: bool) -> Type {
        let t = self.check(operand);
        let field_type = match &t {
            Type::Dyn => Type::Dyn,
            Type::Map(_, v) => (**v).clone(),
            Type::Object(o) => match o.field(field) {
                Some(ft) => ft.clone(),
                None => self.error(offset, format!("undefined field '{field}'")),
            },
            other => self.error(offset, format!("type '{}' does not support field selection", other.error_name())),
        };
        if test_only { Type::Bool } else { field_type }
    }

    fn call(&mut self, offset: usize, function: &str, target: Option<&Expr>, args: &[Expr]) -> Type {
        let mut types = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            types.push(self.check(t));
        }
        for a in args {
            types.push(self.check(a));
        }
        if !functions::is_declared(function) {
            return self.error(offset, format!("undeclared reference to '{function}' (in container '')"));
        }
        let member = target.is_some();
        let mut result: Option<Type> = None;
        for o in functions::candidates(function, member, types.len()) {
            if let Some(r) = try_overload(o, &types) {
                // Several matching overloads with different results leave the type open.
                result = Some(match result {
                    Some(prev) if prev != r => Type::Dyn,
                    _ => r,
                });
            }
        }
        match result {
            Some(t) => t,
            None => self.error(
                offset,
                format!("found no matching overload for '{function}' applied to '{}'", signature(&types, member)),
            ),
        }
    }

    /// cel-go's `HomogeneousAggregateLiterals` (on in Kubernetes): every element must have
    /// exactly the first element's type.
    fn homogeneous(&mut self, items: &[&Expr]) -> Type {
        let mut first: Option<Type> = None;
        for item in items {
            let t = self.check(item);
            match &first {
                None => first = Some(t),
                Some(f) if *f != t => {
                    let msg = format!("expected type '{}' but found '{}'", f.error_name(), t.error_name());
                    self.error(item.offset, msg);
                }
                Some(_) => {}
            }
        }
        first.unwrap_or(Type::Dyn)
    }

    fn list(&mut self, items: &[Expr]) -> Type {
        let refs: Vec<&Expr> = items.iter().collect();
        Type::list(self.homogeneous(&refs))
    }

    fn map(&mut self, entries: &[(Expr, Expr)]) -> Type {
        // cel-go checks each entry's key then value; keys and values are unified separately.
        let mut key: Option<Type> = None;
        let mut value: Option<Type> = None;
        for (k, v) in entries {
            for (e, slot) in [(k, &mut key), (v, &mut value)] {
                let t = self.check(e);
                match slot {
                    None => *slot = Some(t),
                    Some(f) if *f != t => {
                        let msg = format!("expected type '{}' but found '{}'", f.error_name(), t.error_name());
                        self.issues.push(Issue::at(e.offset, msg));
                    }
                    Some(_) => {}
                }
            }
        }
        Type::map(key.unwrap_or(Type::Dyn), value.unwrap_or(Type::Dyn))
    }

    fn comprehension(&mut self, offset: usize, c: &Comprehension) -> Type {
        let range = self.check(&c.range);
        let var_type = match range {
            Type::List(e) => *e,
            Type::Map(k, _) => *k,
            Type::Dyn => Type::Dyn,
            other => {
                let msg = format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    other.error_name()
                );
                self.error(c.range.offset, msg)
            }
        };
        self.scopes.push((c.var.clone(), var_type.clone()));
        let pred = c.pred.as_ref().map(|p| (p, self.check(p)));
        let mapped = c.transform.as_ref().map(|t| self.check(t));
        self.scopes.pop();
        let result = match c.kind {
            MacroKind::All | MacroKind::Exists | MacroKind::ExistsOne => Type::Bool,
            MacroKind::Filter => Type::list(var_type),
            MacroKind::Map | MacroKind::MapFilter => Type::list(mapped.unwrap_or(Type::Dyn)),
        };
        if let Some((p, t)) = pred
            && !matches!(t, Type::Bool | Type::Dyn)
        {
            self.predicate_error(c, offset, p, &t, &result);
        }
        result
    }

    /// cel-go expands `all`/`exists` into `&&`/`||` steps, which report the predicate's type,
    /// and the others into `pred ? step : accu`, which reports the ternary's overload.
    fn predicate_error(&mut self, c: &Comprehension, offset: usize, p: &Expr, t: &Type, result: &Type) {
        match c.kind {
            MacroKind::All | MacroKind::Exists => {
                self.error(p.offset, format!("expected type 'bool' but found '{}'", t.error_name()));
            }
            _ => {
                let accu = if c.kind == MacroKind::ExistsOne { Type::Int } else { result.clone() };
                let sig = signature(&[t.clone(), accu.clone(), accu], false);
                self.error(offset, format!("found no matching overload for '_?_:_' applied to '{sig}'"));
            }
        }
    }

    fn bind(&mut self, b: &Bind) -> Type {
        let init = self.check(&b.init);
        self.scopes.push((b.var.clone(), init));
        let t = self.check(&b.body);
        self.scopes.pop();
        t
    }
}
