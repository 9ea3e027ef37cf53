//! A tiny busybox `sh`: turns a container's command (`sh -c 'touch /tmp/healthy; sleep 30; …'`)
//! into a timeline of effects (log lines, files, exit), so the kubelet can compute when things
//! happen instead of running anything. Covers the applets lessons use; others are `not found`.

use crate::sim::time::Duration;
use std::collections::BTreeMap;

/// Most effects one run records: loops stop unrolling here (every loop is bounded).
const MAX_EFFECTS: usize = 10_000;
/// Most loop iterations one run unrolls, effects or not.
const MAX_ITERATIONS: usize = 10_000;
/// Deepest nesting of `while` loops and `sh -c` a script may use.
const MAX_DEPTH: usize = 16;
/// Most bytes of log lines and file writes one run records: a busy loop that prints or appends
/// stops unrolling here, so a timeline never grows past a megabyte whatever its script.
const MAX_EFFECT_BYTES: usize = 1 << 20;
/// Most bytes the container's files may hold: a write past it fails as on a full disk
/// (`No space left on device`), so a file that appends itself to itself cannot grow without end.
const MAX_FILE_BYTES: usize = 64 << 10;

/// Something a script does at a moment of its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    Log(String),
    WriteFile {
        path: String,
        content: String,
    },
    /// `>>` and `touch`: only what is added, so a log file written line by line costs its
    /// lines, not every version of the whole file.
    AppendFile {
        path: String,
        text: String,
    },
    RemoveFile(String),
}

/// What a script does over time: effects in time order, then how it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Timeline {
    pub effects: Vec<(Duration, Effect)>,
    /// `Some((at, code))` when the script exits on its own; `None` when it runs forever
    /// (`sleep infinity`, `while true`) or past the horizon it was unrolled to.
    pub exit: Option<(Duration, i32)>,
}

impl Timeline {
    /// The files the script has written and not removed by `at` (inclusive), over `initial`.
    pub fn files_at(&self, initial: &BTreeMap<String, String>, at: Duration) -> BTreeMap<String, String> {
        let mut files = initial.clone();
        for (_, effect) in self.effects.iter().take_while(|(when, _)| *when <= at) {
            match effect {
                Effect::WriteFile { path, content } => {
                    files.insert(path.clone(), content.clone());
                }
                Effect::AppendFile { path, text } => files.entry(path.clone()).or_default().push_str(text),
                Effect::RemoveFile(path) => {
                    files.remove(path);
                }
                Effect::Log(_) => {}
            }
        }
        files
    }

    /// Log lines with the moment each was printed.
    pub fn timed_logs(&self) -> Vec<(Duration, String)> {
        let lines = self.effects.iter().filter_map(|(when, effect)| match effect {
            Effect::Log(line) => Some((*when, line.clone())),
            _ => None,
        });
        lines.collect()
    }

    /// Log lines printed by `at` (inclusive).
    pub fn logs_until(&self, at: Duration) -> Vec<String> {
        self.timed_logs().into_iter().take_while(|(when, _)| *when <= at).map(|(_, line)| line).collect()
    }
}

/// A command the image cannot run: runc's `exec: "X": executable file not found in $PATH`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotFound(pub String);

/// Runs `argv` as PID 1 (or as an exec) in a busybox image, starting with `files`, unrolling
/// loops until `horizon`.
pub(crate) fn run(argv: &[String], files: &BTreeMap<String, String>, horizon: Duration) -> Result<Timeline, NotFound> {
    let Some(program) = argv.first() else {
        return Err(NotFound(String::new()));
    };
    let applet = program.rsplit('/').next().unwrap_or(program);
    if !is_applet(applet) {
        return Err(NotFound(program.clone()));
    }
    let mut shell = Shell {
        now: Duration::ZERO,
        status: 0,
        files: files.clone(),
        file_bytes: files.values().map(String::len).sum(),
        out: Timeline::default(),
        effect_bytes: 0,
        horizon,
        iterations: 0,
        depth: 0,
    };
    let words: Vec<String> = std::iter::once(applet.to_string()).chain(argv[1..].iter().cloned()).collect();
    let flow = shell.simple(&words, None);
    let code = match flow {
        Flow::Next => shell.status,
        Flow::Exit(code) => code,
        Flow::Forever => return Ok(shell.out),
    };
    shell.out.exit = Some((shell.now, code));
    Ok(shell.out)
}

fn is_applet(name: &str) -> bool {
    const APPLETS: &[&str] = &[
        "sh", "ash", "bash", "sleep", "echo", "cat", "touch", "rm", "test", "[", "true", "false", "exit", ":", "mkdir",
        "ls", "date", "env", "printenv", "hostname", "wget", "nslookup", "ps", "kill", "trap", "cd", "export", "tail",
        "top",
    ];
    APPLETS.contains(&name)
}

/// How a command leaves the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Next,
    Exit(i32),
    Forever,
}

/// One parsed piece of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item {
    Simple { words: Vec<String>, redirect: Option<Redirect> },
    WhileTrue(Vec<(Connector, Item)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Redirect {
    path: String,
    append: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Connector {
    Always,
    And,
    Or,
}

struct Shell {
    now: Duration,
    status: i32,
    files: BTreeMap<String, String>,
    /// What `files` holds in all (`MAX_FILE_BYTES`).
    file_bytes: usize,
    out: Timeline,
    /// What `out.effects` holds in all (`MAX_EFFECT_BYTES`).
    effect_bytes: usize,
    horizon: Duration,
    iterations: usize,
    depth: usize,
}

impl Shell {
    fn emit(&mut self, effect: Effect) {
        if self.recording_is_full() {
            return;
        }
        self.effect_bytes += match &effect {
            Effect::Log(text) | Effect::RemoveFile(text) => text.len(),
            Effect::WriteFile { path, content: text } | Effect::AppendFile { path, text } => path.len() + text.len(),
        };
        self.out.effects.push((self.now, effect));
    }

    /// Past either cap nothing more is recorded, and loops stop unrolling.
    fn recording_is_full(&self) -> bool {
        self.out.effects.len() >= MAX_EFFECTS || self.effect_bytes >= MAX_EFFECT_BYTES
    }

    /// Prints a line to the log or into a file; false when the file could not take it.
    fn print(&mut self, line: String, redirect: Option<&Redirect>) -> bool {
        let Some(Redirect { path, append }) = redirect else {
            self.emit(Effect::Log(line));
            return true;
        };
        let text = line + "\n";
        let replaced = if *append { 0 } else { self.files.get(path).map_or(0, String::len) };
        if self.file_bytes - replaced + text.len() > MAX_FILE_BYTES {
            // busybox's words for a write the disk refuses (ENOSPC).
            self.emit(Effect::Log("sh: write error: No space left on device".into()));
            self.status = 1;
            return false;
        }
        self.file_bytes = self.file_bytes - replaced + text.len();
        if *append {
            self.files.entry(path.clone()).or_default().push_str(&text);
            self.emit(Effect::AppendFile { path: path.clone(), text });
        } else {
            self.files.insert(path.clone(), text.clone());
            self.emit(Effect::WriteFile { path: path.clone(), content: text });
        }
        true
    }

    fn sequence(&mut self, items: &[(Connector, Item)]) -> Flow {
        for (connector, item) in items {
            let skip = match connector {
                Connector::Always => false,
                Connector::And => self.status != 0,
                Connector::Or => self.status == 0,
            };
            if skip {
                continue;
            }
            let flow = match item {
                Item::Simple { words, redirect } => self.simple(words, redirect.as_ref()),
                Item::WhileTrue(body) => self.while_true(body),
            };
            if flow != Flow::Next {
                return flow;
            }
        }
        Flow::Next
    }

    /// `while true; do …; done`: unrolled until the horizon or the effect cap; then forever.
    fn while_true(&mut self, body: &[(Connector, Item)]) -> Flow {
        loop {
            let (before_time, before_effects) = (self.now, self.out.effects.len());
            let flow = self.sequence(body);
            if flow != Flow::Next {
                return flow;
            }
            self.iterations += 1;
            let stalled = self.now == before_time && self.out.effects.len() == before_effects;
            let capped = self.iterations >= MAX_ITERATIONS || self.recording_is_full();
            if stalled || capped || self.now > self.horizon {
                return Flow::Forever;
            }
        }
    }

    fn simple(&mut self, words: &[String], redirect: Option<&Redirect>) -> Flow {
        let Some(name) = words.first() else { return Flow::Next };
        let args = &words[1..];
        self.status = 0;
        match name.rsplit('/').next().unwrap_or(name) {
            "sh" | "ash" | "bash" => return self.sh(args),
            "sleep" => return self.sleep(args),
            "exit" => return Flow::Exit(args.first().and_then(|code| code.parse().ok()).unwrap_or(self.status)),
            "echo" => {
                self.print(args.join(" "), redirect);
            }
            "touch" => self.touch(args),
            "rm" => self.rm(args),
            "cat" => self.cat(args, redirect),
            "test" => self.status = self.test(args),
            "[" => self.status = self.test(args.strip_suffix(&["]".to_string()]).unwrap_or(args)),
            "false" => self.status = 1,
            "true" | ":" | "mkdir" | "ls" | "date" | "env" | "printenv" | "hostname" | "wget" | "nslookup" | "ps"
            | "kill" | "trap" | "cd" | "export" => {}
            "tail" | "top" => return Flow::Forever,
            other => {
                let line = format!("sh: {other}: not found");
                self.emit(Effect::Log(line));
                self.status = 127;
            }
        }
        Flow::Next
    }

    /// `sh` without `-c` reads stdin, which a container without `stdin: true` does not have.
    fn sh(&mut self, args: &[String]) -> Flow {
        match args {
            [flag, _, ..] if flag == "-c" && self.depth >= MAX_DEPTH => {
                self.emit(Effect::Log("sh: nested too deeply".into()));
                Flow::Exit(2)
            }
            [flag, script, ..] if flag == "-c" => match parse(script) {
                Ok(items) => {
                    self.depth += 1;
                    let flow = self.sequence(&items);
                    self.depth -= 1;
                    flow
                }
                Err(message) => {
                    self.emit(Effect::Log(format!("sh: syntax error: {message}")));
                    Flow::Exit(2)
                }
            },
            _ => Flow::Next,
        }
    }

    fn sleep(&mut self, args: &[String]) -> Flow {
        let mut total = Duration::ZERO;
        for arg in args {
            match sleep_duration(arg) {
                Some(None) => return Flow::Forever,
                Some(Some(duration)) => total = Duration(total.0.saturating_add(duration.0)),
                None => {
                    self.emit(Effect::Log(format!("sleep: invalid number '{arg}'")));
                    self.status = 1;
                    return Flow::Next;
                }
            }
        }
        if args.is_empty() {
            self.emit(Effect::Log("BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.".into()));
            self.status = 1;
        }
        self.now = Duration(self.now.0.saturating_add(total.0));
        Flow::Next
    }

    fn touch(&mut self, args: &[String]) {
        for path in args.iter().filter(|a| !a.starts_with('-')) {
            self.files.entry(path.clone()).or_default();
            self.emit(Effect::AppendFile { path: path.clone(), text: String::new() });
        }
    }

    fn rm(&mut self, args: &[String]) {
        let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
        for path in args.iter().filter(|a| !a.starts_with('-')) {
            if let Some(content) = self.files.remove(path) {
                self.file_bytes -= content.len();
                self.emit(Effect::RemoveFile(path.clone()));
            } else if !force {
                self.emit(Effect::Log(format!("rm: can't remove '{path}': No such file or directory")));
                self.status = 1;
            }
        }
    }

    fn cat(&mut self, args: &[String], redirect: Option<&Redirect>) {
        for path in args {
            let Some(content) = self.files.get(path).cloned() else {
                self.emit(Effect::Log(format!("cat: can't open '{path}': No such file or directory")));
                self.status = 1;
                continue;
            };
            // A refused write ends cat, as busybox's cat stops at its first failed write.
            if !content.lines().all(|line| self.print(line.to_string(), redirect)) {
                return;
            }
        }
    }

    fn test(&self, args: &[String]) -> i32 {
        let holds = match args {
            [flag, path] if matches!(flag.as_str(), "-f" | "-e" | "-r" | "-s") => self.files.contains_key(path),
            [flag, path] if flag == "-d" => {
                path == "/" || path == "/tmp" || self.files.keys().any(|f| f.starts_with(&format!("{path}/")))
            }
            [word] => !word.is_empty(),
            [a, op, b] if op == "=" || op == "==" => a == b,
            [a, op, b] if op == "!=" => a != b,
            _ => false,
        };
        i32::from(!holds)
    }
}

/// `sleep` operands as busybox reads them (`30`, `1.5`, `2m`, `infinity`):
/// `Some(None)` is forever, `None` is not a number.
fn sleep_duration(arg: &str) -> Option<Option<Duration>> {
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

/// Script tokens: words (quotes removed) and operators.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    Op(&'static str),
}

fn tokenize(script: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        let op = match c {
            ';' | '\n' => Some(";"),
            '&' if chars.peek() == Some(&'&') => Some("&&"),
            '|' if chars.peek() == Some(&'|') => Some("||"),
            '>' if chars.peek() == Some(&'>') => Some(">>"),
            '>' => Some(">"),
            _ => None,
        };
        if let Some(op) = op {
            tokens.extend(word.take().map(Token::Word));
            if op.len() == 2 {
                chars.next();
            }
            tokens.push(Token::Op(op));
            continue;
        }
        match c {
            ' ' | '\t' => tokens.extend(word.take().map(Token::Word)),
            '\'' | '"' => {
                let text = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(other) => text.push(other),
                        None => return Err("unterminated quoted string".into()),
                    }
                }
            }
            other => word.get_or_insert_with(String::new).push(other),
        }
    }
    tokens.extend(word.take().map(Token::Word));
    Ok(tokens)
}

fn parse(script: &str) -> Result<Vec<(Connector, Item)>, String> {
    let tokens = tokenize(script)?;
    let mut position = 0;
    let items = parse_sequence(&tokens, &mut position, 0)?;
    match tokens.get(position) {
        None => Ok(items),
        Some(token) => Err(format!("unexpected {token:?}")),
    }
}

/// sequence := item ((`;` | `&&` | `||`) item)* — stops at `done` when inside a loop.
/// `loops` is how many `while` bodies enclose it.
fn parse_sequence(tokens: &[Token], position: &mut usize, loops: usize) -> Result<Vec<(Connector, Item)>, String> {
    if loops > MAX_DEPTH {
        return Err("loops nested too deeply".into());
    }
    let in_loop = loops > 0;
    let mut items = Vec::new();
    let mut connector = Connector::Always;
    while let Some(token) = tokens.get(*position) {
        match token {
            Token::Op(";") => {
                *position += 1;
                connector = Connector::Always;
            }
            Token::Op("&&") | Token::Op("||") => {
                connector = if *token == Token::Op("&&") { Connector::And } else { Connector::Or };
                *position += 1;
            }
            Token::Word(word) if word == "done" && in_loop => return Ok(items),
            Token::Word(word) if word == "while" => items.push((connector, parse_while(tokens, position, loops)?)),
            _ => items.push((connector, parse_simple(tokens, position)?)),
        }
    }
    if in_loop { Err("unexpected end of file (expecting \"done\")".into()) } else { Ok(items) }
}

/// `while true; do …; done` (the only loop lessons use; any other condition is taken as true).
fn parse_while(tokens: &[Token], position: &mut usize, loops: usize) -> Result<Item, String> {
    while tokens.get(*position).is_some_and(|t| *t != Token::Word("do".into())) {
        *position += 1;
    }
    if *position >= tokens.len() {
        return Err("unexpected end of file (expecting \"do\")".into());
    }
    *position += 1;
    let body = parse_sequence(tokens, position, loops + 1)?;
    *position += 1;
    Ok(Item::WhileTrue(body))
}

fn parse_simple(tokens: &[Token], position: &mut usize) -> Result<Item, String> {
    let mut words = Vec::new();
    let mut redirect = None;
    while let Some(token) = tokens.get(*position) {
        match token {
            Token::Word(word) => words.push(word.clone()),
            Token::Op(op @ (">" | ">>")) => {
                *position += 1;
                let Some(Token::Word(path)) = tokens.get(*position) else {
                    return Err(format!("unexpected token after {op}"));
                };
                redirect = Some(Redirect { path: path.clone(), append: *op == ">>" });
            }
            Token::Op(_) => break,
        }
        *position += 1;
    }
    Ok(Item::Simple { words, redirect })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_liveness_exec_story_writes_then_removes_its_file() {
        let script = "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600";
        let timeline = run(&argv(&["/bin/sh", "-c", script]), &BTreeMap::new(), Duration::from_secs(3600)).unwrap();
        assert_eq!(timeline.exit, Some((Duration::from_secs(630), 0)));
        let none = BTreeMap::new();
        assert!(timeline.files_at(&none, Duration::from_secs(29)).contains_key("/tmp/healthy"));
        assert!(!timeline.files_at(&none, Duration::from_secs(30)).contains_key("/tmp/healthy"));
    }

    #[test]
    fn commands_run_as_busybox_runs_them() {
        let none = BTreeMap::new();
        let horizon = Duration::from_secs(60);
        for (words, exit, logs) in [
            (vec!["sh"], Some((0, 0)), vec![]),
            (vec!["sleep", "3600"], Some((3_600_000, 0)), vec![]),
            (vec!["sleep", "infinity"], None, vec![]),
            (vec!["sh", "-c", "echo hi && sleep 2; exit 3"], Some((2_000, 3)), vec!["hi"]),
            (vec!["sh", "-c", "frobnicate --now"], Some((0, 127)), vec!["sh: frobnicate: not found"]),
            (vec!["sh", "-c", "false || echo rescued"], Some((0, 0)), vec!["rescued"]),
            (vec!["sh", "-c", "cat /nope"], Some((0, 1)), vec!["cat: can't open '/nope': No such file or directory"]),
            (vec!["sh", "-c", "echo ok > /tmp/f; cat /tmp/f"], Some((0, 0)), vec!["ok"]),
        ] {
            let timeline = run(&argv(&words), &none, horizon).unwrap();
            let actual_exit = timeline.exit.map(|(at, code)| (at.as_millis(), code));
            let actual_logs = timeline.logs_until(Duration::from_secs(3600));
            assert_eq!((actual_exit, actual_logs), (exit, logs.iter().map(|l| l.to_string()).collect()), "{words:?}");
        }
        assert_eq!(run(&argv(&["frobnicate"]), &none, horizon), Err(NotFound("frobnicate".into())));
    }

    #[test]
    fn hostile_scripts_stay_bounded() {
        let deep = "while true; do ".repeat(100) + &"done; ".repeat(100);
        let nested = (0..40).fold("true".to_string(), |inner, _| format!("sh -c '{inner}'"));
        let tiny_sleeps = "while true; do sleep 0.001; done";
        for script in [deep.as_str(), nested.as_str(), tiny_sleeps, "> ", "echo 'unterminated", "while true; do"] {
            let timeline = run(&argv(&["sh", "-c", script]), &BTreeMap::new(), Duration::from_secs(86_400));
            assert!(timeline.is_ok(), "{script}");
        }
    }

    /// What a timeline holds, in bytes: its log lines and what it wrote.
    fn recorded_bytes(timeline: &Timeline) -> usize {
        let size = |effect: &Effect| match effect {
            Effect::Log(text) | Effect::RemoveFile(text) => text.len(),
            Effect::WriteFile { content: text, .. } | Effect::AppendFile { text, .. } => text.len(),
        };
        timeline.effects.iter().map(|(_, effect)| size(effect)).sum()
    }

    #[test]
    fn a_busy_loop_appending_to_a_file_records_each_line_once_not_the_whole_file_each_time() {
        // Found by fuzzing (exec_shell): every append recorded the whole file again, so ten
        // thousand turns of this loop held 600 MB and took seconds per kubelet sync.
        let script = "while true; do echo a >> /\u{1}\0\0\0\0\0\0\0 sl e /ch1; done";
        let timeline = run(&argv(&["sh", "-c", script]), &BTreeMap::new(), Duration::from_secs(120)).unwrap();
        assert_eq!(timeline.exit, None);
        assert!(recorded_bytes(&timeline) <= MAX_EFFECT_BYTES, "{} bytes", recorded_bytes(&timeline));
        let files = timeline.files_at(&BTreeMap::new(), Duration::from_secs(120));
        let file = &files["/\u{1}\0\0\0\0\0\0\0"];
        assert!(file.starts_with("a sl e /ch1\na sl e /ch1\n") && file.len() <= MAX_FILE_BYTES, "{}", file.len());
    }

    #[test]
    fn a_file_that_appends_itself_to_itself_fills_the_disk_and_the_write_fails() {
        let script = "echo 0123456789abcdef > /tmp/f; ".to_string() + &"cat /tmp/f >> /tmp/f; ".repeat(40);
        let timeline = run(&argv(&["sh", "-c", &script]), &BTreeMap::new(), Duration::from_secs(60)).unwrap();
        assert_eq!(timeline.exit, Some((Duration::ZERO, 1)));
        let logs = timeline.logs_until(Duration::from_secs(60));
        assert_eq!(logs.first().map(String::as_str), Some("sh: write error: No space left on device"));
        let files = timeline.files_at(&BTreeMap::new(), Duration::from_secs(60));
        assert!(files["/tmp/f"].len() <= MAX_FILE_BYTES);
        // Overwriting a file frees what it held.
        let rewrite = "while true; do echo 0123456789abcdef > /tmp/f; sleep 1; done";
        let timeline = run(&argv(&["sh", "-c", rewrite]), &BTreeMap::new(), Duration::from_secs(3600)).unwrap();
        assert!(timeline.logs_until(Duration::from_secs(3600)).is_empty());
    }

    #[test]
    fn loops_unroll_to_the_horizon_and_never_exit() {
        let script = "while true; do echo tick; sleep 10; done";
        let timeline = run(&argv(&["sh", "-c", script]), &BTreeMap::new(), Duration::from_secs(35)).unwrap();
        assert_eq!(timeline.exit, None);
        assert_eq!(timeline.logs_until(Duration::from_secs(35)).len(), 4);
        let busy = run(&argv(&["sh", "-c", "while true; do :; done"]), &BTreeMap::new(), Duration::from_secs(35));
        assert_eq!(busy.unwrap().exit, None);
    }
}
