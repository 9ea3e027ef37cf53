//! Executes parsed templates as text/template/exec.go does under Helm's options
//! (`missingkey=zero`): fields of maps, structs and nil, pipelines passing their value as the
//! last argument, variables scoped to control structures, `range` over lists, maps and
//! integers. Bounded in steps, output bytes and template depth, so no template hangs or
//! exhausts the stack.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::functions::{self, CallError};
use super::node_text;
use super::parse::{Arg, Branch, Command, Node, Pipe};
use super::value::{Value, format_value};
use super::{MAX_DEPTH, MAX_OUTPUT_BYTES, MAX_STEPS, TemplateSet};

/// Why execution stopped early: an error (its full text), or `break`/`continue` leaving a range.
#[derive(Debug)]
pub enum Stop {
    Error(String),
    Break,
    Continue,
}

type Flow<T> = Result<T, Stop>;

/// What one rendering spends, across every template it includes.
#[derive(Default)]
pub struct Budget {
    steps: u64,
    bytes: usize,
}

/// One template being executed: where its text came from (for positions), its name, its
/// variables and what it has printed.
pub struct State<'a> {
    pub set: &'a TemplateSet,
    pub file: &'a str,
    pub name: &'a str,
    pub vars: Vec<(String, Value)>,
    pub out: String,
    pub depth: usize,
    pub budget: &'a mut Budget,
}

impl State<'_> {
    /// An execution error at `pos`, worded as ExecError: `template: FILE:L:C: executing
    /// "NAME" at <CONTEXT>: MESSAGE`.
    fn error(&self, pos: usize, context: &str, message: &str) -> Stop {
        let location = self.set.location(self.file, pos, true);
        Stop::Error(format!("template: {location}: executing \"{}\" at <{context}>: {message}", self.name))
    }

    fn step(&mut self, pos: usize, context: &dyn Fn() -> String) -> Flow<()> {
        self.budget.steps += 1;
        if self.budget.steps > MAX_STEPS {
            return Err(self.error(
                pos,
                &context(),
                &format!("rendering stopped after {MAX_STEPS} steps, the lab's limit"),
            ));
        }
        Ok(())
    }

    fn write(&mut self, pos: usize, text: &str) -> Flow<()> {
        self.budget.bytes += text.len();
        if self.budget.bytes > MAX_OUTPUT_BYTES {
            return Err(self.error(
                pos,
                "",
                &format!("rendered output passed {MAX_OUTPUT_BYTES} bytes, the lab's limit"),
            ));
        }
        self.out.push_str(text);
        Ok(())
    }

    pub fn list(&mut self, dot: &Value, nodes: &[Node]) -> Flow<()> {
        for node in nodes {
            self.node(dot, node)?;
        }
        Ok(())
    }

    fn node(&mut self, dot: &Value, node: &Node) -> Flow<()> {
        match node {
            Node::Text(text) => self.write(0, text),
            Node::Action(pipe) => {
                let value = self.pipe(dot, pipe)?;
                if pipe.decl.is_empty() {
                    let text = self.printable(pipe, value)?;
                    self.write(pipe.pos, &text)?;
                }
                Ok(())
            }
            Node::If(branch) => self.branch(dot, branch, |state, value| {
                if value.truthy() { state.nested(dot, &branch.list).map(|_| true) } else { Ok(false) }
            }),
            Node::With(branch) => self.branch(dot, branch, |state, value| {
                if value.truthy() { state.nested(&value, &branch.list).map(|_| true) } else { Ok(false) }
            }),
            Node::Range(branch) => self.range(dot, branch),
            Node::Template { pos, name, pipe } => {
                let data = match pipe {
                    Some(pipe) => self.pipe(dot, pipe)?,
                    None => Value::Nil,
                };
                let text = self.execute_named(*pos, &format!("template \"{name}\""), name, data)?;
                self.write(*pos, &text)
            }
            Node::Break(_) => Err(Stop::Break),
            Node::Continue(_) => Err(Stop::Continue),
        }
    }

    /// What `{{ x }}` prints: `<no value>` for nil (Helm then removes it).
    fn printable(&self, pipe: &Pipe, value: Value) -> Flow<String> {
        Ok(match value {
            Value::Nil => "<no value>".into(),
            Value::Unavailable(what) => return Err(self.unavailable(pipe.pos, &node_text::pipe(pipe), what)),
            other => format_value(&other),
        })
    }

    fn unavailable(&self, pos: usize, context: &str, what: &str) -> Stop {
        self.error(pos, context, &format!("{what} is not available in the lab's Helm"))
    }

    /// `if`/`with`: runs the list when `body` says the value was true, else the else list.
    fn branch(&mut self, dot: &Value, branch: &Branch, body: impl FnOnce(&mut Self, Value) -> Flow<bool>) -> Flow<()> {
        let mark = self.vars.len();
        let value = self.pipe(dot, &branch.pipe)?;
        if !body(self, value)?
            && let Some(else_list) = &branch.else_list
        {
            self.nested(dot, else_list)?;
        }
        self.vars.truncate(mark);
        Ok(())
    }

    fn nested(&mut self, dot: &Value, nodes: &[Node]) -> Flow<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH * 4 {
            return Err(self.error(0, "", &format!("exceeded maximum template depth ({})", MAX_DEPTH * 4)));
        }
        let result = self.list(dot, nodes);
        self.depth -= 1;
        result
    }

    fn range(&mut self, dot: &Value, branch: &Branch) -> Flow<()> {
        let mark = self.vars.len();
        let value = self.pipe(dot, &branch.pipe)?;
        let context = || format!("range {}", node_text::pipe(&branch.pipe));
        let items: Vec<(Value, Value)> = match &value {
            Value::List(items) => items.iter().enumerate().map(|(i, v)| (Value::Int(i as i64), v.clone())).collect(),
            Value::Map(map) => map.iter().map(|(k, v)| (Value::str(k.as_str()), v.clone())).collect(),
            Value::Int(n) => {
                if branch.pipe.decl.len() > 1 {
                    return Err(self.error(
                        branch.pos,
                        &context(),
                        &format!("can't use {n} to iterate over more than one variable"),
                    ));
                }
                let count = (*n).clamp(0, MAX_STEPS as i64);
                (0..count).map(|i| (Value::Int(i), Value::Int(i))).collect()
            }
            Value::Nil => Vec::new(),
            other => {
                return Err(self.error(
                    branch.pos,
                    &context(),
                    &format!("range can't iterate over {}", format_value(other)),
                ));
            }
        };
        let mut ran = false;
        for (key, item) in items {
            self.step(branch.pos, &context)?;
            ran = true;
            let inner = self.vars.len();
            match branch.pipe.decl.as_slice() {
                [v] => self.set_var(v, item.clone()),
                [k, v] => {
                    self.set_var(k, key);
                    self.set_var(v, item.clone());
                }
                _ => {}
            }
            let result = self.nested(&item, &branch.list);
            self.vars.truncate(inner);
            match result {
                Ok(()) | Err(Stop::Continue) => {}
                Err(Stop::Break) => break,
                Err(error) => return Err(error),
            }
        }
        if !ran && let Some(else_list) = &branch.else_list {
            self.nested(dot, else_list)?;
        }
        self.vars.truncate(mark);
        Ok(())
    }

    /// Declares (or, in a range's per-item scope, redeclares) a variable.
    fn set_var(&mut self, name: &str, value: Value) {
        self.vars.push((name.to_string(), value));
    }

    pub fn pipe(&mut self, dot: &Value, pipe: &Pipe) -> Flow<Value> {
        let mut value: Option<Value> = None;
        for cmd in &pipe.cmds {
            value = Some(self.command(dot, cmd, value)?);
        }
        let value = value.unwrap_or(Value::Nil);
        for name in &pipe.decl {
            if pipe.is_assign {
                if let Some(slot) = self.vars.iter_mut().rev().find(|(n, _)| n == name) {
                    slot.1 = value.clone();
                }
            } else {
                self.set_var(name, value.clone());
            }
        }
        Ok(value)
    }

    fn command(&mut self, dot: &Value, cmd: &Command, last: Option<Value>) -> Flow<Value> {
        self.step(cmd.pos, &|| node_text::command(cmd))?;
        let first = &cmd.args[0];
        let has_args = cmd.args.len() > 1 || last.is_some();
        match first {
            Arg::Function { pos, name } => self.function(dot, cmd, *pos, name, last),
            Arg::Field { pos, names } => {
                let context = node_text::arg(first);
                self.fields(dot.clone(), names, *pos, &context, dot, (cmd, last))
            }
            Arg::Variable { pos, name, fields } => {
                let base = self.variable(*pos, name)?;
                if fields.is_empty() {
                    return self.not_a_function(first, has_args).map(|_| base);
                }
                self.fields(base, fields, *pos, &node_text::arg(first), dot, (cmd, last))
            }
            Arg::Chain { pos, pipe, fields } => {
                let base = self.pipe(dot, pipe)?;
                if fields.is_empty() {
                    return self.not_a_function(first, has_args).map(|_| base);
                }
                self.fields(base, fields, *pos, &node_text::arg(first), dot, (cmd, last))
            }
            Arg::Nil(pos) => Err(self.error(*pos, "nil", "nil is not a command")),
            other => {
                self.not_a_function(other, has_args)?;
                self.arg(dot, other)
            }
        }
    }

    fn not_a_function(&self, arg: &Arg, has_args: bool) -> Flow<()> {
        if has_args {
            let text = node_text::arg(arg);
            return Err(self.error(arg.pos(), &text, &format!("can't give argument to non-function {text}")));
        }
        Ok(())
    }

    fn variable(&self, pos: usize, name: &str) -> Flow<Value> {
        if name == "$" && !self.vars.iter().any(|(n, _)| n == "$") {
            return Ok(Value::Nil);
        }
        match self.vars.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) => Ok(value.clone()),
            None => Err(self.error(pos, name, &format!("undefined variable: {name}"))),
        }
    }

    /// An argument evaluated where a value is wanted.
    fn arg(&mut self, dot: &Value, arg: &Arg) -> Flow<Value> {
        match arg {
            Arg::Dot(_) => Ok(dot.clone()),
            Arg::Nil(_) => Ok(Value::Nil),
            Arg::Bool(_, b) => Ok(Value::Bool(*b)),
            Arg::Str { value, .. } => Ok(Value::str(value.as_str())),
            Arg::Number { pos, raw } => parse_number(raw)
                .ok_or_else(|| self.error(*pos, raw, &format!("illegal number syntax: {raw:?}").replace('\\', ""))),
            Arg::Function { pos, name } => {
                let cmd = Command { pos: *pos, args: vec![arg.clone()] };
                self.function(dot, &cmd, *pos, name, None)
            }
            Arg::Field { .. } | Arg::Variable { .. } | Arg::Chain { .. } => {
                let cmd = Command { pos: arg.pos(), args: vec![arg.clone()] };
                self.command(dot, &cmd, None)
            }
        }
    }

    /// A chain of fields from `base`; the last may be a method called with the command's
    /// other arguments (`.Capabilities.APIVersions.Has "apps/v1"`).
    fn fields(
        &mut self,
        base: Value,
        names: &[String],
        pos: usize,
        context: &str,
        dot: &Value,
        (cmd, last): (&Command, Option<Value>),
    ) -> Flow<Value> {
        let mut receiver = base;
        for (i, name) in names.iter().enumerate() {
            let is_last = i + 1 == names.len();
            let has_args = is_last && (cmd.args.len() > 1 || last.is_some());
            receiver = match receiver {
                Value::Map(map) => {
                    if has_args {
                        return Err(self.error(pos, context, &format!("{name} is not a method but has arguments")));
                    }
                    map.get(name).cloned().unwrap_or(Value::Nil)
                }
                Value::Struct(type_name, fields) => match fields.get(name) {
                    Some(_) if has_args => {
                        return Err(self.error(
                            pos,
                            context,
                            &format!("{name} has arguments but cannot be invoked as function"),
                        ));
                    }
                    Some(value) => value.clone(),
                    None => {
                        return Err(self.error(
                            pos,
                            context,
                            &format!("can't evaluate field {name} in type {type_name}"),
                        ));
                    }
                },
                Value::ApiVersions(versions) if name == "Has" && is_last => {
                    let mut args = Vec::new();
                    for arg in &cmd.args[1..] {
                        args.push(self.arg(dot, arg)?);
                    }
                    args.extend(last.clone());
                    return match args.as_slice() {
                        [Value::Str(version)] => Ok(Value::Bool(versions.iter().any(|v| **v == **version))),
                        [_] => Err(self.error(pos, context, "wrong type for value; expected string")),
                        other => Err(self.error(
                            pos,
                            context,
                            &format!("wrong number of args for Has: want 1 got {}", other.len()),
                        )),
                    };
                }
                Value::Nil => {
                    return Err(self.error(pos, context, &format!("nil pointer evaluating interface {{}}.{name}")));
                }
                Value::Unavailable(what) => return Err(self.unavailable(pos, context, what)),
                other => {
                    let type_name =
                        if matches!(other, Value::ApiVersions(_)) { other.go_type() } else { "interface {}" };
                    return Err(self.error(pos, context, &format!("can't evaluate field {name} in type {type_name}")));
                }
            };
            if let Value::Unavailable(what) = receiver {
                return Err(self.unavailable(pos, context, what));
            }
        }
        Ok(receiver)
    }

    fn function(&mut self, dot: &Value, cmd: &Command, pos: usize, name: &str, last: Option<Value>) -> Flow<Value> {
        let context = node_text::command(cmd);
        let operands = &cmd.args[1..];
        if name == "and" || name == "or" {
            return self.and_or(dot, name, operands, last, (cmd.pos, &context));
        }
        let mut args = Vec::with_capacity(operands.len() + 1);
        for operand in operands {
            let value = self.arg(dot, operand)?;
            if let Value::Unavailable(what) = value {
                return Err(self.unavailable(operand.pos(), &node_text::arg(operand), what));
            }
            args.push(value);
        }
        args.extend(last);
        if name == "include" {
            return self.include(cmd.pos, &context, args);
        }
        match functions::call(name, &args) {
            Ok(value) => Ok(value),
            Err(CallError::Returned(message)) => {
                Err(self.error(cmd.pos, &context, &format!("error calling {name}: {message}")))
            }
            Err(CallError::Argument(message)) => Err(self.error(pos, &context, &message)),
        }
    }

    /// `and`/`or` evaluate lazily and answer the deciding operand itself.
    fn and_or(
        &mut self,
        dot: &Value,
        name: &str,
        operands: &[Arg],
        last: Option<Value>,
        (pos, context): (usize, &str),
    ) -> Flow<Value> {
        let count = operands.len() + usize::from(last.is_some());
        if count == 0 {
            return Err(self.error(pos, context, &format!("wrong number of args for {name}: want at least 1 got 0")));
        }
        let mut value = Value::Nil;
        for operand in operands {
            value = self.arg(dot, operand)?;
            if value.truthy() == (name == "or") {
                return Ok(value);
            }
        }
        Ok(last.unwrap_or(value))
    }

    /// Helm's `include`: a named template's text, as a value to pipe on.
    fn include(&mut self, pos: usize, context: &str, args: Vec<Value>) -> Flow<Value> {
        let [name, data] = <[Value; 2]>::try_from(args).map_err(|args| {
            self.error(pos, context, &format!("wrong number of args for include: want 2 got {}", args.len()))
        })?;
        let Value::Str(name) = name else {
            return Err(self.error(
                pos,
                context,
                &format!("wrong type for value; expected string; got {}", name.go_type()),
            ));
        };
        if self.depth >= MAX_DEPTH {
            let message = format!(
                "error calling include: rendering template has a nested reference name: {name}: unable to execute template"
            );
            return Err(self.error(pos, context, &message));
        }
        match self.execute_named(pos, context, &name, data) {
            Ok(text) => Ok(Value::str(text)),
            Err(Stop::Error(inner)) => Err(self.error(pos, context, &format!("error calling include: {inner}"))),
            Err(other) => Err(other),
        }
    }

    /// Runs a named template with `data` as its dot and `$`; returns its text.
    fn execute_named(&mut self, pos: usize, context: &str, name: &str, data: Value) -> Flow<String> {
        let Some((file, nodes)) = self.set.named(name) else {
            return Err(self.error(
                pos,
                context,
                &format!("template: no template {name:?} associated with template \"gotpl\""),
            ));
        };
        if self.depth >= MAX_DEPTH {
            return Err(self.error(pos, context, &format!("exceeded maximum template depth ({MAX_DEPTH})")));
        }
        let mut inner = State {
            set: self.set,
            file,
            name,
            vars: vec![("$".into(), data.clone())],
            out: String::new(),
            depth: self.depth + 1,
            budget: self.budget,
        };
        inner.list(&data, nodes)?;
        Ok(inner.out)
    }
}

/// A number constant: an integer when it is one (Go's `int`), else a float64.
fn parse_number(raw: &str) -> Option<Value> {
    let clean = raw.replace('_', "");
    let (sign, digits) = match clean.strip_prefix('-') {
        Some(rest) => (-1, rest.to_string()),
        None => (1, clean.trim_start_matches('+').to_string()),
    };
    let int = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()
    } else if let Some(oct) = digits.strip_prefix("0o") {
        i64::from_str_radix(oct, 8).ok()
    } else if digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit()) {
        i64::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse::<i64>().ok()
    };
    if let Some(i) = int {
        return Some(Value::Int(sign * i));
    }
    digits.parse::<f64>().ok().filter(|f| f.is_finite()).map(|f| Value::Float(sign as f64 * f))
}

/// The data every chart template sees, as a map.
pub fn map(entries: impl IntoIterator<Item = (String, Value)>) -> Value {
    Value::Map(Rc::new(entries.into_iter().collect::<BTreeMap<_, _>>()))
}
