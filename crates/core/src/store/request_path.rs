//! Each request's way through the API server's gates — authentication, authorization, the
//! admission plugins (mutating, then validating), validation and storage — recorded only while
//! a host asks (the browser's request path panel, `kubectl -v=6`), so a learner sees which gate
//! refused a request. Mirrors the handler chain of kube-apiserver
//! (`staging/src/k8s.io/apiserver/pkg/server/config.go` `DefaultBuildHandlerChain`) and the
//! registry's create/update (`pkg/registry/generic/registry/store.go`).

use super::admission::Phase;
use super::authorizer::{Attributes, Decision};
use super::user::UserInfo;
use crate::error::ApiError;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// At most this many requests are kept from one command (a `describe` makes a handful).
pub const KEPT_REQUESTS: usize = 64;

/// The gates in the order a request meets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Authentication,
    Authorization,
    Admission,
    Validation,
    Storage,
}

impl Gate {
    pub fn as_str(self) -> &'static str {
        match self {
            Gate::Authentication => "authentication",
            Gate::Authorization => "authorization",
            Gate::Admission => "admission",
            Gate::Validation => "validation",
            Gate::Storage => "storage",
        }
    }
}

/// Who decided a request's authorization, and why (`authorizer.Decision` and its reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authorization {
    /// `Node`, `RBAC`, or the privileged group (`system:masters`, allowed before any authorizer).
    pub authorizer: &'static str,
    pub allowed: bool,
    /// RBAC's `allowed by ClusterRoleBinding …`, or the Forbidden message.
    pub reason: String,
}

/// What one admission plugin did with the request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdmissionOutcome {
    Admitted,
    /// It changed the object: the fields it set, as `spec.tolerations`.
    Mutated(Vec<String>),
    /// It admitted the request with warnings.
    Warned(Vec<String>),
    Refused(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdmissionStep {
    pub plugin: &'static str,
    pub phase: Phase,
    pub outcome: AdmissionOutcome,
}

/// One request and what each gate did with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestPath {
    /// The HTTP method (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`).
    pub method: &'static str,
    /// The URL's path, as `/api/v1/namespaces/default/pods`.
    pub path: String,
    /// The query the door knows of, as (key, value) pairs (a client adds its own).
    pub query: Vec<(String, String)>,
    /// The API verb (`list`, `create`, …).
    pub verb: &'static str,
    pub user: String,
    pub groups: Vec<String>,
    pub authenticated_by: String,
    pub authorization: Option<Authorization>,
    pub admission: Vec<AdmissionStep>,
    /// `Err` holds the Invalid message.
    pub validation: Option<Result<(), String>>,
    /// What storage did: `resourceVersion 42 written`, `read`, or why it refused.
    pub storage: Option<Result<String, String>>,
    /// The HTTP status code of the answer.
    pub status: u16,
    /// The refusing gate and its message, when the request was refused.
    pub refused: Option<(Gate, String)>,
    /// The Status an error was answered with, as JSON.
    pub error_status: Option<serde_json::Value>,
}

impl RequestPath {
    /// `201 Created`, `403 Forbidden`: the status line kubectl logs.
    pub fn status_line(&self) -> String {
        format!("{} {}", self.status, status_text(self.status))
    }

    /// Whether `gate` was passed, refused the request, or was never reached.
    pub fn gate_state(&self, gate: Gate) -> GateState {
        if let Some((refused, _)) = &self.refused {
            let order = |g: Gate| g as u8;
            return match order(gate).cmp(&order(*refused)) {
                std::cmp::Ordering::Less => GateState::Passed,
                std::cmp::Ordering::Equal => GateState::Refused,
                std::cmp::Ordering::Greater => GateState::NotReached,
            };
        }
        let reached = match gate {
            Gate::Authentication => true,
            Gate::Authorization => self.authorization.is_some(),
            Gate::Admission => !self.admission.is_empty(),
            Gate::Validation => self.validation.is_some(),
            Gate::Storage => self.storage.is_some(),
        };
        if reached { GateState::Passed } else { GateState::NotReached }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateState {
    Passed,
    Refused,
    NotReached,
}

/// How the API server knew the user (its authenticators: client certificates, bearer tokens).
pub fn authenticated_by(user: &UserInfo) -> &'static str {
    let name = user.name.as_str();
    if name.starts_with("system:serviceaccount:") {
        "service account token"
    } else if name.starts_with("system:bootstrap:") {
        "bootstrap token"
    } else {
        // kubeadm's admin.conf, the control plane's components and the kubelets present
        // client certificates (CN = user, O = groups).
        "x509 client certificate"
    }
}

/// Go's `http.StatusText` for the codes the API server answers with.
pub fn status_text(code: u16) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        409 => "Conflict",
        410 => "Gone",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        _ => "",
    }
}

/// The requests recorded while recording is on: the one being served and those served since
/// the host last took them. Written through a shared reference, as admission reads the store.
/// A host that shows the learner's requests asks for them (`wanted`); kubectl turns recording
/// on around each of its commands then (and for `-v=6`), so a lesson check's or a view's own
/// reads never become the learner's last request.
#[derive(Debug, Default)]
pub struct Recorder {
    wanted: bool,
    recording: bool,
    /// Whether a request is open: what every write's hook asks, without taking the lock.
    open: AtomicBool,
    state: Mutex<State>,
}

#[derive(Clone, Debug, Default)]
struct State {
    current: Option<RequestPath>,
    served: Vec<RequestPath>,
    last: Option<RequestPath>,
}

impl Clone for Recorder {
    fn clone(&self) -> Self {
        let open = AtomicBool::new(self.open.load(Ordering::Relaxed));
        Recorder { wanted: self.wanted, recording: self.recording, open, state: Mutex::new(self.lock().clone()) }
    }
}

impl Recorder {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn recording(&self) -> bool {
        self.recording
    }

    pub fn set_recording(&mut self, recording: bool) {
        self.recording = recording;
    }

    /// Whether the host shows the learner's requests (`Sim::record_request_paths`).
    pub fn wanted(&self) -> bool {
        self.wanted
    }

    pub fn set_wanted(&mut self, wanted: bool) {
        self.wanted = wanted;
    }

    /// Takes over the request `scratch` recorded (a dry run's, served on a copy of the store):
    /// its gates, and storage's verdict that nothing was kept.
    pub fn carry_from(&self, scratch: &Recorder) {
        let Some(mut path) = scratch.lock().current.clone() else { return };
        if matches!(path.storage, Some(Ok(_))) {
            path.storage = Some(Ok("dry run: nothing stored".to_string()));
        }
        if let Some(current) = self.lock().current.as_mut() {
            *current = path;
        }
    }

    /// Whether a request is being recorded now (the gates' hooks do nothing otherwise).
    pub fn is_open(&self) -> bool {
        self.recording && self.open.load(Ordering::Relaxed)
    }

    /// Opens a request's record; false when one is open already (a read inside a write).
    pub fn begin(&self, path: RequestPath) -> bool {
        let mut state = self.lock();
        if state.current.is_some() {
            return false;
        }
        state.current = Some(path);
        self.open.store(true, Ordering::Relaxed);
        true
    }

    /// Changes the open record, if there is one.
    pub fn update(&self, change: impl FnOnce(&mut RequestPath)) {
        if !self.recording {
            return;
        }
        if let Some(current) = self.lock().current.as_mut() {
            change(current);
        }
    }

    /// Closes the open record with the answer's status or error.
    pub fn finish(&self, status: u16, error: Option<&ApiError>, error_status: Option<serde_json::Value>) {
        let mut state = self.lock();
        let Some(mut path) = state.current.take() else { return };
        self.open.store(false, Ordering::Relaxed);
        path.status = status;
        path.error_status = error_status;
        if let Some(error) = error {
            settle_refusal(&mut path, error);
        }
        if state.served.len() < KEPT_REQUESTS {
            state.served.push(path.clone());
        }
        state.last = Some(path);
    }

    /// The requests served since the last call, in order.
    pub fn take_served(&mut self) -> Vec<RequestPath> {
        std::mem::take(&mut self.state.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).served)
    }

    /// The last request served while recording.
    pub fn last(&self) -> Option<RequestPath> {
        self.lock().last.clone()
    }
}

/// Names the gate that refused the request, when the gate's own hook did not: a Forbidden is
/// authorization's, an Invalid validation's, the rest (not found, already exists, a conflict)
/// storage's.
fn settle_refusal(path: &mut RequestPath, error: &ApiError) {
    if path.refused.is_some() {
        return;
    }
    let message = error.message();
    let gate = match error {
        ApiError::Forbidden { .. } => Gate::Authorization,
        ApiError::Invalid { .. } | ApiError::BadRequest { .. } => Gate::Validation,
        _ => Gate::Storage,
    };
    match gate {
        Gate::Validation => path.validation = Some(Err(message.clone())),
        Gate::Storage => path.storage = Some(Err(message.clone())),
        _ => {}
    }
    path.refused = Some((gate, message));
}

/// The gates' notes, made by the store's own steps while a request is recorded.
impl super::Store {
    /// Notes who authorized the request being recorded: the first decision, or a refusal.
    pub(super) fn record_authorization(
        &self,
        attributes: &Attributes<'_>,
        (decision, decided_by): (&Decision, &'static str),
        result: &Result<(), ApiError>,
    ) {
        let allowed_by = match decision {
            Decision::Allow if decided_by == "RBAC" => {
                super::rbac::allowed_by::allowed_by(self, attributes).unwrap_or_default()
            }
            _ => String::new(),
        };
        let forbidden = result.as_ref().err().map(ApiError::message).unwrap_or_default();
        let recorded = authorization(decided_by, decision, allowed_by, forbidden);
        self.request_paths.update(|path| {
            if path.authorization.is_none() || !recorded.allowed {
                if !recorded.allowed {
                    path.refused = Some((Gate::Authorization, recorded.reason.clone()));
                }
                path.authorization = Some(recorded);
            }
        });
    }

    /// Notes validation's verdict on the request being recorded.
    pub(super) fn record_validation(&self, result: &Result<(), ApiError>) {
        self.request_paths.update(|path| {
            path.validation = Some(result.as_ref().map(|_| ()).map_err(ApiError::message));
            if let Err(error) = result {
                path.refused = Some((Gate::Validation, error.message()));
            }
        });
    }

    /// Notes what storage did with the request being recorded.
    pub(super) fn record_storage(&self, what: String) {
        self.request_paths.update(|path| path.storage = Some(Ok(what)));
    }
}

/// The authorization as recorded: who decided, and the reason or the Forbidden text.
fn authorization(
    authorizer: &'static str,
    decision: &Decision,
    allowed_by: String,
    forbidden: String,
) -> Authorization {
    match decision {
        Decision::Allow => Authorization { authorizer, allowed: true, reason: allowed_by },
        _ => Authorization { authorizer, allowed: false, reason: forbidden },
    }
}

/// The fields a mutating plugin changed: the paths (two levels deep, `spec.tolerations`)
/// whose values differ between the object before and after it.
pub fn changed_fields(before: &serde_json::Value, after: &serde_json::Value) -> Vec<String> {
    let mut changed = Vec::new();
    diff(before, after, "", 2, &mut changed);
    changed
}

fn diff(before: &serde_json::Value, after: &serde_json::Value, at: &str, depth: usize, out: &mut Vec<String>) {
    if before == after {
        return;
    }
    match (before, after) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) if depth > 0 => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            let null = serde_json::Value::Null;
            for key in keys {
                let path = if at.is_empty() { key.clone() } else { format!("{at}.{key}") };
                diff(a.get(key).unwrap_or(&null), b.get(key).unwrap_or(&null), &path, depth - 1, out);
            }
        }
        _ => out.push(at.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path() -> RequestPath {
        RequestPath {
            method: "POST",
            path: "/api/v1/namespaces/default/pods".into(),
            query: vec![],
            verb: "create",
            user: "jane".into(),
            groups: vec!["system:authenticated".into()],
            authenticated_by: "x509 client certificate".into(),
            authorization: None,
            admission: vec![],
            validation: None,
            storage: None,
            status: 0,
            refused: None,
            error_status: None,
        }
    }

    #[test]
    fn a_forbidden_request_stops_at_authorization() {
        let mut recorder = Recorder::default();
        recorder.set_recording(true);
        assert!(recorder.begin(path()));
        assert!(recorder.is_open());
        let error = ApiError::Forbidden { message: "pods is forbidden: User \"jane\" cannot create".into() };
        recorder.finish(403, Some(&error), None);
        let last = recorder.last().unwrap();
        assert_eq!(last.status_line(), "403 Forbidden");
        assert_eq!(last.gate_state(Gate::Authentication), GateState::Passed);
        assert_eq!(last.gate_state(Gate::Authorization), GateState::Refused);
        assert_eq!(last.gate_state(Gate::Storage), GateState::NotReached);
    }

    #[test]
    fn a_read_inside_a_write_is_part_of_the_write() {
        let mut recorder = Recorder::default();
        recorder.set_recording(true);
        assert!(recorder.begin(path()));
        assert!(!recorder.begin(path()));
        recorder.finish(201, None, None);
        assert!(!recorder.is_open());
        assert_eq!(recorder.take_served().len(), 1);
        assert!(recorder.take_served().is_empty());
    }

    #[test]
    fn a_mutation_names_the_fields_it_set() {
        let before = json!({"spec": {"containers": [], "priority": null}, "metadata": {"name": "web"}});
        let after = json!({"spec": {"containers": [], "priority": 0, "tolerations": [1]}, "metadata": {"name": "web"}});
        assert_eq!(changed_fields(&before, &after), ["spec.priority", "spec.tolerations"]);
    }

    #[test]
    fn users_are_known_by_their_credentials() {
        assert_eq!(authenticated_by(&UserInfo::admin()), "x509 client certificate");
        assert_eq!(authenticated_by(&UserInfo::service_account("default", "ci")), "service account token");
    }
}
