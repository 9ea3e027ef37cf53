//! The HTTP requests kubectl 1.36 sends for a command, from the requests the lab's door served
//! for it: what the lab's verbs do in one step, kubectl does as upstream does — `apply`
//! fetches the object, then creates it or sends a patch (none when nothing changed); `scale`
//! fetches, then patches the `scale` subresource; `delete` waits for the object to be gone; a
//! manifest read with `-f` fetches the OpenAPI schema first. Lists are chunked at 500 and
//! writes carry kubectl's field manager (`--field-manager` defaults in kubectl's commands).

use crate::store::request_path::RequestPath;

/// One request as kubectl's round tripper logs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    pub method: &'static str,
    /// Path and query, as `/api/v1/namespaces/default/pods?limit=500`.
    pub url: String,
    /// `200 OK`.
    pub status: String,
    pub milliseconds: u64,
    /// Logged after the command's output (the wait after a delete).
    pub after_output: bool,
}

/// The command as kubectl parsed it: its verb and whether it read manifests (`-f`).
pub struct Command<'a> {
    pub verb: &'a str,
    pub from_files: bool,
}

impl<'a> Command<'a> {
    pub fn of(argv: &'a [String]) -> Command<'a> {
        let verb = argv.iter().find(|w| !w.starts_with('-')).map_or("", String::as_str);
        let from_files = argv.iter().any(|w| w == "-f" || w.starts_with("--filename") || w.starts_with("-f="));
        Command { verb, from_files }
    }
}

/// What kubectl sends, in order, for what the door served.
pub fn sent(command: &Command<'_>, served: &[RequestPath]) -> Vec<Sent> {
    let mut sent = Vec::new();
    if command.from_files
        && let Some(group_version) = served.first().and_then(|p| group_version_path(&p.path))
    {
        sent.push(plain("GET", "/openapi/v3?timeout=32s".into(), 2));
        sent.push(plain("GET", format!("/openapi/v3/{group_version}?timeout=32s"), 2));
    }
    for path in served {
        match (command.verb, path.method) {
            ("apply", "PUT") => {
                if !path.storage.as_ref().is_some_and(|s| s.as_ref().is_ok_and(|s| s.starts_with("unchanged"))) {
                    sent.push(Sent { method: "PATCH", ..one(path, command) });
                }
            }
            ("scale", "PUT") => {
                sent.push(plain("GET", path.path.clone(), 1));
                sent.push(Sent {
                    method: "PATCH",
                    url: format!("{}/scale", url_of(path, command)),
                    ..one(path, command)
                });
            }
            ("delete", "DELETE") if path.refused.is_none() => {
                sent.push(one(path, command));
                sent.push(Sent {
                    status: "404 Not Found".into(),
                    milliseconds: 0,
                    after_output: true,
                    ..plain("GET", path.path.clone(), 0)
                });
            }
            _ => sent.push(one(path, command)),
        }
    }
    sent
}

fn plain(method: &'static str, url: String, milliseconds: u64) -> Sent {
    Sent { method, url, status: "200 OK".into(), milliseconds, after_output: false }
}

fn one(path: &RequestPath, command: &Command<'_>) -> Sent {
    Sent {
        method: path.method,
        url: url_of(path, command),
        status: path.status_line(),
        milliseconds: milliseconds(path),
        after_output: false,
    }
}

/// `api/v1` or `apis/apps/v1`: where a path's group version is served.
fn group_version_path(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match parts.as_slice() {
        ["api", version, ..] => Some(format!("api/{version}")),
        ["apis", group, version, ..] => Some(format!("apis/{group}/{version}")),
        _ => None,
    }
}

/// A deterministic round trip: a read of one object 1 ms, a list 2, a write 3, a refusal 1.
fn milliseconds(path: &RequestPath) -> u64 {
    match (path.refused.is_some(), path.verb) {
        (true, _) => 1,
        (false, "get") => 1,
        (false, "list") => 2,
        _ => 3,
    }
}

/// The URL as kubectl sends it: lists chunked at 500, creates and applies with kubectl's
/// field manager and strict field validation, the query sorted by key (`url.Values.Encode`).
fn url_of(path: &RequestPath, command: &Command<'_>) -> String {
    let mut query = path.query.clone();
    let has = |query: &[(String, String)], key: &str| query.iter().any(|(k, _)| k == key);
    if path.verb == "list" && !has(&query, "limit") {
        query.push(("limit".into(), "500".into()));
    }
    if matches!(path.method, "POST" | "PATCH" | "PUT") && !has(&query, "fieldManager") {
        let (manager, strict) = match command.verb {
            "create" => (Some("kubectl-create"), true),
            "apply" => (Some("kubectl-client-side-apply"), true),
            "run" => (Some("kubectl-run"), false),
            "replace" => (Some("kubectl-replace"), true),
            _ => (None, false),
        };
        if let Some(manager) = manager {
            query.push(("fieldManager".into(), manager.into()));
            if strict {
                query.push(("fieldValidation".into(), "Strict".into()));
            }
        }
    }
    query.sort();
    if query.is_empty() {
        return path.path.clone();
    }
    let encoded: Vec<String> = query.iter().map(|(k, v)| format!("{}={}", query_escape(k), query_escape(v))).collect();
    format!("{}?{}", path.path, encoded.join("&"))
}

/// Go's `url.QueryEscape`: letters, digits and `-_.~` kept, a space as `+`, the rest `%XX`.
fn query_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => escaped.push(byte as char),
            b' ' => escaped.push('+'),
            other => escaped.push_str(&format!("%{other:02X}")),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_encoded_as_go_encodes_it() {
        assert_eq!(
            query_escape("involvedObject.name=web,involvedObject.namespace=default"),
            "involvedObject.name%3Dweb%2CinvolvedObject.namespace%3Ddefault"
        );
    }

    #[test]
    fn group_versions_are_found_in_paths() {
        assert_eq!(group_version_path("/api/v1/namespaces/default/pods").as_deref(), Some("api/v1"));
        assert_eq!(group_version_path("/apis/apps/v1/deployments").as_deref(), Some("apis/apps/v1"));
    }
}
