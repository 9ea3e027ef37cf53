//! The API server's gates made visible: the last request the learner's command sent, as a
//! chain of boxes — authentication → authorization → mutating admission plugins → validation
//! → validating admission plugins → storage — green where it passed, red where it was refused
//! (with the refusal's text), grey where it never got to or does not go (a read passes no
//! admission). The chain is the core's view (`view::request_path`).

use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_session::LabSession;
use kubelab_core::view::request_path::{self, BoxState, GateBox};
use leptos::prelude::*;

pub use kubelab_core::view::request_path::RequestPathView;

/// The last request of the lab on show; `None` before the first.
pub fn last_request(session: &LabSession) -> Option<RequestPathView> {
    request_path::last(session.lab().sim())
}

#[component]
pub fn RequestPathPanel(lab: LabHandle) -> impl IntoView {
    view! {
        <details class="request-path">
            <summary>"Request path: the API server's gates for the last request"</summary>
            {move || match lab.with(|session| session.request_path()) {
                None => view! { <p>"No request yet: run a kubectl command."</p> }.into_any(),
                Some(path) => chain(path).into_any(),
            }}
        </details>
    }
}

fn chain(path: RequestPathView) -> impl IntoView {
    let refused = path.boxes.iter().find(|b| b.state == BoxState::Refused).cloned();
    view! {
        <p class="request-line"><code>{path.request}</code>" → "<strong>{path.status}</strong></p>
        <ol class="gate-chain">{path.boxes.into_iter().map(gate).collect_view()}</ol>
        {refused.map(|b| view! { <p class="gate-refusal" role="status">{format!("Refused at {}: {}", b.title, b.detail)}</p> })}
    }
}

fn gate(gate_box: GateBox) -> impl IntoView {
    let (class, label) = match gate_box.state {
        BoxState::Passed => ("gate passed", "passed"),
        BoxState::Refused => ("gate refused", "refused"),
        BoxState::NotReached => ("gate not-reached", "not reached"),
        BoxState::Skipped => ("gate skipped", "not on a read's path"),
    };
    let title = format!(
        "{}: {label}{}",
        gate_box.title,
        if gate_box.detail.is_empty() { String::new() } else { format!(" — {}", gate_box.detail) }
    );
    view! {
        <li class=class title=title>
            <span class="gate-name">{gate_box.title}</span>
            <span class="gate-detail">{gate_box.detail}</span>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_request_shows_the_gate_that_refused_it() {
        let mut session = LabSession::sandbox();
        assert_eq!(last_request(&session), None);
        session.run("kubectl get pods --as=jane");
        let path = last_request(&session).unwrap();
        assert_eq!(path.status, "403 Forbidden");
        let refused: Vec<&str> =
            path.boxes.iter().filter(|b| b.state == BoxState::Refused).map(|b| b.title.as_str()).collect();
        assert_eq!(refused, ["authorization: RBAC"]);
        session.run("kubectl create deployment web --image=hello:v1");
        let path = last_request(&session).unwrap();
        assert_eq!(path.request, "POST /apis/apps/v1/namespaces/default/deployments");
        assert!(path.boxes.iter().all(|b| b.state == BoxState::Passed), "{:?}", path.boxes);
    }
}
