//! The verb end to end on a lab whose controllers run while it waits.

use crate::kubectl::fixture::{HELLO_DEPLOYMENT, lab, pod_named};
use crate::kubectl::{Context, MemoryFiles};
use crate::sim::Sim;
use crate::sim::time::Duration;

/// What one command prints and its exit code, the cluster settling after it as a host lets it.
fn kubectl(sim: &mut Sim, line: &str) -> (String, i32) {
    let mut files = MemoryFiles::new();
    files.insert("hello.yaml", HELLO_DEPLOYMENT);
    let mut ctx = Context { sim, files: &files, stdin: None };
    let argv = crate::script::words::split(line).unwrap();
    let out = crate::kubectl::run(&mut ctx, &argv);
    ctx.sim.settle();
    (out.render(), out.exit_code)
}

fn failed(text: &str) -> (String, i32) {
    (format!("{text}\n"), 1)
}

#[test]
fn usage_mistakes_are_refused_before_anything_is_looked_up() {
    let mut sim = Sim::default();
    let cases = [
        ("wait", "error: unrecognized condition: []"),
        ("wait pod/x", "error: unrecognized condition: []"),
        ("wait --for=bogus pod/x", "error: unrecognized condition: \"bogus\""),
        ("wait --for=jsonpath= pod/x", "error: jsonpath expression cannot be empty"),
        (
            "wait --for=condition=Ready",
            "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
        ),
        (
            "wait --for=condition=Ready pod/x --timeout=abc",
            "error: invalid argument \"abc\" for \"--timeout\" flag: time: invalid duration \"abc\"\nSee 'kubectl wait --help' for usage.",
        ),
        (
            "wait --for=condition=Ready pod/x --timeout=-5",
            "error: invalid argument \"-5\" for \"--timeout\" flag: time: missing unit in duration \"-5\"\nSee 'kubectl wait --help' for usage.",
        ),
        (
            "wait --for=condition=Ready -l a=b pod/x",
            "error: selectors and the all flag cannot be used when passing resource/name arguments",
        ),
        ("wait --for=condition=Ready -l a=b", "error: at least one resource must be specified to use a selector"),
        ("wait --for=condition=Ready -l a=b pods x", "error: name cannot be provided when a selector is specified"),
        ("wait --for=condition=Ready pods", "error: resource(s) were provided, but no name was specified"),
        ("wait --for=condition=Ready -A pod/x", "error: a resource cannot be retrieved by name across all namespaces"),
        (
            "wait --for=condition=Ready pods/x -f hello.yaml",
            "error: resource/name arguments cannot be provided when a path is specified",
        ),
        ("wait --for=condition=Ready bogus/x", "error: the server doesn't have a resource type \"bogus\""),
    ];
    for (line, expected) in cases {
        assert_eq!(kubectl(&mut sim, line), failed(expected), "{line}");
    }
    assert_eq!(sim.now(), Sim::default().now(), "nothing waited");
}

#[test]
fn a_missing_object_is_not_found_unless_waiting_for_its_deletion() {
    let mut sim = Sim::default();
    assert_eq!(
        kubectl(&mut sim, "wait --for=condition=Ready pod/missing"),
        failed("Error from server (NotFound): pods \"missing\" not found")
    );
    assert_eq!(kubectl(&mut sim, "wait --for=delete pod/missing"), (String::new(), 0));
    assert_eq!(kubectl(&mut sim, "wait --for=delete pods -l app=none"), (String::new(), 0));
    assert_eq!(
        kubectl(&mut sim, "wait --for=condition=Ready pods --all"),
        failed("error: no matching resources found")
    );
}

#[test]
fn pods_become_ready_while_the_lab_waits() {
    let mut sim = lab("kubectl apply -f hello.yaml\n");
    let before = sim.now();
    let (text, code) = kubectl(&mut sim, "wait --for=condition=Ready pod -l app=hello --timeout=60s");
    assert_eq!(code, 0, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines.iter().all(|l| l.starts_with("pod/hello-") && l.ends_with(" condition met")), "{text}");
    let waited = sim.now().since(before);
    assert!(waited > Duration::ZERO && waited < Duration::from_secs(60), "{waited}");
    let (text, _) = kubectl(&mut sim, "wait --for=condition=Available deploy/hello");
    assert_eq!(text, "deployment.apps/hello condition met\n");
    let (text, _) = kubectl(&mut sim, "wait --for=condition=Available -f hello.yaml");
    assert_eq!(text, "deployment.apps/hello condition met\n");
    let pod = pod_named(&sim, "hello-");
    let (text, _) = kubectl(&mut sim, &format!("wait --for=jsonpath={{.status.phase}}=Running pod/{pod} -o name"));
    assert_eq!(text, format!("pod/{pod}\n"));
    let (text, _) =
        kubectl(&mut sim, &format!("wait --for=jsonpath=.status.podIP --for=condition=ready=TRUE pod/{pod}"));
    assert_eq!(text, format!("pod/{pod} condition met\npod/{pod} condition met\n"));
}

#[test]
fn a_condition_never_met_times_out_at_the_deadline_for_every_object() {
    let mut sim = lab("kubectl create deployment broken --image=hello:v9-missing --replicas=2\n");
    let before = sim.now();
    let (text, code) = kubectl(&mut sim, "wait --for=condition=Ready pods -l app=broken --timeout=10s");
    assert_eq!(code, 1);
    assert_eq!(sim.now().since(before), Duration::from_secs(10));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines.iter().all(|l| l.starts_with("timed out waiting for the condition on pods/broken-")), "{text}");
    let pod = pod_named(&sim, "broken-");
    let (text, code) = kubectl(&mut sim, &format!("wait --for=condition=Ready pod/{pod} --timeout=0"));
    assert_eq!((text, code), failed(&format!("error: condition not met for pods/{pod}")));
    let (text, _) = kubectl(&mut sim, &format!("wait --for=condition=Ready=False pod/{pod} --timeout=0"));
    assert_eq!(text, format!("pod/{pod} condition met\n"));
}

#[test]
fn deletion_and_creation_are_waited_for() {
    let mut sim = lab("kubectl apply -f hello.yaml\nsleep 20s\n");
    let pod = pod_named(&sim, "hello-");
    kubectl(&mut sim, &format!("delete pod {pod} --wait=false"));
    let (text, code) = kubectl(&mut sim, &format!("wait --for=delete pod/{pod} --timeout=-1s"));
    assert_eq!((text, code), (format!("pod/{pod} condition met\n"), 0));
    assert!(sim.store().try_get::<crate::api::Pod>("default", &pod).is_none());
    let (text, code) = kubectl(&mut sim, "wait --for=create deploy/hello");
    assert_eq!((text, code), ("deployment.apps/hello condition met\n".into(), 0));
    let before = sim.now();
    let (text, code) = kubectl(&mut sim, "wait --for=create deploy/later --timeout=2s");
    assert_eq!((text, code), failed("error: timed out waiting for the condition"));
    assert_eq!(sim.now().since(before), Duration::from_secs(2));
    let (text, _) = kubectl(&mut sim, "wait --for=delete deploy/hello --timeout=0");
    assert_eq!(text, "error: condition not met for deployments/hello\n");
}

#[test]
fn a_stopped_etcd_times_the_wait_out_like_any_read() {
    let mut sim = lab("lab etcd stop\n");
    let (text, code) = kubectl(&mut sim, "wait --for=condition=Ready pod/x");
    assert_eq!(code, 1);
    assert_eq!(text, "Error from server (Timeout): Timeout: request did not complete within the allotted timeout\n");
}

#[test]
fn timeouts_read_as_go_durations_zero_looking_once_and_negative_a_week() {
    let timeout = |line: &str| {
        let argv: Vec<String> = line.split_whitespace().map(String::from).collect();
        super::timeout_flag(&crate::kubectl::args::parse(&argv, super::VERB.flags).unwrap())
    };
    assert_eq!(timeout(""), Ok(Some(Duration::from_secs(30))));
    assert_eq!(timeout("--timeout=1m30s"), Ok(Some(Duration::from_secs(90))));
    assert_eq!(timeout("--timeout=+2s"), Ok(Some(Duration::from_secs(2))));
    assert_eq!(timeout("--timeout=0"), Ok(None));
    assert_eq!(timeout("--timeout=-0s"), Ok(None));
    assert_eq!(timeout("--timeout=-1s"), Ok(Some(Duration::from_secs(168 * 3600))));
    assert!(timeout("--timeout=-").is_err() && timeout("--timeout=1x").is_err());
}
