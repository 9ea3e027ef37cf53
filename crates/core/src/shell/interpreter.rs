//! Runs the command tree: expansions and field splitting, pipelines (each stage's stdout is the
//! next one's stdin), redirects, `&&`/`||`, loops and the shell's own builtins, within
//! bounds (steps, loop turns, nesting, bytes) so a hostile script cannot run away.

use super::syntax::{self, Command, Connector, List, ParamOp, Part, Pipeline, Redirect, Word};
use super::{Ending, FileChange, Files, Host, Io, applets, arithmetic};
use std::collections::BTreeMap;

/// Most simple commands one run executes; past it the script is taken to run forever.
const MAX_STEPS: usize = 100_000;
/// Most loop turns one run unrolls.
const MAX_ITERATIONS: usize = 10_000;
/// Most bytes a pipe or `$(…)` holds; what is written past it is dropped.
const MAX_CAPTURE_BYTES: usize = 1 << 20;
/// Most bytes the container's files may hold: a write past it fails as on a full disk.
const MAX_FILE_BYTES: usize = 64 << 10;

/// How a command leaves its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Next,
    Exit(i32),
    Forever,
    Break(u32),
    Continue(u32),
}

/// Where stderr goes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrTarget {
    Terminal,
    Null,
    Stdout,
    File(String),
}

pub struct Shell<'h> {
    host: &'h mut dyn Host,
    vars: BTreeMap<String, String>,
    /// Exported names in the order they entered the environment (`env` prints them so).
    exported: Vec<String>,
    positional: Vec<String>,
    status: i32,
    files: Files,
    file_bytes: usize,
    captures: Vec<String>,
    stdin: Vec<String>,
    stderr: Vec<ErrTarget>,
    steps: usize,
    iterations: usize,
    depth: usize,
    /// How many `$(…)` have run (an assignment's status is its last one's).
    substitutions: usize,
    /// Whether the learner was told that a pipe's output was cut.
    said_cut: bool,
    /// Directories and files mounted read-only (a container's configMap or secret volumes).
    read_only: Vec<String>,
    /// With a read-only root filesystem: the mounts that may still be written.
    writable: Option<Vec<String>>,
    /// Who the process is (`id`, `whoami`).
    identity: super::Identity,
}

impl<'h> Shell<'h> {
    /// A shell with the process environment `env` and the container's `files`.
    pub fn new(host: &'h mut dyn Host, env: &[(String, String)], files: Files) -> Shell<'h> {
        let file_bytes = files.values().map(String::len).sum();
        Shell {
            host,
            vars: env.iter().cloned().collect(),
            exported: env.iter().map(|(name, _)| name.clone()).collect(),
            positional: vec!["sh".into()],
            status: 0,
            files,
            file_bytes,
            captures: Vec::new(),
            stdin: Vec::new(),
            stderr: vec![ErrTarget::Terminal],
            steps: 0,
            iterations: 0,
            depth: 0,
            substitutions: 0,
            said_cut: false,
            read_only: Vec::new(),
            writable: None,
            identity: super::Identity::default(),
        }
    }

    /// The shell of a container whose mounts at `paths` are read-only: writing under them
    /// fails with `EROFS`, as the kernel refuses it.
    pub fn with_read_only(mut self, paths: Vec<String>) -> Shell<'h> {
        self.read_only = paths;
        self
    }

    /// The shell of a container whose root filesystem is read-only
    /// (`readOnlyRootFilesystem`): only under the mounts at `writable` can it write.
    pub fn with_read_only_root(mut self, writable: Vec<String>) -> Shell<'h> {
        self.writable = Some(writable);
        self
    }

    /// The shell of a process running as `identity`.
    pub fn with_identity(mut self, identity: super::Identity) -> Shell<'h> {
        self.identity = identity;
        self
    }

    /// Whether `path` lies on a read-only mount (or on a read-only root, outside every
    /// writable mount).
    fn is_read_only(&self, path: &str) -> bool {
        let under = |mount: &String| {
            let mount = mount.trim_end_matches('/');
            path == mount || path.strip_prefix(mount).is_some_and(|rest| rest.starts_with('/'))
        };
        self.read_only.iter().any(under) || self.writable.as_ref().is_some_and(|w| !w.iter().any(under))
    }

    fn export(&mut self, name: &str) {
        if !self.exported.iter().any(|n| n == name) {
            self.exported.push(name.to_string());
        }
    }

    /// Text the script reads as its stdin.
    pub fn give_stdin(&mut self, text: &str) {
        self.stdin.push(text.to_string());
    }

    pub fn files(&self) -> &Files {
        &self.files
    }

    /// Runs a process: `argv[0]` is a busybox applet (`sh -c '…'`, `sleep 5`, `wget …`).
    pub fn run_argv(&mut self, argv: &[String]) -> Ending {
        let flow = self.invoke(argv);
        self.ending(flow)
    }

    /// Runs a script as `sh -c` would.
    pub fn run_script(&mut self, script: &str) -> Ending {
        let flow = self.script(script);
        self.ending(flow)
    }

    fn ending(&self, flow: Flow) -> Ending {
        match flow {
            Flow::Exit(code) => Ending::Exited(code),
            Flow::Forever => Ending::Forever,
            _ => Ending::Exited(self.status),
        }
    }

    fn script(&mut self, script: &str) -> Flow {
        match syntax::parse(script) {
            Ok(list) => self.list(&list),
            Err(message) => {
                self.err(format!("sh: syntax error: {message}\n"));
                self.status = 2;
                Flow::Exit(2)
            }
        }
    }

    fn out(&mut self, text: &str) {
        let cut = match self.captures.last_mut() {
            Some(buffer) => {
                let room = MAX_CAPTURE_BYTES.saturating_sub(buffer.len());
                let kept = truncate(text, room);
                // Whole lines only: the next stage never reads half a line.
                let kept =
                    if kept.len() < text.len() { &kept[..kept.rfind('\n').map_or(0, |at| at + 1)] } else { kept };
                buffer.push_str(kept);
                text.len() > room
            }
            None => {
                self.host.terminal(text);
                false
            }
        };
        // Said once, so a pipeline's answer is never silently short.
        if cut && !self.said_cut {
            self.said_cut = true;
            self.host.terminal("sh: a pipe holds at most 1 MiB here; the rest of the output was dropped\n");
        }
    }

    fn err(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        match self.stderr.last().cloned().unwrap_or(ErrTarget::Terminal) {
            ErrTarget::Terminal => self.host.terminal(text),
            ErrTarget::Null => {}
            ErrTarget::Stdout => self.out(text),
            ErrTarget::File(path) => {
                let _ = self.write_file(&path, text, true);
            }
        }
    }

    /// Writes (or appends to) a file; false, with busybox's message, when the disk is full.
    fn write_file(&mut self, path: &str, text: &str, append: bool) -> bool {
        if path == "/dev/null" {
            return true;
        }
        if path == "/dev/stdout" {
            self.out(text);
            return true;
        }
        let replaced = if append { 0 } else { self.files.get(path).map_or(0, String::len) };
        if self.file_bytes - replaced + text.len() > MAX_FILE_BYTES {
            self.stderr.push(ErrTarget::Terminal);
            self.err("sh: write error: No space left on device\n");
            self.stderr.pop();
            self.status = 1;
            return false;
        }
        self.file_bytes = self.file_bytes - replaced + text.len();
        let (path, text) = (path.to_string(), text.to_string());
        if append {
            self.files.entry(path.clone()).or_default().push_str(&text);
            self.host.file_changed(FileChange::Append { path, text });
        } else {
            self.files.insert(path.clone(), text.clone());
            self.host.file_changed(FileChange::Write { path, content: text });
        }
        true
    }

    fn remove_file(&mut self, path: &str) -> bool {
        match self.files.remove(path) {
            Some(content) => {
                self.file_bytes -= content.len();
                self.host.file_changed(FileChange::Remove(path.to_string()));
                true
            }
            None => false,
        }
    }

    fn list(&mut self, list: &List) -> Flow {
        for (connector, pipeline) in list {
            let skip = match connector {
                Connector::Always => false,
                Connector::And => self.status != 0,
                Connector::Or => self.status == 0,
            };
            if skip {
                continue;
            }
            let flow = self.pipeline(pipeline);
            if flow != Flow::Next {
                return flow;
            }
        }
        Flow::Next
    }

    fn pipeline(&mut self, pipeline: &Pipeline) -> Flow {
        let stages = pipeline.commands.len();
        let mut input: Option<String> = None;
        let mut flow = Flow::Next;
        for (i, command) in pipeline.commands.iter().enumerate() {
            let last = i + 1 == stages;
            if let Some(text) = input.take() {
                self.stdin.push(text);
            } else if i > 0 {
                self.stdin.push(String::new());
            }
            if !last {
                self.captures.push(String::new());
            }
            flow = if stages > 1 { self.subshell(|shell| shell.command(command)) } else { self.command(command) };
            if !last {
                input = self.captures.pop();
            }
            if i > 0 {
                self.stdin.pop();
            }
            // A producer that would run forever (`while true; do echo x; done`, `yes`) has
            // filled its pipe; the next stage reads what it wrote, as `head` would before the
            // producer got SIGPIPE. One that wrote nothing blocks the pipeline for good.
            let wrote = input.as_ref().is_some_and(|text| !text.is_empty());
            if flow == Flow::Forever && (last || !wrote) {
                return flow;
            }
        }
        if pipeline.negated {
            self.status = i32::from(self.status == 0);
        }
        flow
    }

    /// Runs `body` with its own copy of the variables (a subshell or a pipeline stage); an
    /// `exit` inside ends only it.
    fn subshell(&mut self, body: impl FnOnce(&mut Self) -> Flow) -> Flow {
        let (vars, exported, positional) = (self.vars.clone(), self.exported.clone(), self.positional.clone());
        let flow = body(self);
        self.vars = vars;
        self.exported = exported;
        self.positional = positional;
        match flow {
            Flow::Exit(code) => {
                self.status = code;
                Flow::Next
            }
            Flow::Break(_) | Flow::Continue(_) => Flow::Next,
            other => other,
        }
    }

    fn command(&mut self, command: &Command) -> Flow {
        match command {
            Command::Simple { assignments, words, redirects } => self.simple(assignments, words, redirects),
            Command::For { variable, items, body } => self.for_loop(variable, items.as_deref(), body),
            Command::While { condition, body, until } => self.while_loop(condition, body, *until),
            Command::If { branches, otherwise } => self.if_clause(branches, otherwise.as_ref()),
            Command::Group { body, subshell, redirects } => {
                let Some(pushed) = self.open_redirects(redirects) else { return Flow::Next };
                let flow = if *subshell { self.subshell(|shell| shell.list(body)) } else { self.list(body) };
                self.close_redirects(pushed);
                flow
            }
        }
    }

    /// A loop's turn: false when the loop must stop unrolling (too many turns, the horizon).
    fn another_turn(&mut self) -> bool {
        self.iterations += 1;
        self.iterations <= MAX_ITERATIONS && !self.host.past_horizon()
    }

    fn for_loop(&mut self, variable: &str, items: Option<&[Word]>, body: &List) -> Flow {
        let values: Vec<String> = match items {
            Some(words) => words.iter().flat_map(|w| self.expand(w)).collect(),
            None => self.positional[1..].to_vec(),
        };
        self.status = 0;
        for value in values {
            if !self.another_turn() {
                return Flow::Forever;
            }
            self.vars.insert(variable.to_string(), value);
            match body_turn(self.list(body)) {
                Turn::Again => {}
                Turn::Stop => break,
                Turn::Leave(flow) => return flow,
            }
        }
        Flow::Next
    }

    fn while_loop(&mut self, condition: &List, body: &List, until: bool) -> Flow {
        let mut status = 0;
        loop {
            if !self.another_turn() {
                return Flow::Forever;
            }
            let flow = self.list(condition);
            if flow != Flow::Next {
                return flow;
            }
            if (self.status == 0) == until {
                break;
            }
            match body_turn(self.list(body)) {
                Turn::Again => {}
                Turn::Stop => break,
                Turn::Leave(flow) => return flow,
            }
            status = self.status;
        }
        self.status = status;
        Flow::Next
    }

    fn if_clause(&mut self, branches: &[(List, List)], otherwise: Option<&List>) -> Flow {
        for (condition, body) in branches {
            let flow = self.list(condition);
            if flow != Flow::Next {
                return flow;
            }
            if self.status == 0 {
                return self.list(body);
            }
        }
        self.status = 0;
        otherwise.map_or(Flow::Next, |body| self.list(body))
    }

    fn simple(&mut self, assignments: &[(String, Word)], words: &[Word], redirects: &[Redirect]) -> Flow {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Flow::Forever;
        }
        let substitutions = self.substitutions;
        let argv: Vec<String> = words.iter().flat_map(|w| self.expand(w)).collect();
        let values: Vec<(String, String)> =
            assignments.iter().map(|(name, value)| (name.clone(), self.expand_text(value))).collect();
        if argv.is_empty() {
            // `x=$(false)` has the substitution's status; a plain assignment has 0.
            let status = if self.substitutions == substitutions { 0 } else { self.status };
            self.vars.extend(values);
            let Some(pushed) = self.open_redirects(redirects) else { return Flow::Next };
            self.close_redirects(pushed);
            self.status = status;
            return Flow::Next;
        }
        // `NAME=value cmd`: the assignment holds for that command only.
        let saved: Vec<(String, Option<String>, bool)> = values
            .iter()
            .map(|(name, _)| (name.clone(), self.vars.get(name).cloned(), self.exported.contains(name)))
            .collect();
        for (name, value) in values {
            self.export(&name);
            self.vars.insert(name, value);
        }
        let Some(pushed) = self.open_redirects(redirects) else { return Flow::Next };
        let flow = self.invoke(&argv);
        self.close_redirects(pushed);
        for (name, value, exported) in saved {
            match value {
                Some(value) => self.vars.insert(name.clone(), value),
                None => self.vars.remove(&name),
            };
            if !exported {
                self.exported.retain(|n| *n != name);
            }
        }
        flow
    }

    /// Sets up a command's redirects; what to undo afterwards, or `None` (with the error
    /// printed) when a file cannot be opened.
    fn open_redirects(&mut self, redirects: &[Redirect]) -> Option<Vec<Undo>> {
        let mut pushed = Vec::new();
        for redirect in redirects {
            let target = self.expand_text(&redirect.target);
            let undo = match (redirect.fd, redirect.op) {
                (0, "<") => match self.files.get(&target).cloned() {
                    Some(content) => {
                        self.stdin.push(content);
                        Undo::Stdin
                    }
                    None if target == "/dev/null" => {
                        self.stdin.push(String::new());
                        Undo::Stdin
                    }
                    None => {
                        self.err(format!("sh: can't open '{target}': No such file or directory\n"));
                        self.status = 1;
                        self.close_redirects(pushed);
                        return None;
                    }
                },
                (2, ">" | ">>") => {
                    let target = if target == "/dev/null" { ErrTarget::Null } else { ErrTarget::File(target) };
                    if let (ErrTarget::File(path), ">") = (&target, redirect.op) {
                        self.write_file(&path.clone(), "", false);
                    }
                    self.stderr.push(target);
                    Undo::Stderr
                }
                (2, ">&") if target == "1" => {
                    self.stderr.push(ErrTarget::Stdout);
                    Undo::Stderr
                }
                (1, ">&") if target == "2" => {
                    self.captures.push(String::new());
                    Undo::ToStderr
                }
                (1, ">" | ">>") if self.is_read_only(&target) => {
                    self.err(format!("sh: can't create {target}: Read-only file system\n"));
                    self.status = 1;
                    self.close_redirects(pushed);
                    return None;
                }
                (1, op @ (">" | ">>")) => {
                    self.captures.push(String::new());
                    Undo::File { path: target, append: op == ">>" }
                }
                _ => Undo::Nothing,
            };
            pushed.push(undo);
        }
        Some(pushed)
    }

    fn close_redirects(&mut self, pushed: Vec<Undo>) {
        for undo in pushed.into_iter().rev() {
            match undo {
                Undo::Stdin => {
                    self.stdin.pop();
                }
                Undo::Stderr => {
                    self.stderr.pop();
                }
                Undo::ToStderr => {
                    let text = self.captures.pop().unwrap_or_default();
                    self.err(text);
                }
                Undo::File { path, append } => {
                    let text = self.captures.pop().unwrap_or_default();
                    if !self.write_file(&path, &text, append) {
                        self.status = 1;
                    }
                }
                Undo::Nothing => {}
            }
        }
    }

    /// Runs one command by name: the shell's builtins, then the host's applets, then busybox's.
    fn invoke(&mut self, argv: &[String]) -> Flow {
        let name = argv[0].rsplit('/').next().unwrap_or(&argv[0]).to_string();
        let args = &argv[1..];
        self.status = 0;
        if let Some(flow) = self.builtin(&name, args) {
            return flow;
        }
        let stdin = if applets::READS_STDIN.contains(&name.as_str()) { self.take_stdin() } else { String::new() };
        let mut io = Io { stdin, ..Io::default() };
        let code = match self.host.applet(&name, args, &mut io) {
            Some(code) => Some(code),
            None if super::is_applet(&name) => applets::run(&name, args, &mut io, &self.applet_context()),
            None => None,
        };
        let Some(code) = code else {
            self.err(format!("sh: {}: not found\n", argv[0]));
            self.status = 127;
            return Flow::Next;
        };
        for (stderr, text) in std::mem::take(&mut io.written) {
            if stderr { self.err(text) } else { self.out(&text) }
        }
        for (path, content) in std::mem::take(&mut io.files) {
            self.write_file(&path, &content, false);
        }
        self.status = code;
        if code == applets::FOREVER {
            self.status = 0;
            if !self.host.sleep(None) {
                return Flow::Forever;
            }
        }
        Flow::Next
    }

    fn applet_context(&self) -> applets::Context<'_> {
        applets::Context {
            files: &self.files,
            env: self.environment(),
            date: self.host.date(),
            identity: &self.identity,
        }
    }

    /// The exported variables, as `env` prints them.
    fn environment(&self) -> Vec<(String, String)> {
        self.exported.iter().filter_map(|name| Some((name.clone(), self.vars.get(name)?.clone()))).collect()
    }

    /// What is left of stdin, consumed.
    fn take_stdin(&mut self) -> String {
        self.stdin.last_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The shell's own commands: those that change the shell itself, and the file writers.
    fn builtin(&mut self, name: &str, args: &[String]) -> Option<Flow> {
        let flow = match name {
            // Images with bash (ubuntu, debian) run it as the same shell.
            "sh" | "ash" | "bash" => self.sh(args),
            "exit" => Flow::Exit(args.first().and_then(|code| code.parse().ok()).unwrap_or(self.status)),
            "break" | "continue" => {
                let levels = args.first().and_then(|n| n.parse().ok()).filter(|n| *n > 0).unwrap_or(1);
                if name == "break" { Flow::Break(levels) } else { Flow::Continue(levels) }
            }
            "sleep" => self.sleep(args),
            "export" => {
                for arg in args {
                    let (name, value) = arg.split_once('=').map_or((arg.as_str(), None), |(n, v)| (n, Some(v)));
                    if let Some(value) = value {
                        self.vars.insert(name.to_string(), value.to_string());
                    }
                    self.export(name);
                }
                Flow::Next
            }
            "unset" => {
                for arg in args {
                    self.vars.remove(arg);
                    self.exported.retain(|n| n != arg);
                }
                Flow::Next
            }
            "shift" => {
                let n = args.first().and_then(|n| n.parse().ok()).unwrap_or(1usize);
                if n < self.positional.len() {
                    self.positional.drain(1..=n);
                } else {
                    self.status = 1;
                }
                Flow::Next
            }
            "read" => self.read(args),
            "eval" => self.script(&args.join(" ")),
            "exec" if !args.is_empty() => match self.invoke(args) {
                Flow::Next => Flow::Exit(self.status),
                other => other,
            },
            "touch" => {
                for path in args.iter().filter(|a| !a.starts_with('-')) {
                    if self.is_read_only(path) {
                        self.err(format!("touch: {path}: Read-only file system\n"));
                        self.status = 1;
                    } else if !self.files.contains_key(path) {
                        self.write_file(path, "", true);
                    }
                }
                Flow::Next
            }
            "rm" => {
                let force = args.iter().any(|a| a.starts_with('-') && a.contains('f'));
                for path in args.iter().filter(|a| !a.starts_with('-')) {
                    if self.is_read_only(path) && self.files.contains_key(path) {
                        self.err(format!("rm: can't remove '{path}': Read-only file system\n"));
                        self.status = 1;
                    } else if !self.remove_file(path) && !force {
                        self.err(format!("rm: can't remove '{path}': No such file or directory\n"));
                        self.status = 1;
                    }
                }
                Flow::Next
            }
            "trap" | "wait" | "cd" | "set" | "umask" | "ulimit" => Flow::Next,
            _ => return None,
        };
        Some(flow)
    }

    /// `sh -c SCRIPT [NAME [ARGS…]]`; plain `sh` runs what stdin holds.
    fn sh(&mut self, args: &[String]) -> Flow {
        let (script, positional) = match args {
            [flag, script, rest @ ..] if flag == "-c" => {
                let mut positional = rest.to_vec();
                if positional.is_empty() {
                    positional.push("sh".into());
                }
                (script.clone(), positional)
            }
            [flag] if flag == "-c" => {
                self.err("sh: -c requires an argument\n");
                return Flow::Exit(2);
            }
            _ => (self.take_stdin(), vec!["sh".to_string()]),
        };
        if self.depth >= syntax::MAX_NESTING {
            self.err("sh: nested too deeply\n");
            return Flow::Exit(2);
        }
        self.depth += 1;
        let flow = self.subshell(|shell| {
            shell.positional = positional;
            shell.script(&script)
        });
        self.depth -= 1;
        flow
    }

    fn sleep(&mut self, args: &[String]) -> Flow {
        if args.is_empty() {
            self.err(format!("{}\n\nUsage: sleep [N]...\n\nPause for a time equal to the total of the args given, where each arg can\nhave an optional suffix of (s)econds, (m)inutes, (h)ours, or (d)ays\n", super::BUSYBOX_BANNER));
            self.status = 1;
            return Flow::Next;
        }
        let mut total = crate::sim::time::Duration::ZERO;
        for arg in args {
            match applets::sleep_duration(arg) {
                Some(None) => return if self.host.sleep(None) { Flow::Next } else { Flow::Forever },
                Some(Some(duration)) => total = crate::sim::time::Duration(total.0.saturating_add(duration.0)),
                None => {
                    self.err(format!("sleep: invalid number '{arg}'\n"));
                    self.status = 1;
                    return Flow::Next;
                }
            }
        }
        if self.host.sleep(Some(total)) { Flow::Next } else { Flow::Forever }
    }

    /// `read [-r] NAME…`: one line of stdin split over the names; 1 at the end of input.
    fn read(&mut self, args: &[String]) -> Flow {
        let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
        let Some(input) = self.stdin.last_mut().filter(|s| !s.is_empty()) else {
            self.status = 1;
            return Flow::Next;
        };
        let line = match input.find('\n') {
            Some(at) => input.drain(..=at).collect::<String>().trim_end_matches('\n').to_string(),
            None => std::mem::take(input),
        };
        let mut fields = line.split_whitespace();
        for (i, name) in names.iter().enumerate() {
            let value = if i + 1 == names.len() {
                fields.clone().collect::<Vec<_>>().join(" ")
            } else {
                fields.next().unwrap_or("").to_string()
            };
            self.vars.insert(name.to_string(), value);
        }
        if names.is_empty() {
            self.vars.insert("REPLY".into(), line);
        }
        Flow::Next
    }

    /// A word's fields after expansion and splitting of its unquoted expansions.
    fn expand(&mut self, word: &Word) -> Vec<String> {
        let mut fields = Vec::new();
        let mut current = String::new();
        let mut has_field = false;
        for part in word {
            let (text, quoted) = self.expand_part(part);
            if quoted || matches!(part, Part::Text { .. }) {
                current.push_str(&text);
                has_field = true;
                continue;
            }
            let mut pieces = text.split([' ', '\t', '\n']).peekable();
            while let Some(piece) = pieces.next() {
                if !piece.is_empty() {
                    current.push_str(piece);
                    has_field = true;
                }
                if pieces.peek().is_some() && has_field {
                    fields.push(std::mem::take(&mut current));
                    has_field = false;
                }
            }
        }
        if has_field {
            fields.push(current);
        }
        fields
    }

    /// A word expanded without splitting (assignments, redirect targets).
    fn expand_text(&mut self, word: &Word) -> String {
        word.iter().map(|part| self.expand_part(part).0).collect()
    }

    fn expand_part(&mut self, part: &Part) -> (String, bool) {
        match part {
            Part::Text { text, quoted } => (text.clone(), *quoted),
            Part::Param { name, op, quoted } => (self.parameter(name, op), *quoted),
            Part::Command { script, quoted } => (self.command_substitution(script), *quoted),
            Part::Arithmetic { expression, quoted } => {
                let value = arithmetic::evaluate(expression, &|name| self.vars.get(name).cloned());
                match value {
                    Ok(n) => (n.to_string(), *quoted),
                    Err(message) => {
                        self.err(format!("sh: {message}\n"));
                        self.status = 2;
                        (String::new(), *quoted)
                    }
                }
            }
        }
    }

    fn parameter(&mut self, name: &str, op: &ParamOp) -> String {
        let value = self.lookup(name);
        let word_value = |shell: &mut Self, word: &str| match syntax::tokenize(word) {
            Ok(tokens) => tokens
                .into_iter()
                .filter_map(|t| match t {
                    syntax::Token::Word(w) => Some(shell.expand_text(&w)),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(_) => word.to_string(),
        };
        let missing = |colon: bool| value.as_ref().is_none_or(|v| colon && v.is_empty());
        match op {
            ParamOp::Plain => value.unwrap_or_default(),
            ParamOp::Length => value.unwrap_or_default().chars().count().to_string(),
            ParamOp::Default { word, colon } if missing(*colon) => word_value(self, word),
            ParamOp::Assign { word, colon } if missing(*colon) => {
                let text = word_value(self, word);
                self.vars.insert(name.to_string(), text.clone());
                text
            }
            ParamOp::Alternative { word, colon } => {
                if missing(*colon) {
                    String::new()
                } else {
                    word_value(self, word)
                }
            }
            _ => value.unwrap_or_default(),
        }
    }

    fn lookup(&self, name: &str) -> Option<String> {
        match name {
            "?" => Some(self.status.to_string()),
            "#" => Some((self.positional.len() - 1).to_string()),
            "$" => Some("1".into()),
            "@" | "*" => Some(self.positional[1..].join(" ")),
            "!" | "-" => Some(String::new()),
            _ if name.chars().all(|c| c.is_ascii_digit()) => {
                name.parse::<usize>().ok().and_then(|i| self.positional.get(i).cloned())
            }
            _ => self.vars.get(name).cloned(),
        }
    }

    /// `$(…)`: the script's stdout with trailing newlines removed.
    fn command_substitution(&mut self, script: &str) -> String {
        if self.depth >= syntax::MAX_NESTING {
            self.err("sh: nested too deeply\n");
            return String::new();
        }
        self.depth += 1;
        self.substitutions += 1;
        self.captures.push(String::new());
        let flow = self.subshell(|shell| shell.script(script));
        let mut text = self.captures.pop().unwrap_or_default();
        self.depth -= 1;
        if flow == Flow::Forever {
            self.steps = MAX_STEPS;
        }
        text.truncate(text.trim_end_matches('\n').len());
        text
    }
}

/// What a loop does after one turn of its body.
enum Turn {
    Again,
    /// `break` (of this loop).
    Stop,
    /// Out of this loop too: `exit`, forever, or `break N`/`continue N` for an outer loop.
    Leave(Flow),
}

fn body_turn(flow: Flow) -> Turn {
    match flow {
        Flow::Break(n) if n > 1 => Turn::Leave(Flow::Break(n - 1)),
        Flow::Break(_) => Turn::Stop,
        Flow::Continue(n) if n > 1 => Turn::Leave(Flow::Continue(n - 1)),
        Flow::Continue(_) | Flow::Next => Turn::Again,
        other => Turn::Leave(other),
    }
}

/// What to undo after a command's redirects.
enum Undo {
    Stdin,
    Stderr,
    ToStderr,
    File { path: String, append: bool },
    Nothing,
}

/// At most `room` bytes of `text`, cut at a character boundary.
fn truncate(text: &str, room: usize) -> &str {
    if text.len() <= room {
        return text;
    }
    let mut cut = room;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}
