//! What every WebSocket of the API shares: sending with a deadline (a client that stops reading
//! is dropped, not buffered for), and closing with a code and a reason the browser can show.

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use std::time::Duration;

/// How long one send may wait on a client before it counts as too slow.
pub const SEND_DEADLINE: Duration = Duration::from_secs(5);

pub enum Gone {
    /// The client went away or the send failed: nothing more to say to it.
    Closed,
    /// The client stopped reading for `SEND_DEADLINE`.
    TooSlow,
}

pub async fn send_text(socket: &mut WebSocket, text: String) -> Result<(), Gone> {
    match tokio::time::timeout(SEND_DEADLINE, socket.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(_)) => Err(Gone::Closed),
        Err(_) => Err(Gone::TooSlow),
    }
}

/// Closes with a code and a reason; best effort (the peer may already be gone).
pub async fn close(mut socket: WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from_static(reason) };
    let _ = tokio::time::timeout(SEND_DEADLINE, socket.send(Message::Close(Some(frame)))).await;
}

/// How a socket ended, as the close frame that tells the client.
pub async fn finish(socket: WebSocket, ended: Ended) {
    match ended {
        Ended::ClientLeft => {}
        Ended::Shutdown => close(socket, close_code::AWAY, "server shutting down").await,
        // 1009: the client cannot take what it is sent as fast as it is sent.
        Ended::TooSlow => close(socket, close_code::SIZE, "too slow: messages were not read in time").await,
        Ended::Closed(code, reason) => close(socket, code, reason).await,
    }
}

pub enum Ended {
    ClientLeft,
    Shutdown,
    TooSlow,
    Closed(u16, &'static str),
}

impl From<Gone> for Ended {
    fn from(gone: Gone) -> Ended {
        match gone {
            Gone::Closed => Ended::ClientLeft,
            Gone::TooSlow => Ended::TooSlow,
        }
    }
}

/// True when the message means the client is leaving.
pub fn is_goodbye(message: Option<Result<Message, axum::Error>>) -> bool {
    matches!(message, None | Some(Err(_)) | Some(Ok(Message::Close(_))))
}

/// The largest message a client may send (a hosted lab's script is the biggest).
const MAX_INCOMING: usize = 128 * 1024;
/// Buffer sizes per socket: most messages are small, and a thousand learners each holding
/// the library's default 128 KiB read buffer would cost 125 MiB.
const BUFFER: usize = 4 * 1024;
/// The most one socket may have unsent: a big class's dashboard is a few hundred KiB.
/// (A client that stops reading is dropped by `SEND_DEADLINE`, not by this.)
const MAX_UNSENT: usize = 8 * 1024 * 1024;

/// The upgrade, taken after the handler's own checks so a refusal says who may connect
/// rather than how; a plain HTTP request gets 426 Upgrade Required, and a page of another site
/// 403 (`check_origin`).
pub fn upgrade(
    upgrade: Result<axum::extract::ws::WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
    headers: &axum::http::HeaderMap,
) -> Result<axum::extract::ws::WebSocketUpgrade, super::ApiError> {
    check_origin(headers)?;
    let upgrade = upgrade.map_err(|rejection| {
        super::ApiError::Other(
            axum::http::StatusCode::UPGRADE_REQUIRED,
            format!("this endpoint is a WebSocket: {}", rejection.body_text()),
        )
    })?;
    Ok(upgrade
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .max_write_buffer_size(MAX_UNSENT)
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING))
}

/// Cross-site WebSocket hijacking: a browser sends the page's Origin with every upgrade, and
/// the socket carries the learner's cookie whatever page opened it, so only this server's own
/// pages may (the Origin's host is the Host the request came to, or the one a proxy forwards).
/// Clients that are not browsers send no Origin and are let through.
pub fn check_origin(headers: &axum::http::HeaderMap) -> Result<(), super::ApiError> {
    use axum::http::header::{HOST, ORIGIN};
    let Some(origin) = headers.get(ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or("");
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest.trim_end_matches('/'));
    let served_as = [headers.get("x-forwarded-host"), headers.get(HOST)];
    let same_site =
        served_as.iter().flatten().filter_map(|h| h.to_str().ok()).any(|h| h.eq_ignore_ascii_case(origin_host));
    if same_site && !origin_host.is_empty() {
        return Ok(());
    }
    Err(super::ApiError::Forbidden(format!(
        "WebSockets open only from this server's own pages; this one came from {origin:?}"
    )))
}
