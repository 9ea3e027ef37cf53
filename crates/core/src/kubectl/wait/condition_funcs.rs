//! The `--for` flag read into the checks to run, in the order given (`conditionFuncsFor`,
//! `processJSONPathInput` and `splitJSONPathInput` in staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go).

use super::condition::{ConditionalWait, get_obj_and_check_condition};
use super::json::JsonPathWait;
use super::wait_error::WaitError;
use super::{Context, Info, Timeout, create, delete};
use crate::error::go_quote;
use serde_json::Value;

/// One `--for` condition (upstream's `ConditionFunc`s).
#[derive(Clone, Debug, PartialEq)]
pub enum ConditionFunc {
    Create,
    Delete,
    Condition(ConditionalWait),
    JsonPath(JsonPathWait),
}

impl ConditionFunc {
    /// Waits until the condition holds for `info`; the object to print when it does.
    pub fn wait(&self, ctx: &mut Context<'_>, info: &Info, timeout: Timeout) -> Result<Value, WaitError> {
        match self {
            ConditionFunc::Create => Ok(create::is_created(info)),
            ConditionFunc::Delete => delete::is_deleted(ctx, info, timeout),
            ConditionFunc::Condition(wait) => {
                get_obj_and_check_condition(ctx, info, timeout, &|object| wait.check_condition(object))
            }
            ConditionFunc::JsonPath(wait) => {
                get_obj_and_check_condition(ctx, info, timeout, &|object| wait.check_condition(object))
            }
        }
    }
}

/// `conditionFuncsFor`: `delete` and `create` in any case, `condition=NAME[=VALUE]` (the value
/// `true` when left out), `jsonpath=EXPRESSION[=VALUE]`; anything else, or nothing, is refused.
pub fn condition_funcs_for(conditions: &[String]) -> Result<Vec<ConditionFunc>, String> {
    if conditions.is_empty() {
        // Go's `%q` of an empty slice.
        return Err("unrecognized condition: []".into());
    }
    conditions.iter().map(|condition| condition_func(condition)).collect()
}

fn condition_func(condition: &str) -> Result<ConditionFunc, String> {
    let lowercase = condition.to_lowercase();
    if lowercase == "delete" {
        return Ok(ConditionFunc::Delete);
    }
    if lowercase == "create" {
        return Ok(ConditionFunc::Create);
    }
    if let Some(name) = condition.strip_prefix("condition=") {
        let (name, status) = name.split_once('=').unwrap_or((name, "true"));
        return Ok(ConditionFunc::Condition(ConditionalWait::new(name, status)));
    }
    if let Some(input) = condition.strip_prefix("jsonpath=") {
        let (expression, value) = process_json_path_input(input)?;
        return JsonPathWait::new(&expression, &value).map(ConditionFunc::JsonPath);
    }
    Err(format!("unrecognized condition: {}", go_quote(condition)))
}

/// `processJSONPathInput`: the relaxed expression and the value wanted (empty: any value).
fn process_json_path_input(input: &str) -> Result<(String, String), String> {
    let parts = split_json_path_input(input);
    let [expression, rest @ ..] = parts.as_slice() else { return Err(FORMAT.into()) };
    if rest.len() > 1 {
        return Err(FORMAT.into());
    }
    let expression = crate::kubectl::jsonpath::relaxed_expression(expression)?;
    let Some(value) = rest.first() else { return Ok((expression, String::new())) };
    let value = value.trim_matches(['\'', '"']);
    if value.is_empty() {
        return Err(
            "jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3"
                .into(),
        );
    }
    Ok((expression, value.to_string()))
}

const FORMAT: &str = "jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'";

/// `splitJSONPathInput`: splits on a single `=`, keeping `==` (a filter's comparison) whole.
fn split_json_path_input(input: &str) -> Vec<String> {
    let mut output = Vec::new();
    let mut element = String::new();
    let mut chars = input.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '=' {
            element.push(c);
        } else if chars.peek() == Some(&'=') {
            chars.next();
            element.push_str("==");
        } else {
            output.push(std::mem::take(&mut element));
        }
    }
    output.push(element);
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(flags: &[&str]) -> Result<Vec<ConditionFunc>, String> {
        condition_funcs_for(&flags.iter().map(|f| f.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn each_form_of_for_is_read() {
        let conditions = parsed(&["Delete", "CREATE", "condition=Ready", "condition=Ready=false"]).unwrap();
        assert_eq!(conditions[0], ConditionFunc::Delete);
        assert_eq!(conditions[1], ConditionFunc::Create);
        assert_eq!(conditions[2], ConditionFunc::Condition(ConditionalWait::new("Ready", "true")));
        assert_eq!(conditions[3], ConditionFunc::Condition(ConditionalWait::new("Ready", "false")));
        let json = parsed(&["jsonpath={.status.phase}=Running", "jsonpath=.status.loadBalancer.ingress"]).unwrap();
        assert_eq!(json[0], ConditionFunc::JsonPath(JsonPathWait::new("{.status.phase}", "Running").unwrap()));
        assert_eq!(json[1], ConditionFunc::JsonPath(JsonPathWait::new("{.status.loadBalancer.ingress}", "").unwrap()));
    }

    #[test]
    fn bad_conditions_are_refused_in_kubectls_words() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "unrecognized condition: []"),
            (&["bogus"], "unrecognized condition: \"bogus\""),
            (&["delete", "bogus"], "unrecognized condition: \"bogus\""),
            (&["Condition=Ready"], "unrecognized condition: \"Condition=Ready\""),
            (&["jsonpath="], "jsonpath expression cannot be empty"),
            (
                &["jsonpath={.a}="],
                "jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3",
            ),
            (
                &["jsonpath={.a}=''"],
                "jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3",
            ),
            (&["jsonpath={.a}=b=c"], FORMAT),
            (
                &["jsonpath={.a"],
                "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
            ),
        ];
        for (flags, expected) in cases {
            assert_eq!(parsed(flags).unwrap_err(), *expected, "{flags:?}");
        }
    }

    #[test]
    fn double_equals_stay_inside_the_expression() {
        assert_eq!(split_json_path_input("a.b.c====d.e.f===g.h.i==="), ["a.b.c====d.e.f==", "g.h.i==", ""]);
        let (expression, value) =
            process_json_path_input(r#"{.status.conditions[?(@.type=="Ready")].status}=True"#).unwrap();
        assert_eq!(
            (expression.as_str(), value.as_str()),
            (r#"{.status.conditions[?(@.type=="Ready")].status}"#, "True")
        );
        assert_eq!(process_json_path_input("{.a}='3'").unwrap().1, "3");
    }
}
