//! A Common Expression Language (CEL) evaluator that behaves like cel-go as Kubernetes
//! configures it: parse, type-check against declared variables, evaluate with a cost limit.
//! Used for DRA device selectors (`resource.k8s.io/v1`) and meant for ValidatingAdmissionPolicy.
//!
//! ```text
//! let mut env = Env::new();
//! env.declare("x", Type::Int);
//! let program = compile("x * 2 > 10", &env)?;          // CompileError prints like cel-go
//! let mut vars = Activation::new();
//! vars.insert("x", Value::Int(6));
//! assert_eq!(program.eval(&vars)?, Value::Bool(true)); // EvalError: "division by zero", …
//! ```
//!
//! The Kubernetes environment it mirrors: the standard library with cross-type numeric
//! comparisons and homogeneous aggregate literals, `ext.Strings` version 2, `cel.bind`, and
//! the Kubernetes quantity and semver libraries.
//!
//! Where it differs from cel-go (each seen against a cel-go build): `matches` uses regex-lite,
//! so a bad pattern's message is regex-lite's and `\p{L}`-style classes are missing; only the
//! first parser error is reported; runtime cost is one per node plus sizes, not cel-go's model;
//! `type(x)` prints `type`, not `type(int)`. Message construction builds only the
//! object types an `Env` declares (`JSONPatch`, the open `Object.*` family). Not built: optional syntax (`.?`, `[?`), message
//! timestamps and durations, two-variable comprehensions, `ext.Sets` and the
//! lists, regex, URL, IP/CIDR and format libraries, quantity `mul`/`div`.

mod ast;
mod checker;
mod error;
mod eval;
mod functions;
mod lexer;
mod parser;
mod quantity;
mod semver;
mod semver_library;
mod types;
mod value;

#[cfg(test)]
mod tests;

pub use error::{CompileError, EvalError};
pub use eval::COST_LIMIT;
pub use semver::{Semver, SemverError};
pub use types::{ObjectType, Type};
pub use value::{MapKey, MapValue, ObjectValue, Value};

use std::collections::BTreeMap;

/// The declared variables an expression may use, with their types.
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: BTreeMap<String, Type>,
    /// Object types an expression may construct (`JSONPatch{…}`), by name.
    structs: BTreeMap<String, ObjectType>,
    /// A root whose every dotted name is a constructible type with any fields: Kubernetes'
    /// `Object`, `Object.spec`, `Object.spec.template`, … (mutating admission policies).
    open_struct_root: Option<String>,
}

impl Env {
    pub fn new() -> Env {
        Env::default()
    }

    /// Declares (or redeclares) a variable.
    pub fn declare(&mut self, name: &str, ty: Type) -> &mut Env {
        self.vars.insert(name.to_owned(), ty);
        self
    }

    /// Declares an object type that `Name{field: value}` may construct.
    pub fn declare_struct(&mut self, ty: ObjectType) -> &mut Env {
        self.structs.insert(ty.name.clone(), ty);
        self
    }

    /// Makes `root` and every `root.a.b` a constructible type with any fields.
    pub fn declare_open_struct_root(&mut self, root: &str) -> &mut Env {
        self.open_struct_root = Some(root.to_owned());
        self
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<&Type> {
        self.vars.get(name)
    }

    /// The type `Name{…}` constructs, if the name is one: `None` for unknown names, fields
    /// `None` for an open type.
    pub(crate) fn struct_type(&self, name: &str) -> Option<(ObjectType, bool)> {
        if let Some(t) = self.structs.get(name) {
            return Some((t.clone(), false));
        }
        let root = self.open_struct_root.as_deref()?;
        let open = name == root || name.strip_prefix(root).is_some_and(|rest| rest.starts_with('.'));
        open.then(|| (ObjectType::new(name, Vec::new()), true))
    }
}

/// Values for the declared variables at evaluation time.
#[derive(Clone, Debug, Default)]
pub struct Activation {
    vars: BTreeMap<String, Value>,
}

impl Activation {
    pub fn new() -> Activation {
        Activation::default()
    }

    pub fn insert(&mut self, name: &str, value: Value) -> &mut Activation {
        self.vars.insert(name.to_owned(), value);
        self
    }

    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }
}

/// A parsed and type-checked expression, ready to evaluate any number of times.
#[derive(Clone, Debug)]
pub struct Program {
    expr: ast::Expr,
    result_type: Type,
}

impl Program {
    /// The checked type of the expression, e.g. for Kubernetes' "must evaluate to bool".
    pub fn result_type(&self) -> &Type {
        &self.result_type
    }

    /// Evaluates against the given variables; at most `COST_LIMIT` steps.
    pub fn eval(&self, vars: &Activation) -> Result<Value, EvalError> {
        eval::evaluate(&self.expr, vars).map_err(error::Fault::into_eval_error)
    }
}

/// Parses and type-checks `source` against `env` (cel-go `Env.Compile`).
pub fn compile(source: &str, env: &Env) -> Result<Program, CompileError> {
    let expr = parser::parse(source).map_err(|issues| CompileError::new(source, issues))?;
    let result_type = checker::check(&expr, env).map_err(|issues| CompileError::new(source, issues))?;
    Ok(Program { expr, result_type })
}
