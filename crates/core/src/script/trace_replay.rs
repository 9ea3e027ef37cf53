//! Rebuilding a lab from its trace: every command and every input from outside (a real
//! node's reports) run again in order, each at the virtual time it first ran, on a fresh lab
//! of the same seed and cluster. The writes in the trace are what they caused, so they are
//! not replayed; they come out the same (the simulation is deterministic).

use super::{parse, run};
use crate::kubectl::FileSystem;
use crate::sim::Sim;
use crate::sim::node_input::NodeInput;
use crate::sim::time::SimTime;
use serde_json::Value;

/// Replays `trace` (JSON lines, as `Trace::as_jsonl` gives them) into `sim`.
pub fn replay(sim: &mut Sim, trace: &str, files: &dyn FileSystem) -> Result<(), String> {
    for (number, line) in trace.lines().enumerate() {
        let entry: Value = serde_json::from_str(line).map_err(|e| format!("trace line {}: {e}", number + 1))?;
        let at = SimTime(entry["t"].as_u64().unwrap_or(0));
        if let Some(command) = entry["cmd"].as_str() {
            catch_up(sim, at);
            let steps = parse(command).map_err(|e| format!("trace line {}: {e}", number + 1))?;
            run(sim, &steps, files, false);
        } else if let Some(input) = entry.get("input") {
            catch_up(sim, at);
            let input: NodeInput =
                serde_json::from_value(input.clone()).map_err(|e| format!("trace line {}: {e}", number + 1))?;
            sim.node_input(&input);
        }
    }
    Ok(())
}

/// Lets virtual time reach `at` (a host whose clock ran between commands).
fn catch_up(sim: &mut Sim, at: SimTime) {
    if sim.now() < at {
        sim.advance(at.since(sim.now()));
    }
}
