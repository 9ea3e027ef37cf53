//! busybox's text applets (`echo`, `cat`, `seq`, `sort`, `uniq -c`, `head`, `grep`, `wc`,
//! `test`…), worded as busybox 1.37 words them. Pure: text in, text out.

use super::Files;
use super::Io;
use crate::sim::time::Duration;

/// The exit code an applet returns to say it blocks forever (`tail -f`, `top`).
pub const FOREVER: i32 = i32::MIN;

/// The applets a busybox image has on its `$PATH`.
pub const APPLETS: &[&str] = &[
    "sh", "ash", "bash", "sleep", "echo", "printf", "cat", "touch", "rm", "test", "[", "[[", "true", "false", "exit",
    ":", "mkdir", "ls", "date", "env", "printenv", "hostname", "wget", "nslookup", "nc", "ip", "ps", "kill", "trap",
    "cd", "export", "unset", "read", "eval", "exec", "shift", "set", "wait", "break", "continue", "tail", "head",
    "top", "seq", "sort", "uniq", "wc", "grep", "basename", "dirname", "id", "whoami", "pwd", "uname", "which",
    "command", "ping", "umask", "ulimit", "cut", "tr", "yes",
];

/// The applets that read stdin; the others leave it to the next command (`while read`).
pub const READS_STDIN: &[&str] = &["cat", "sort", "uniq", "head", "tail", "wc", "grep", "nc", "cut", "tr"];

/// What the applets may read of the shell.
pub struct Context<'a> {
    pub files: &'a Files,
    pub env: Vec<(String, String)>,
    pub date: String,
    pub identity: &'a super::Identity,
}

/// Runs a text applet; `None` when busybox has no such applet.
pub fn run(name: &str, args: &[String], io: &mut Io, ctx: &Context<'_>) -> Option<i32> {
    let code = match name {
        "echo" => echo(args, io),
        "printf" => printf(args, io),
        "cat" => cat(args, io, ctx),
        "seq" => seq(args, io),
        "sort" => sort(args, io, ctx),
        "uniq" => uniq(args, io),
        "head" | "tail" => head_tail(name, args, io, ctx),
        "wc" => wc(args, io, ctx),
        "grep" => grep(args, io, ctx),
        "cut" => cut(args, io, ctx),
        "tr" => tr(args, io),
        "test" => test(args, ctx, io),
        "[" | "[[" => match args.split_last() {
            Some((last, rest)) if last == "]" || last == "]]" => test(rest, ctx, io),
            _ => {
                io.err("sh: missing ]\n");
                2
            }
        },
        "true" | ":" | "mkdir" => 0,
        "false" => 1,
        "env" | "printenv" => printenv(args, io, ctx),
        "hostname" => {
            let host = ctx.env.iter().find(|(n, _)| n == "HOSTNAME").map_or("localhost", |(_, v)| v.as_str());
            io.out(format!("{host}\n"));
            0
        }
        "date" => {
            io.out(format!("{}\n", ctx.date));
            0
        }
        "ls" => ls(args, io, ctx),
        "basename" | "dirname" => path_part(name, args, io),
        "id" => id(args, io, ctx.identity),
        "whoami" => match ctx.identity.user_name() {
            Some(name) => {
                io.out(format!("{name}\n"));
                0
            }
            None => {
                io.err(format!("whoami: unknown uid {}\n", ctx.identity.uid));
                1
            }
        },
        "pwd" => {
            io.out("/\n");
            0
        }
        "uname" => {
            let all = args.iter().any(|a| a == "-a");
            io.out(if all { "Linux lab 6.12.0 #1 SMP x86_64 GNU/Linux\n" } else { "Linux\n" });
            0
        }
        "which" | "command" => which(args, io),
        "top" => FOREVER,
        "yes" => {
            let line = if args.is_empty() { "y".to_string() } else { args.join(" ") };
            while io.stdout_len < 64 << 10 {
                io.out(format!("{line}\n"));
            }
            FOREVER
        }
        // The network and process applets are the host's; a host without a network (the
        // kubelet's timeline) lets them succeed quietly.
        _ if super::is_applet(name) => 0,
        _ => return None,
    };
    Some(code)
}

fn busybox_usage(io: &mut Io, usage: &str) -> i32 {
    io.err(format!("{}\n\n{usage}", super::BUSYBOX_BANNER));
    1
}

fn echo(args: &[String], io: &mut Io) -> i32 {
    let (mut newline, mut escapes, mut rest) = (true, false, args);
    while let Some((flag, tail)) = rest.split_first() {
        match flag.as_str() {
            "-n" => newline = false,
            "-e" => escapes = true,
            "-E" => escapes = false,
            "-ne" | "-en" => (newline, escapes) = (false, true),
            _ => break,
        }
        rest = tail;
    }
    let text = rest.join(" ");
    io.out(if escapes { unescape(&text) } else { text });
    if newline {
        io.out("\n");
    }
    0
}

/// `\n`, `\t`, `\\` and friends, as `echo -e` and `printf` read them.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('a') => out.push('\u{7}'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// `printf FORMAT ARGS…`: `%s`, `%d`, `%i`, `%x`, `%%`, with widths; the format repeats while
/// arguments are left.
fn printf(args: &[String], io: &mut Io) -> i32 {
    let Some((format, mut rest)) = args.split_first() else {
        return busybox_usage(
            io,
            "Usage: printf FORMAT [ARG]...\n\nFormat and print ARG(s) according to FORMAT (a-la C printf)\n",
        );
    };
    let format = unescape(format);
    let mut text = String::new();
    loop {
        let mut used = 0;
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                text.push(c);
                continue;
            }
            let mut spec = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '-') {
                spec.push(d);
                chars.next();
            }
            let conversion = chars.next().unwrap_or('%');
            if conversion == '%' {
                text.push('%');
                continue;
            }
            let arg = rest.get(used).cloned().unwrap_or_default();
            used += 1;
            let value = match conversion {
                'd' | 'i' => arg.trim().parse::<i64>().unwrap_or(0).to_string(),
                'x' => format!("{:x}", arg.trim().parse::<i64>().unwrap_or(0)),
                _ => arg,
            };
            text.push_str(&pad(&value, &spec));
        }
        rest = &rest[used.min(rest.len())..];
        if used == 0 || rest.is_empty() {
            io.out(text);
            return 0;
        }
    }
}

fn pad(text: &str, spec: &str) -> String {
    let left = spec.starts_with('-');
    let width: usize = spec.trim_start_matches('-').parse().unwrap_or(0);
    if left { format!("{text:<width$}") } else { format!("{text:>width$}") }
}

/// The named files' text (or stdin for none or `-`); an error line for each missing one.
fn inputs(name: &str, files: &[&String], io: &mut Io, ctx: &Context<'_>) -> (Vec<(String, String)>, i32) {
    if files.is_empty() {
        return (vec![("-".into(), std::mem::take(&mut io.stdin))], 0);
    }
    let mut texts = Vec::new();
    let mut code = 0;
    for file in files {
        if *file == "-" {
            texts.push(("-".into(), std::mem::take(&mut io.stdin)));
        } else if let Some(text) = ctx.files.get(file.as_str()) {
            texts.push((file.to_string(), text.clone()));
        } else {
            io.err(format!("{name}: can't open '{file}': No such file or directory\n"));
            code = 1;
        }
    }
    (texts, code)
}

fn operands(args: &[String]) -> Vec<&String> {
    args.iter().filter(|a| !a.starts_with('-') || *a == "-").collect()
}

fn cat(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let (texts, code) = inputs("cat", &operands(args), io, ctx);
    for (_, text) in texts {
        io.out(text);
    }
    code
}

/// `seq [FIRST [INC]] LAST`.
fn seq(args: &[String], io: &mut Io) -> i32 {
    let numbers: Option<Vec<i64>> = args.iter().map(|a| a.parse().ok()).collect();
    let (first, step, last) = match numbers.as_deref() {
        Some([last]) => (1, 1, *last),
        Some([first, last]) => (*first, 1, *last),
        Some([first, step, last]) if *step != 0 => (*first, *step, *last),
        Some(_) if !args.is_empty() && args.len() <= 3 => {
            io.err("seq: invalid argument\n");
            return 1;
        }
        _ => {
            return busybox_usage(
                io,
                "Usage: seq [-w] [-s SEP] [FIRST [INC]] LAST\n\nPrint numbers from FIRST to LAST, in steps of INC.\nFIRST, INC default to 1.\n\n\t-w\tPad to last with leading zeros\n\t-s SEP\tString separator\n",
            );
        }
    };
    let mut n = first;
    while (step > 0 && n <= last) || (step < 0 && n >= last) {
        io.out(format!("{n}\n"));
        if io.stdout_len > 1 << 20 {
            break;
        }
        n += step;
    }
    0
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn sort(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let flags: String = args.iter().filter(|a| a.starts_with('-') && a.len() > 1).map(|a| &a[1..]).collect();
    let (texts, code) = inputs("sort", &operands(args), io, ctx);
    let joined: String = texts.into_iter().map(|(_, t)| t).collect();
    let mut all = lines(&joined);
    if flags.contains('n') {
        let key = |line: &str| {
            line.trim_start()
                .split(|c: char| !c.is_ascii_digit() && c != '-')
                .next()
                .and_then(|n| n.parse::<i64>().ok())
                .unwrap_or(0)
        };
        all.sort_by(|a, b| key(a).cmp(&key(b)).then(a.cmp(b)));
    } else {
        all.sort();
    }
    if flags.contains('r') {
        all.reverse();
    }
    if flags.contains('u') {
        all.dedup();
    }
    for line in all {
        io.out(format!("{line}\n"));
    }
    code
}

/// `uniq [-c] [-d] [-u]`: adjacent repeats folded; `-c` prefixes the count as `%7d `.
fn uniq(args: &[String], io: &mut Io) -> i32 {
    let flags: String = args.iter().filter(|a| a.starts_with('-')).map(|a| &a[1..]).collect();
    let input = std::mem::take(&mut io.stdin);
    let mut groups: Vec<(&str, usize)> = Vec::new();
    for line in input.lines() {
        match groups.last_mut() {
            Some((last, count)) if *last == line => *count += 1,
            _ => groups.push((line, 1)),
        }
    }
    for (line, count) in groups {
        if (flags.contains('d') && count < 2) || (flags.contains('u') && count > 1) {
            continue;
        }
        if flags.contains('c') {
            io.out(format!("{count:>7} {line}\n"));
        } else {
            io.out(format!("{line}\n"));
        }
    }
    0
}

/// `head`/`tail [-n N | -N] [-f]`.
fn head_tail(name: &str, args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let mut count = 10usize;
    let mut follow = false;
    let mut files = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        if arg == "-n" {
            i += 1;
            count = args.get(i).and_then(|n| n.trim_start_matches('+').parse().ok()).unwrap_or(count);
        } else if let Some(n) = arg.strip_prefix("-n") {
            count = n.parse().unwrap_or(count);
        } else if arg == "-f" || arg == "-F" {
            follow = true;
        } else if let Some(n) = arg.strip_prefix('-').and_then(|n| n.parse().ok()) {
            count = n;
        } else {
            files.push(arg);
        }
        i += 1;
    }
    let (texts, code) = inputs(name, &files, io, ctx);
    for (_, text) in texts {
        let all = lines(&text);
        let picked =
            if name == "head" { &all[..count.min(all.len())] } else { &all[all.len().saturating_sub(count)..] };
        for line in picked {
            io.out(format!("{line}\n"));
        }
    }
    if follow { FOREVER } else { code }
}

/// `wc [-l] [-w] [-c]`: one count plain, several as `%9u` columns.
fn wc(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let flags: String = args.iter().filter(|a| a.starts_with('-') && a.len() > 1).map(|a| &a[1..]).collect();
    let files = operands(args);
    let (texts, code) = inputs("wc", &files, io, ctx);
    let wanted: Vec<char> =
        if flags.is_empty() { vec!['l', 'w', 'c'] } else { "lwc".chars().filter(|c| flags.contains(*c)).collect() };
    for (name, text) in texts {
        let counts: Vec<usize> = wanted
            .iter()
            .map(|c| match c {
                'l' => text.matches('\n').count(),
                'w' => text.split_whitespace().count(),
                _ => text.len(),
            })
            .collect();
        let mut line = if counts.len() == 1 && files.is_empty() {
            counts[0].to_string()
        } else {
            counts.iter().map(|n| format!("{n:>9}")).collect::<Vec<_>>().join(" ")
        };
        if !files.is_empty() {
            line.push_str(&format!(" {name}"));
        }
        io.out(format!("{line}\n"));
    }
    code
}

/// `grep [-vicqnEF] PATTERN [FILE…]`: basic regular expressions unless `-E`, fixed with `-F`.
fn grep(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let mut flags = String::new();
    let mut rest = Vec::new();
    for arg in args {
        match arg.strip_prefix('-').filter(|f| !f.is_empty() && rest.is_empty()) {
            Some(f) => flags.push_str(f),
            None => rest.push(arg),
        }
    }
    let Some((pattern, files)) = rest.split_first() else {
        return busybox_usage(
            io,
            "Usage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n\nSearch for PATTERN in FILEs (or stdin)\n",
        );
    };
    let source = if flags.contains('F') {
        regex_lite::escape(pattern)
    } else if flags.contains('E') {
        pattern.to_string()
    } else {
        basic_to_extended(pattern)
    };
    let source = if flags.contains('i') { format!("(?i){source}") } else { source };
    let Ok(regex) = regex_lite::Regex::new(&source) else {
        io.err(format!("grep: bad regex '{pattern}'\n"));
        return 2;
    };
    let (texts, code) = inputs("grep", files, io, ctx);
    let (invert, quiet) = (flags.contains('v'), flags.contains('q'));
    let mut matched = 0;
    let several = texts.len() > 1;
    for (name, text) in &texts {
        let mut count = 0;
        for (number, line) in text.lines().enumerate() {
            if regex.is_match(line) == invert {
                continue;
            }
            count += 1;
            if quiet || flags.contains('c') {
                continue;
            }
            let prefix = if several { format!("{name}:") } else { String::new() };
            let number = if flags.contains('n') { format!("{}:", number + 1) } else { String::new() };
            io.out(format!("{prefix}{number}{line}\n"));
        }
        if flags.contains('c') && !quiet {
            io.out(if several { format!("{name}:{count}\n") } else { format!("{count}\n") });
        }
        matched += count;
    }
    if code != 0 && matched == 0 { 2 } else { i32::from(matched == 0) }
}

/// A POSIX basic regular expression in the extended syntax regex-lite reads: `\(`, `\)`,
/// `\{`, `\}`, `\|`, `\+`, `\?` are the operators, the bare characters literals.
fn basic_to_extended(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(op @ ('(' | ')' | '{' | '}' | '|' | '+' | '?')) => out.push(op),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push_str("\\\\"),
            },
            '(' | ')' | '{' | '}' | '|' | '+' | '?' => {
                out.push('\\');
                out.push(c);
            }
            other => out.push(other),
        }
    }
    out
}

/// `cut -d DELIM -f LIST` and `cut -c LIST`: fields or characters, `N`, `N-M`, `N-`, `-M`.
fn cut(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let (mut delimiter, mut list, mut chars, mut files) = ('\t', None, false, Vec::new());
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let mut value = |flag: &str| -> Option<String> {
            let inline = arg.strip_prefix(flag).filter(|v| !v.is_empty()).map(str::to_string);
            inline.or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        if arg.starts_with("-d") {
            delimiter = value("-d").and_then(|d| d.chars().next()).unwrap_or('\t');
        } else if arg.starts_with("-f") {
            list = value("-f");
        } else if arg.starts_with("-c") {
            list = value("-c");
            chars = true;
        } else {
            files.push(arg);
        }
        i += 1;
    }
    let Some(ranges) = list.as_deref().and_then(parse_ranges) else {
        io.err("cut: expected a list of bytes, characters, or fields\n");
        return 1;
    };
    let wanted = |n: usize| ranges.iter().any(|(from, to)| n >= *from && n <= *to);
    let (texts, code) = inputs("cut", &files, io, ctx);
    for (_, text) in texts {
        for line in text.lines() {
            let picked: String = if chars {
                line.chars().enumerate().filter(|(n, _)| wanted(n + 1)).map(|(_, c)| c).collect()
            } else if !line.contains(delimiter) {
                line.to_string()
            } else {
                let fields: Vec<&str> =
                    line.split(delimiter).enumerate().filter(|(n, _)| wanted(n + 1)).map(|(_, f)| f).collect();
                fields.join(&delimiter.to_string())
            };
            io.out(format!("{picked}\n"));
        }
    }
    code
}

fn parse_ranges(list: &str) -> Option<Vec<(usize, usize)>> {
    list.split(',')
        .map(|part| {
            let number = |text: &str, default: usize| if text.is_empty() { Some(default) } else { text.parse().ok() };
            match part.split_once('-') {
                Some((from, to)) => Some((number(from, 1)?, number(to, usize::MAX)?)),
                None => number(part, 0).map(|n| (n, n)),
            }
        })
        .collect::<Option<Vec<_>>>()
        .filter(|ranges| ranges.iter().all(|(from, _)| *from > 0))
}

/// `tr [-d] SET1 [SET2]`: characters mapped (ranges like `a-z`) or deleted.
fn tr(args: &[String], io: &mut Io) -> i32 {
    let delete = args.first().is_some_and(|a| a == "-d");
    let sets: Vec<Vec<char>> =
        args.iter().filter(|a| !a.starts_with('-') || a.len() == 1).map(|a| expand_set(a)).collect();
    let input = std::mem::take(&mut io.stdin);
    let output: String = match (delete, sets.as_slice()) {
        (true, [set, ..]) => input.chars().filter(|c| !set.contains(c)).collect(),
        (false, [from, to, ..]) if !to.is_empty() => {
            input.chars().map(|c| from.iter().position(|f| *f == c).map_or(c, |at| to[at.min(to.len() - 1)])).collect()
        }
        _ => {
            return busybox_usage(
                io,
                "Usage: tr [-cds] STRING1 [STRING2]\n\nTranslate, squeeze, or delete characters from stdin, writing to stdout\n",
            );
        }
    };
    io.out(output);
    0
}

fn expand_set(set: &str) -> Vec<char> {
    let chars: Vec<char> = unescape(set).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '-' && chars[i] <= chars[i + 2] {
            out.extend(chars[i]..=chars[i + 2]);
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn printenv(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-') && !a.contains('=')).collect();
    if names.is_empty() {
        for (name, value) in &ctx.env {
            io.out(format!("{name}={value}\n"));
        }
        return 0;
    }
    let mut code = 0;
    for name in names {
        match ctx.env.iter().find(|(n, _)| n == name) {
            Some((_, value)) => io.out(format!("{value}\n")),
            None => code = 1,
        }
    }
    code
}

/// The directories every busybox image has at its root.
const ROOT: &[&str] = &["bin", "dev", "etc", "home", "lib", "lib64", "proc", "root", "sys", "tmp", "usr", "var"];

fn ls(args: &[String], io: &mut Io, ctx: &Context<'_>) -> i32 {
    let paths = operands(args);
    let paths: Vec<String> = if paths.is_empty() { vec!["/".into()] } else { paths.into_iter().cloned().collect() };
    let mut code = 0;
    for path in paths {
        if ctx.files.contains_key(&path) {
            io.out(format!("{path}\n"));
            continue;
        }
        let prefix = if path.ends_with('/') { path.clone() } else { format!("{path}/") };
        let mut entries: Vec<String> = ctx
            .files
            .keys()
            .filter_map(|f| f.strip_prefix(&prefix))
            .map(|rest| rest.split('/').next().unwrap_or(rest).to_string())
            .collect();
        if prefix == "/" {
            entries.extend(ROOT.iter().map(|d| d.to_string()));
        }
        entries.sort();
        entries.dedup();
        if entries.is_empty() && !matches!(path.as_str(), "/tmp" | "/tmp/" | "/root" | "/home" | "/var") {
            io.err(format!("ls: {path}: No such file or directory\n"));
            code = 1;
            continue;
        }
        for entry in entries {
            io.out(format!("{entry}\n"));
        }
    }
    code
}

fn path_part(name: &str, args: &[String], io: &mut Io) -> i32 {
    let Some(path) = args.first() else {
        return busybox_usage(io, &format!("Usage: {name} FILE\n"));
    };
    let trimmed = path.trim_end_matches('/');
    let text = match (name, trimmed.rsplit_once('/')) {
        ("basename", Some((_, base))) => base.to_string(),
        ("basename", None) => trimmed.to_string(),
        (_, Some(("", _))) => "/".to_string(),
        (_, Some((dir, _))) => dir.to_string(),
        (_, None) => ".".to_string(),
    };
    io.out(format!("{text}\n"));
    0
}

/// `which X` and `command -v X`: where an applet lives.
fn which(args: &[String], io: &mut Io) -> i32 {
    let mut code = 0;
    for name in args.iter().filter(|a| !a.starts_with('-')) {
        if super::is_applet(name) {
            io.out(format!("/bin/{name}\n"));
        } else {
            code = 1;
        }
    }
    code
}

/// `test` and `[`: files, strings and integers.
fn test(args: &[String], ctx: &Context<'_>, io: &mut Io) -> i32 {
    match args {
        [bang, rest @ ..] if bang == "!" => match test(rest, ctx, io) {
            2 => 2,
            code => i32::from(code == 0),
        },
        [] => 1,
        [word] => i32::from(word.is_empty()),
        [flag, operand] => {
            let holds = match flag.as_str() {
                "-z" => operand.is_empty(),
                "-n" => !operand.is_empty(),
                "-f" | "-e" | "-r" | "-w" => ctx.files.contains_key(operand.as_str()),
                "-s" => ctx.files.get(operand.as_str()).is_some_and(|f| !f.is_empty()),
                "-d" => {
                    let dir = format!("{}/", operand.trim_end_matches('/'));
                    operand == "/"
                        || ROOT.iter().any(|d| operand.trim_matches('/') == *d)
                        || ctx.files.keys().any(|f| f.starts_with(&dir))
                }
                "-x" => super::is_applet(operand.rsplit('/').next().unwrap_or("")),
                _ => {
                    io.err(format!("sh: {flag}: unknown operand\n"));
                    return 2;
                }
            };
            i32::from(!holds)
        }
        [a, op, b] => {
            let number = |text: &str| text.trim().parse::<i64>().ok();
            let holds = match op.as_str() {
                "=" | "==" => a == b,
                "!=" => a != b,
                "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
                    let (Some(x), Some(y)) = (number(a), number(b)) else {
                        let bad = if number(a).is_none() { a } else { b };
                        io.err(format!("sh: {bad}: bad number\n"));
                        return 2;
                    };
                    match op.as_str() {
                        "-eq" => x == y,
                        "-ne" => x != y,
                        "-lt" => x < y,
                        "-le" => x <= y,
                        "-gt" => x > y,
                        _ => x >= y,
                    }
                }
                _ => {
                    io.err(format!("sh: {op}: unknown operand\n"));
                    return 2;
                }
            };
            i32::from(!holds)
        }
        _ => {
            io.err("sh: syntax error\n");
            2
        }
    }
}

/// `sleep` operands as busybox reads them (`30`, `1.5`, `2m`, `infinity`):
/// `Some(None)` is forever, `None` is not a number.
pub fn sleep_duration(arg: &str) -> Option<Option<Duration>> {
    if arg == "infinity" || arg == "inf" {
        return Some(None);
    }
    let (number, unit_ms) = match arg.char_indices().last() {
        Some((i, 's')) => (&arg[..i], 1_000.0),
        Some((i, 'm')) => (&arg[..i], 60_000.0),
        Some((i, 'h')) => (&arg[..i], 3_600_000.0),
        Some((i, 'd')) => (&arg[..i], 86_400_000.0),
        _ => (arg, 1_000.0),
    };
    let value: f64 = number.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
    Some(Some(Duration((value * unit_ms).min(u64::MAX as f64 / 2.0).round() as u64)))
}

/// `id [-u|-g|-G] [-n]`: the process's user and groups.
fn id(args: &[String], io: &mut Io, identity: &super::Identity) -> i32 {
    let flags: String = args.iter().filter_map(|a| a.strip_prefix('-')).collect();
    let part = flags.chars().find(|c| matches!(c, 'u' | 'g' | 'G'));
    let Some(part) = part else {
        io.out(format!("{}\n", identity.id_line()));
        return 0;
    };
    let (text, unknown) = identity.id_part(part, flags.contains('n'));
    // busybox says so on stderr at once; its stdout is flushed at exit.
    for id in &unknown {
        io.err(format!("id: unknown ID {id}\n"));
    }
    io.out(format!("{text}\n"));
    i32::from(!unknown.is_empty())
}
