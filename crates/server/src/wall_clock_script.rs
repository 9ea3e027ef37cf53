//! A script for a hosted lab that real machines have joined: its clock runs with the wall
//! clock, so virtual time cannot jump ahead of the machines. `sleep D` waits D of wall time
//! (the lines after it are run then, the lab's catch-ups keeping its clock in step meanwhile),
//! and the lab's own waiting verbs, which would run its clock ahead to their answer, are
//! refused with a pointer to the learner's own kubectl, which waits in wall time.

use kubelab_core::sim::time::Duration;

/// The commands that wait by letting the lab's clock run (`kubectl wait`, `rollout status`,
/// `get -w`): each, as words its line starts with or holds.
const WAITING: &[(&[&str], &str)] =
    &[(&["kubectl", "wait"], "kubectl wait"), (&["kubectl", "rollout", "status"], "kubectl rollout status")];

/// A script cut at its `sleep`s: each piece and how long to wait before running it. The first
/// piece waits nothing; a `sleep` line is left in its piece as a comment saying what happened.
pub type Pieces = Vec<(std::time::Duration, String)>;

/// The pieces to run, or the waiting command that cannot run in such a lab.
pub fn plan(script: &str) -> Result<Pieces, String> {
    let mut pieces: Pieces = vec![(std::time::Duration::ZERO, String::new())];
    for line in script.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(name) = waiting_verb(&words) {
            return Err(name.to_string());
        }
        let slept = match words.as_slice() {
            ["sleep", duration, ..] if !line.contains(kubelab_wire::CLOCK_MARK) => Duration::parse(duration).ok(),
            _ => None,
        };
        let current = &mut pieces.last_mut().expect("one piece at least").1;
        match slept {
            Some(wait) => {
                current.push_str(&format!("# {} (waited with the wall clock: this lab has real nodes)\n", line.trim()));
                pieces.push((std::time::Duration::from_millis(wait.as_millis()), String::new()));
            }
            None => {
                current.push_str(line);
                current.push('\n');
            }
        }
    }
    pieces.retain(|(_, text)| !text.trim().is_empty());
    Ok(pieces)
}

fn waiting_verb(words: &[&str]) -> Option<&'static str> {
    let watches = words.first() == Some(&"kubectl") && words.iter().any(|w| matches!(*w, "-w" | "--watch"));
    if watches {
        return Some("kubectl get --watch");
    }
    WAITING.iter().find(|(prefix, _)| words.starts_with(prefix)).map(|(_, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration as Wall;

    #[test]
    fn a_sleep_waits_with_the_wall_clock_and_a_waiting_verb_is_refused() {
        let script = "kubectl scale deploy/web --replicas=3\nsleep 10s\nkubectl get pods\nsleep 500ms\n";
        let pieces = plan(script).unwrap();
        assert_eq!(
            pieces,
            vec![
                (
                    Wall::ZERO,
                    "kubectl scale deploy/web --replicas=3\n# sleep 10s (waited with the wall clock: this lab has real nodes)\n".to_string()
                ),
                (
                    Wall::from_secs(10),
                    "kubectl get pods\n# sleep 500ms (waited with the wall clock: this lab has real nodes)\n".to_string()
                ),
            ]
        );
        assert_eq!(plan("kubectl rollout status deployment/web").unwrap_err(), "kubectl rollout status");
        assert_eq!(plan("kubectl get pods -w").unwrap_err(), "kubectl get --watch");
        assert_eq!(plan("kubectl get pods").unwrap(), vec![(Wall::ZERO, "kubectl get pods\n".to_string())]);
    }
}
