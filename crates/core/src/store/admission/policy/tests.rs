//! Table tests: a policy and its binding in, what `kubectl` answers for an object out.

use crate::kubectl::fixture::{lab, run};

/// A ValidatingAdmissionPolicy on ConfigMap creates with `spec` below its matchConstraints,
/// bound with `binding` (the binding's spec after policyName).
fn validating(spec: &str, binding: &str) -> String {
    format!(
        "kubectl apply -f - <<EOF\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {{name: p}}\nspec:\n  matchConstraints:\n    resourceRules: [{{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}}]\n{spec}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {{name: b}}\nspec:\n  policyName: p\n{binding}\nEOF\n"
    )
}

const DENY: &str = "  validationActions: [Deny]";

#[test]
fn validations_admit_refuse_and_warn() {
    let refused = "error: failed to create configmap: configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ";
    let cases: &[(&str, &str, &str, &str)] = &[
        // (policy spec, binding, kubectl create, answer)
        (
            "  validations: [{expression: \"object.data.size() < 2\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1 --from-literal=b=2",
            "failed expression: object.data.size() < 2",
        ),
        (
            "  validations: [{expression: \"object.data.size() < 2\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1",
            "",
        ),
        (
            "  validations: [{expression: \"has(object.data.mode)\", message: \"a mode is required\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1",
            "a mode is required",
        ),
        (
            "  validations: [{expression: \"false\", message: \"m\", messageExpression: \"'named ' + object.metadata.name\"}]",
            DENY,
            "kubectl create configmap cm",
            "named cm",
        ),
        // An evaluation error refuses under Fail (the default) and is ignored under Ignore.
        (
            "  validations: [{expression: \"object.data.mode == 'x'\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1",
            "expression 'object.data.mode == 'x'' resulted in error: no such key: mode",
        ),
        (
            "  failurePolicy: Ignore\n  validations: [{expression: \"object.data.mode == 'x'\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1",
            "",
        ),
        // A false match condition skips the policy; variables feed the validations.
        (
            "  matchConditions: [{name: big, expression: \"object.data.size() > 5\"}]\n  validations: [{expression: \"false\"}]",
            DENY,
            "kubectl create configmap cm --from-literal=a=1",
            "",
        ),
        (
            "  variables: [{name: who, expression: \"object.metadata.name\"}]\n  validations: [{expression: \"variables.who.startsWith('app-')\"}]",
            DENY,
            "kubectl create configmap cm",
            "failed expression: variables.who.startsWith('app-')",
        ),
        // Request attributes.
        (
            "  validations: [{expression: \"request.operation == 'UPDATE' || request.userInfo.username != 'kubernetes-admin'\"}]",
            DENY,
            "kubectl create configmap cm",
            "failed expression: request.operation == 'UPDATE' || request.userInfo.username != 'kubernetes-admin'",
        ),
    ];
    for (spec, binding, command, answer) in cases {
        let mut sim = lab(&validating(spec, binding));
        let out = run(&mut sim, command);
        let want =
            if answer.is_empty() { "configmap/cm created\n".to_string() } else { format!("{refused}{answer}\n") };
        assert_eq!(out, want, "{spec}");
    }
}

/// `run` echoes a heredoc's lines before the answer.
const APPLY: &str = "kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\nEOF";

#[test]
fn reasons_and_actions_shape_the_answer() {
    let spec = "  validations: [{expression: \"false\", message: nope, reason: Forbidden}]";
    let mut sim = lab(&validating(spec, DENY));
    let out = run(&mut sim, APPLY);
    assert_eq!(
        out.split_once("EOF\n").map_or(out.as_str(), |(_, answer)| answer),
        "Error from server (Forbidden): error when creating \"STDIN\": configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: nope\n"
    );
    let spec = "  validations: [{expression: \"false\", message: nope}]";
    let mut sim = lab(&validating(spec, DENY));
    let out = run(&mut sim, APPLY);
    assert_eq!(
        out.split_once("EOF\n").map_or(out.as_str(), |(_, answer)| answer),
        "The configmaps \"cm\" is invalid: : ValidatingAdmissionPolicy 'p' with binding 'b' denied request: nope\n"
    );
    let mut sim = lab(&validating(spec, "  validationActions: [Warn, Audit]"));
    let out = run(&mut sim, "kubectl create configmap cm");
    assert_eq!(
        out,
        "Warning: Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': nope\nconfigmap/cm created\n"
    );
}

#[test]
fn expressions_are_checked_when_the_policy_is_written() {
    let mut sim = lab("");
    let out = run(&mut sim, &validating("  validations: [{expression: \"object.data\"}]", DENY));
    assert!(
        out.contains("\nThe ValidatingAdmissionPolicy \"p\" is invalid: spec.validations[0].expression: Invalid value: \"object.data\": must evaluate to bool but got dyn"),
        "{out}"
    );
    let out = run(&mut sim, &validating("  validations: [{expression: \"nope.x\"}]", DENY));
    assert!(
        out.contains("compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')"),
        "{out}"
    );
    let out = run(&mut sim, &validating("  validations: []", "  validationActions: []"));
    assert!(
        out.contains(
            "spec.validations: Required value: validations or auditAnnotations must contain at least one item"
        ),
        "{out}"
    );
}

#[test]
fn mutations_patch_the_object_before_it_is_stored() {
    let policy = |mutations: &str| {
        format!(
            "kubectl apply -f - <<EOF\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {{name: m}}\nspec:\n  matchConstraints:\n    resourceRules: [{{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}}]\n  mutations:\n{mutations}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicyBinding\nmetadata: {{name: m}}\nspec: {{policyName: m}}\nEOF\n"
        )
    };
    for (mutations, want) in [
        (
            "  - {patchType: ApplyConfiguration, applyConfiguration: {expression: \"Object{data: {'added': 'yes'}}\"}}",
            r#"{"a":"1","added":"yes"}"#,
        ),
        (
            "  - {patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'replace', path: '/data/a', value: 'two'}]\"}}",
            r#"{"a":"two"}"#,
        ),
        ("  - {patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'remove', path: '/data/a'}]\"}}", ""),
    ] {
        let mut sim = lab(&policy(mutations));
        run(&mut sim, "kubectl create configmap cm --from-literal=a=1");
        assert_eq!(run(&mut sim, "kubectl get configmap cm -o jsonpath={.data}"), want, "{mutations}");
    }
    let mut sim = lab(&policy(
        "  - {patchType: JSONPatch, jsonPatch: {expression: \"[JSONPatch{op: 'remove', path: '/data/zzz'}]\"}}",
    ));
    assert_eq!(
        run(&mut sim, "kubectl create configmap cm --from-literal=a=1"),
        "error: failed to create configmap: policy 'm' with binding 'm' denied request: JSON Patch: remove operation does not apply: doc is missing path: \"/data/zzz\"\n"
    );
}
