//! HTTP/1.x on a raw connection into a pod (what `kubectl port-forward` carries): a request read
//! from the bytes a client sent — its head, then a `Content-Length` body — and a response
//! written as Go's net/http server writes one (net/http/server.go, `chunkWriter.writeHeader`).

/// The longest request head read (net/http's `DefaultMaxHeaderBytes`, 1 MiB, plus its 4 KiB slack).
pub const MAX_HEAD: usize = (1 << 20) + 4096;
/// The largest request body read; a longer one is answered 413.
pub const MAX_BODY: usize = 8 << 20;

/// One request as the client sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The request target: a path with its query (`/healthz?verbose`).
    pub target: String,
    /// `HTTP/1.0` or `HTTP/1.1`.
    pub version: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// What the front of a connection's bytes holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Read {
    /// More bytes are needed.
    Incomplete,
    /// A whole request and how many bytes it took.
    Request(Request, usize),
    /// Not a request the server reads: the status it answers before it closes the connection.
    Malformed(u16),
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`).
    pub fn keep_alive(&self) -> bool {
        let connection = self.header("connection").unwrap_or_default().to_ascii_lowercase();
        let has = |token: &str| connection.split(',').any(|t| t.trim() == token);
        if self.version == "HTTP/1.0" { has("keep-alive") } else { !has("close") }
    }
}

/// Reads one request from the front of `bytes`.
pub fn read(bytes: &[u8]) -> Read {
    let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
        return if bytes.len() > MAX_HEAD { Read::Malformed(431) } else { Read::Incomplete };
    };
    if end > MAX_HEAD {
        return Read::Malformed(431);
    }
    let Ok(head) = std::str::from_utf8(&bytes[..end]) else { return Read::Malformed(400) };
    let Some((method, target, version, headers)) = parse_head(head) else { return Read::Malformed(400) };
    if headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("transfer-encoding")) {
        // A chunked body is not read here; Go's server would read it.
        return Read::Malformed(501);
    }
    let length = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("content-length")).map(|(_, v)| v.trim());
    let length = match length.map(str::parse::<usize>) {
        None => 0,
        Some(Ok(length)) if length <= MAX_BODY => length,
        Some(Ok(_)) => return Read::Malformed(413),
        Some(Err(_)) => return Read::Malformed(400),
    };
    let start = end + 4;
    if bytes.len() < start + length {
        return Read::Incomplete;
    }
    let body = bytes[start..start + length].to_vec();
    Read::Request(Request { method, target, version, headers, body }, start + length)
}

type Head = (String, String, String, Vec<(String, String)>);

/// The request line and header fields.
fn parse_head(head: &str) -> Option<Head> {
    let mut lines = head.split("\r\n");
    let mut line = lines.next()?.split(' ');
    let (method, target, version) = (line.next()?, line.next()?, line.next()?);
    let known = matches!(version, "HTTP/1.0" | "HTTP/1.1");
    if line.next().is_some() || method.is_empty() || !target.starts_with('/') || !known {
        return None;
    }
    let mut headers = Vec::new();
    for field in lines {
        let (name, value) = field.split_once(':')?;
        if name.is_empty() || name.contains([' ', '\t']) {
            return None;
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Some((method.to_string(), target.to_string(), version.to_string(), headers))
}

/// A response as net/http writes one for a handler that wrote `body`: the status line, `Date`,
/// `Content-Length`, `Content-Type` (and `X-Content-Type-Options` for an error, as
/// `http.Error` sets it); no body for HEAD; `Connection: close` when the connection ends.
pub fn response(status: u16, body: &str, date: &str, (head_only, close): (bool, bool)) -> Vec<u8> {
    let mut text = format!("HTTP/1.1 {status} {}\r\n", status_text(status));
    if status >= 400 {
        text.push_str("X-Content-Type-Options: nosniff\r\n");
    }
    text.push_str(&format!("Date: {date}\r\nContent-Length: {}\r\n", body.len()));
    text.push_str("Content-Type: text/plain; charset=utf-8\r\n");
    if close {
        text.push_str("Connection: close\r\n");
    }
    text.push_str("\r\n");
    if !head_only {
        text.push_str(body);
    }
    text.into_bytes()
}

/// What net/http answers a request it cannot read, just before it closes the connection.
pub fn refusal(status: u16) -> Vec<u8> {
    let text = format!("{status} {}", status_text(status));
    format!("HTTP/1.1 {text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n{text}")
        .into_bytes()
}

/// Go's `http.StatusText`, for the codes the lab's workloads and this reader use.
fn status_text(status: u16) -> String {
    let text = match status {
        413 => "Request Entity Too Large",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        _ => super::wget::reason_phrase(status),
    };
    if text.is_empty() { format!("status code {status}") } else { text.to_string() }
}

/// The lab's time as an HTTP date (`Wed, 01 Jan 2025 00:00:05 GMT`), from its ctime form.
pub fn date(now: crate::sim::time::SimTime) -> String {
    let ctime = now.to_ctime();
    let parts: Vec<&str> = ctime.split_whitespace().collect();
    match parts.as_slice() {
        [weekday, month, day, time, year] => format!("{weekday}, {day:0>2} {month} {year} {time} GMT"),
        _ => ctime,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_read_whole_and_one_at_a_time() {
        let two = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc";
        let Read::Request(first, used) = read(two) else { panic!() };
        assert_eq!((first.method.as_str(), first.target.as_str(), first.header("HOST")), ("GET", "/", Some("x")));
        assert!(first.keep_alive());
        let Read::Request(second, rest) = read(&two[used..]) else { panic!() };
        assert_eq!((second.body.as_slice(), used + rest), (&b"abc"[..], two.len()));
        assert_eq!(read(&two[used..two.len() - 1]), Read::Incomplete);
        assert_eq!(read(b"GET / HTTP/1.1\r\nHost"), Read::Incomplete);
        assert_eq!(read(b"nonsense\r\n\r\n"), Read::Malformed(400));
        assert_eq!(read(b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"), Read::Malformed(400));
        let Read::Request(old, _) = read(b"GET / HTTP/1.0\r\n\r\n") else { panic!() };
        assert!(!old.keep_alive());
    }

    #[test]
    fn responses_read_as_go_writes_them() {
        let date = date(crate::sim::time::SimTime(5_000));
        assert_eq!(date, "Wed, 01 Jan 2025 00:00:05 GMT");
        let text = String::from_utf8(response(200, "hi\n", &date, (false, false))).unwrap();
        assert_eq!(
            text,
            "HTTP/1.1 200 OK\r\nDate: Wed, 01 Jan 2025 00:00:05 GMT\r\nContent-Length: 3\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhi\n"
        );
        let text = String::from_utf8(refusal(400)).unwrap();
        assert!(text.starts_with("HTTP/1.1 400 Bad Request\r\n") && text.ends_with("\r\n\r\n400 Bad Request"));
    }
}
