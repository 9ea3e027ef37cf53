//! The request path panel and `lab request-path`: the last request as a chain of gates —
//! authentication → authorization → mutating admission plugins → validation → validating
//! admission plugins → storage — each passed, the one that refused it, or never reached.
//! The order is kube-apiserver's: filters (authentication, authorization), then the
//! registry's create (mutating admission, the strategy's validation, validating admission,
//! etcd).

use crate::store::admission::{CHAIN, Phase};
use crate::store::request_path::{AdmissionOutcome, Gate, GateState, RequestPath};

/// How a gate ended for the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxState {
    Passed,
    Refused,
    /// Never reached: an earlier gate refused the request.
    NotReached,
    /// Not on this request's path (a read passes no admission plugin or validation).
    Skipped,
}

/// One box of the chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateBox {
    pub gate: Gate,
    /// `authentication`, `RBAC`, `PodSecurity (validating)`, `storage`.
    pub title: String,
    pub state: BoxState,
    /// What happened there, in a line: the user, the reason, the fields set, the refusal.
    pub detail: String,
}

/// The request line and its chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestPathView {
    /// `POST /api/v1/namespaces/default/pods`.
    pub request: String,
    /// `201 Created`.
    pub status: String,
    pub boxes: Vec<GateBox>,
}

/// The last request the lab recorded (`Sim::record_request_paths`), as the panel draws it.
pub fn last(sim: &crate::sim::Sim) -> Option<RequestPathView> {
    sim.store().request_paths().last().map(|path| view(&path))
}

pub fn view(path: &RequestPath) -> RequestPathView {
    let write = !matches!(path.verb, "get" | "list" | "watch");
    let mut boxes = vec![authentication(path), authorization(path)];
    boxes.extend(admission(path, Phase::Mutating, write));
    boxes.push(validation(path, write));
    boxes.extend(admission(path, Phase::Validating, write));
    boxes.push(storage(path));
    RequestPathView { request: format!("{} {}", path.method, path.path), status: path.status_line(), boxes }
}

fn state_of(path: &RequestPath, gate: Gate) -> BoxState {
    match path.gate_state(gate) {
        GateState::Passed => BoxState::Passed,
        GateState::Refused => BoxState::Refused,
        GateState::NotReached => BoxState::NotReached,
    }
}

fn authentication(path: &RequestPath) -> GateBox {
    let detail = format!("{} [{}] by {}", path.user, path.groups.join(", "), path.authenticated_by);
    GateBox { gate: Gate::Authentication, title: "authentication".into(), state: BoxState::Passed, detail }
}

fn authorization(path: &RequestPath) -> GateBox {
    let (title, detail) = match &path.authorization {
        Some(decided) => {
            let verdict = if decided.allowed { "allowed" } else { "denied" };
            let detail = if decided.reason.is_empty() { verdict.to_string() } else { decided.reason.clone() };
            (format!("authorization: {}", decided.authorizer), detail)
        }
        None => ("authorization".to_string(), String::new()),
    };
    GateBox { gate: Gate::Authorization, title, state: state_of(path, Gate::Authorization), detail }
}

/// A box per plugin taking part in `phase`, as recorded or, past a refusal, never reached.
fn admission(path: &RequestPath, phase: Phase, write: bool) -> Vec<GateBox> {
    let takes_part = |p: &&crate::store::admission::Plugin| match phase {
        Phase::Mutating => p.admit.is_some(),
        Phase::Validating => p.validate.is_some(),
    };
    let phase_name = if phase == Phase::Mutating { "mutating" } else { "validating" };
    CHAIN
        .iter()
        .filter(takes_part)
        .map(|plugin| {
            let step = path.admission.iter().find(|s| s.plugin == plugin.name && s.phase == phase);
            let (state, detail) = match step.map(|s| &s.outcome) {
                Some(AdmissionOutcome::Admitted) => (BoxState::Passed, "admitted".to_string()),
                Some(AdmissionOutcome::Mutated(fields)) => (BoxState::Passed, format!("set {}", fields.join(", "))),
                Some(AdmissionOutcome::Warned(warnings)) => {
                    (BoxState::Passed, format!("admitted with warnings: {}", warnings.join("; ")))
                }
                Some(AdmissionOutcome::Refused(message)) => (BoxState::Refused, message.clone()),
                None if !write => (BoxState::Skipped, "reads pass no admission".to_string()),
                None => (BoxState::NotReached, String::new()),
            };
            GateBox { gate: Gate::Admission, title: format!("{} ({phase_name})", plugin.name), state, detail }
        })
        .collect()
}

fn validation(path: &RequestPath, write: bool) -> GateBox {
    let (state, detail) = match &path.validation {
        Some(Ok(())) => (BoxState::Passed, "valid".to_string()),
        Some(Err(message)) => (BoxState::Refused, message.clone()),
        None if !write => (BoxState::Skipped, "reads are not validated".to_string()),
        None => (BoxState::NotReached, String::new()),
    };
    GateBox { gate: Gate::Validation, title: "validation".into(), state, detail }
}

fn storage(path: &RequestPath) -> GateBox {
    let (state, detail) = match &path.storage {
        Some(Ok(what)) => (BoxState::Passed, what.clone()),
        Some(Err(message)) => (BoxState::Refused, message.clone()),
        None => (state_of(path, Gate::Storage), String::new()),
    };
    let state = if path.storage.is_none() && state == BoxState::Passed { BoxState::NotReached } else { state };
    GateBox { gate: Gate::Storage, title: "storage".into(), state, detail }
}

/// The chain as a table, for the terminal (`lab request-path`).
pub fn table(view: &RequestPathView) -> String {
    let mut rows = vec![["GATE".to_string(), "RESULT".to_string(), "DETAIL".to_string()]];
    for gate_box in &view.boxes {
        let result = match gate_box.state {
            BoxState::Passed => "passed",
            BoxState::Refused => "REFUSED",
            BoxState::NotReached => "not reached",
            BoxState::Skipped => "-",
        };
        rows.push([gate_box.title.clone(), result.to_string(), gate_box.detail.clone()]);
    }
    let width = |column: usize| rows.iter().map(|r| r[column].chars().count()).max().unwrap_or(0) + 3;
    let (first, second) = (width(0), width(1));
    let mut text = format!("{} {}\n", view.request, view.status);
    for [gate, result, detail] in &rows {
        let line = format!("{gate:<first$}{result:<second$}{detail}");
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text.pop();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::{Request, Verb, handle};
    use crate::store::{Store, UserInfo};

    #[test]
    fn a_forbidden_list_shows_where_it_stopped() {
        let mut store = Store::new(1);
        store.request_paths_mut().set_recording(true);
        let jane = UserInfo::new("jane", &["system:authenticated"]);
        handle(&mut store, Request::new(jane, Verb::List, crate::api::Kind::Pod).namespace("default"));
        let view = view(&store.request_paths().last().unwrap());
        let text = table(&view);
        assert!(text.starts_with("GET /api/v1/namespaces/default/pods 403 Forbidden\nGATE "), "{text}");
        assert!(text.contains("\nauthentication "), "{text}");
        assert!(
            text.contains(
                "REFUSED       pods is forbidden: User \"jane\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""
            ),
            "{text}"
        );
        assert_eq!(view.boxes.last().unwrap().state, BoxState::NotReached);
    }
}
