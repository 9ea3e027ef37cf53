//! kubelab-web: the browser side of kubelab, a leptos app (client-side rendered) with the
//! simulator compiled in, so a learner needs no server. `start_app` mounts it; after
//! `load_engine`, `sim_run` and `EngineBench` expose the core to tests.
//!
//! Codemap, one folder per part:
//! - `engine/` — the pages' only door to the core (`Engine`, `LiveLab`); in the browser the core
//!   behind it is a chunk fetched after the first paint, waited for by `engine::gate`.
//! - `pages/` — the shell and hash routes (`app`, `route`, `header`), the catalogue, a lesson,
//!   the sandbox (`sandbox_form`, `sandbox_setup`), about, the crash panel (`panic_report`).
//! - `lab/` — a live lab: `lab_session` (plain Rust) with its `timeline`, `permalink` and
//!   `shared_lab`; `lab_handle` (reactive) and `lab_view`; `terminal` + `completion`,
//!   `clock_controls` + `sliced_run`, `timeline_view`, `share_link`; `cluster_view` over
//!   `view::cluster` (or `node_canvas` over `node_grid` and `view::node_grid` past 60 nodes)
//!   with `drag_commands` + `pod_dnd`; `inspector` + `inspector_view`, `event_feed`,
//!   `reconcile_panel`; the manifest editor.
//! - `lesson/` — steps, tasks, predictions, quizzes, `markdown`, `lessons` (compiled in by
//!   `build.rs`) and `progress` (localStorage).
//! - `server/` — with `kubelab serve`: `server_context` (is there one, who is signed in),
//!   `api_client` + `api_types` + `live_socket` (HTTP and WebSocket).
//! - `learner/` — progress sent to the server, a shared lab, injected faults, joining a class.
//! - `instructor/` — signing in, the dashboard over `dashboard_model`, faults, replays,
//!   hosted labs.
//!
//! The global allocator and `memcmp` of the wasm32 build are the `kubelab-web-runtime` crate's.

pub mod engine;
pub mod instructor;
pub mod lab;
pub mod learner;
pub mod lesson;
pub mod pages;
pub mod server;

// Links the global allocator and `memcmp` (nothing here names them).
#[cfg(target_arch = "wasm32")]
use kubelab_web_runtime as _;
use wasm_bindgen::prelude::wasm_bindgen;

/// Mounts the app into the page's `#app` element (or the body), replacing its loading text,
/// then starts fetching the simulator's chunk (`engine::gate::prefetch`).
#[wasm_bindgen]
pub fn start_app() {
    pages::panic_report::install();
    let target = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"))
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
    match target {
        Some(target) => {
            target.set_inner_html("");
            leptos::mount::mount_to(target, pages::app::App).forget();
        }
        None => leptos::mount::mount_to_body(pages::app::App),
    }
    engine::gate::prefetch();
}

/// Fetches the simulator's chunk; `sim_run` and `EngineBench` need it first (Node tests).
#[wasm_bindgen]
pub async fn load_engine() -> Result<(), String> {
    engine::load().await.map(|_| ())
}

/// Runs a `kubelab sim` script on the default cluster with `seed`; returns JSON
/// `{"output": transcript, "trace": jsonl, "exitCode": n}` (malformed scripts: exit code 2).
#[wasm_bindgen]
pub fn sim_run(seed: u64, script_text: &str) -> Result<String, String> {
    let (output, trace, exit_code) = loaded()?.run_script(seed, script_text);
    Ok(serde_json::json!({"output": output, "trace": trace, "exitCode": exit_code}).to_string())
}

/// Panics inside the simulator as a bug in the core would, so the end-to-end test can check
/// what a learner then sees: the crash panel with its report, not a frozen page.
#[wasm_bindgen]
pub fn simulate_crash() -> Result<(), String> {
    loaded()?.crash("a simulated bug in the core");
    Ok(())
}

fn loaded() -> Result<&'static dyn engine::Engine, String> {
    engine::get().ok_or_else(|| "the simulator is not loaded; await load_engine() first".to_string())
}

/// The engine benchmark's scenario (`kubelab_core::sim::load`) in the phases the native bench
/// times: `new` builds `nodes` nodes (cluster setup), `run` applies `deployments` Deployments of
/// `replicas` pods and runs until every pod is Running, `idle_hour` advances a quiet hour. The
/// caller times each call (the core has no clock), so setup and freeing the lab stay outside
/// the figure, as natively.
#[wasm_bindgen]
pub struct EngineBench {
    cluster: Box<dyn engine::LoadRun>,
}

#[wasm_bindgen]
impl EngineBench {
    #[wasm_bindgen(constructor)]
    pub fn new(nodes: usize) -> Result<EngineBench, String> {
        Ok(EngineBench { cluster: loaded()?.load_cluster(nodes) })
    }

    /// Returns JSON `{"pods", "running", "virtualSeconds", "traceHash"}`.
    pub fn run(&mut self, deployments: usize, replicas: usize) -> String {
        let report = self.cluster.run(deployments, replicas);
        serde_json::json!({
            "pods": report.pods,
            "running": report.running,
            "virtualSeconds": report.virtual_seconds,
            "traceHash": report.trace_hash.to_string(),
        })
        .to_string()
    }

    /// Timers fired over an hour with nothing to do.
    pub fn idle_hour(&mut self) -> u64 {
        self.cluster.idle_hour()
    }

    /// The traffic benchmark's setup: `pods` Running behind the Service `web`.
    pub fn serve(&mut self, pods: usize) {
        self.cluster.serve(pods);
    }

    /// Returns JSON `{"requests", "ok"}`: the traffic generator at `rps` for `seconds`.
    pub fn traffic(&mut self, rps: u32, seconds: u64) -> String {
        let (requests, ok) = self.cluster.traffic(rps, seconds);
        serde_json::json!({"requests": requests, "ok": ok}).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_script_and_reports_json() {
        let json: serde_json::Value = serde_json::from_str(&sim_run(1, "kubectl get nodes\n").unwrap()).unwrap();
        assert!(json["output"].as_str().unwrap().contains("node-1          Ready"));
        assert_eq!(json["exitCode"], 0);
        let json: serde_json::Value = serde_json::from_str(&sim_run(1, "bogus\n").unwrap()).unwrap();
        assert_eq!(json["exitCode"], 2);
    }
}
