//! The busybox applets the guest's shell has, with busybox's messages and exit codes.

use super::interpreter::{Flow, Io, Shell};

/// What the image's `$PATH` holds.
pub const APPLETS: &[&str] = &[
    "sh", "echo", "cat", "env", "printenv", "sleep", "true", "false", ":", "exit", "touch", "rm", "hostname", "test",
    "[", "pwd", "mkdir",
];

/// Runs applet `program` (by name or path); `None` when there is no such applet.
pub fn call(shell: &mut Shell, program: &str, args: &[String], io: &mut Io) -> Option<Flow> {
    let name = program.rsplit('/').next().unwrap_or(program);
    let status = |ok: bool| Flow::Status(if ok { 0 } else { 1 });
    Some(match name {
        "sh" => sh(shell, args, io),
        "echo" => echo(args, io),
        "cat" => status(cat(shell, args, io)),
        "env" | "printenv" => status(env(shell, args, io)),
        "sleep" => sleep(shell, args, io),
        "true" | ":" => Flow::Status(0),
        "false" => Flow::Status(1),
        "exit" => Flow::Exit(args.first().and_then(|code| code.parse::<i32>().ok()).map_or(0, |c| c & 0xff)),
        "touch" => {
            args.iter().filter(|a| !a.starts_with('-')).for_each(|path| shell.write(path, true, ""));
            Flow::Status(0)
        }
        "rm" => status(rm(shell, args, io)),
        "hostname" => {
            io.out.push_str(&format!("{}\n", shell.env().get("HOSTNAME").map_or("localhost", String::as_str)));
            Flow::Status(0)
        }
        "test" => status(test(shell, args)),
        "[" => match args.split_last() {
            Some((last, inner)) if last == "]" => status(test(shell, inner)),
            _ => {
                io.err.push_str("[: missing ]\n");
                Flow::Status(2)
            }
        },
        "pwd" => {
            io.out.push_str("/\n");
            Flow::Status(0)
        }
        "mkdir" => Flow::Status(0),
        _ => return None,
    })
}

fn sh(shell: &mut Shell, args: &[String], io: &mut Io) -> Flow {
    match args {
        [] => Flow::Status(0),
        [flag, script, rest @ ..] if flag == "-c" => {
            let positional = if rest.is_empty() { vec!["sh".to_string()] } else { rest.to_vec() };
            shell.nested(script, positional, io)
        }
        [flag] if flag == "-c" => {
            io.err.push_str("sh: -c requires an argument\n");
            Flow::Status(2)
        }
        [file, rest @ ..] => match shell.files.get(file).cloned() {
            Some(script) => {
                let positional = std::iter::once(file.clone()).chain(rest.iter().cloned()).collect();
                shell.nested(&script, positional, io)
            }
            None => {
                io.err.push_str(&format!("sh: can't open '{file}': No such file or directory\n"));
                Flow::Status(2)
            }
        },
    }
}

fn echo(args: &[String], io: &mut Io) -> Flow {
    let newline = args.first().is_none_or(|a| a != "-n");
    let words = if newline { args } else { &args[1..] };
    io.out.push_str(&words.join(" "));
    if newline {
        io.out.push('\n');
    }
    Flow::Status(0)
}

fn cat(shell: &Shell, args: &[String], io: &mut Io) -> bool {
    let mut ok = true;
    for path in args.iter().filter(|a| *a != "-") {
        match shell.files.get(path) {
            Some(content) => io.out.push_str(content),
            None => {
                io.err.push_str(&format!("cat: can't open '{path}': No such file or directory\n"));
                ok = false;
            }
        }
    }
    ok
}

fn env(shell: &Shell, args: &[String], io: &mut Io) -> bool {
    match args.first() {
        Some(name) => match shell.env().get(name) {
            Some(value) => {
                io.out.push_str(&format!("{value}\n"));
                true
            }
            None => false,
        },
        None => {
            shell.env().iter().for_each(|(name, value)| io.out.push_str(&format!("{name}={value}\n")));
            true
        }
    }
}

fn sleep(shell: &mut Shell, args: &[String], io: &mut Io) -> Flow {
    if args.is_empty() {
        io.err.push_str("BusyBox v1.37.0 multi-call binary.\n\nUsage: sleep [N]...\n");
        return Flow::Status(1);
    }
    let mut total: u64 = 0;
    for arg in args {
        match duration_ms(arg) {
            Some(Some(ms)) => total = total.saturating_add(ms),
            Some(None) => return shell.sleep(None),
            None => {
                io.err.push_str(&format!("sleep: invalid number '{arg}'\n"));
                return Flow::Status(1);
            }
        }
    }
    shell.sleep(Some(total))
}

/// `1`, `0.5`, `2s`, `3m`, `1h`, `1d`: `Some(Some(ms))`; `infinity`: `Some(None)`.
fn duration_ms(arg: &str) -> Option<Option<u64>> {
    if arg == "inf" || arg == "infinity" {
        return Some(None);
    }
    let (number, unit_ms) = match arg.char_indices().last()? {
        (at, 's') => (&arg[..at], 1_000.0),
        (at, 'm') => (&arg[..at], 60_000.0),
        (at, 'h') => (&arg[..at], 3_600_000.0),
        (at, 'd') => (&arg[..at], 86_400_000.0),
        _ => (arg, 1_000.0),
    };
    let valid = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit() || c == '.');
    let value: f64 = number.parse().ok().filter(|_| valid)?;
    Some(Some((value * unit_ms) as u64))
}

fn rm(shell: &mut Shell, args: &[String], io: &mut Io) -> bool {
    let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
    let mut ok = true;
    for path in args.iter().filter(|a| !a.starts_with('-')) {
        if !shell.remove(path) && !force {
            io.err.push_str(&format!("rm: can't remove '{path}': No such file or directory\n"));
            ok = false;
        }
    }
    ok
}

/// `test` / `[`: files, strings and integers.
fn test(shell: &Shell, args: &[String]) -> bool {
    let number = |s: &str| s.trim().parse::<i64>().unwrap_or(0);
    match args {
        [] => false,
        [bang, rest @ ..] if bang == "!" => !test(shell, rest),
        [one] => !one.is_empty(),
        [op, path] if op == "-f" || op == "-e" || op == "-r" || op == "-s" => {
            shell.files.get(path).is_some_and(|content| op != "-s" || !content.is_empty())
        }
        [op, path] if op == "-d" => path == "/" || shell.files.keys().any(|f| f.starts_with(&format!("{path}/"))),
        [op, text] if op == "-z" => text.is_empty(),
        [op, text] if op == "-n" => !text.is_empty(),
        [a, op, b] => match op.as_str() {
            "=" | "==" => a == b,
            "!=" => a != b,
            "-eq" => number(a) == number(b),
            "-ne" => number(a) != number(b),
            "-lt" => number(a) < number(b),
            "-le" => number(a) <= number(b),
            "-gt" => number(a) > number(b),
            "-ge" => number(a) >= number(b),
            _ => false,
        },
        _ => false,
    }
}
