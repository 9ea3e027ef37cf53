//! Lesson checks: is the learner's cluster where the task wants it? One file per check kind,
//! each with its YAML shape, an evaluator over the store (and, for `ran`, the command history)
//! and a message that tells the learner where they stand. Checks compose with all/any/not.

pub mod applied;
pub mod compose;
pub mod container;
pub mod deployment;
pub mod event;
pub mod exists;
pub mod field;
pub mod gone;
pub mod history;
pub mod node;
pub mod pods;
pub mod ran;
pub mod rollout;
pub mod traffic;

use crate::api::Kind;
use crate::store::Store;
pub use history::{CommandRecord, History};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One check, as a lesson writes it: a one-key map naming the kind, e.g.
/// `pods: {selector: app=hello, ready: true, count: 3}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// Pods matching a label selector, counted by phase, STATUS and readiness.
    Pods(pods::PodsCheck),
    /// What the selected pods' running containers see: env at start, mounted files now.
    Container(container::ContainerCheck),
    /// A Deployment's replica counts and image.
    Deployment(deployment::DeploymentCheck),
    /// An object exists.
    Exists(exists::ObjectRef),
    /// An object is gone (or was never there).
    Gone(exists::ObjectRef),
    /// One field of an object equals a value (a JSONPath subset).
    Field(field::FieldCheck),
    /// A field of what `kubectl apply` last applied to an object.
    Applied(applied::AppliedCheck),
    /// An Event with a reason was recorded for an object.
    Event(event::EventCheck),
    /// A node's condition or schedulability.
    Node(node::NodeCheck),
    /// A Deployment's rollout is complete, progressing or stuck.
    Rollout(rollout::RolloutCheck),
    /// The learner ran a kubectl verb.
    Ran(ran::RanCheck),
    /// What the traffic generator counted on its latest run to a Service.
    Traffic(traffic::TrafficCheck),
    /// Every check passes.
    All(Vec<Check>),
    /// At least one check passes.
    Any(Vec<Check>),
    /// The check fails.
    Not(Box<Check>),
}

/// What a check sees: the cluster, and what the learner typed.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub store: &'a Store,
    pub history: &'a History,
    /// The traffic generator's latest run (running, or the last one stopped).
    pub traffic: Option<&'a crate::network::traffic::Generator>,
    /// The lab, for what its kubelets know (a container's env and files).
    pub sim: &'a crate::sim::Sim,
}

impl Context<'_> {
    /// The API as the learner's user reads it: a check sees what the learner would.
    pub fn api(&self) -> crate::apiserver::Reader<'_> {
        crate::apiserver::Reader::new(self.store, crate::store::UserInfo::admin())
    }
}

/// A check's outcome and the sentence that explains it to the learner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub passed: bool,
    pub message: String,
}

impl Verdict {
    pub fn new(passed: bool, message: impl Into<String>) -> Verdict {
        Verdict { passed, message: message.into() }
    }
}

impl Check {
    /// Evaluates the check against the lab as it is now.
    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        match self {
            Check::Pods(c) => c.evaluate(ctx),
            Check::Container(c) => c.evaluate(ctx),
            Check::Deployment(c) => c.evaluate(ctx),
            Check::Exists(c) => exists::evaluate(c, ctx),
            Check::Gone(c) => gone::evaluate(c, ctx),
            Check::Field(c) => c.evaluate(ctx),
            Check::Applied(c) => c.evaluate(ctx),
            Check::Event(c) => c.evaluate(ctx),
            Check::Node(c) => c.evaluate(ctx),
            Check::Rollout(c) => c.evaluate(ctx),
            Check::Ran(c) => c.evaluate(ctx),
            Check::Traffic(c) => c.evaluate(ctx),
            Check::All(checks) => compose::all(checks, ctx),
            Check::Any(checks) => compose::any(checks, ctx),
            Check::Not(check) => compose::not(check, ctx),
        }
    }

    /// Problems a lesson author must fix before the check can run (a selector that does not
    /// parse, an unknown kind, a JSONPath outside the subset), in the order they appear.
    pub fn problems(&self) -> Vec<String> {
        match self {
            Check::Pods(c) => c.problems(),
            Check::Container(c) => c.problems(),
            Check::Deployment(_) | Check::Node(_) | Check::Rollout(_) | Check::Traffic(_) => Vec::new(),
            Check::Exists(c) | Check::Gone(c) => c.problems(),
            Check::Field(c) => c.problems(),
            Check::Applied(c) => c.problems(),
            Check::Event(c) => c.problems(),
            Check::Ran(c) => c.problems(),
            Check::All(checks) | Check::Any(checks) => checks.iter().flat_map(Check::problems).collect(),
            Check::Not(check) => check.problems(),
        }
    }
}

/// A kind as a check names it: `Pod`, `pod`, `pods`, `deploy`, `deployments.apps`.
pub fn parse_kind(name: &str) -> Result<Kind, String> {
    Kind::from_kind_name(name).or_else(|| Kind::from_cli_name(name)).ok_or_else(|| format!("unknown kind \"{name}\""))
}

/// The namespace a check looks in: its own, else `default`.
pub fn namespace_or_default(namespace: &Option<String>) -> &str {
    namespace.as_deref().filter(|n| !n.is_empty()).unwrap_or("default")
}

/// " in namespace NAME" for a check outside `default`, so that what the learner is told names
/// where the check looked; nothing for `default`.
pub fn in_namespace(namespace: &Option<String>) -> String {
    match namespace_or_default(namespace) {
        "default" => String::new(),
        other => format!(" in namespace {other}"),
    }
}

#[cfg(test)]
pub(crate) mod fixtures;
