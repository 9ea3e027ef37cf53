//! The API door: every request into the store as one `Request` (who, verb, resource,
//! namespace, name, subresource, body, options) and one `Response` (an object, a list, a watch's
//! start, or a `Status`), as kube-apiserver's handler chain takes them (authentication's user,
//! authorization, admission, the registry). kubectl, lab verbs, lesson checks, the UI and the
//! HTTP API speak through it; the controllers take the store's typed calls, which run the same
//! authorizer and admission chain (`store/authorizer.rs`, `store/admission/`).

pub mod client;
pub mod dry_run;
pub mod field_manager;
pub mod field_validation;
pub mod handler;
pub mod impersonation;
pub mod managed_fields;
pub mod patch;
pub mod recording;
pub mod request;
pub mod response;
pub mod rest;

pub use client::{Client, Reader};
pub use handler::handle;
pub use request::{GroupVersionResource, Options, Request, Verb};
pub use response::{ObjectList, Response, Status, WatchStart};
