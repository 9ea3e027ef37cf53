//! `kubectl create poddisruptionbudget NAME --selector=… --min-available=N` (alias `pdb`).
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_pdb.go.

use super::{generated_metadata, one_name};
use crate::api::labels::{Operator, Selector};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create poddisruptionbudget",
    short: "Create a pod disruption budget with the specified name",
    usage: "kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N [--dry-run=server|client|none]",
    flags: &[
        Flag::value("min-available", None, "The minimum number or percentage of available pods this budget requires."),
        Flag::value(
            "max-unavailable",
            None,
            "The maximum number or percentage of unavailable pods this budget requires.",
        ),
        Flag::value(
            "selector",
            None,
            "A label selector to use for this budget. Only equality-based selector requirements are supported.",
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
    let budget = match budget(&args, &name) {
        Ok(budget) => budget,
        Err(message) => return Output::failed(format!("error: {message}")),
    };
    print_flags::create(ctx, &args, budget, Refusal::Prefixed("failed to create poddisruptionbudgets: "))
}

/// `Validate` then `createPodDisruptionBudgets`.
fn budget(args: &Args, name: &str) -> Result<Value, String> {
    let flag = |name: &str| args.get(name).filter(|v| !v.is_empty());
    let selector = flag("selector").ok_or("a selector must be specified")?;
    let (min, max) = (flag("min-available"), flag("max-unavailable"));
    let bound = match (min, max) {
        (None, None) => return Err("one of min-available or max-unavailable must be specified".into()),
        (Some(_), Some(_)) => return Err("min-available and max-unavailable cannot be both specified".into()),
        (Some(min), None) => ("minAvailable", min, "min-available"),
        (None, Some(max)) => ("maxUnavailable", max, "max-unavailable"),
    };
    let (field, value, flag_name) = bound;
    let digits = value.strip_suffix('%').unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid format specified for {flag_name}"));
    }
    let mut spec = Map::new();
    let selector = label_selector(selector)?;
    // `intstr.Parse`: a number that fits an int32 is an int, anything else a string.
    let value = value.parse::<i32>().map_or_else(|_| json!(value), |n| json!(n));
    if field == "minAvailable" {
        spec.insert(field.into(), value);
        spec.insert("selector".into(), selector);
    } else {
        spec.insert("selector".into(), selector);
        spec.insert(field.into(), value);
    }
    Ok(json!({
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": generated_metadata(args, name, None),
        "spec": spec,
        "status": {"disruptionsAllowed": 0, "currentHealthy": 0, "desiredHealthy": 0, "expectedPods": 0},
    }))
}

/// apimachinery's `ParseToLabelSelector`: equality becomes `matchLabels`, set operators
/// `matchExpressions`.
fn label_selector(text: &str) -> Result<Value, String> {
    let selector = Selector::parse(text).map_err(|e| e.to_string())?;
    let (mut labels, mut expressions) = (Map::new(), Vec::new());
    for requirement in selector.requirements() {
        let operator = match requirement.operator() {
            Operator::Equals | Operator::DoubleEquals => {
                labels.insert(requirement.key().into(), json!(requirement.values().first()));
                continue;
            }
            Operator::In => "In",
            Operator::NotIn => "NotIn",
            Operator::Exists => "Exists",
            Operator::DoesNotExist => "DoesNotExist",
            op @ (Operator::GreaterThan | Operator::LessThan) => {
                return Err(format!("{:?} isn't supported in label selectors", op.as_str()));
            }
            Operator::NotEquals => return Err("\"!=\" is not a valid label selector operator".into()),
        };
        let mut expression = json!({"key": requirement.key(), "operator": operator});
        if !requirement.values().is_empty() {
            expression["values"] = json!(requirement.values());
        }
        expressions.push(expression);
    }
    let mut selector = Map::new();
    if !labels.is_empty() {
        selector.insert("matchLabels".into(), Value::Object(labels));
    }
    if !expressions.is_empty() {
        selector.insert("matchExpressions".into(), json!(expressions));
    }
    Ok(Value::Object(selector))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::lab;

    #[test]
    fn a_budget_is_printed_as_kubectl_builds_it_then_created() {
        let mut sim = lab("");
        let (text, code) =
            kubectl(&mut sim, "create pdb web --selector=app=web,tier=fe --min-available=2 --dry-run=client -o yaml");
        assert_eq!(code, 0);
        assert_eq!(
            text,
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n      app: web\n      tier: fe\nstatus:\n  currentHealthy: 0\n  desiredHealthy: 0\n  disruptionsAllowed: 0\n  expectedPods: 0\n"
        );
        let (text, _) = kubectl(&mut sim, "create poddisruptionbudget web --selector=app=web --max-unavailable=50%");
        assert_eq!(text, "poddisruptionbudget.policy/web created\n");
        let (text, code) = kubectl(&mut sim, "create pdb x --selector=app=web");
        assert_eq!((text.as_str(), code), ("error: one of min-available or max-unavailable must be specified\n", 1));
        let (text, _) = kubectl(&mut sim, "create pdb x --selector=app=web --min-available=2x");
        assert_eq!(text, "error: invalid format specified for min-available\n");
        let (text, _) = kubectl(&mut sim, "create pdb web --selector=app=web --min-available=1");
        assert_eq!(
            text,
            "error: failed to create poddisruptionbudgets: poddisruptionbudgets.policy \"web\" already exists\n"
        );
    }
}
