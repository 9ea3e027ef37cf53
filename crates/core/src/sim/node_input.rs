//! Requests from outside the simulation: a real machine's kubelet registering its Node,
//! renewing its Lease, posting its pods' status. Each is written to the trace as an input
//! before it is served, so replaying a trace's commands and inputs in order rebuilds the same
//! lab byte for byte. A Node registered this way is external: no simulated kubelet runs it.

use super::Sim;
use crate::api::codec;
use crate::apiserver::{GroupVersionResource, Options, Request, Response, Status, Verb, handle};
use crate::error::ApiError;
use crate::store::UserInfo;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The writes a kubelet makes (reads do not change the lab, so they are not inputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputVerb {
    Create,
    Update,
    Patch,
    Delete,
}

/// One request from a node's kubelet, as the trace records it: the node it comes from (its
/// user is `system:node:<node>`), the resource as its URL names it, and the body (an object,
/// or a JSON merge patch).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeInput {
    pub node: String,
    pub verb: InputVerb,
    #[serde(default)]
    pub group: String,
    pub version: String,
    pub resource: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub subresource: String,
    #[serde(default)]
    pub body: Option<Value>,
}

impl NodeInput {
    /// The request it is, as the node's user.
    pub fn request(&self) -> Result<Request, ApiError> {
        let resource = GroupVersionResource {
            group: self.group.clone(),
            version: self.version.clone(),
            resource: self.resource.clone(),
        };
        let kind = resource.kind().ok_or_else(|| ApiError::not_found(self.resource.clone(), self.name.clone()))?;
        let verb = match self.verb {
            InputVerb::Create => Verb::Create,
            InputVerb::Update => Verb::Update,
            InputVerb::Patch => Verb::Patch,
            InputVerb::Delete => Verb::Delete,
        };
        let mut request = Request::new(UserInfo::node(&self.node), verb, kind)
            .namespace(&self.namespace)
            .name(&self.name)
            .subresource(&self.subresource);
        let bad = |message: String| ApiError::BadRequest { message };
        match (self.verb, &self.body) {
            (InputVerb::Create | InputVerb::Update, Some(body)) => {
                request = request.body(codec::decode(body.clone()).map_err(|e| bad(e.to_string()))?);
            }
            (InputVerb::Create | InputVerb::Update, None) => return Err(bad("the request has no body".into())),
            (InputVerb::Patch, body) => {
                let patch = body.clone().ok_or_else(|| bad("a patch needs a body".into()))?;
                request = request.options(Options { patch: Some(patch), ..Options::default() });
            }
            (InputVerb::Delete, _) => {}
        }
        Ok(request)
    }

    /// Whether this is the node registering itself (its kubelet's first request).
    fn registers_node(&self) -> bool {
        self.verb == InputVerb::Create && self.group.is_empty() && self.resource == "nodes"
    }
}

impl Sim {
    /// Serves a request from a node's kubelet running outside the simulation, after recording
    /// it in the trace; then lets the cluster react, as after a command.
    pub fn node_input(&mut self, input: &NodeInput) -> Response {
        self.finish_pending();
        let recorded = serde_json::to_value(input).unwrap_or(Value::Null);
        self.store.trace_input(&recorded);
        if input.registers_node() {
            self.controllers.kubelet.mark_external(&input.node);
        }
        let response = match input.request() {
            Ok(request) => handle(&mut self.store, request),
            Err(error) => Response::Status(Status(error)),
        };
        self.settle();
        response
    }
}
