//! `#/sandbox`: a free lab on the default three-node cluster, with no lesson attached. A
//! learner in a class still gets the instructor's faults here, and the lab is saved for replay.

use crate::lab_session::LabSession;
use crate::lab_sync;
use crate::lab_view::LabView;
use crate::live_faults::LiveFaults;
use crate::server_context::ServerContext;
use crate::shared_lab;
use leptos::prelude::*;

#[component]
pub fn SandboxPage() -> impl IntoView {
    let lab = shared_lab::open(LabSession::sandbox());
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
                <p>"A three-node cluster, one per zone, with nothing on it. Try:"</p>
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
