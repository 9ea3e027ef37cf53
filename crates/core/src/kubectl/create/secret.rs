//! `kubectl create secret generic NAME [--from-literal=k=v] [--from-file=…] [--type=T]`.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret.go.

use super::configmap::{CONFIG_KEY_RULE, is_config_key, sources};
use super::{generated_metadata, one_name};
use crate::api::secret::base64_encode;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::Refusal;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT};
use crate::kubectl::{Context, Verb, group_run};
use serde_json::{Map, Value, json};

pub const VERB: Verb = Verb {
    name: "create secret",
    short: "Create a secret using a specified subcommand",
    usage: "kubectl create secret (docker-registry | generic | tls) [options]",
    flags: &[],
    run: |_ctx, args| group_run(&VERB, &args),
};

pub const SUBCOMMANDS: &[Verb] = &[super::secret_docker_registry::VERB, GENERIC, super::secret_tls::VERB];

pub const GENERIC: Verb = Verb {
    name: "create secret generic",
    short: "Create a secret from a local file, directory, or literal value",
    usage: "kubectl create secret generic NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::repeated(
            "from-literal",
            None,
            "Specify a key and literal value to insert in secret (i.e. mykey=somevalue)",
        ),
        Flag::repeated(
            "from-file",
            None,
            "Key files can be specified using their file path, in which case a default name will be given to them, or optionally with a name and file path, in which case the given name will be used.",
        ),
        Flag::repeated(
            "from-env-file",
            None,
            "Specify the path to a file to read lines of key=val pairs to create a secret.",
        ),
        Flag::value("type", None, "The type of secret to create"),
        DRY_RUN,
        OUTPUT,
    ],
    run: run_generic,
};

fn run_generic(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &GENERIC) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let entries = match sources(ctx, &args) {
        Ok(entries) => entries,
        Err(message) => return Output::failed(message),
    };
    let mut data = Map::new();
    for (key, value) in entries {
        if !is_config_key(&key) {
            return Output::failed(format!("error: {key:?} is not valid key name for a Secret {CONFIG_KEY_RULE}"));
        }
        if data.contains_key(&key) {
            return Output::failed(format!("error: cannot add key {key}, another key by that name already exists"));
        }
        data.insert(key, Value::String(base64_encode(value.as_bytes())));
    }
    let mut secret = json!({"apiVersion": "v1", "kind": "Secret", "metadata": generated_metadata(&args, &name, None)});
    if !data.is_empty() {
        secret["data"] = Value::Object(data);
    }
    if let Some(type_) = args.get("type").filter(|t| !t.is_empty()) {
        secret["type"] = json!(type_);
    }
    print_flags::create(ctx, &args, secret, Refusal::Prefixed("failed to create secret "))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn env_files_fill_data_alone() {
        use crate::kubectl::create::tests::kubectl_with_files;
        let mut sim = Sim::default();
        let files = [("app.env", "# app\nUSER=jane\nPASSWORD=s3cr3t\n")];
        let line = "create secret generic app --from-env-file=app.env --dry-run=client -o yaml";
        let (text, _) = kubectl_with_files(&mut sim, line, &files);
        assert_eq!(
            text,
            "apiVersion: v1\ndata:\n  PASSWORD: czNjcjN0\n  USER: amFuZQ==\nkind: Secret\nmetadata:\n  name: app\n"
        );
        let line = "create configmap app --from-env-file=app.env --from-literal=a=b";
        let (text, _) = kubectl_with_files(&mut sim, line, &files);
        assert_eq!(text, "error: from-env-file cannot be combined with from-file or from-literal\n");
    }

    #[test]
    fn generic_secrets_hold_base64_data() {
        let mut sim = Sim::default();
        let (text, _) =
            kubectl(&mut sim, "create secret generic s --from-literal=password=s3cr3t --dry-run=client -o yaml");
        assert_eq!(text, "apiVersion: v1\ndata:\n  password: czNjcjN0\nkind: Secret\nmetadata:\n  name: s\n");
        let (text, _) = kubectl(&mut sim, "create secret generic s --from-literal=password=s3cr3t");
        assert_eq!(text, "secret/s created\n");
        let (text, _) = kubectl(&mut sim, "create secret generic s --from-literal=a=1 --from-literal=a=2");
        assert_eq!(text, "error: cannot add key a, another key by that name already exists\n");
        let (text, code) = kubectl(&mut sim, "create secret");
        assert_eq!(code, 1);
        assert!(text.contains("generic"), "{text}");
    }
}
