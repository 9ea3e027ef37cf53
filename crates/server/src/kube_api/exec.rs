//! `kubectl exec` and `attach` over the WebSocket protocol kubectl 1.36 speaks
//! (`v5.channel.k8s.io`): every message binary, its first byte the stream (0 stdin, 1 stdout,
//! 2 stderr, 3 the closing Status, 4 terminal size, 255 a stream's end). A command runs once;
//! `-i` with a shell and no command reads lines from stdin and runs each (with a terminal, the
//! server echoes keys and prints busybox's `/ # ` prompt, as the real shell does).

use super::ServedLab;
use super::lab::{ApiLab, ExecRun};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::response::Response;
use kubelab_core::api::Pod;
use kubelab_core::apiserver::rest::query::Query;
use kubelab_core::store::UserInfo;
use serde_json::Value;
use std::sync::Arc;

pub const PROTOCOL: &str = "v5.channel.k8s.io";
const STDIN: u8 = 0;
pub(super) const STDOUT: u8 = 1;
const STATUS: u8 = 3;
const CLOSE: u8 = 255;
/// The longest line an interactive shell keeps before running it.
const MAX_LINE: usize = 64 * 1024;

/// What the request asked for, read from its query string.
pub struct Session {
    pub user: Arc<UserInfo>,
    pub pod: Pod,
    pub container: String,
    pub command: Vec<String>,
    pub stdin: bool,
    pub tty: bool,
}

impl Session {
    pub fn command_of(query: &Query) -> Vec<String> {
        query.all("command").into_iter().map(String::from).collect()
    }

    /// `argv` to run in the session's container.
    fn run(&self, argv: Vec<String>) -> ExecRun {
        ExecRun { user: self.user.clone(), pod: self.pod.clone(), container: self.container.clone(), argv }
    }

    /// A shell on a terminal with nothing to run: it reads commands line by line. (Without a
    /// terminal the shell reads its whole stdin as one script.)
    fn interactive(&self) -> bool {
        let program = self.command.first().map(|c| c.rsplit('/').next().unwrap_or(c));
        self.stdin && self.tty && self.command.len() == 1 && matches!(program, Some("sh" | "ash" | "bash"))
    }
}

/// Upgrades and runs the session.
pub fn serve(upgrade: WebSocketUpgrade, served: ServedLab, session: Session) -> Response {
    upgrade.protocols([PROTOCOL]).on_upgrade(move |socket| async move {
        let lab = served.lab.clone();
        let _ =
            if session.interactive() { shell(socket, lab, session).await } else { once(socket, lab, session).await };
    })
}

pub(super) fn frame(stream: u8, bytes: &[u8]) -> Message {
    let mut data = Vec::with_capacity(bytes.len() + 1);
    data.push(stream);
    data.extend_from_slice(bytes);
    Message::Binary(data.into())
}

/// A terminal wants `\r\n` where a program printed `\n`.
pub(super) fn for_terminal(text: &str, tty: bool) -> String {
    if tty { text.replace('\n', "\r\n") } else { text.to_string() }
}

pub(super) async fn finish(socket: &mut WebSocket, status: &Value) -> Result<(), axum::Error> {
    socket.send(frame(STATUS, status.to_string().as_bytes())).await?;
    let close = CloseFrame { code: close_code::NORMAL, reason: "".into() };
    socket.send(Message::Close(Some(close))).await
}

/// One command: its stdin (when asked for, until the client ends it) is its script's input.
async fn once(mut socket: WebSocket, lab: ApiLab, session: Session) -> Result<(), axum::Error> {
    let mut command = session.command.clone();
    if session.stdin && !session.tty {
        // `echo 'ls' | kubectl exec -i POD -- sh`: the shell runs what came in.
        let input = read_until_end(&mut socket).await;
        if command.len() == 1 && !input.is_empty() {
            command = vec![command[0].clone(), "-c".into(), input];
        }
    }
    let Ok((printed, status)) = lab.exec(session.run(command)).await else {
        return Ok(());
    };
    if !printed.is_empty() {
        socket.send(frame(STDOUT, for_terminal(&printed, session.tty).as_bytes())).await?;
    }
    finish(&mut socket, &status).await
}

async fn read_until_end(socket: &mut WebSocket) -> String {
    let mut input = Vec::new();
    while let Some(Ok(message)) = socket.recv().await {
        match message {
            Message::Binary(data) if data.first() == Some(&STDIN) => input.extend_from_slice(&data[1..]),
            Message::Binary(data) if data.first() == Some(&CLOSE) => break,
            Message::Close(_) => break,
            _ => {}
        }
        if input.len() > MAX_LINE {
            break;
        }
    }
    String::from_utf8_lossy(&input).into_owned()
}

/// busybox's interactive shell: a prompt, keys echoed with a terminal, each line run in the
/// pod; `exit` or Ctrl-D on an empty line ends it.
async fn shell(mut socket: WebSocket, lab: ApiLab, session: Session) -> Result<(), axum::Error> {
    let prompt = "/ # ";
    let tty = session.tty;
    if tty {
        socket.send(frame(STDOUT, prompt.as_bytes())).await?;
    }
    let mut line = String::new();
    let mut last_status = serde_json::json!({"metadata": {}, "status": "Success"});
    while let Some(Ok(message)) = socket.recv().await {
        let data = match message {
            Message::Binary(data) => data,
            Message::Close(_) => break,
            _ => continue,
        };
        match data.first() {
            Some(&STDIN) => {}
            Some(&CLOSE) => break,
            _ => continue,
        }
        let mut echo = String::new();
        for c in String::from_utf8_lossy(&data[1..]).chars() {
            match c {
                '\r' | '\n' => {
                    if tty {
                        echo.push_str("\r\n");
                        socket.send(frame(STDOUT, echo.as_bytes())).await?;
                        echo.clear();
                    }
                    let text = std::mem::take(&mut line);
                    if text.trim() == "exit" {
                        return finish(&mut socket, &last_status).await;
                    }
                    if !text.trim().is_empty() {
                        let argv = vec![session.command[0].clone(), "-c".into(), text];
                        let Ok((printed, status)) = lab.exec(session.run(argv)).await else {
                            return Ok(());
                        };
                        last_status = status;
                        if !printed.is_empty() {
                            socket.send(frame(STDOUT, for_terminal(&printed, tty).as_bytes())).await?;
                        }
                    }
                    if tty {
                        socket.send(frame(STDOUT, prompt.as_bytes())).await?;
                    }
                }
                '\u{4}' if line.is_empty() => return finish(&mut socket, &last_status).await,
                '\u{3}' => {
                    line.clear();
                    if tty {
                        echo.push_str("^C\r\n");
                        echo.push_str(prompt);
                    }
                }
                '\u{7f}' | '\u{8}' if line.pop().is_some() && tty => echo.push_str("\u{8} \u{8}"),
                '\u{7f}' | '\u{8}' => {}
                c if line.len() < MAX_LINE => {
                    line.push(c);
                    if tty {
                        echo.push(c);
                    }
                }
                _ => {}
            }
        }
        if !echo.is_empty() {
            socket.send(frame(STDOUT, echo.as_bytes())).await?;
        }
    }
    finish(&mut socket, &last_status).await
}
