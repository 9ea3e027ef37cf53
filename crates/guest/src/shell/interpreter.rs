//! Runs parsed scripts: expansion, `&&`/`||`, loops, redirects into the container's files, and
//! a private clock that `sleep` moves. Every run is bounded (steps, effects, nesting), so a
//! hostile script ends as "runs forever" instead of hanging the guest.

use super::applets;
use super::syntax::{self, AndOr, Command, Part, Redirect, Script, Word};
use std::collections::BTreeMap;

/// Most commands one run executes: a loop that never sleeps stops here (and runs forever).
const MAX_STEPS: u32 = 100_000;
/// Most effects, and bytes of effects, one run records (kubelab-core's caps).
const MAX_EFFECTS: usize = 10_000;
const MAX_EFFECT_BYTES: usize = 1 << 20;
/// A file larger than this fills the container's disk: the write fails.
const MAX_FILE_BYTES: usize = 64 << 10;
/// `sh -c 'sh -c …'` nests at most this deep.
const MAX_DEPTH: u32 = 16;

/// Something a script does at a moment of its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Log(String),
    Write { path: String, content: String },
    Append { path: String, text: String },
    Remove(String),
}

/// What a script does over time (milliseconds after it starts): effects in time order, then
/// `exit`, or `None` when it runs on past the horizon it was laid out to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    pub effects: Vec<(u64, Effect)>,
    pub exit: Option<(u64, i32)>,
}

impl Timeline {
    /// The files the script has written and not removed by `at_ms`, over `initial`.
    pub fn files_at(&self, initial: &BTreeMap<String, String>, at_ms: u64) -> BTreeMap<String, String> {
        let mut files = initial.clone();
        for (_, effect) in self.effects.iter().take_while(|(when, _)| *when <= at_ms) {
            match effect {
                Effect::Write { path, content } => {
                    files.insert(path.clone(), content.clone());
                }
                Effect::Append { path, text } => files.entry(path.clone()).or_default().push_str(text),
                Effect::Remove(path) => {
                    files.remove(path);
                }
                Effect::Log(_) => {}
            }
        }
        files
    }

    /// Everything printed, a line each (what an exec answers).
    pub fn output(&self) -> String {
        let lines = self.effects.iter().filter_map(|(_, effect)| match effect {
            Effect::Log(line) => Some(format!("{line}\n")),
            _ => None,
        });
        lines.collect()
    }
}

/// Runs `argv` (PID 1 or an exec) with `env` over `files`, laying it out up to `horizon_ms`;
/// `Err(program)` when the image has no such program (runc's "executable file not found").
pub fn run(
    argv: &[String],
    env: &[(String, String)],
    files: &BTreeMap<String, String>,
    horizon_ms: u64,
) -> Result<Timeline, String> {
    let program = argv.first().cloned().unwrap_or_default();
    if !super::is_applet(&program) {
        return Err(program);
    }
    let mut shell = Shell::new(env, files.clone(), horizon_ms);
    let flow = shell.simple(&program, &argv[1..], &[]);
    shell.flush_line();
    if let Flow::Status(code) | Flow::Exit(code) = flow {
        shell.out.exit = Some((shell.now, code));
    }
    Ok(shell.out)
}

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Status(i32),
    /// `exit N`: the shell running it ends.
    Exit(i32),
    /// It runs on forever from here (`sleep infinity`, a loop past the horizon).
    Forever,
}

/// What an applet writes.
#[derive(Debug, Default)]
pub struct Io {
    pub out: String,
    pub err: String,
}

/// The shell's state: variables, files, the clock and what it has recorded.
pub struct Shell {
    vars: BTreeMap<String, String>,
    positional: Vec<String>,
    pub files: BTreeMap<String, String>,
    pub now: u64,
    horizon: u64,
    out: Timeline,
    effect_bytes: usize,
    /// Output printed since the last newline.
    line: String,
    status: i32,
    steps: u32,
    depth: u32,
}

impl Shell {
    fn new(env: &[(String, String)], files: BTreeMap<String, String>, horizon: u64) -> Shell {
        let vars = env.iter().cloned().collect();
        Shell {
            vars,
            positional: vec!["sh".into()],
            files,
            now: 0,
            horizon,
            out: Timeline::default(),
            effect_bytes: 0,
            line: String::new(),
            status: 0,
            steps: 0,
            depth: 0,
        }
    }

    /// The environment, sorted (what `env` prints).
    pub fn env(&self) -> &BTreeMap<String, String> {
        &self.vars
    }

    /// True once loops should stop unrolling: the script runs on forever as far as anyone sees.
    fn past_horizon(&self) -> bool {
        self.now > self.horizon || self.out.effects.len() >= MAX_EFFECTS || self.effect_bytes >= MAX_EFFECT_BYTES
    }

    fn emit(&mut self, effect: Effect) {
        if self.out.effects.len() >= MAX_EFFECTS || self.effect_bytes >= MAX_EFFECT_BYTES {
            return;
        }
        self.effect_bytes += match &effect {
            Effect::Log(text) | Effect::Remove(text) => text.len(),
            Effect::Write { path, content: text } | Effect::Append { path, text } => path.len() + text.len(),
        };
        self.out.effects.push((self.now, effect));
    }

    /// Output that reaches the container's log, a line at a time.
    fn terminal(&mut self, text: &str) {
        self.line.push_str(text);
        while let Some(at) = self.line.find('\n') {
            let line: String = self.line.drain(..=at).collect();
            self.emit(Effect::Log(line[..line.len() - 1].to_string()));
        }
    }

    fn flush_line(&mut self) {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.emit(Effect::Log(line));
        }
    }

    /// `sleep`: `None` is forever.
    pub fn sleep(&mut self, ms: Option<u64>) -> Flow {
        match ms {
            Some(ms) => {
                self.now = self.now.saturating_add(ms);
                Flow::Status(0)
            }
            None => Flow::Forever,
        }
    }

    /// `sh -c SCRIPT [NAME [ARGS…]]` and `sh FILE`: a nested shell sharing files and clock.
    pub fn nested(&mut self, script: &str, positional: Vec<String>, io: &mut Io) -> Flow {
        let parsed = match syntax::parse(script) {
            Ok(parsed) => parsed,
            Err(message) => {
                io.err.push_str(&format!("sh: {message}\n"));
                return Flow::Status(2);
            }
        };
        if self.depth >= MAX_DEPTH {
            io.err.push_str("sh: nested too deeply\n");
            return Flow::Status(2);
        }
        let saved = std::mem::replace(&mut self.positional, positional);
        self.depth += 1;
        let flow = self.script(&parsed);
        self.depth -= 1;
        self.positional = saved;
        match flow {
            Flow::Exit(code) => Flow::Status(code),
            other => other,
        }
    }

    fn script(&mut self, script: &Script) -> Flow {
        let mut flow = Flow::Status(self.status);
        for and_or in script {
            flow = self.and_or(and_or);
            if !matches!(flow, Flow::Status(_)) {
                return flow;
            }
        }
        flow
    }

    fn and_or(&mut self, and_or: &AndOr) -> Flow {
        let mut flow = self.command(&and_or.first);
        for (and, command) in &and_or.rest {
            match flow {
                Flow::Status(code) if (code == 0) == *and => flow = self.command(command),
                Flow::Status(_) => {}
                other => return other,
            }
        }
        flow
    }

    fn command(&mut self, command: &Command) -> Flow {
        let flow = match command {
            Command::Simple { words, redirects } => self.simple_words(words, redirects),
            Command::Loop { until, condition, body } => self.repeat(*until, condition, body),
            Command::If { branches, otherwise } => self.branch(branches, otherwise.as_ref()),
            Command::Not(inner) => match self.command(inner) {
                Flow::Status(code) => Flow::Status(i32::from(code == 0)),
                other => other,
            },
        };
        if let Flow::Status(code) = flow {
            self.status = code;
        }
        flow
    }

    fn repeat(&mut self, until: bool, condition: &Script, body: &Script) -> Flow {
        let mut last = 0;
        loop {
            if self.past_horizon() {
                return Flow::Forever;
            }
            match self.script(condition) {
                Flow::Status(code) if (code == 0) == until => return Flow::Status(last),
                Flow::Status(_) => {}
                other => return other,
            }
            match self.script(body) {
                Flow::Status(code) => last = code,
                other => return other,
            }
        }
    }

    fn branch(&mut self, branches: &[(Script, Script)], otherwise: Option<&Script>) -> Flow {
        for (condition, body) in branches {
            match self.script(condition) {
                Flow::Status(0) => return self.script(body),
                Flow::Status(_) => {}
                other => return other,
            }
        }
        otherwise.map_or(Flow::Status(0), |body| self.script(body))
    }

    /// A simple command as written: assignments, expansion, then the applet.
    fn simple_words(&mut self, words: &[Word], redirects: &[Redirect]) -> Flow {
        let mut expanded = Vec::new();
        for word in words {
            let assignment = expanded.is_empty().then(|| word.literal().and_then(|w| w.split_once('='))).flatten();
            match assignment.filter(|(name, _)| valid_name(name)) {
                Some((name, value)) => {
                    self.vars.insert(name.to_string(), value.to_string());
                }
                None => expanded.extend(self.expand(word)),
            }
        }
        let Some((program, args)) = expanded.split_first() else {
            return Flow::Status(0);
        };
        let redirects: Vec<(u8, bool, String)> =
            redirects.iter().map(|r| (r.fd, r.append, self.expand(&r.target).unwrap_or_default())).collect();
        self.simple(program, args, &redirects)
    }

    /// Runs one program with its output sent to the log or, redirected, into files.
    fn simple(&mut self, program: &str, args: &[String], redirects: &[(u8, bool, String)]) -> Flow {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Flow::Forever;
        }
        let mut io = Io::default();
        let flow = applets::call(self, program, args, &mut io).unwrap_or_else(|| {
            io.err.push_str(&format!("sh: {program}: not found\n"));
            Flow::Status(127)
        });
        let mut failed = false;
        for (fd, text) in [(1, io.out), (2, io.err)] {
            match redirects.iter().rfind(|(to, _, _)| *to == fd) {
                Some((_, append, path)) => failed |= !self.write_file(path, *append, &text),
                None => self.terminal(&text),
            }
        }
        if failed { Flow::Status(1) } else { flow }
    }

    /// `> path` and `>> path`; false (after saying why) when the disk is full.
    fn write_file(&mut self, path: &str, append: bool, text: &str) -> bool {
        if path == "/dev/null" {
            return true;
        }
        let current = if append { self.files.get(path).map_or(0, String::len) } else { 0 };
        if current + text.len() > MAX_FILE_BYTES {
            self.terminal("sh: write error: No space left on device\n");
            return false;
        }
        self.write(path, append, text);
        true
    }

    /// Changes a file (and records the change for the timeline).
    pub fn write(&mut self, path: &str, append: bool, text: &str) {
        if append {
            self.files.entry(path.to_string()).or_default().push_str(text);
            self.emit(Effect::Append { path: path.to_string(), text: text.to_string() });
        } else {
            self.files.insert(path.to_string(), text.to_string());
            self.emit(Effect::Write { path: path.to_string(), content: text.to_string() });
        }
    }

    pub fn remove(&mut self, path: &str) -> bool {
        let removed = self.files.remove(path).is_some();
        if removed {
            self.emit(Effect::Remove(path.to_string()));
        }
        removed
    }

    /// A word's text; `None` for an unquoted word that expands to nothing (sh drops it).
    fn expand(&self, word: &Word) -> Option<String> {
        let mut text = String::new();
        for part in &word.parts {
            match part {
                Part::Lit(lit) => text.push_str(lit),
                Part::Var(name) => text.push_str(&self.variable(name)),
            }
        }
        (word.quoted || !text.is_empty() || word.parts.iter().all(|p| matches!(p, Part::Lit(_)))).then_some(text)
    }

    fn variable(&self, name: &str) -> String {
        match name {
            "?" => self.status.to_string(),
            "$" => "1".into(),
            "#" => self.positional.len().saturating_sub(1).to_string(),
            _ => match name.parse::<usize>() {
                Ok(index) => self.positional.get(index).cloned().unwrap_or_default(),
                Err(_) => self.vars.get(name).cloned().unwrap_or_default(),
            },
        }
    }
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
