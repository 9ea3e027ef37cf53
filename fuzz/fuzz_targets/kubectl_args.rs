//! Terminal lines through kubectl's flag parser, its verbs and Tab completion on a small lab: what learners type.
#![no_main]

use kubelab_core::kubectl::{self, Context, Output};
use kubelab_core::script::words;
use kubelab_core::sim::Sim;
use kubelab_core::sim::time::Duration;
use kubelab_fuzz::{assert_failure_says_why, budget, course_files, lab_after, text};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Commands per input: enough for a sequence (scale, then undo, then describe), few enough
/// that an input stays quick.
const MAX_COMMANDS: usize = 4;

const SETUP: &str = "kubectl apply -f hello.yaml
kubectl apply -f hello-service.yaml
kubectl create configmap greeting --from-literal=GREETING=hi
kubectl run box --image=busybox -- sleep 3600
sleep 30s
";

/// What `-f -` reads when the input brings no stdin of its own.
const DEFAULT_STDIN: &str = include_str!("../../tests/manifests/hello-v2.yaml");

static SMALL_LAB: OnceLock<Sim> = OnceLock::new();

// Up to four lines, each completed with Tab, then run; a NUL byte ends the lines, and what
// follows it is stdin for `-f -`.
fuzz_target!(|bytes: &[u8]| {
    let text = text(bytes);
    let (lines, stdin) = text.split_once('\0').unwrap_or((&text, DEFAULT_STDIN));
    let mut sim = SMALL_LAB.get_or_init(|| lab_after(SETUP)).clone();
    budget(&mut sim, 32);
    for line in lines.lines().take(MAX_COMMANDS) {
        complete(&sim, line);
        if let Ok(argv) = words::split(line) {
            run(&mut sim, &argv, stdin);
        }
    }
});

/// Tab at the end of the line and at its middle, as the terminal asks for candidates.
fn complete(sim: &Sim, line: &str) {
    let line = format!("kubectl {line}");
    let mut middle = line.len() / 2;
    while !line.is_char_boundary(middle) {
        middle -= 1;
    }
    kubectl::complete(sim, &line, line.len());
    kubectl::complete(sim, &line, middle);
}

/// One line as the terminal runs it (`kubectl` is implied; one written anyway is dropped, as
/// the script language drops it).
fn run(sim: &mut Sim, argv: &[String], stdin: &str) {
    let argv = match argv.first() {
        Some(first) if first == "kubectl" => &argv[1..],
        _ => argv,
    };
    let files = course_files();
    let mut ctx = Context { sim, files: &files, stdin: Some(stdin) };
    let (output, watch) = kubectl::run_watching(&mut ctx, argv);
    ctx.sim.settle();
    check(&output, argv);
    if let Some(mut watch) = watch {
        sim.advance(Duration::from_secs(10));
        watch.poll(sim);
        watch.close(sim);
    }
}

fn check(output: &Output, argv: &[String]) {
    output.render();
    assert_failure_says_why(output, &argv.join(" "));
}
