//! `kubectl create token SERVICE_ACCOUNT [--duration=…] [--audience=…]`: a TokenRequest for the
//! account, printing the token. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go;
//! the token is `store/service_account_token.rs`'s.

use crate::kubectl::args::{Args, Flag, duration_flag};
use crate::kubectl::output::Output;
use crate::kubectl::{Context, Verb, usage_error};

pub const VERB: Verb = Verb {
    name: "create token",
    short: "Request a service account token",
    usage: "kubectl create token SERVICE_ACCOUNT_NAME [options]",
    flags: &[
        Flag::repeated(
            "audience",
            None,
            "Audience of the requested token. If unset, defaults to requesting a token for use with the Kubernetes API server. May be repeated to request a token valid for multiple audiences.",
        ),
        Flag::value(
            "duration",
            None,
            "Requested lifetime of the issued token. If not set or if set to 0, the lifetime will be determined by the server automatically. The server may return a token with a longer or shorter lifetime.",
        ),
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match args.positionals.as_slice() {
        [name] => name.clone(),
        _ => return usage_error(&VERB, "TOKEN SERVICE_ACCOUNT_NAME is required"),
    };
    let duration = match duration_flag(&args, "duration") {
        Ok(duration) => duration.map(|d| d.as_secs() as i64).filter(|s| *s > 0),
        Err(message) => return usage_error(&VERB, &message),
    };
    if duration.is_some_and(|s| s < 600) {
        return Output::failed(
            "error: failed to create token: TokenRequest.authentication.k8s.io \"".to_string()
                + &name
                + "\" is invalid: spec.expirationSeconds: Invalid value: "
                + &duration.unwrap_or_default().to_string()
                + ": may not specify a duration less than 10 minutes",
        );
    }
    let namespace = args.get("namespace").filter(|n| !n.is_empty()).unwrap_or("default").to_string();
    let user = ctx.sim.kubectl_user();
    let audiences = args.all("audience").to_vec();
    match ctx.sim.store_mut().create_token(&user, (&namespace, &name), duration, &audiences) {
        Ok(token) => {
            let mut out = Output::default();
            out.line(token);
            out
        }
        Err(error) => Output::failed(format!("error: failed to create token: {}", error.message())),
    }
}
