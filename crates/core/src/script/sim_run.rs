//! `kubelab sim`: a whole scenario run headless on a new lab, as the command line and the
//! browser's `sim_run` both do it: the transcript, the trace and the exit code.

use super::{parse, run};
use crate::cluster::ClusterSpec;
use crate::kubectl::FileSystem;
use crate::sim::Sim;

/// What one run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRun {
    /// `$ line` and what it printed, for every line run.
    pub transcript: String,
    /// Every command and write as JSON lines (`--trace`).
    pub trace: String,
    /// 0; 1 when `strict` stopped at a failing command.
    pub exit_code: i32,
}

/// Runs `text` on a new lab of `cluster` seeded with `seed`, reading `-f` files from `files`.
/// A line that does not parse is an `Err` with its message before anything runs (exit 2).
pub fn sim_run(
    seed: u64,
    cluster: &ClusterSpec,
    text: &str,
    files: &dyn FileSystem,
    strict: bool,
) -> Result<SimRun, String> {
    let steps = parse(text).map_err(|e| e.to_string())?;
    let mut sim = Sim::new(seed, cluster);
    let transcript = run(&mut sim, &steps, files, strict);
    Ok(SimRun {
        transcript: transcript.text,
        trace: sim.trace().as_jsonl().to_string(),
        exit_code: transcript.exit_code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::MemoryFiles;

    #[test]
    fn the_same_seed_and_script_give_the_same_run() {
        let script = "kubectl create deployment web --image=hello:v1 --replicas=2\nsleep 10s\nkubectl get pods\n";
        let files = MemoryFiles::new();
        let first = sim_run(7, &ClusterSpec::default(), script, &files, false).unwrap();
        assert_eq!(first, sim_run(7, &ClusterSpec::default(), script, &files, false).unwrap());
        assert!(first.transcript.contains("$ kubectl get pods\nNAME "), "{}", first.transcript);
        assert!(first.trace.lines().count() > 10);
        assert_eq!(first.exit_code, 0);
    }

    #[test]
    fn a_line_that_does_not_parse_runs_nothing() {
        let error = sim_run(1, &ClusterSpec::default(), "kubectl get pods\nsleep soon\n", &MemoryFiles::new(), false);
        assert_eq!(error.unwrap_err(), "line 2: time: invalid duration \"soon\"");
    }
}
