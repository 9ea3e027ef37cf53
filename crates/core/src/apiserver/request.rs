//! A request as the API server receives it: the authenticated user, the verb, the resource
//! (group/version/resource, as the URL names it), where, and the options the query string
//! carries (`metav1.ListOptions`, `CreateOptions`, `DeleteOptions`).

use crate::api::Kind;
use crate::api::labels::Selector;
use crate::store::{DeleteOptions, FieldSelector, UserInfo};
use serde_json::Value;
use std::sync::Arc;

/// The API verbs (`request.RequestInfo.Verb`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Get,
    List,
    Watch,
    Create,
    Update,
    Patch,
    Delete,
}

impl Verb {
    /// As the authorizer and audit log name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
        }
    }
}

/// A resource as a URL names it: `/apis/apps/v1/namespaces/default/deployments`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupVersionResource {
    pub group: String,
    pub version: String,
    pub resource: String,
}

impl GroupVersionResource {
    /// The resource a kind is served as.
    pub fn of(kind: Kind) -> Self {
        let info = kind.info();
        GroupVersionResource {
            group: info.group.to_string(),
            version: info.version.to_string(),
            resource: info.plural.to_string(),
        }
    }

    /// The kind served at this resource, if the lab serves it.
    pub fn kind(&self) -> Option<Kind> {
        crate::api::RESOURCES
            .iter()
            .find(|r| r.group == self.group && r.version == self.version && r.plural == self.resource)
            .map(|r| r.kind)
    }
}

/// What the query string and body options carry.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `dryRun=All`: admitted and validated, never stored.
    pub dry_run: bool,
    pub field_manager: Option<String>,
    /// `force=true`: a server-side apply takes the fields other managers own.
    pub force: bool,
    pub label_selector: Selector,
    pub field_selector: FieldSelector,
    /// A list's page size (`limit`) and where the page starts (`continue`).
    pub limit: Option<usize>,
    pub continue_token: Option<String>,
    /// A patch's body, and how to read it (a JSON merge patch unless told).
    pub patch: Option<Value>,
    pub patch_type: super::patch::PatchType,
    /// What a write does with fields its object's type lacks (`fieldValidation`).
    pub field_validation: super::field_validation::FieldValidation,
    pub delete: DeleteOptions,
}

/// One request.
#[derive(Clone, Debug)]
pub struct Request {
    pub user: Arc<UserInfo>,
    pub verb: Verb,
    pub resource: GroupVersionResource,
    /// `""` for a cluster-scoped kind, or a list across all namespaces.
    pub namespace: String,
    /// `""` for a list, a watch or a create.
    pub name: String,
    /// `""`, or `status`.
    pub subresource: String,
    pub body: Option<crate::api::Object>,
    pub options: Options,
}

impl Request {
    /// A request by `user` to `verb` objects of `kind`.
    pub fn new(user: Arc<UserInfo>, verb: Verb, kind: Kind) -> Request {
        Request {
            user,
            verb,
            resource: GroupVersionResource::of(kind),
            namespace: String::new(),
            name: String::new(),
            subresource: String::new(),
            body: None,
            options: Options::default(),
        }
    }

    pub fn namespace(mut self, namespace: &str) -> Request {
        self.namespace = namespace.to_string();
        self
    }

    pub fn name(mut self, name: &str) -> Request {
        self.name = name.to_string();
        self
    }

    pub fn body(mut self, object: crate::api::Object) -> Request {
        self.body = Some(object);
        self
    }

    pub fn subresource(mut self, subresource: &str) -> Request {
        self.subresource = subresource.to_string();
        self
    }

    pub fn options(mut self, options: Options) -> Request {
        self.options = options;
        self
    }
}
