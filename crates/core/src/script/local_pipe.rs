//! What follows a `|` after a kubectl command, run in the learner's own shell: kubectl's
//! output is its stdin (`kubectl exec client -- … | sort | uniq -c`, `kubectl get pods | grep
//! Running`). The learner's machine has the text tools and no way into the cluster.

use crate::shell::{Ending, FileChange, Host, Io, Shell};
use crate::sim::time::Duration;

/// Runs `pipeline` over `input`: what it printed, and whether it succeeded.
pub fn run(pipeline: &str, input: &str) -> (String, bool) {
    let mut host = Laptop::default();
    let env = [
        ("PATH".to_string(), crate::workload::IMAGE_PATH.to_string()),
        ("HOME".to_string(), "/home/learner".to_string()),
    ];
    let mut shell = Shell::new(&mut host, &env, Default::default());
    shell.give_stdin(input);
    let ending = shell.run_script(pipeline);
    (host.text, ending == Ending::Exited(0))
}

#[derive(Default)]
struct Laptop {
    text: String,
}

impl Host for Laptop {
    fn terminal(&mut self, text: &str) {
        self.text.push_str(text);
    }

    fn sleep(&mut self, _duration: Option<Duration>) -> bool {
        false
    }

    fn past_horizon(&self) -> bool {
        false
    }

    fn file_changed(&mut self, _change: FileChange) {}

    fn applet(&mut self, name: &str, _args: &[String], io: &mut Io) -> Option<i32> {
        // The cluster's addresses mean nothing from here; `kubectl port-forward` is the way in.
        matches!(name, "wget" | "nslookup" | "nc" | "curl").then(|| {
            io.err(format!("{name}: the cluster's names and addresses are not reachable from your machine\n"));
            1
        })
    }
}

/// Splits a line at its first `|` outside quotes: the command and the pipeline after it.
pub fn split(line: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    let mut escaped = false;
    for (at, c) in line.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (None | Some('"'), '\\') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '|') if !line[at + 1..].starts_with('|') && !line[..at].ends_with('|') => {
                return (&line[..at], Some(line[at + 1..].trim()));
            }
            _ => {}
        }
    }
    (line, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pipe_after_kubectl_runs_here() {
        assert_eq!(
            split("kubectl exec c -- sh -c 'a | b' | sort | uniq -c"),
            ("kubectl exec c -- sh -c 'a | b' ", Some("sort | uniq -c"))
        );
        assert_eq!(split("kubectl get pods"), ("kubectl get pods", None));
        assert_eq!(run("sort | uniq -c", "b\na\nb\n"), ("      1 a\n      2 b\n".to_string(), true));
        assert_eq!(run("grep Running", "x Pending\n"), (String::new(), false));
    }
}
