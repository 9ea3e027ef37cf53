//! `--for=delete`: the object is gone (or replaced by another of the same name) — at once
//! when it is already missing. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go.

use super::condition::timed_out;
use super::wait_error::WaitError;
use super::{Context, Info, Timeout};
use crate::apiserver::Reader;
use serde_json::Value;

/// `IsDeleted`: one GET (missing: done); with a zero timeout that is all; otherwise virtual
/// time passes until the object goes or its uid changes (the watch's DELETED event).
pub fn is_deleted(ctx: &mut Context<'_>, info: &Info, timeout: Timeout) -> Result<Value, WaitError> {
    let gotten = match ctx.reader().get(info.kind, &info.namespace, &info.name) {
        Err(error) if error.reason() == "NotFound" => return Ok(info.object.clone()),
        Err(error) => return Err(error.into()),
        Ok(object) => object,
    };
    let Timeout::Until(deadline) = timeout else {
        return Err(WaitError::message(format!("condition not met for {}", info.object_name())));
    };
    if ctx.sim.now() >= deadline {
        return Err(timed_out(info));
    }
    let uid = gotten.metadata().uid;
    let user = ctx.sim.kubectl_user();
    let gone = ctx.sim.wait_until(deadline, |store| {
        match Reader::new(store, user.clone()).get(info.kind, &info.namespace, &info.name) {
            Ok(object) => object.metadata().uid != uid,
            Err(error) => error.reason() == "NotFound",
        }
    });
    if !gone {
        return Err(timed_out(info));
    }
    Ok(gotten.to_json_value())
}
