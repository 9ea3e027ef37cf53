//! A node written back as text/template's `String()` methods write it: the `<…>` that an
//! execution error quotes.

use super::parse::{Arg, Command, Pipe};

pub fn pipe(pipe: &Pipe) -> String {
    let commands: Vec<String> = pipe.cmds.iter().map(command).collect();
    let body = commands.join(" | ");
    if pipe.decl.is_empty() {
        return body;
    }
    let op = if pipe.is_assign { "=" } else { ":=" };
    format!("{} {op} {body}", pipe.decl.join(", "))
}

pub fn command(command: &Command) -> String {
    let args: Vec<String> = command.args.iter().map(arg).collect();
    args.join(" ")
}

pub fn arg(arg: &Arg) -> String {
    match arg {
        Arg::Function { name, .. } => name.clone(),
        Arg::Field { names, .. } => names.iter().map(|n| format!(".{n}")).collect(),
        Arg::Variable { name, fields, .. } => {
            let mut text = name.clone();
            for field in fields {
                text.push('.');
                text.push_str(field);
            }
            text
        }
        Arg::Chain { pipe: inner, fields, .. } => {
            let mut text = format!("({})", pipe(inner));
            for field in fields {
                text.push('.');
                text.push_str(field);
            }
            text
        }
        Arg::Dot(_) => ".".into(),
        Arg::Nil(_) => "nil".into(),
        Arg::Bool(_, b) => b.to_string(),
        Arg::Number { raw, .. } => raw.clone(),
        Arg::Str { raw, .. } => raw.clone(),
    }
}
