//! Evaluates a checked expression against an `Activation` (cel-go `interpreter`), with
//! cel-spec's error-absorbing `&&`/`||`, lazy `cel.bind` variables, and a cost limit.

use super::Activation;
use super::ast::{Bind, Comprehension, Expr, ExprKind, MacroKind};
use super::error::Fault;
use super::functions::{self, no_such_key};
use super::value::{MapKey, MapValue, ObjectValue, Value};
use std::rc::Rc;

/// The most evaluation steps one `eval` may take: Kubernetes DRA's
/// `CELSelectorExpressionMaxCost` (also the order of its ValidatingAdmissionPolicy limits).
pub const COST_LIMIT: u64 = 1_000_000;

/// Type names that evaluate to type values (the checker accepts the same ones).
const TYPE_NAMES: &[&str] = &["bool", "bytes", "double", "int", "list", "map", "null_type", "string", "type", "uint"];

pub(crate) fn evaluate(expr: &Expr, vars: &Activation) -> Result<Value, Fault> {
    let mut ev = Evaluator { vars, locals: Vec::new(), cost: 0 };
    ev.eval(expr)
}

/// A comprehension or `cel.bind` variable. A bind's value is computed on first use, in the
/// scope of its definition (cel-go `ext.Bindings` evaluates lazily too).
struct Local<'a> {
    name: &'a str,
    value: Slot<'a>,
}

enum Slot<'a> {
    Ready(Value),
    Lazy(&'a Expr),
    Failed(Fault),
}

struct Evaluator<'a> {
    vars: &'a Activation,
    locals: Vec<Local<'a>>,
    cost: u64,
}

/// cel-spec `&&`: false wins over errors, errors over true; anything else is no overload.
fn and(l: Result<Value, Fault>, r: Result<Value, Fault>) -> Result<Value, Fault> {
    match (&l, &r) {
        (Ok(Value::Bool(false)), _) | (_, Ok(Value::Bool(false))) => Ok(Value::Bool(false)),
        (Ok(Value::Bool(true)), Ok(Value::Bool(true))) => Ok(Value::Bool(true)),
        (Err(_), _) => l,
        (_, Err(_)) => r,
        _ => Err(Fault::no_overload()),
    }
}

/// cel-spec `||`: true wins over errors, errors over false.
fn or(l: Result<Value, Fault>, r: Result<Value, Fault>) -> Result<Value, Fault> {
    match (&l, &r) {
        (Ok(Value::Bool(true)), _) | (_, Ok(Value::Bool(true))) => Ok(Value::Bool(true)),
        (Ok(Value::Bool(false)), Ok(Value::Bool(false))) => Ok(Value::Bool(false)),
        (Err(_), _) => l,
        (_, Err(_)) => r,
        _ => Err(Fault::no_overload()),
    }
}

/// Lets errors through as values, except cancellation, which ends evaluation.
fn absorbable(r: Result<Value, Fault>) -> Result<Result<Value, Fault>, Fault> {
    match r {
        Err(f @ Fault::Cancelled(_)) => Err(f),
        other => Ok(other),
    }
}

/// cel-go's message for ranging over a non-collection names the Go type.
fn not_iterable(v: &Value) -> Fault {
    let go = match v {
        Value::Null => "types.Null",
        Value::Bool(_) => "types.Bool",
        Value::Int(_) => "types.Int",
        Value::Uint(_) => "types.Uint",
        Value::Double(_) => "types.Double",
        Value::String(_) => "types.String",
        Value::Bytes(_) => "types.Bytes",
        Value::Type(_) => "*types.Type",
        other => other.type_name(),
    };
    Fault::err(format!("got '{go}', expected iterable type"))
}

impl<'a> Evaluator<'a> {
    fn charge(&mut self, units: u64) -> Result<(), Fault> {
        self.cost = self.cost.saturating_add(units);
        if self.cost > COST_LIMIT {
            return Err(Fault::Cancelled("operation cancelled: actual cost limit exceeded".to_owned()));
        }
        Ok(())
    }

    fn eval(&mut self, e: &'a Expr) -> Result<Value, Fault> {
        self.charge(1)?;
        match &e.kind {
            ExprKind::Null => Ok(Value::Null),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Uint(u) => Ok(Value::Uint(*u)),
            ExprKind::Double(d) => Ok(Value::Double(*d)),
            ExprKind::String(s) => Ok(Value::String(s.clone())),
            ExprKind::Bytes(b) => Ok(Value::Bytes(b.clone())),
            ExprKind::Ident(name) => self.ident(name),
            ExprKind::Select { operand, field, test_only } => self.select(operand, field, *test_only),
            ExprKind::Call { function, target, args } => self.call(function, target.as_deref(), args),
            ExprKind::List(items) => self.list(items),
            ExprKind::Map(entries) => self.map(entries),
            ExprKind::Comprehension(c) => self.comprehension(c),
            ExprKind::Bind(b) => self.bind(b),
            ExprKind::Struct { type_name, fields } => {
                let mut object = ObjectValue::new(type_name);
                for (field, value) in fields {
                    object = object.with(field, self.eval(value)?);
                }
                Ok(Value::object(object))
            }
        }
    }

    fn ident(&mut self, name: &str) -> Result<Value, Fault> {
        let (absolute, bare) = match name.strip_prefix('.') {
            Some(bare) => (true, bare),
            None => (false, name),
        };
        if !absolute && let Some(i) = self.locals.iter().rposition(|l| l.name == bare) {
            return self.local(i);
        }
        if let Some(v) = self.vars.get(bare) {
            return Ok(v.clone());
        }
        if TYPE_NAMES.contains(&bare) {
            return Ok(Value::Type(Rc::from(bare)));
        }
        Err(Fault::err(format!("no such attribute(s): {bare}")))
    }

    /// Reads local `i`, computing a lazy bind with only the locals defined before it visible.
    fn local(&mut self, i: usize) -> Result<Value, Fault> {
        let expr = match self.locals.get(i).map(|l| &l.value) {
            Some(Slot::Ready(v)) => return Ok(v.clone()),
            Some(Slot::Failed(f)) => return Err(f.clone()),
            Some(Slot::Lazy(expr)) => *expr,
            None => return Err(Fault::err("no such attribute(s)")),
        };
        let tail = self.locals.split_off(i);
        let result = self.eval(expr);
        self.locals.extend(tail);
        if let Some(l) = self.locals.get_mut(i) {
            l.value = match &result {
                Ok(v) => Slot::Ready(v.clone()),
                Err(f) => Slot::Failed(f.clone()),
            };
        }
        result
    }

    fn select(&mut self, operand: &'a Expr, field: &str, test_only: bool) -> Result<Value, Fault> {
        let v = self.eval(operand)?;
        let key = Value::string(field);
        match (&v, test_only) {
            (Value::Map(m), true) => Ok(Value::Bool(m.contains_key(&MapKey::from(field)) || m.missing.is_some())),
            (Value::Object(o), true) => Ok(Value::Bool(o.get(field).is_some())),
            (_, true) => Ok(Value::Bool(false)),
            (Value::Map(m), false) => {
                m.get(&MapKey::from(field)).or(m.missing.as_ref()).cloned().ok_or_else(|| no_such_key(&key))
            }
            (Value::Object(o), false) => o.get(field).cloned().ok_or_else(|| no_such_key(&key)),
            (_, false) => Err(no_such_key(&key)),
        }
    }

    fn call(&mut self, function: &str, target: Option<&'a Expr>, args: &'a [Expr]) -> Result<Value, Fault> {
        match (function, args) {
            ("_&&_", [l, r]) => return self.logic(l, r, true),
            ("_||_", [l, r]) => return self.logic(l, r, false),
            ("_?_:_", [c, t, f]) => {
                return match self.eval(c)? {
                    Value::Bool(true) => self.eval(t),
                    Value::Bool(false) => self.eval(f),
                    _ => Err(Fault::no_overload()),
                };
            }
            _ => {}
        }
        let mut values = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            values.push(self.eval(t)?);
        }
        for a in args {
            values.push(self.eval(a)?);
        }
        self.charge(call_cost(function, &values))?;
        functions::call(function, &values)
    }

    /// `&&` (`is_and`) or `||`, evaluating the right side only when the left does not decide.
    fn logic(&mut self, l: &'a Expr, r: &'a Expr, is_and: bool) -> Result<Value, Fault> {
        let lv = absorbable(self.eval(l))?;
        if matches!(lv, Ok(Value::Bool(b)) if b != is_and) {
            return lv;
        }
        let rv = absorbable(self.eval(r))?;
        if is_and { and(lv, rv) } else { or(lv, rv) }
    }

    fn list(&mut self, items: &'a [Expr]) -> Result<Value, Fault> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            out.push(self.eval(item)?);
        }
        Ok(Value::list(out))
    }

    fn map(&mut self, entries: &'a [(Expr, Expr)]) -> Result<Value, Fault> {
        let mut out = MapValue::new();
        for (k, v) in entries {
            let key = self.eval(k)?;
            let value = self.eval(v)?;
            let Some(mk) = map_key(&key) else {
                return Err(Fault::err(format!("unsupported key type: {}", key.type_name())));
            };
            out.insert(mk, value);
        }
        Ok(Value::map(out))
    }

    fn comprehension(&mut self, c: &'a Comprehension) -> Result<Value, Fault> {
        let items: Vec<Value> = match self.eval(&c.range)? {
            Value::List(items) => items.as_ref().clone(),
            Value::Map(m) => m.keys().map(MapKey::to_value).collect(),
            other => return Err(not_iterable(&other)),
        };
        match c.kind {
            MacroKind::All | MacroKind::Exists => self.quantifier(c, items, c.kind == MacroKind::All),
            MacroKind::ExistsOne => self.exists_one(c, items),
            MacroKind::Map | MacroKind::MapFilter | MacroKind::Filter => self.collect(c, items),
        }
    }

    /// Evaluates `e` with the iteration variable bound to `item`.
    fn with_var(&mut self, var: &'a str, item: Value, e: &'a Expr) -> Result<Value, Fault> {
        self.locals.push(Local { name: var, value: Slot::Ready(item) });
        let r = self.eval(e);
        self.locals.pop();
        r
    }

    /// `all` (`is_all`) and `exists`: cel-go folds with `&&`/`||`, so an error is absorbed by
    /// a later deciding element, and the loop stops once the result is decided.
    fn quantifier(&mut self, c: &'a Comprehension, items: Vec<Value>, is_all: bool) -> Result<Value, Fault> {
        let Some(pred) = &c.pred else { return Err(Fault::no_overload()) };
        let mut acc = Ok(Value::Bool(is_all));
        for item in items {
            if matches!(acc, Ok(Value::Bool(b)) if b != is_all) {
                break;
            }
            self.charge(1)?;
            let p = absorbable(self.with_var(&c.var, item, pred))?;
            acc = if is_all { and(acc, p) } else { or(acc, p) };
        }
        acc
    }

    fn exists_one(&mut self, c: &'a Comprehension, items: Vec<Value>) -> Result<Value, Fault> {
        let Some(pred) = &c.pred else { return Err(Fault::no_overload()) };
        let mut count = 0u64;
        let mut error = None;
        for item in items {
            self.charge(1)?;
            match absorbable(self.with_var(&c.var, item, pred))? {
                Ok(Value::Bool(true)) => count += 1,
                Ok(Value::Bool(false)) => {}
                Ok(_) => error = Some(Fault::no_overload()),
                Err(f) => error = Some(f),
            }
        }
        match error {
            Some(f) => Err(f),
            None => Ok(Value::Bool(count == 1)),
        }
    }

    /// `map` and `filter`: the first error ends the loop (it would stick in the accumulator).
    fn collect(&mut self, c: &'a Comprehension, items: Vec<Value>) -> Result<Value, Fault> {
        let mut out = Vec::new();
        for item in items {
            self.charge(1)?;
            if let Some(pred) = &c.pred {
                match self.with_var(&c.var, item.clone(), pred)? {
                    Value::Bool(true) => {}
                    Value::Bool(false) => continue,
                    _ => return Err(Fault::no_overload()),
                }
            }
            let v = match &c.transform {
                Some(t) => self.with_var(&c.var, item, t)?,
                None => item,
            };
            out.push(v);
        }
        Ok(Value::list(out))
    }

    fn bind(&mut self, b: &'a Bind) -> Result<Value, Fault> {
        self.locals.push(Local { name: &b.var, value: Slot::Lazy(&b.init) });
        let r = self.eval(&b.body);
        self.locals.pop();
        r
    }
}

/// Map keys from literals; a double key is not supported here (cel-go allows it).
fn map_key(v: &Value) -> Option<MapKey> {
    match v {
        Value::Double(_) => None,
        other => MapKey::from_value(other),
    }
}

/// Extra cost of a call beyond its one step, loosely after cel-go's runtime cost model:
/// work proportional to the size of strings and lists involved.
fn call_cost(function: &str, args: &[Value]) -> u64 {
    let size = |v: &Value| match v {
        Value::String(s) => s.len() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::List(l) => l.len() as u64,
        _ => 0,
    };
    match function {
        "@in" | "_==_" | "_!=_" | "_+_" => args.iter().map(size).sum::<u64>() / 10,
        "size" | "!_" | "-_" | "_[_]" => 0,
        _ => args.iter().map(size).sum::<u64>() / 10,
    }
}
