//! `--for=condition=NAME[=VALUE]`: a status condition of that type with that status, once the
//! controller has observed the object's generation; and the look-then-watch that it and the
//! JSONPath wait share. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/condition.go.

use super::wait_error::WaitError;
use super::{Context, Info, Timeout};
use crate::apiserver::Reader;
use serde_json::Value;

/// A status condition to wait for (`ConditionalWait`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionalWait {
    condition_name: String,
    condition_status: String,
}

impl ConditionalWait {
    pub fn new(condition_name: &str, condition_status: &str) -> ConditionalWait {
        ConditionalWait { condition_name: condition_name.into(), condition_status: condition_status.into() }
    }

    /// `checkCondition`: the first condition of the type decides, unless it (or the status)
    /// reports an older generation than the object's. Names and statuses match in any case.
    pub fn check_condition(&self, object: &Value) -> Result<bool, String> {
        let conditions = match object.pointer("/status/conditions") {
            None => return Ok(false),
            Some(Value::Array(conditions)) => conditions,
            Some(other) => {
                let (shown, type_) = (crate::kubectl::jsonpath::go_value(other), go_type(other));
                return Err(format!(
                    ".status.conditions accessor error: {shown} is of the type {type_}, expected []interface{{}}"
                ));
            }
        };
        for condition in conditions {
            let type_ = condition.get("type").and_then(Value::as_str);
            if !type_.is_some_and(|t| equal_fold(t, &self.condition_name)) {
                continue;
            }
            let Some(status) = condition.get("status").and_then(Value::as_str) else { continue };
            if let Some(generation) = object.pointer("/metadata/generation").and_then(Value::as_i64)
                && observed_generation(object, condition).is_some_and(|observed| observed < generation)
            {
                return Ok(false);
            }
            return Ok(equal_fold(status, &self.condition_status));
        }
        Ok(false)
    }
}

/// Go's `%T` of a decoded JSON value, as `NestedSlice`'s error names it.
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `getObservedGeneration`: the condition's own, else the status's.
fn observed_generation(object: &Value, condition: &Value) -> Option<i64> {
    let own = condition.get("observedGeneration").and_then(Value::as_i64);
    own.or_else(|| object.pointer("/status/observedGeneration").and_then(Value::as_i64))
}

/// Go's `strings.EqualFold`: equal under Unicode simple case folding (`ſ` is `s`, `K` is `k`).
pub fn equal_fold(a: &str, b: &str) -> bool {
    a.chars().map(fold).eq(b.chars().map(fold))
}

/// A character's simple fold: lower case of its upper case, where each is one character.
fn fold(c: char) -> char {
    let upper = single(c.to_uppercase()).unwrap_or(c);
    single(upper.to_lowercase()).unwrap_or(upper)
}

/// The one character a case mapping gives, if it gives one (`ß` upper-cases to `SS`).
fn single(mut mapped: impl Iterator<Item = char>) -> Option<char> {
    let first = mapped.next()?;
    mapped.next().is_none().then_some(first)
}

/// A check of an object's body: met, not yet, or an error that ends the wait.
pub type Check<'a> = &'a dyn Fn(&Value) -> Result<bool, String>;

/// `getObjAndCheckCondition`: with a zero timeout, one GET and one check; otherwise the object
/// must still exist (the informer's first list), then virtual time passes until a state of it
/// meets the check or the shared deadline passes. Once the deadline has passed, every later
/// object times out without a look, as upstream's watch cannot sync on an expired context.
pub fn get_obj_and_check_condition(
    ctx: &mut Context<'_>,
    info: &Info,
    timeout: Timeout,
    check: Check<'_>,
) -> Result<Value, WaitError> {
    let Timeout::Until(deadline) = timeout else {
        let object = ctx.reader().get(info.kind, &info.namespace, &info.name)?.to_json_value();
        return match check(&object) {
            Ok(true) => Ok(object),
            Ok(false) => Err(WaitError::message(format!("condition not met for {}", info.object_name()))),
            Err(message) => Err(WaitError::Message(message)),
        };
    };
    if ctx.sim.now() >= deadline {
        return Err(timed_out(info));
    }
    ctx.reader().get(info.kind, &info.namespace, &info.name)?;
    let user = ctx.sim.kubectl_user();
    let mut result = None;
    ctx.sim.wait_until(deadline, |store| {
        // Gone meanwhile: a watch sees DELETED and keeps waiting, for it may come back.
        let Ok(object) = Reader::new(store, user.clone()).get(info.kind, &info.namespace, &info.name) else {
            return false;
        };
        let object = object.to_json_value();
        match check(&object) {
            Ok(false) => return false,
            Ok(true) => result = Some(Ok(object)),
            Err(message) => result = Some(Err(WaitError::Message(message))),
        }
        true
    });
    result.unwrap_or_else(|| Err(timed_out(info)))
}

/// `extendErrWaitTimeout`: `timed out waiting for the condition on pods/web-0`.
pub fn timed_out(info: &Info) -> WaitError {
    WaitError::message(format!("timed out waiting for the condition on {}", info.object_name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(conditions: Value) -> Value {
        json!({"metadata": {"generation": 2}, "status": {"conditions": conditions}})
    }

    #[test]
    fn the_first_condition_of_the_type_decides_in_any_case() {
        let ready = ConditionalWait::new("ready", "TRUE");
        assert_eq!(ready.check_condition(&pod(json!([{"type": "Ready", "status": "True"}]))), Ok(true));
        assert_eq!(ready.check_condition(&pod(json!([{"type": "Ready", "status": "False"}]))), Ok(false));
        assert_eq!(
            ready.check_condition(&pod(json!([{"type": "Ready"}, {"type": "Ready", "status": "True"}]))),
            Ok(true)
        );
        assert_eq!(ready.check_condition(&pod(json!([{"type": "Other", "status": "True"}]))), Ok(false));
        assert_eq!(ready.check_condition(&json!({"status": {}})), Ok(false));
        let unready = ConditionalWait::new("Ready", "false");
        assert_eq!(unready.check_condition(&pod(json!([{"type": "Ready", "status": "False"}]))), Ok(true));
        assert_eq!(
            ready.check_condition(&json!({"status": {"conditions": "x"}})),
            Err(".status.conditions accessor error: x is of the type string, expected []interface{}".into())
        );
    }

    #[test]
    fn an_older_observed_generation_is_not_yet_met() {
        let available = ConditionalWait::new("Available", "True");
        let stale = json!({"metadata": {"generation": 2}, "status": {"observedGeneration": 1, "conditions": [{"type": "Available", "status": "True"}]}});
        assert_eq!(available.check_condition(&stale), Ok(false));
        let own = json!({"metadata": {"generation": 2}, "status": {"observedGeneration": 1, "conditions": [{"type": "Available", "status": "True", "observedGeneration": 2}]}});
        assert_eq!(available.check_condition(&own), Ok(true));
    }

    #[test]
    fn case_folding_is_unicodes_simple_folding() {
        assert!(equal_fold("Ready", "rEADY"));
        assert!(equal_fold("ſ", "S") && equal_fold("\u{212A}", "k"));
        assert!(!equal_fold("Ready", "Readyz"));
    }
}
