//! `kubectl create quota NAME --hard=cpu=1,memory=1G,pods=2 [--scopes=BestEffort]`. Mirrors
//! staging/src/k8s.io/kubectl/pkg/cmd/create/create_quota.go.

use super::{generated_metadata, one_name};
use crate::api::quantity::Quantity;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create quota",
    short: "Create a quota with the specified name",
    usage: "kubectl create quota NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2] [--dry-run=server|client|none]",
    flags: &[
        Flag::value("hard", None, "A comma-delimited set of resource=quantity pairs that define a hard limit."),
        Flag::value(
            "scopes",
            None,
            "A comma-delimited set of quota scopes that must all match each object tracked by the quota.",
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
    let hard = match hard_limits(args.get("hard").unwrap_or("")) {
        Ok(hard) => hard,
        Err(message) => return Output::failed(format!("error: {message}")),
    };
    let mut spec = Map::new();
    if !hard.is_empty() {
        spec.insert("hard".into(), Value::Object(hard));
    }
    let scopes: Vec<&str> = args.get("scopes").filter(|s| !s.is_empty()).map_or(Vec::new(), |s| s.split(',').collect());
    if !scopes.is_empty() {
        spec.insert("scopes".into(), json!(scopes));
    }
    let quota = json!({
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": generated_metadata(&args, &name, None),
        "spec": spec,
        "status": {},
    });
    print_flags::create(ctx, &args, quota, Refusal::Prefixed("failed to create quota: "))
}

/// `populateResourceListV1`: `name=quantity` pairs, each quantity parsed as the API would.
fn hard_limits(spec: &str) -> Result<Map<String, Value>, String> {
    let mut hard = Map::new();
    if spec.is_empty() {
        return Ok(hard);
    }
    for statement in spec.split(',') {
        let parts: Vec<&str> = statement.split('=').collect();
        let [name, value] = parts[..] else {
            return Err(format!("Invalid argument syntax {statement}, expected <resource>=<value>"));
        };
        let quantity = Quantity::parse(value).map_err(|e| e.to_string())?;
        hard.insert(name.to_string(), json!(quantity.to_string()));
    }
    Ok(hard)
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::kubectl::fixture::lab;

    #[test]
    fn a_quota_is_built_as_kubectl_builds_it_then_created() {
        let mut sim = lab("");
        let (text, _) = kubectl(
            &mut sim,
            "create quota best-effort --hard=pods=100,cpu=0.5 --scopes=BestEffort --dry-run=client -o yaml",
        );
        assert_eq!(
            text,
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: best-effort\nspec:\n  hard:\n    cpu: 500m\n    pods: \"100\"\n  scopes:\n  - BestEffort\nstatus: {}\n"
        );
        let (text, _) = kubectl(&mut sim, "create quota my-quota --hard=cpu=1,memory=1G,pods=2");
        assert_eq!(text, "resourcequota/my-quota created\n");
        let (text, code) = kubectl(&mut sim, "create quota bad --hard=cpu");
        assert_eq!((text.as_str(), code), ("error: Invalid argument syntax cpu, expected <resource>=<value>\n", 1));
        let (text, _) = kubectl(&mut sim, "create quota bad --hard=cpu=abc");
        assert_eq!(
            text,
            "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n"
        );
        let (text, _) = kubectl(&mut sim, "create resourcequota empty --dry-run=client -o yaml");
        assert_eq!(text, "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: empty\nspec: {}\nstatus: {}\n");
        let (text, _) = kubectl(&mut sim, "create quota my-quota --hard=pods=1");
        assert_eq!(text, "error: failed to create quota: resourcequotas \"my-quota\" already exists\n");
    }
}
