//! `/kubelab/clock`: the lab owner's control of a served lab's virtual clock, beside the
//! Kubernetes API (kube-apiserver has no such path, so nothing collides). `GET` reads it;
//! `PUT {"paused": true}` or `{"speed": 2}` sets it; `POST {"step": "30s"}` lets time pass —
//! except in a lab real machines have joined, whose clock is the wall clock's.

use super::lab::Clock;
use super::{ServedLab, status_response};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};
use kubelab_core::sim::time::{Duration as SimDuration, SimTime};
use serde_json::{Value, json};

fn state((clock, now): (Clock, SimTime)) -> Response {
    let (paused, speed) = match clock {
        Clock::Running(speed) => (false, speed),
        Clock::Paused | Clock::Scripted => (true, 0.0),
    };
    Json(json!({"paused": paused, "speed": speed, "now": now.to_rfc3339()})).into_response()
}

fn bad(message: &str) -> Response {
    status_response(400, "BadRequest", message)
}

pub async fn handle(State(served): State<ServedLab>, method: Method, headers: HeaderMap, body: String) -> Response {
    if !served.is_owner(&headers) {
        return status_response(403, "Forbidden", "only the lab's owner may set its clock");
    }
    let request: Value = if body.trim().is_empty() {
        json!({})
    } else {
        match serde_json::from_str(&body) {
            Ok(value) => value,
            Err(e) => return bad(&format!("the body is not JSON: {e}")),
        }
    };
    let machines: Vec<String> = served.agents.list().into_iter().map(|a| a.name).collect();
    if !machines.is_empty() && method != Method::GET {
        // Real machines live on the wall clock: the lab's clock may not leave it.
        let message = format!(
            "this lab has real nodes ({}): its clock runs with the wall clock, so it cannot be paused, sped up or stepped",
            machines.join(", ")
        );
        return status_response(409, "Conflict", &message);
    }
    let answer = match method {
        Method::GET => served.lab.clock(None).await,
        Method::PUT => {
            let clock =
                match (request.get("paused").and_then(Value::as_bool), request.get("speed").and_then(Value::as_f64)) {
                    (Some(true), _) => Clock::Paused,
                    (_, Some(speed)) if speed > 0.0 && speed <= 1000.0 => Clock::Running(speed),
                    (_, Some(_)) => return bad("speed must be above 0 and at most 1000"),
                    (Some(false), None) => Clock::Running(1.0),
                    (None, None) => return bad("give {\"paused\": true|false} or {\"speed\": N}"),
                };
            served.lab.clock(Some(clock)).await
        }
        Method::POST => {
            let text = request.get("step").and_then(Value::as_str).unwrap_or("");
            match SimDuration::parse(text) {
                Ok(by) if by.as_millis() <= 24 * 3600 * 1000 => served.lab.step(by).await,
                Ok(_) => return bad("a step is at most 24h"),
                Err(e) => return bad(&format!("step: {e}")),
            }
        }
        _ => return status_response(405, "MethodNotAllowed", "GET, PUT or POST"),
    };
    match answer {
        Ok(answer) => state(answer),
        Err(_) => status_response(503, "ServiceUnavailable", "the lab has stopped"),
    }
}
