//! `kubectl get --raw PATH`: one GET through the API server's HTTP door, its body printed as
//! the server sent it (how `/apis/metrics.k8s.io/v1beta1/nodes` is read before `kubectl top`
//! exists). Mirrors `GetOptions.Complete/Validate` in staging/src/k8s.io/kubectl/pkg/cmd/get/get.go
//! and `RawGet` in pkg/rawhttp/raw.go.

use super::Context;
use super::args::Args;
use super::output::Output;
use crate::apiserver::rest::{self, HttpRequest};
use crate::controllers::control_plane::REQUEST_TIMEOUT_SECONDS;
use crate::sim::time::Duration;
use serde_json::Value;

/// The flag's help, as kubectl prints it.
pub const HELP: &str = "Raw URI to request from the server.  Uses the transport specified by the kubeconfig file.";

/// Runs `--raw`, already known to be set.
pub fn run(ctx: &mut Context<'_>, args: &Args, raw: &str) -> Output {
    if let Err(message) = validate(args, raw) {
        return Output::failed(message);
    }
    let (path, query) = raw.split_once('?').unwrap_or((raw, ""));
    let request = HttpRequest { method: "GET", path, query, accept: "application/json, */*", ..HttpRequest::default() };
    let user = ctx.sim.kubectl_user();
    let response = rest::serve(ctx.sim, user, &request);
    if response.status == 504 {
        // A request that waited on a stopped etcd: the API server answers once its request
        // timeout has passed (the REST door answers at once; the lab's clock is kubectl's wait).
        ctx.sim.advance(Duration::from_secs(REQUEST_TIMEOUT_SECONDS));
    }
    let mut out = Output::default();
    if (200..300).contains(&response.status) {
        // Go's JSON encoder ends each document with a newline; a plain-text body is copied as is.
        let newline = response.content_type.contains("json") && !response.body.ends_with('\n');
        out.raw(if newline { format!("{}\n", response.body) } else { response.body });
    } else {
        out.error(error_text(response.status, response.content_type, &response.body));
    }
    out
}

/// Upstream's checks, in its order: arguments (Complete), then the flags that filter or print.
fn validate(args: &Args, raw: &str) -> Result<(), String> {
    if !args.positionals.is_empty() {
        return Err("error: arguments may not be passed when --raw is specified".into());
    }
    if args.switch("watch") || args.switch("watch-only") || args.get("selector").is_some() {
        return Err(
            "error: --raw may not be specified with other flags that filter the server request or alter the output"
                .into(),
        );
    }
    if args.get("output").is_some_and(|o| !o.is_empty()) {
        return Err("error: --raw and --output are mutually exclusive".into());
    }
    // Go's url.ParseRequestURI: an absolute path (or an absolute URL, which kubectl's client
    // would then send to its own server anyway).
    if !raw.starts_with('/') && !raw.contains("://") {
        return Err(format!("error: --raw must be a valid URL path: parse {raw:?}: invalid URI for request"));
    }
    Ok(())
}

/// What client-go makes of an error answer (`transformResponse`): a `Status` body gives its
/// reason and message; any other body, `newUnstructuredResponseError`'s generic wording for the
/// code (apimachinery's `NewGenericServerResponse`), quoting the first 2,048 bytes of a text body.
fn error_text(status: u16, content_type: &str, body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    if let Some(status_body) = parsed.filter(|v| v["kind"] == "Status") {
        let reason = status_body["reason"].as_str().unwrap_or("");
        let message = status_body["message"].as_str().unwrap_or("");
        return match reason {
            "" => format!("Error from server: {message}"),
            _ => format!("Error from server ({reason}): {message}"),
        };
    }
    let server_message = match content_type.is_empty() || content_type.starts_with("text/") {
        true => capped(body, 2048).trim().to_string(),
        false => "unknown".to_string(),
    };
    let (reason, message) = match status {
        400 => ("BadRequest", "the server rejected our request for an unknown reason".to_string()),
        401 => ("Unauthorized", "the server has asked for the client to provide credentials".to_string()),
        403 => ("Forbidden", server_message),
        404 => ("NotFound", "the server could not find the requested resource".to_string()),
        405 => ("MethodNotAllowed", "the server does not allow this method on the requested resource".to_string()),
        429 => (
            "TooManyRequests",
            "the server has received too many requests and has asked us to try again later".to_string(),
        ),
        503 => ("ServiceUnavailable", "the server is currently unable to handle the request".to_string()),
        504 => (
            "Timeout",
            "the server was unable to return a response in the time allotted, but may still be processing the request"
                .to_string(),
        ),
        500.. => (
            "InternalError",
            format!("an error on the server ({server_message:?}) has prevented the request from succeeding"),
        ),
        _ => ("", format!("the server responded with the status code {status} but did not return more information")),
    };
    match reason {
        "" => format!("Error from server: {message}"),
        _ => format!("Error from server ({reason}): {message}"),
    }
}

/// At most `max` bytes of `text`, cut back to a character boundary.
fn capped(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use crate::kubectl::rollout::fixtures::kubectl;
    use crate::sim::Sim;

    #[test]
    fn a_path_is_served_and_printed_as_sent() {
        let mut sim = Sim::default();
        let (text, code) = kubectl(&mut sim, "get --raw /api/v1/namespaces/default");
        assert_eq!(code, 0);
        assert!(text.starts_with("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\""), "{text}");
        assert!(text.ends_with("}\n"), "{text}");
        let (text, _) = kubectl(&mut sim, "get --raw /version");
        assert!(text.contains("\"gitVersion\":\"v1.36"), "{text}");
    }

    /// `/readyz` answers `ok` with no newline (kubectl copies the body as sent); with etcd
    /// stopped it answers 500 in plain text, which client-go quotes into its generic error.
    #[test]
    fn health_endpoints_answer_from_the_api_server_with_etcd_stopped() {
        let mut sim = Sim::default();
        assert_eq!(kubectl(&mut sim, "get --raw /readyz"), ("ok".into(), 0));
        crate::kubectl::fixture::run(&mut sim, "lab etcd stop");
        let before = sim.now();
        let (text, code) = kubectl(&mut sim, "get --raw /livez");
        assert_eq!(code, 1);
        assert!(
            text.starts_with(
                "Error from server (InternalError): an error on the server (\"[+]ping ok\\n[+]log ok\\n[-]etcd failed: reason withheld\\n"
            ),
            "{text}"
        );
        assert!(text.ends_with("livez check failed\") has prevented the request from succeeding\n"), "{text}");
        assert_eq!(sim.now(), before, "the health checks answer without waiting for a request timeout");
        let (text, _) = kubectl(&mut sim, "get --raw /api/v1/namespaces/default/pods");
        assert_eq!(
            text,
            "Error from server (Timeout): Timeout: request did not complete within the allotted timeout\n"
        );
        assert_eq!(sim.now().since(before).as_millis(), 60_000);
    }

    #[test]
    fn errors_read_as_kubectl_prints_them() {
        let mut sim = Sim::default();
        let cases = [
            (
                "get --raw /nothing/here",
                "Error from server (NotFound): the server could not find the requested resource\n",
            ),
            (
                "get --raw /api/v1/namespaces/default/pods/ghost",
                "Error from server (NotFound): pods \"ghost\" not found\n",
            ),
            ("get --raw /api pods", "error: arguments may not be passed when --raw is specified\n"),
            (
                "get --raw /api -w",
                "error: --raw may not be specified with other flags that filter the server request or alter the output\n",
            ),
            ("get --raw /api -o yaml", "error: --raw and --output are mutually exclusive\n"),
            ("get --raw api", "error: --raw must be a valid URL path: parse \"api\": invalid URI for request\n"),
        ];
        for (line, want) in cases {
            let (text, code) = kubectl(&mut sim, line);
            assert_eq!((text.as_str(), code), (want, 1), "{line}");
        }
    }
}
