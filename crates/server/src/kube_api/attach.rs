//! `kubectl attach`: the container's main process's output from the moment of attaching, over
//! exec's WebSocket protocol (`exec.rs`), until the container stops (the Status then ends the
//! stream) or the client leaves. The lab's processes read no input: what the client types is
//! read and dropped, as a process that never reads its stdin leaves it.

use super::ServedLab;
use super::exec::{PROTOCOL, STDOUT, finish, for_terminal, frame};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use kubelab_core::api::Pod;
use kubelab_core::apiserver::rest::log::LogFollow;
use std::time::Duration;

/// How often the container's output is looked at.
const POLL: Duration = Duration::from_millis(200);

pub fn serve(upgrade: WebSocketUpgrade, served: ServedLab, (pod, container): (Pod, String), tty: bool) -> Response {
    upgrade.protocols([PROTOCOL]).on_upgrade(move |socket| async move {
        let follow = LogFollow {
            namespace: pod.metadata.namespace.clone(),
            pod: pod.metadata.name.clone(),
            container,
            timestamps: false,
            sent: 0,
        };
        let _ = attached(socket, served, follow, tty).await;
    })
}

async fn attached(mut socket: WebSocket, served: ServedLab, follow: LogFollow, tty: bool) -> Result<(), axum::Error> {
    // What was printed before the attach is the log's, not the attach's.
    let Ok((mut follow, _, mut ended)) = served.lab.follow(follow).await else { return Ok(()) };
    while !ended {
        tokio::select! {
            message = socket.recv() => match message {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return Ok(()),
                Some(Ok(_)) => continue,
            },
            () = tokio::time::sleep(POLL) => {
                let Ok((next, text, stopped)) = served.lab.follow(follow).await else { return Ok(()) };
                (follow, ended) = (next, stopped);
                if !text.is_empty() {
                    socket.send(frame(STDOUT, for_terminal(&text, tty).as_bytes())).await?;
                }
            }
        }
    }
    finish(&mut socket, &serde_json::json!({"metadata": {}, "status": "Success"})).await
}
