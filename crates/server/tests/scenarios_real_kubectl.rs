//! Every scenario in tests/scenarios/, run against a served lab through the real kubectl 1.36:
//! the lab is scripted (`kubelab up --scripted`: time passes only at `sleep` and while kubectl
//! waits on a watch, as the lab's own kubectl lets it pass), lab verbs and sleeps go through
//! `/kubelab/run`, and what kubectl prints must be the golden transcript — what the
//! lab's own kubectl printed on the same lab — column for column, ages compared by their format
//! (kubectl computes some ages itself, from the wall clock). Scenarios that need an interactive
//! harness are listed with the reason; differences still open are listed with theirs.

mod support;

use kubelab_core::script::{self, Action, Step};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use support::up::{Up, oracle};

/// Scenarios whose transcripts still differ, and why (each one a piece of work named).
const NOT_RUN: &[(&str, &str)] = &[
    (
        "control_plane_failures",
        "a served lab's HTTP door does not stop with `lab apiserver stop` (its connections are not refused), and with `lab etcd stop` it answers the 504 at once where the lab's own kubectl waits out the 60 s request timeout first",
    ),
    (
        "disruption_budgets",
        "kubectl drain evicts a node's pods concurrently, one goroutine per pod, so the order of its `evicting pod` and retry lines varies from run to run; the lab's drain prints them in the order upstream's loop usually does",
    ),
    (
        "helm",
        "its helm lines are the lab's own Helm, which real kubectl cannot run; the kubectl lines between them read Helm's objects and release Secrets as on a real cluster",
    ),
    (
        "kube_system",
        "kubectl drain waits for its evicted pods by polling a GET a second, and a scripted lab lets virtual time pass only at sleeps and while kubectl waits on a watch, so the CoreDNS pod's grace period never runs out; the lines before the drain match, and the same drain against a lab in real time evicts and finishes as the golden shows",
    ),
    (
        "quotas_and_limits",
        "kubectl config set-context and get-contexts edit the kubeconfig on the learner's machine, whose context is named for the served lab (kubelab-…), where the lab's own kubectl keeps kind's (kind-kind)",
    ),
    (
        "request_path",
        "kubectl -v=6 stamps its log lines with the client's wall clock and pid and lists its feature gates in map order, and `lab request-path` is the lab's own verb; the request lines themselves were compared with kubectl 1.36 when the scenario was written",
    ),
    (
        "rollout_verbs",
        "kubectl rollout restart stamps the pod template with the client's wall-clock time (restartedAt), so the new ReplicaSet's template hash differs from the lab's own kubectl, which stamps the lab's time",
    ),
    (
        "stuck_rollout",
        "rollout status --timeout=10s counts wall-clock seconds in kubectl, while a scripted lab lets virtual time pass only as kubectl waits, so the progress deadline passes first",
    ),
];

fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios")
}

/// A word for a POSIX shell, quoted.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Why a kubectl line needs an interactive harness, if it does.
fn interactive(argv: &[String]) -> Option<&'static str> {
    let has = |flag: &str| argv.iter().any(|a| a == flag || *a == format!("{flag}=true"));
    match argv.first().map(String::as_str) {
        Some("edit") => Some("kubectl edit opens an editor"),
        Some("port-forward") => Some("port-forward runs until stopped (tests/port_forward.rs drives it)"),
        _ if has("-w") || has("--watch") || has("--watch-only") => Some("a watch runs until stopped"),
        _ => None,
    }
}

static COMMANDS: AtomicUsize = AtomicUsize::new(0);

/// Runs one kubectl line with the real kubectl; stdout and stderr as the terminal shows them.
fn real_kubectl(up: &Up, kubectl: &Path, (argv, stdin, pipe): (&[String], Option<&str>, Option<&str>)) -> String {
    // The kubeconfig through the environment: a flag before the command would make kubectl
    // treat an unknown command as a plugin.
    let mut line = format!("exec 2>&1; {}", quote(kubectl.to_str().unwrap()));
    for word in argv {
        line.push(' ');
        line.push_str(&quote(word));
    }
    if let Some(pipe) = pipe {
        line.push_str(" | ");
        line.push_str(pipe);
    }
    // A fresh discovery cache per command, as the lab's own kubectl always has: kubectl's disk
    // cache would remember a CRD's resource after the CRD is gone.
    let cache = up.dir.join(format!("cache-{}", COMMANDS.fetch_add(1, Ordering::Relaxed)));
    let mut command = Command::new("sh");
    command.args(["-c", &line]).current_dir(scenarios_dir()).env("HOME", &up.dir).env("KUBECACHEDIR", cache);
    command.env("KUBECONFIG", &up.kubeconfig);
    command.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    drop(child.stdin.take());
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}

/// The transcript the scenario gives through the real kubectl, or why it was not run.
fn run_scenario(kubectl: &Path, path: &Path) -> Result<String, String> {
    let steps: Vec<Step> = script::parse(&std::fs::read_to_string(path).unwrap()).map_err(|e| e.to_string())?;
    for step in &steps {
        if let Action::Kubectl { argv, .. } = &step.action
            && let Some(reason) = interactive(argv)
        {
            return Err(format!("`{}`: {reason}", step.written));
        }
    }
    let name = path.file_stem().unwrap().to_string_lossy().replace('_', "-");
    let up = Up::start_with(&name, &["--scripted"]);
    let mut transcript = String::new();
    for step in &steps {
        transcript.push_str(&format!("$ {}\n", step.written));
        let printed = match &step.action {
            Action::Kubectl { argv, stdin, pipe } => {
                real_kubectl(&up, kubectl, (argv, stdin.as_deref(), pipe.as_deref()))
            }
            Action::Helm { .. } | Action::Sleep(_) | Action::Lab(_) => {
                up.owner_call("POST", "/kubelab/run", &step.written)
            }
        };
        transcript.push_str(&printed);
    }
    Ok(transcript)
}

/// One scenario through the real kubectl against its golden transcript: where they differ, if
/// they do (a scenario that is not run says why on stderr).
fn compare(kubectl: &Path, path: &Path) -> Option<String> {
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    if let Some((_, reason)) = NOT_RUN.iter().find(|(n, _)| *n == name) {
        eprintln!("{name}: not run: {reason}");
        return None;
    }
    let transcript = match run_scenario(kubectl, path) {
        Ok(transcript) => transcript,
        Err(reason) => {
            eprintln!("{name}: not run: {reason}");
            return None;
        }
    };
    let golden = std::fs::read_to_string(path.with_extension("out")).unwrap();
    let (got, want) = (normalized(&transcript), normalized(&golden));
    if got == want {
        return None;
    }
    let at = got
        .lines()
        .zip(want.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(got.lines().count().min(want.lines().count()));
    let show = |t: &str| t.lines().skip(at.saturating_sub(2)).take(6).collect::<Vec<_>>().join("\n");
    if std::env::var_os("KUBELAB_SCENARIO_DUMP").is_some() {
        std::fs::write(std::env::temp_dir().join(format!("{name}.real")), &transcript).unwrap();
    }
    Some(format!("{name}, line {}:\n--- real kubectl\n{}\n--- golden\n{}", at + 1, show(&got), show(&want)))
}

/// An age as kubectl prints one (`5s`, `3m20s`, `2d4h`, `703d`, `<invalid>`).
fn is_age(word: &str) -> bool {
    if matches!(word, "<invalid>" | "<unknown>") {
        return true;
    }
    let mut rest = word;
    let mut parts = 0;
    while !rest.is_empty() {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let unit = rest[digits..].chars().next();
        if digits == 0 || !matches!(unit, Some('y' | 'd' | 'h' | 'm' | 's')) {
            return false;
        }
        rest = &rest[digits + 1..];
        parts += 1;
    }
    parts > 0 && parts <= 2
}

/// A transcript with every age replaced by `AGE`, runs of spaces by one and trailing spaces
/// gone: the cells are compared, not the padding (kubectl pads columns to the widest cell,
/// and ages it computes itself from the wall clock are wider or narrower than the lab's).
fn normalized(text: &str) -> String {
    let age = |w: &str| is_age(w.trim_start_matches('(').trim_end_matches(')'));
    text.lines()
        .map(|line| line.split_whitespace().map(|w| if age(w) { "AGE" } else { w }).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn ages_are_recognised_by_their_format() {
    assert!(["5s", "3m20s", "2d4h", "703d", "<invalid>", "10y2d"].iter().all(|w| is_age(w)));
    assert!(!["s", "5", "v1", "80m0", "node-1", "5s5s5s", "3m20"].iter().any(|w| is_age(w)));
    assert_eq!(normalized("web   1/1   Running   0     5s\nNAME   CPU   \n"), "web 1/1 Running 0 AGE\nNAME CPU");
}

#[test]
fn every_scenario_prints_through_the_real_kubectl_what_the_lab_printed() {
    let Some(kubectl) = oracle() else { return };
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(scenarios_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sim"))
        .collect();
    scripts.sort();
    let only = std::env::var("KUBELAB_SCENARIO").ok();
    scripts.retain(|path| only.as_ref().is_none_or(|o| *o == path.file_stem().unwrap().to_string_lossy()));
    // Each scenario has a lab of its own, so they run side by side.
    let failures = support::parallel::parallel_map(&scripts, |path| compare(&kubectl, path));
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{} scenario(s) differ:\n\n{}", failures.len(), failures.join("\n\n"));
}
