//! kubelab-web: the browser side of kubelab. The simulator runs here, compiled to
//! WebAssembly, so a learner needs no server. It will grow into the leptos app (lessons,
//! the draggable cluster, the kubectl terminal, the timeline); for now it exports the
//! scenario runner so pages and tests can drive the same core the server runs.

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::MemoryFiles;
use kubelab_core::script;
use kubelab_core::sim::Sim;
use wasm_bindgen::prelude::wasm_bindgen;

/// Runs a `kubelab sim` script on the default cluster with `seed`; returns JSON
/// `{"output": transcript, "trace": jsonl, "exitCode": n}` (malformed scripts: exit code 2).
#[wasm_bindgen]
pub fn sim_run(seed: u64, script_text: &str) -> String {
    let result = run_script(seed, script_text);
    serde_json::json!({"output": result.0, "trace": result.1, "exitCode": result.2}).to_string()
}

/// The same run as `kubelab sim --seed SEED -`, as (transcript, trace, exit code).
pub fn run_script(seed: u64, script_text: &str) -> (String, String, i32) {
    let steps = match script::parse(script_text) {
        Ok(steps) => steps,
        Err(err) => return (format!("kubelab sim: {err}\n"), String::new(), 2),
    };
    let mut sim = Sim::new(seed, &ClusterSpec::default());
    let transcript = script::run(&mut sim, &steps, &MemoryFiles::new(), false);
    (transcript.text, sim.trace().as_jsonl().to_string(), transcript.exit_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_script_and_reports_json() {
        let json: serde_json::Value = serde_json::from_str(&sim_run(1, "kubectl get nodes\n")).unwrap();
        assert!(json["output"].as_str().unwrap().contains("node-1   Ready"));
        assert_eq!(json["exitCode"], 0);
        let json: serde_json::Value = serde_json::from_str(&sim_run(1, "bogus\n")).unwrap();
        assert_eq!(json["exitCode"], 2);
    }
}
