//! A hosted lab's real machines on its page, for its instructor: "Add a real machine" makes a
//! bootstrap token and shows the `kubelab-agent` command (and the lab's CA to save beside it),
//! and a table lists the machines that joined with their nodes' health, refreshed every few
//! seconds, so a machine that went silent is seen going NotReady, with the lab's CPU quota.

use super::cpu_quota::CpuQuotaMeter;
use crate::server::api_client;
use kubelab_wire::{AgentToken, RealNode, RealNodes};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;

/// How often the table asks again.
const REFRESH: Duration = Duration::from_secs(3);

#[component]
pub fn RealNodesPanel(id: String) -> impl IntoView {
    let nodes = RwSignal::new(None::<Result<RealNodes, String>>);
    let token = RwSignal::new(None::<Result<AgentToken, String>>);
    let list_path = format!("/api/labs/{}/nodes", api_client::path_segment(&id));
    let refresh = move || {
        let path = list_path.clone();
        spawn_local(async move {
            let answer = api_client::get::<RealNodes>(&path).await.map_err(|e| e.detail);
            if !nodes.is_disposed() {
                nodes.set(Some(answer));
            }
        });
    };
    refresh();
    if let Ok(handle) = set_interval_with_handle(refresh, REFRESH) {
        on_cleanup(move || handle.clear());
    }
    let token_path = format!("/api/labs/{}/agent-tokens", api_client::path_segment(&id));
    let add = move |_| {
        let path = token_path.clone();
        spawn_local(async move {
            let answer = api_client::send_json::<_, AgentToken>("POST", &path, &()).await.map_err(|e| e.detail);
            token.set(Some(answer));
        });
    };
    // Its own signal, so the quota field is not redrawn (and emptied) at each refresh.
    let usage = Memo::new(move |_| nodes.get().and_then(|answer| answer.ok()).map(|list| list.cpu));
    view! {
        <section class="real-nodes" aria-label="Real machines">
            <h2>"Real machines"</h2>
            {move || nodes.get().map(|answer| match answer {
                Err(message) => view! { <p role="alert">{message}</p> }.into_any(),
                Ok(list) if list.nodes.is_empty() => view! { <p>"No real machine has joined this lab."</p> }.into_any(),
                Ok(list) => view! { <NodeTable nodes=list.nodes /> }.into_any(),
            })}
            <CpuQuotaMeter id=id usage=usage />
            <button type="button" on:click=add>"Add a real machine"</button>
            {move || token.get().map(|answer| match answer {
                Err(message) => view! { <p role="alert">{message}</p> }.into_any(),
                Ok(token) => view! { <JoinCommand token=token /> }.into_any(),
            })}
        </section>
    }
}

#[component]
fn NodeTable(nodes: Vec<RealNode>) -> impl IntoView {
    view! {
        <table class="real-node-table">
            <thead><tr><th>"NAME"</th><th>"STATUS"</th><th>"ADDRESS"</th><th>"PODS"</th></tr></thead>
            <tbody>
                {nodes.into_iter().map(|node| view! {
                    <tr>
                        <td>{node.name.clone()}</td>
                        <td>{status(&node)}</td>
                        <td>{format!("{}:{}", node.address, node.kubelet_port)}</td>
                        <td>{node.pods}</td>
                    </tr>
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// The STATUS column as `kubectl get nodes` words it, with the condition's reason.
fn status(node: &RealNode) -> String {
    let word = match node.ready.as_deref() {
        Some("True") => "Ready",
        Some(_) => "NotReady",
        None => "Joining",
    };
    match &node.reason {
        Some(reason) => format!("{word} ({reason})"),
        None => word.to_string(),
    }
}

#[component]
fn JoinCommand(token: AgentToken) -> impl IntoView {
    let ca = format!(
        "data:application/x-pem-file;base64,{}",
        kubelab_core::api::secret::base64_encode(token.ca_certificate.as_bytes())
    );
    let hours = token.expires_in_seconds / 3600;
    view! {
        <div class="join-command">
            <p>
                "On the machine, save "<a href=ca download="kubelab-ca.crt">"the lab's CA"</a>
                " as kubelab-ca.crt and run (the token works for " {hours} " hours):"
            </p>
            <pre><code>{token.join}</code></pre>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machines_status_reads_as_kubectl_get_nodes() {
        let node = |ready: Option<&str>, reason: Option<&str>| RealNode {
            name: "real-a".into(),
            address: "10.0.0.2".into(),
            kubelet_port: 10250,
            joined_at_unix: 0,
            ready: ready.map(str::to_string),
            reason: reason.map(str::to_string),
            pods: 2,
        };
        assert_eq!(status(&node(Some("True"), Some("KubeletReady"))), "Ready (KubeletReady)");
        assert_eq!(status(&node(Some("Unknown"), Some("NodeStatusUnknown"))), "NotReady (NodeStatusUnknown)");
        assert_eq!(status(&node(None, None)), "Joining");
    }
}
