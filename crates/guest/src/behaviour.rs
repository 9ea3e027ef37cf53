//! The image's behaviour as the guest reads it: the catalogue entry's `behaviour:` (kubelab-core's
//! `Behaviour`, serialised to JSON by the host), read field by field from a `serde_json::Value`
//! so the guest needs no serde derive. Fields the guest does not act out (ingress and gateway
//! controllers, CPU and memory curves) are ignored; missing fields take the catalogue's defaults.

use crate::inference;
use serde_json::Value;
use std::collections::BTreeMap;

/// What the guest acts out of a catalogue behaviour.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Behaviour {
    /// The image's `CMD`: when set, the container's command runs in the shell (busybox images).
    pub default_command: Option<Vec<String>>,
    /// `(afterMs, exitCode)`: exits on its own.
    pub exit: Option<(u64, i32)>,
    /// Memory the process holds from its start, in MiB.
    pub memory_mi: u64,
    /// CPU each request costs: `millicoresPerRps` millicores for each request per second is
    /// that many milliseconds of CPU per request.
    pub millicores_per_rps: u64,
    pub logs: Vec<(u64, String)>,
    /// `(port, afterMs)`.
    pub listen: Vec<(u16, u64)>,
    pub listen_declared_ports: bool,
    pub routes: Vec<Route>,
    pub not_found: Option<Answer>,
    /// `(afterMs, status)`: what `grpc.health.v1.Health/Check` answers from then on.
    pub grpc_health: Vec<(u64, String)>,
    pub shell: bool,
    pub files: BTreeMap<String, String>,
    pub sigterm: Sigterm,
    /// An inference server (`vllm serve MODEL`): it decides the logs, the port and the exit.
    pub inference: Option<kubelab_vllm::Server>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    pub path: String,
    pub exact: bool,
    pub hog: bool,
    /// In `after_ms` order: the last one whose time has come answers.
    pub responses: Vec<Answer>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub after_ms: u64,
    pub status: u16,
    pub body: String,
    pub latency_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sigterm {
    pub ignore: bool,
    pub exit_after_ms: u64,
    pub exit_code: i32,
    pub logs: Vec<String>,
}

impl Default for Sigterm {
    /// As kubelab-core's: a process that does not handle SIGTERM dies of it (128 + 15).
    fn default() -> Self {
        Sigterm { ignore: false, exit_after_ms: 0, exit_code: 143, logs: Vec::new() }
    }
}

impl Behaviour {
    /// Reads a behaviour; the error names the field at fault.
    pub fn from_json(value: &Value) -> Result<Behaviour, String> {
        if !value.is_object() && !value.is_null() {
            return Err("behaviour: expected an object".into());
        }
        let sigterm = match value.get("sigterm").filter(|v| !v.is_null()) {
            Some(v) => Sigterm {
                ignore: flag(v, "ignore"),
                exit_after_ms: number(v, "exitAfterMs")?,
                exit_code: v.get("exitCode").map_or(Ok(143), |c| code(c, "sigterm.exitCode"))?,
                logs: strings(v.get("logs"), "sigterm.logs")?,
            },
            None => Sigterm::default(),
        };
        let exit = match value.get("exit").filter(|v| !v.is_null()) {
            Some(v) => Some((number(v, "afterMs")?, v.get("exitCode").map_or(Ok(0), |c| code(c, "exit.exitCode"))?)),
            None => None,
        };
        let default_command = match value.get("defaultCommand").filter(|v| !v.is_null()) {
            Some(v) => Some(strings(Some(v), "defaultCommand")?),
            None => None,
        };
        Ok(Behaviour {
            default_command,
            exit,
            memory_mi: number(value, "memoryMi")?,
            millicores_per_rps: number(value, "millicoresPerRps")?,
            logs: list(value, "logs", |v| Ok((number(v, "afterMs")?, text(v, "text")?)))?,
            listen: list(value, "listen", |v| Ok((port(v)?, number(v, "afterMs")?)))?,
            listen_declared_ports: flag(value, "listenDeclaredPorts"),
            routes: list(value, "routes", route)?,
            not_found: value.get("notFound").filter(|v| !v.is_null()).map(answer).transpose()?,
            grpc_health: list(value, "grpcHealth", |v| Ok((number(v, "afterMs")?, text(v, "status")?)))?,
            shell: flag(value, "shell"),
            files: files(value.get("files"))?,
            sigterm,
            inference: match value.get("inference").filter(|v| !v.is_null()) {
                Some(v) => Some(inference::from_json(v).map_err(|e| format!("inference.{e}"))?),
                None => None,
            },
        })
    }
}

fn route(value: &Value) -> Result<Route, String> {
    Ok(Route {
        path: text(value, "path")?,
        exact: flag(value, "exact"),
        hog: flag(value, "hog"),
        responses: list(value, "responses", answer)?,
    })
}

fn answer(value: &Value) -> Result<Answer, String> {
    let status = number(value, "status")?;
    Ok(Answer {
        after_ms: number(value, "afterMs")?,
        status: u16::try_from(status).map_err(|_| format!("status: {status} is not an HTTP status"))?,
        body: value.get("body").and_then(Value::as_str).unwrap_or_default().to_string(),
        latency_ms: number(value, "latencyMs")?,
    })
}

fn port(value: &Value) -> Result<u16, String> {
    let port = number(value, "port")?;
    u16::try_from(port).map_err(|_| format!("port: {port} is not a port"))
}

/// A list field (absent or null: empty), each element read by `item`.
fn list<T>(value: &Value, field: &str, item: impl Fn(&Value) -> Result<T, String>) -> Result<Vec<T>, String> {
    match value.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => {
            items.iter().enumerate().map(|(i, v)| item(v).map_err(|e| format!("{field}[{i}].{e}"))).collect()
        }
        Some(_) => Err(format!("{field}: expected a list")),
    }
}

/// A non-negative integer field; absent or null is 0.
fn number(value: &Value, field: &str) -> Result<u64, String> {
    match value.get(field) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => v.as_u64().ok_or_else(|| format!("{field}: expected a non-negative integer")),
    }
}

fn code(value: &Value, field: &str) -> Result<i32, String> {
    value.as_i64().and_then(|c| i32::try_from(c).ok()).ok_or_else(|| format!("{field}: expected an exit code"))
}

fn flag(value: &Value, field: &str) -> bool {
    value.get(field).and_then(Value::as_bool).unwrap_or(false)
}

fn text(value: &Value, field: &str) -> Result<String, String> {
    value.get(field).and_then(Value::as_str).map(str::to_string).ok_or_else(|| format!("{field}: expected a string"))
}

fn strings(value: Option<&Value>, field: &str) -> Result<Vec<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(|| format!("{field}: expected strings")))
            .collect(),
        Some(_) => Err(format!("{field}: expected a list of strings")),
    }
}

fn files(value: Option<&Value>) -> Result<BTreeMap<String, String>, String> {
    match value {
        None | Some(Value::Null) => Ok(BTreeMap::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(path, v)| {
                let content = v.as_str().ok_or_else(|| format!("files.{path}: expected a string"))?;
                Ok((path.clone(), content.to_string()))
            })
            .collect(),
        Some(_) => Err("files: expected a map of path to content".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_behaviour_reads_with_the_catalogue_defaults() {
        let behaviour = Behaviour::from_json(&json!({
            "logs": [{"afterMs": 500, "text": "{time} v1 listening on :8080"}],
            "listen": [{"port": 8080, "afterMs": 500}],
            "routes": [{"path": "/readyz", "responses": [{"status": 503, "body": "warming up\n"},
                                                         {"afterMs": 3000, "status": 200, "body": "ready"}]}],
            "exit": null,
            "sigterm": {"exitAfterMs": 2, "logs": ["bye"]},
        }))
        .unwrap();
        assert_eq!(behaviour.listen, vec![(8080, 500)]);
        assert_eq!(
            behaviour.routes[0].responses[1],
            Answer { after_ms: 3000, status: 200, body: "ready".into(), latency_ms: 0 }
        );
        assert_eq!(behaviour.sigterm.exit_code, 143);
        assert_eq!(behaviour.exit, None);
        assert_eq!(Behaviour::from_json(&Value::Null).unwrap(), Behaviour::default());
    }

    #[test]
    fn a_malformed_behaviour_names_its_field() {
        let err = Behaviour::from_json(&json!({"listen": [{"port": 70000}]})).unwrap_err();
        assert_eq!(err, "listen[0].port: 70000 is not a port");
        let err =
            Behaviour::from_json(&json!({"routes": [{"path": "/", "responses": [{"status": "x"}]}]})).unwrap_err();
        assert_eq!(err, "routes[0].responses[0].status: expected a non-negative integer");
    }
}
