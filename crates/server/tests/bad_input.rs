//! Bad input through the API, as real kubectl 1.36 meets it: each row is a command, what it
//! sends (a body on stdin), whose token it carries, and what kubectl prints — the API server's
//! own reason, code and message, passed through kubectl's wording.

mod support;

use support::up::{Up, oracle};

const SETTINGS: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: blue
";

/// A Deployment with a misspelt field, which kubectl 1.36 leaves the server to find (Strict).
const MISSPELT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: typo
spec:
  replicass: 2
  selector:
    matchLabels: {app: typo}
  template:
    metadata:
      labels: {app: typo}
    spec:
      containers:
      - name: web
        image: hello:v1
";

/// A misspelt field, under `--validate=warn`: dropped, with a warning.
const MISSPELT_WARNED: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: warned
dataa:
  mode: blue
";

/// The ConfigMap as it was at resourceVersion 1: long since overwritten.
const STALE: &str = "apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  resourceVersion: \"1\"
data:
  mode: green
";

/// Who runs a row.
#[derive(Clone, Copy)]
enum As {
    Owner,
    Viewer,
    Revoked,
}

struct Row {
    name: &'static str,
    who: As,
    args: &'static str,
    stdin: Option<&'static str>,
    want: &'static str,
}

const ROWS: &[Row] = &[
    Row {
        name: "malformed JSON",
        who: As::Owner,
        args: "create --raw /api/v1/namespaces/default/configmaps -f -",
        stdin: Some(r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "#),
        want: "Error from server (BadRequest): couldn't get version/kind; json parse error: unexpected end of JSON input\n",
    },
    Row {
        name: "an unknown field under Strict",
        who: As::Owner,
        args: "apply -f -",
        stdin: Some(MISSPELT),
        want: "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replicass\"\n",
    },
    Row {
        name: "an unknown field under Warn",
        who: As::Owner,
        args: "apply --validate=warn -f -",
        stdin: Some(MISSPELT_WARNED),
        want: "configmap/warned created\nWarning: unknown field \"dataa\"\n",
    },
    Row {
        name: "an unknown field in a patch (kubectl patch names no fieldValidation: the server's default, Warn)",
        who: As::Owner,
        args: "patch configmap warned --type=merge -p {\"dataa\":{\"mode\":\"green\"}}",
        stdin: None,
        want: "configmap/warned patched (no change)\nWarning: unknown field \"dataa\"\n",
    },
    Row {
        name: "a stale resourceVersion",
        who: As::Owner,
        args: "replace -f -",
        stdin: Some(STALE),
        want: "Error from server (Conflict): error when replacing \"STDIN\": Operation cannot be fulfilled on configmaps \"settings\": the object has been modified; please apply your changes to the latest version and try again\n",
    },
    Row {
        name: "an unknown resource",
        who: As::Owner,
        args: "get widgets",
        stdin: None,
        want: "error: the server doesn't have a resource type \"widgets\"\n",
    },
    Row {
        name: "a verb a viewer may not use",
        who: As::Viewer,
        args: "delete configmap settings",
        stdin: None,
        want: "Error from server (Forbidden): configmaps \"settings\" is forbidden: User \"alice\" cannot delete resource \"configmaps\" in API group \"\" in the namespace \"default\"\n",
    },
    Row {
        name: "secrets, which a viewer may not read",
        who: As::Viewer,
        args: "get secrets",
        stdin: None,
        want: "Error from server (Forbidden): secrets is forbidden: User \"alice\" cannot list resource \"secrets\" in API group \"\" in the namespace \"default\"\n",
    },
    Row {
        name: "what a viewer may do",
        who: As::Viewer,
        args: "get configmap settings -o jsonpath={.data.mode}",
        stdin: None,
        want: "blue",
    },
    Row {
        name: "a revoked token",
        who: As::Revoked,
        args: "get pods",
        stdin: None,
        want: "error: You must be logged in to the server (Unauthorized)\n",
    },
];

#[test]
fn bad_input_gets_the_api_servers_answers() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("bad-input");
    assert_eq!(up.kubectl(&kubectl, "apply -f -", Some(SETTINGS)).0, "configmap/settings created\n");
    // A write after it, so resourceVersion 1 is stale however the lab numbers its writes.
    let patched = up.kubectl(&kubectl, "patch configmap settings -p {\"data\":{\"mode\":\"blue\"}}", None);
    assert!(patched.1, "{}", patched.0);
    let (viewer, _) = up.kubeconfig_for("alice", "viewer");
    let (revoked, id) = up.kubeconfig_for("mallory", "viewer");
    up.owner_call("DELETE", &format!("/kubelab/tokens/{id}"), "");

    let mut failures = Vec::new();
    for row in ROWS {
        let config = match row.who {
            As::Owner => up.kubeconfig.clone(),
            As::Viewer => viewer.clone(),
            As::Revoked => revoked.clone(),
        };
        let (got, _) = up.kubectl_with(&config, &kubectl, row.args, row.stdin);
        if got != row.want {
            failures.push(format!("{}: kubectl {}\n  got:  {got:?}\n  want: {:?}", row.name, row.args, row.want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // A body over the API server's 3 MiB: refused before it is read to the end.
    let huge = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"huge"}},"data":{{"x":"{}"}}}}"#,
        "y".repeat(3_200_000)
    );
    let (got, _) = up.kubectl(&kubectl, "create --raw /api/v1/namespaces/default/configmaps -f -", Some(&huge));
    assert_eq!(got, "Error from server (RequestEntityTooLarge): Request entity too large: limit is 3145728\n");
}
