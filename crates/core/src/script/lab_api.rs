//! `lab api`: one request to the lab's Kubernetes API as a real client sent it (kubectl on a
//! learner's own machine, a client library), written down as a script line so that replaying
//! a lab's scripts makes the same request at the same moment and every copy of the lab stays
//! the same. `lab api --user NAME [--group G]... METHOD TARGET [CONTENT-TYPE BODY-BASE64]`
//! prints the answer's status (and an error's message); the host that ran it takes the whole
//! answer from the simulation (`Sim::take_api_answer`) for the client waiting on it.

use crate::api::secret::{base64_decode, base64_encode};
use crate::apiserver::rest::{self, HttpRequest, HttpResponse};
use crate::kubectl::args::{Args, Flag};
use crate::sim::{HostAnswer, Sim};
use crate::store::UserInfo;
use std::sync::Arc;

pub const FLAGS: &[Flag] = &[
    Flag::value("user", None, "Who sent the request (the token's user)"),
    Flag::repeated("group", None, "A group of the user"),
    Flag::value("accept", None, "The request's Accept header"),
];

pub fn api(sim: &mut Sim, args: &Args) -> Result<String, String> {
    let (method, target, content_type, body) = match args.positionals.as_slice() {
        [method, target] => (method, target, "", Vec::new()),
        [method, target, content_type, body] => {
            let body = base64_decode(body).ok_or("error: the body is not base64")?;
            (method, target, content_type.as_str(), body)
        }
        _ => return Err("error: usage: lab api --user NAME METHOD TARGET [CONTENT-TYPE BODY-BASE64]".into()),
    };
    let name = args.get("user").ok_or("error: --user is required")?;
    let groups: Vec<&str> = args.all("group").iter().map(String::as_str).collect();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let request =
        HttpRequest { method, path, query, accept: args.get("accept").unwrap_or(""), content_type, body: &body };
    let response = rest::serve(sim, UserInfo::new(name, &groups), &request);
    let printed = summary(&response);
    sim.put_api_answer(host_answer(response));
    Ok(printed)
}

/// `lab api-exec --user NAME -n NAMESPACE POD CONTAINER COMMAND-BASE64`: a command a client
/// ran in a container through the API's exec (one command, or one line of an interactive
/// shell), its words as a JSON array in base64 (a shell line may hold quotes, pipes, heredocs
/// and line breaks, which mean something to a script line). Its answer, kept for the host, is
/// `{"output": …, "status": <the Status that ends the stream>}`.
pub fn exec(sim: &mut Sim, args: &Args) -> Result<String, String> {
    let usage = "error: usage: lab api-exec --user NAME -n NAMESPACE POD CONTAINER COMMAND-BASE64";
    let [pod, container, encoded] = args.positionals.as_slice() else { return Err(usage.into()) };
    let command: Vec<String> = base64_decode(encoded)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or("error: the command is not a base64 JSON list of words")?;
    let namespace = args.get("namespace").unwrap_or("default");
    let Some(found) = sim.store().try_get::<crate::api::Pod>(namespace, pod).cloned() else {
        return Err(format!("error: pods \"{pod}\" not found"));
    };
    let (output, status) = rest::exec::run(sim, &found, container, &command);
    let printed = match status["status"].as_str() {
        Some("Success") => format!("$ {}", command.join(" ")),
        _ => format!("$ {}: {}", command.join(" "), status["message"].as_str().unwrap_or("failed")),
    };
    let body = serde_json::json!({"output": output, "status": status}).to_string();
    sim.put_api_answer(HostAnswer { status: 200, content_type: "application/json", body, warnings: Vec::new() });
    Ok(printed)
}

/// The script line that runs `command` again in the container, as `user`.
pub fn exec_line(user: &UserInfo, (namespace, pod, container): (&str, &str, &str), command: &[String]) -> String {
    let words = serde_json::to_vec(command).unwrap_or_default();
    format!(
        "lab api-exec --user {} -n {} {} {} {}",
        quote(&user.name),
        quote(namespace),
        quote(pod),
        quote(container),
        base64_encode(&words)
    )
}

/// An answer as the host takes it back (`from_host_answer`).
fn host_answer(response: HttpResponse) -> HostAnswer {
    let HttpResponse { status, content_type, body, warnings, .. } = response;
    HostAnswer { status, content_type, body, warnings }
}

/// The HTTP answer a host sends for what a `lab api` line answered.
pub fn from_host_answer(answer: HostAnswer) -> HttpResponse {
    let HostAnswer { status, content_type, body, warnings } = answer;
    HttpResponse { status, content_type, body, stream: None, warnings }
}

/// What the transcript shows of an answer: its status, and a refusal's message.
fn summary(response: &HttpResponse) -> String {
    let message = serde_json::from_str::<serde_json::Value>(&response.body)
        .ok()
        .filter(|body| body["kind"] == "Status")
        .and_then(|status| status["message"].as_str().map(str::to_string));
    match message {
        Some(message) if response.status >= 400 => format!("HTTP {}: {message}", response.status),
        _ => format!("HTTP {}", response.status),
    }
}

/// The script line that makes `request` again as `user`.
pub fn line(user: &Arc<UserInfo>, request: &HttpRequest<'_>) -> String {
    let mut line = format!("lab api --user {}", quote(&user.name));
    for group in &user.groups {
        line.push_str(&format!(" --group {}", quote(group)));
    }
    if !request.accept.is_empty() {
        line.push_str(&format!(" --accept {}", quote(request.accept)));
    }
    let target = match request.query {
        "" => request.path.to_string(),
        query => format!("{}?{query}", request.path),
    };
    line.push_str(&format!(" {} {}", quote(request.method), quote(&target)));
    if !request.body.is_empty() {
        line.push_str(&format!(" {} {}", quote(request.content_type), base64_encode(request.body)));
    }
    line
}

/// One word for a script line: single-quoted, with what a script line gives meaning to (a
/// quote, a heredoc's `<<`, a line break) percent-encoded, as a URL may carry it anyway.
fn quote(word: &str) -> String {
    let mut quoted = String::with_capacity(word.len() + 2);
    quoted.push('\'');
    for c in word.chars() {
        match c {
            '\'' | '<' | '\n' | '\r' => {
                quoted.push_str(&format!("%{:02X}", c as u32));
            }
            c => quoted.push(c),
        }
    }
    quoted.push('\'');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ClusterSpec;
    use crate::kubectl::MemoryFiles;
    use crate::script;

    const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"hello:v1"}]}}}}"#;

    fn replay(sim: &mut Sim, line: &str) -> String {
        let steps = script::parse(line).expect("the line parses");
        steps.iter().map(|step| script::run_step(sim, step, &MemoryFiles::new()).0).collect()
    }

    #[test]
    fn a_request_written_down_is_made_again_by_its_line() {
        let alice = UserInfo::new("alice", &["kubeadm:cluster-admins"]);
        let request = HttpRequest {
            method: "POST",
            path: "/apis/apps/v1/namespaces/default/deployments",
            query: "fieldManager=kubectl-client-side-apply&fieldValidation=Strict",
            accept: "application/json",
            content_type: "application/json",
            body: DEPLOYMENT.as_bytes(),
        };
        let written = line(&alice, &request);
        assert!(written.starts_with(
            "lab api --user 'alice' --group 'kubeadm:cluster-admins' --accept 'application/json' 'POST' '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict' 'application/json' eyJ"
        ), "{written}");

        let mut made = Sim::new(1, &ClusterSpec::default());
        let direct = rest::serve(&mut made, alice, &request);
        let mut replayed = Sim::new(1, &ClusterSpec::default());
        let printed = replay(&mut replayed, &written);
        assert_eq!(printed, "HTTP 201\n");
        let answer = replayed.take_api_answer().expect("the answer is kept for the host");
        assert_eq!((answer.status, direct.status), (201, 201));
        assert_eq!(answer.body, direct.body, "the replay answers what the first run answered");
        let pods = |sim: &Sim| sim.store().list::<crate::api::Pod>(Some("default")).count();
        assert_eq!((pods(&made), pods(&replayed)), (2, 2));
    }

    #[test]
    fn a_command_run_through_exec_is_written_down_and_run_again_by_its_line() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        replay(&mut sim, "kubectl run client --image=busybox:1.37 -- sleep infinity\nsleep 30s");
        let command = ["sh".to_string(), "-c".to_string(), "echo it\\'s $HOSTNAME".to_string()];
        let written = exec_line(&UserInfo::admin(), ("default", "client", "client"), &command);
        assert!(written.starts_with("lab api-exec --user 'kubernetes-admin' -n 'default' 'client' 'client' WyJza"));
        assert_eq!(replay(&mut sim, &written), "$ sh -c echo it\\'s $HOSTNAME\n");
        let answer: serde_json::Value = serde_json::from_str(&sim.take_api_answer().unwrap().body).unwrap();
        assert_eq!(answer["output"], "it's client\n", "the words arrive as they were sent");
        assert_eq!(answer["status"]["status"], "Success");
    }

    #[test]
    fn what_a_script_line_gives_meaning_to_is_encoded() {
        assert_eq!(quote("/api/v1/pods?labelSelector=app%3Dweb"), "'/api/v1/pods?labelSelector=app%3Dweb'");
        assert_eq!(quote("a'b<<c"), "'a%27b%3C%3Cc'");
    }
}
