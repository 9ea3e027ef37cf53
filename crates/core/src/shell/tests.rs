//! Scripts in, terminal text and exit codes out, against busybox 1.37's answers.

use super::{Ending, FileChange, Host, Io, Shell};
use crate::sim::time::Duration;

/// A host that only keeps the terminal and counts sleeps; `hello` answers like a Service.
#[derive(Default)]
struct Terminal {
    text: String,
    slept: Duration,
    requests: u32,
}

impl Host for Terminal {
    fn terminal(&mut self, text: &str) {
        self.text.push_str(text);
    }

    fn sleep(&mut self, duration: Option<Duration>) -> bool {
        let Some(duration) = duration else { return false };
        self.slept = Duration(self.slept.0 + duration.0);
        true
    }

    fn past_horizon(&self) -> bool {
        false
    }

    fn file_changed(&mut self, _change: FileChange) {}

    fn applet(&mut self, name: &str, args: &[String], io: &mut Io) -> Option<i32> {
        if name != "wget" {
            return None;
        }
        self.requests += 1;
        io.out(format!("hello from pod-{} ({})\n", self.requests % 3, args.last()?));
        Some(0)
    }
}

fn sh(script: &str) -> (String, Ending) {
    let mut host = Terminal::default();
    let env = [("GREETING".to_string(), "hi there".to_string()), ("HOSTNAME".to_string(), "client".to_string())];
    let ending = Shell::new(&mut host, &env, Default::default()).run_script(script);
    (host.text, ending)
}

#[track_caller]
fn check(script: &str, text: &str, code: i32) {
    assert_eq!(sh(script), (text.to_string(), Ending::Exited(code)), "{script}");
}

#[test]
fn the_seeds_loop_through_sort_and_uniq_counts_each_pod() {
    check(
        "for i in $(seq 30); do wget -qO- http://hello; done | sort | uniq -c",
        "     10 hello from pod-0 (http://hello)\n     10 hello from pod-1 (http://hello)\n     10 hello from pod-2 (http://hello)\n",
        0,
    );
}

#[test]
fn lists_pipes_and_exit_codes() {
    check("echo a; echo b && echo c || echo d", "a\nb\nc\n", 0);
    check("false || echo rescued; false && echo no", "rescued\n", 1);
    check("frobnicate --now; echo $?", "sh: frobnicate: not found\n127\n", 0);
    check("exit 3; echo never", "", 3);
    check("! true; echo $?", "1\n", 0);
    check("seq 5 | tail -n 2 | wc -l", "2\n", 0);
    check("printf 'b\\na\\nb\\n' | sort -u", "a\nb\n", 0);
    check("echo one two three | wc", "        1         3        14\n", 0);
    check("seq 10 | grep -c 1", "2\n", 0);
    check("seq 3 | grep -v 2", "1\n3\n", 0);
    check("echo x | grep -q y", "", 1);
    check("seq 3 | head -1", "1\n", 0);
    check("echo 'Address: 10.0.0.1' | cut -d' ' -f2", "10.0.0.1\n", 0);
    check("echo hello | tr a-z A-Z", "HELLO\n", 0);
    check("while true; do echo x; done | head -3", "x\nx\nx\n", 0);
    check("yes | head -2", "y\ny\n", 0);
    assert_eq!(sh("sleep infinity | cat").1, Ending::Forever);
    check(
        "seq 1000000 | tail -1",
        "sh: a pipe holds at most 1 MiB here; the rest of the output was dropped\n165668\n",
        0,
    );
}

#[test]
fn variables_quoting_and_substitution() {
    check("echo $GREETING \"$GREETING\" '$GREETING' ${GREETING}!", "hi there hi there $GREETING hi there!\n", 0);
    check("for w in $GREETING; do echo [$w]; done", "[hi]\n[there]\n", 0);
    check("for w in \"$GREETING\"; do echo [$w]; done", "[hi there]\n", 0);
    check("x=$(hostname); echo \"I am $x\"", "I am client\n", 0);
    check("echo ${MISSING:-fallback} ${#GREETING}", "fallback 8\n", 0);
    check("i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo $i; done", "1\n2\n3\n", 0);
    check("echo $((7 / 2)) $((2 * (3 + 4))) $((1 / 0))", "sh: divide by zero\n3 14\n", 0);
    check("A=1 printenv A; printenv A || echo unset", "1\nunset\n", 0);
    check("echo `echo back` \"quo\\\"te\"", "back quo\"te\n", 0);
}

#[test]
fn control_flow_and_files() {
    check("if [ -f /tmp/x ]; then echo yes; else echo no; fi", "no\n", 0);
    check("echo hi > /tmp/x; cat /tmp/x; echo more >> /tmp/x; wc -l < /tmp/x", "hi\n2\n", 0);
    check("cat /nope 2>/dev/null || echo missing", "missing\n", 0);
    check("cat /nope 2>&1 | wc -l", "1\n", 0);
    check("for i in 1 2 3 4; do [ $i = 3 ] && break; echo $i; done", "1\n2\n", 0);
    check("seq 3 | while read n; do echo line $n; done", "line 1\nline 2\nline 3\n", 0);
    check("(exit 4); echo $?; { echo grouped; }", "4\ngrouped\n", 0);
    check("sh -c 'echo $0 $1' name arg", "name arg\n", 0);
}

#[test]
fn syntax_errors_and_hostile_scripts_end_cleanly() {
    check("echo 'open", "sh: syntax error: unterminated quoted string\n", 2);
    check("for i in 1; do echo", "sh: syntax error: unexpected end of file (expecting \"done\")\n", 2);
    check("fi", "sh: syntax error: unexpected \"fi\"\n", 2);
    assert_eq!(sh("while true; do :; done").1, Ending::Forever);
    assert_eq!(sh("sleep infinity").1, Ending::Forever);
    let deep = "$(".repeat(40) + &")".repeat(40);
    assert!(matches!(sh(&format!("echo {deep}")).1, Ending::Exited(_)));
    let nested = (0..40).fold("true".to_string(), |inner, _| format!("sh -c '{inner}'"));
    assert!(matches!(sh(&nested).1, Ending::Exited(_)));
}

#[test]
fn sleep_asks_the_host_for_time() {
    let mut host = Terminal::default();
    let ending = Shell::new(&mut host, &[], Default::default()).run_script("sleep 1.5; sleep 2m");
    assert_eq!((ending, host.slept), (Ending::Exited(0), Duration(121_500)));
}

#[test]
fn read_only_mounts_refuse_writes_and_leave_their_files_alone() {
    let mut host = Terminal::default();
    let files = [("/etc/cfg/k".to_string(), "v".to_string())].into();
    let script = "echo x > /etc/cfg/k; touch /etc/cfg/new; rm /etc/cfg/k; echo y > /etc/cfgs; cat /etc/cfg/k /etc/cfgs";
    let ending = Shell::new(&mut host, &[], files).with_read_only(vec!["/etc/cfg/".into()]).run_argv(&[
        "sh".into(),
        "-c".into(),
        script.into(),
    ]);
    assert_eq!(ending, Ending::Exited(0));
    assert_eq!(
        host.text,
        "sh: can't create /etc/cfg/k: Read-only file system\ntouch: /etc/cfg/new: Read-only file system\nrm: can't remove '/etc/cfg/k': Read-only file system\nvy\n"
    );
}
