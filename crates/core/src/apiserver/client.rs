//! A client for callers inside the lab (kubectl, lab verbs, lesson checks, the UI): each call
//! is one `Request` through the door as the client's user, and its `Response` unwrapped into
//! what the caller expects, as client-go's typed clients do over HTTP.

use super::handler::{handle, read};
use super::request::{Options, Request, Verb};
use super::response::{ObjectList, Response, Status};
use crate::api::labels::Selector;
use crate::api::{Kind, Object, Resource};
use crate::error::ApiError;
use crate::store::{DeleteOptions, Deleted, FieldSelector, Store, UserInfo};
use serde_json::Value;
use std::sync::Arc;

/// Reads for callers that hold a lab without changing it (lesson checks, views, describe).
pub struct Reader<'a> {
    store: &'a Store,
    user: Arc<UserInfo>,
}

impl<'a> Reader<'a> {
    pub fn new(store: &'a Store, user: Arc<UserInfo>) -> Reader<'a> {
        Reader { store, user }
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Result<Object, ApiError> {
        let request = Request::new(self.user.clone(), Verb::Get, kind).namespace(namespace).name(name);
        match read(self.store, &request) {
            Response::Status(Status(error)) => Err(error),
            other => object_of(other),
        }
    }

    pub fn list(
        &self,
        kind: Kind,
        namespace: Option<&str>,
        labels: &Selector,
        fields: &FieldSelector,
    ) -> Result<ObjectList, ApiError> {
        let options = Options { label_selector: labels.clone(), field_selector: fields.clone(), ..Options::default() };
        let request =
            Request::new(self.user.clone(), Verb::List, kind).namespace(namespace.unwrap_or_default()).options(options);
        match read(self.store, &request) {
            Response::List(list) => Ok(list),
            Response::Status(Status(error)) => Err(error),
            other => Err(unexpected(&other)),
        }
    }
}

pub struct Client<'a> {
    store: &'a mut Store,
    user: Arc<UserInfo>,
    dry_run: bool,
}

impl<'a> Client<'a> {
    pub fn new(store: &'a mut Store, user: Arc<UserInfo>) -> Client<'a> {
        Client { store, user, dry_run: false }
    }

    /// The same client with `dryRun=All` on its writes.
    pub fn dry_run(self, dry_run: bool) -> Client<'a> {
        Client { dry_run, ..self }
    }

    fn send(&mut self, request: Request) -> Result<Response, ApiError> {
        let mut request = request;
        request.options.dry_run |= self.dry_run;
        match handle(self.store, request) {
            Response::Status(Status(error)) => Err(error),
            response => Ok(response),
        }
    }

    fn request(&self, verb: Verb, kind: Kind, namespace: &str, name: &str) -> Request {
        Request::new(self.user.clone(), verb, kind).namespace(namespace).name(name)
    }

    /// Reads go through the door's read path as this client's user (`Reader`).
    pub fn reader(&self) -> Reader<'_> {
        Reader::new(self.store, self.user.clone())
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Result<Object, ApiError> {
        self.reader().get(kind, namespace, name)
    }

    pub fn list(
        &self,
        kind: Kind,
        namespace: Option<&str>,
        labels: &Selector,
        fields: &FieldSelector,
    ) -> Result<ObjectList, ApiError> {
        self.reader().list(kind, namespace, labels, fields)
    }

    pub fn create(&mut self, object: Object) -> Result<Object, ApiError> {
        let (kind, namespace) = (object.kind(), object.metadata().namespace.clone());
        let request = self.request(Verb::Create, kind, &namespace, "").body(object);
        object_of(self.send(request)?)
    }

    pub fn update(&mut self, object: Object) -> Result<Object, ApiError> {
        let request = self.write_request(Verb::Update, object);
        object_of(self.send(request)?)
    }

    pub fn update_status(&mut self, object: Object) -> Result<Object, ApiError> {
        let request = self.write_request(Verb::Update, object).subresource("status");
        object_of(self.send(request)?)
    }

    /// A JSON merge patch (RFC 7386).
    pub fn merge_patch(&mut self, kind: Kind, namespace: &str, name: &str, patch: Value) -> Result<Object, ApiError> {
        let options = Options { patch: Some(patch), ..Options::default() };
        let request = self.request(Verb::Patch, kind, namespace, name).options(options);
        object_of(self.send(request)?)
    }

    /// A server-side apply of `config` by `manager`, forced or not (the object is created
    /// when absent).
    pub fn apply(
        &mut self,
        kind: Kind,
        (namespace, name): (&str, &str),
        config: Value,
        (manager, force): (&str, bool),
    ) -> Result<Object, ApiError> {
        let options = Options {
            patch: Some(config),
            patch_type: super::patch::PatchType::Apply,
            field_manager: Some(manager.to_string()),
            force,
            ..Options::default()
        };
        let request = self.request(Verb::Patch, kind, namespace, name).options(options);
        object_of(self.send(request)?)
    }

    pub fn delete(
        &mut self,
        kind: Kind,
        namespace: &str,
        name: &str,
        delete: &DeleteOptions,
    ) -> Result<Deleted<Object>, ApiError> {
        let options = Options { delete: delete.clone(), ..Options::default() };
        let request = self.request(Verb::Delete, kind, namespace, name).options(options);
        match self.send(request)? {
            Response::Deleted(deleted) => Ok(deleted),
            other => Err(unexpected(&other)),
        }
    }

    /// The store, to read (reads do not go through the door yet: see ARCHITECTURE.md).
    pub fn store(&self) -> &Store {
        self.store
    }

    /// `create` for a typed object.
    /// Evicts a pod through `pods/NAME/eviction` (a policy/v1 Eviction carrying `delete`).
    pub fn evict(&mut self, namespace: &str, name: &str, delete: &DeleteOptions) -> Result<Deleted<Object>, ApiError> {
        let options = Options { delete: delete.clone(), ..Options::default() };
        let request = self.request(Verb::Create, Kind::Pod, namespace, name).subresource("eviction").options(options);
        match self.send(request)? {
            Response::Deleted(deleted) => Ok(deleted),
            other => Err(unexpected(&other)),
        }
    }

    pub fn create_typed<T: Resource>(&mut self, object: T) -> Result<T, ApiError> {
        self.create(object.into_object()).and_then(typed)
    }

    /// `update` for a typed object.
    pub fn update_typed<T: Resource>(&mut self, object: T) -> Result<T, ApiError> {
        self.update(object.into_object()).and_then(typed)
    }

    /// `update_status` for a typed object.
    pub fn update_status_typed<T: Resource>(&mut self, object: T) -> Result<T, ApiError> {
        self.update_status(object.into_object()).and_then(typed)
    }

    fn write_request(&self, verb: Verb, object: Object) -> Request {
        let meta = object.metadata();
        let request = self.request(verb, object.kind(), &meta.namespace.clone(), &meta.name.clone());
        request.body(object)
    }
}

fn typed<T: Resource>(object: Object) -> Result<T, ApiError> {
    let kind = object.kind();
    T::from_object(object).ok_or_else(|| ApiError::BadRequest {
        message: format!(
            "the server answered with a {} where a {} was expected",
            kind.info().kind_name,
            T::KIND.info().kind_name
        ),
    })
}

fn object_of(response: Response) -> Result<Object, ApiError> {
    match response {
        Response::Object(object) => Ok(object),
        other => Err(unexpected(&other)),
    }
}

/// A response of the wrong shape: a bug in the door, reported rather than panicking.
fn unexpected(response: &Response) -> ApiError {
    ApiError::BadRequest { message: format!("unexpected response from the server: {response:?}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConfigMap, ObjectMeta};

    fn config_map(name: &str) -> Object {
        ConfigMap { metadata: ObjectMeta::named("default", name), ..Default::default() }.into_object()
    }

    #[test]
    fn every_write_through_the_door_carries_its_user() {
        let mut store = Store::new(1);
        Client::new(&mut store, UserInfo::admin()).create(config_map("settings")).unwrap();
        let write = store.watch_log().entries().last().unwrap();
        assert_eq!((write.name.as_str(), write.user.name.as_str()), ("settings", "kubernetes-admin"));
        assert_eq!(store.user().name, "system:apiserver", "the caller's user is restored");
    }

    #[test]
    fn a_dry_run_is_answered_and_not_stored() {
        let mut store = Store::new(1);
        let written = Client::new(&mut store, UserInfo::admin()).dry_run(true).create(config_map("draft")).unwrap();
        assert_eq!(written.metadata().name, "draft");
        assert!(store.try_get::<ConfigMap>("default", "draft").is_none());
    }

    #[test]
    fn lists_come_in_pages() {
        let mut store = Store::new(1);
        let mut client = Client::new(&mut store, UserInfo::admin());
        for name in ["a", "b", "c"] {
            client.create(config_map(name)).unwrap();
        }
        let mut names = Vec::new();
        let mut token = None;
        loop {
            let options = Options { limit: Some(2), continue_token: token.take(), ..Options::default() };
            let request = Request::new(UserInfo::admin(), Verb::List, Kind::ConfigMap).options(options);
            let Response::List(page) = handle(&mut store, request) else { panic!("a list") };
            names.push(page.items.iter().map(|o| o.metadata().name.clone()).collect::<Vec<_>>());
            match page.continue_token {
                Some(next) => token = Some(next),
                None => break,
            }
        }
        // Every namespace also holds its `kube-root-ca.crt` (the root CA publisher's).
        let ca = "kube-root-ca.crt";
        assert_eq!(names, [vec!["a", "b"], vec!["c", ca], vec![ca, ca], vec![ca]]);
    }

    #[test]
    fn an_unknown_resource_is_not_found() {
        let mut store = Store::new(1);
        let mut request = Request::new(UserInfo::admin(), Verb::List, Kind::Pod);
        request.resource.resource = "widgets".into();
        let Response::Status(status) = handle(&mut store, request) else { panic!("a status") };
        assert_eq!((status.code(), status.reason()), (404, "NotFound"));
    }
}
