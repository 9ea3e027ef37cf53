//! `kubectl create priorityclass NAME --value=N`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_priorityclass.go.

use super::one_name;
use crate::kubectl::args::{Args, Flag, int_flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb, usage_error};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create priorityclass",
    short: "Create a priority class with the specified name",
    usage: "kubectl create priorityclass NAME --value=VALUE --global-default=BOOL [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::value("value", None, "the value of this priority class."),
        Flag::value(
            "global-default",
            None,
            "global-default specifies whether this PriorityClass should be considered as the default priority.",
        ),
        Flag::value(
            "description",
            None,
            "description is an arbitrary string that usually provides guidelines on when this priority class should be used.",
        ),
        Flag::value(
            "preemption-policy",
            None,
            "preemption-policy is the policy for preempting pods with lower priority.",
        ),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let value = match int_flag(&args, "value") {
        Ok(value) => value.unwrap_or(0),
        Err(message) => return usage_error(&VERB, &message),
    };
    let global_default = match args.get("global-default") {
        None | Some("false") => false,
        Some("true") | Some("") => true,
        Some(other) => {
            let message = format!(
                "invalid argument \"{other}\" for \"--global-default\" flag: strconv.ParseBool: parsing \"{other}\": invalid syntax"
            );
            return usage_error(&VERB, &message);
        }
    };
    let mut class = Map::new();
    class.insert("apiVersion".into(), json!("scheduling.k8s.io/v1"));
    class.insert("kind".into(), json!("PriorityClass"));
    class.insert("metadata".into(), json!({"name": name}));
    class.insert("value".into(), json!(value));
    if global_default {
        class.insert("globalDefault".into(), json!(true));
    }
    if let Some(description) = args.get("description").filter(|d| !d.is_empty()) {
        class.insert("description".into(), json!(description));
    }
    let policy = args.get("preemption-policy").unwrap_or("PreemptLowerPriority");
    class.insert("preemptionPolicy".into(), json!(policy));
    print_flags::create(ctx, &args, Value::Object(class), Refusal::Prefixed("failed to create priorityclass: "))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::lab;

    #[test]
    fn a_class_is_printed_as_kubectl_builds_it_then_created() {
        let mut sim = lab("");
        let (text, _) = kubectl(&mut sim, "create priorityclass high --value=1000 --dry-run=client -o yaml");
        assert_eq!(
            text,
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\npreemptionPolicy: PreemptLowerPriority\nvalue: 1000\n"
        );
        let (text, _) = kubectl(&mut sim, "create priorityclass high --value=1000");
        assert_eq!(text, "priorityclass.scheduling.k8s.io/high created\n");
        let (text, _) = kubectl(&mut sim, "get priorityclass");
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY",
                "high                      1000         false            0s    PreemptLowerPriority",
                "system-cluster-critical   2000000000   false            0s    PreemptLowerPriority",
                "system-node-critical      2000001000   false            0s    PreemptLowerPriority",
            ]
        );
    }
}
