//! `ServiceAccount` (plugin/pkg/admission/serviceaccount): a new pod runs as the namespace's
//! `default` service account unless it names one.

use super::{Operation, Plugin, Request};
use crate::api::ObjectMut;
use crate::error::ApiError;
use crate::store::Store;

pub const PLUGIN: Plugin = Plugin { name: "ServiceAccount", admit: Some(admit), validate: None };

fn admit(_: &Store, request: &Request<'_>, object: &mut ObjectMut<'_>) -> Result<(), ApiError> {
    let ObjectMut::Pod(pod) = object else { return Ok(()) };
    if request.operation != Operation::Create {
        return Ok(());
    }
    let spec = &mut pod.spec;
    let account = spec.service_account_name.clone().or(spec.service_account.clone());
    let account = account.unwrap_or_else(|| "default".to_string());
    spec.service_account_name = Some(account.clone());
    spec.service_account = Some(account);
    Ok(())
}
