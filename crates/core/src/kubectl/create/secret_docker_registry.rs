//! `kubectl create secret docker-registry NAME --docker-server=S --docker-username=U
//! --docker-password=P [--docker-email=E]`: a `kubernetes.io/dockerconfigjson` Secret whose
//! `.dockerconfigjson` holds `{"auths":{S:{username,password,email,auth}}}`, `auth` being
//! base64 of `U:P` (staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret_docker.go).

use super::{generated_metadata, one_name};
use crate::api::secret::base64_encode;
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::json;

/// kubectl's default `--docker-server`: Docker Hub's v1 index.
const DOCKER_HUB: &str = "https://index.docker.io/v1/";

pub const VERB: Verb = Verb {
    name: "create secret docker-registry",
    short: "Create a secret for use with a Docker registry",
    usage: "kubectl create secret docker-registry NAME --docker-username=user --docker-password=password --docker-email=email [--docker-server=string] [--from-file=[key=]source] [--dry-run=server|client|none] [options]",
    flags: &[
        Flag::value("docker-server", None, "Server location for Docker registry"),
        Flag::value("docker-username", None, "Username for Docker registry authentication"),
        Flag::value("docker-password", None, "Password for Docker registry authentication"),
        Flag::value("docker-email", None, "Email for Docker registry"),
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
    let server = args.get("docker-server").unwrap_or(DOCKER_HUB);
    let (username, password) = (args.get("docker-username").unwrap_or(""), args.get("docker-password").unwrap_or(""));
    if username.is_empty() || password.is_empty() || server.is_empty() {
        return Output::failed(
            "error: either --from-file or the combination of --docker-username, --docker-password and --docker-server is required",
        );
    }
    let secret = json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": generated_metadata(&args, &name, None),
        "type": "kubernetes.io/dockerconfigjson",
        "data": {".dockerconfigjson": base64_encode(config_json(server, username, password, args.get("docker-email")).as_bytes())},
    });
    print_flags::create(ctx, &args, secret, Refusal::Prefixed("failed to create secret "))
}

/// The docker CLI's config, as Go's `json.Marshal` writes it: fields in struct order, empty
/// ones left out.
fn config_json(server: &str, username: &str, password: &str, email: Option<&str>) -> String {
    let auth = base64_encode(format!("{username}:{password}").as_bytes());
    let fields = [("username", Some(username)), ("password", Some(password)), ("email", email), ("auth", Some(&auth))];
    let entry: Vec<String> = fields
        .iter()
        .filter_map(|(key, value)| value.filter(|v| !v.is_empty()).map(|v| format!("{}:{}", json!(key), json!(v))))
        .collect();
    format!("{{\"auths\":{{{}:{{{}}}}}}}", json!(server), entry.join(","))
}

#[cfg(test)]
mod tests {
    use super::config_json;
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn the_config_reads_as_the_docker_cli_writes_it() {
        assert_eq!(
            config_json("registry.example.com", "jane", "pw", None),
            r#"{"auths":{"registry.example.com":{"username":"jane","password":"pw","auth":"amFuZTpwdw=="}}}"#
        );
        let mut sim = Sim::default();
        let (text, _) =
            kubectl(&mut sim, "create secret docker-registry regcred --docker-username=jane --docker-password=pw");
        assert_eq!(text, "secret/regcred created\n");
        let (text, _) = kubectl(&mut sim, "create secret docker-registry regcred2 --docker-username=jane");
        assert!(text.starts_with("error: either --from-file"), "{text}");
    }
}
