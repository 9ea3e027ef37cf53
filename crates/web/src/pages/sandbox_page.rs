//! `#/sandbox`: a free lab with no lesson attached, on a cluster of the size the address asks
//! for (three nodes by default) and, fresh from the form, a starting scenario run between
//! frames. A learner in a class still gets the instructor's faults here, and the lab is saved
//! for replay.

use crate::engine::Engine;
use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_view::LabView;
use crate::lab::permalink;
use crate::lab::shared_lab;
use crate::lab::sliced_run::Step;
use crate::learner::lab_sync;
use crate::learner::live_faults::LiveFaults;
use crate::pages::sandbox_form::SandboxForm;
use crate::pages::sandbox_setup::{self, Scenario};
use crate::server::server_context::ServerContext;
use leptos::prelude::*;

#[component]
pub fn SandboxPage(engine: &'static dyn Engine) -> impl IntoView {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let nodes = sandbox_setup::nodes_in(&hash);
    let scenario = sandbox_setup::parameter(&hash, "scenario").and_then(Scenario::parse).unwrap_or(Scenario::Empty);
    let lab = shared_lab::open(engine.sandbox(nodes));
    start_scenario(lab, &hash);
    if let Some(server) = ServerContext::get() {
        lab_sync::save_while_open(lab, server);
    }
    if let Some(faults) = LiveFaults::get() {
        faults.register(lab);
    }
    view! {
        <div class="lesson-layout">
            <div class="lesson-steps">
                <h1>"Sandbox"</h1>
                <SandboxForm nodes=nodes started_with=scenario />
                <p>{format!("A {nodes}-node cluster over three zones. Try:")}</p>
                <ul>
                    <li><code>"kubectl create deployment web --image=hello:v1 --replicas=3"</code></li>
                    <li><code>"lab node power-off node-2"</code>" then "<code>"sleep 6m"</code></li>
                    <li><code>"kubectl get pods -o wide"</code></li>
                </ul>
            </div>
            <LabView lab=lab />
        </div>
    }
}

/// Runs the scenario the form chose, unless the address is a permalink (its log has it).
fn start_scenario(lab: LabHandle, hash: &str) {
    if permalink::log_parameter(hash).is_some() {
        return;
    }
    let Some(scenario) = sandbox_setup::parameter(hash, "scenario").and_then(Scenario::parse) else {
        return;
    };
    let nodes = lab.peek(|session| session.nodes());
    lab.sliced.push(lab, scenario.scripts(nodes).iter().map(|script| Step::of(script)));
}
