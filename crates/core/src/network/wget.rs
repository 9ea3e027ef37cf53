//! busybox `wget` in a pod: the host resolved by cluster DNS, the connection routed by the
//! client node's kube-proxy (`connection.rs`), the answer from the pod's workload. Progress
//! lines go to stderr, the body to stdout, as busybox 1.37 writes them.

use super::connection::{self, Answer, Client, Route};
use super::dns;
use crate::api::Pod;
use crate::shell::Io;
use crate::sim::Sim;

const USAGE: &str = "BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n\nRetrieve files via HTTP or FTP\n";

/// The flags lessons use: `-q`, `-O FILE|-`, `-T SEC`, `-S`, `--spider`.
struct Request {
    quiet: bool,
    to_stdout: bool,
    spider: bool,
    headers: bool,
    url: String,
    /// `-T SEC`: how long it waits for an answer (busybox's default: 900 s).
    timeout_seconds: u64,
}

/// Runs `wget ARGS…` in `from`; a file it saves goes to `io.files` for the shell to write.
pub fn wget(sim: &mut Sim, from: &Pod, args: &[String], io: &mut Io) -> i32 {
    let Some(request) = parse(args) else {
        io.err(USAGE);
        return 1;
    };
    let Some((host, port, path)) = split_url(&request.url) else {
        io.err(format!("wget: not an http or ftp url: {}\n", request.url));
        return 1;
    };
    let ip = match address(sim, from, &host) {
        Some(ip) => ip,
        None => {
            io.err(format!("wget: bad address '{host}'\n"));
            return 1;
        }
    };
    if !request.quiet {
        let shown = if host == "localhost" { "127.0.0.1" } else { ip.as_str() };
        io.err(format!("Connecting to {host} ({shown}:{port})\n"));
    }
    let (backend, backend_port) = match connection::connect(sim, Client::Pod(from), &ip, port) {
        Route::Backend { ip, port, .. } => (ip, port),
        Route::Refused => return fail(io, &format!("wget: can't connect to remote host ({ip}): Connection refused\n")),
        Route::TimedOut => return fail(io, "wget: download timed out\n"),
        Route::Unreachable => {
            return fail(io, &format!("wget: can't connect to remote host ({ip}): Host is unreachable\n"));
        }
    };
    match connection::request(sim, &backend, backend_port, &path) {
        Answer::Refused => fail(io, &format!("wget: can't connect to remote host ({ip}): Connection refused\n")),
        Answer::Unreachable => fail(io, &format!("wget: can't connect to remote host ({ip}): Host is unreachable\n")),
        Answer::Killed => fail(io, "wget: error getting response\n"),
        Answer::Http { latency, .. } if latency.as_secs() >= request.timeout_seconds => {
            fail(io, "wget: download timed out\n")
        }
        Answer::Http { status, body, .. } => {
            if request.headers {
                io.err(format!("  HTTP/1.1 {status} {}\n  Content-Type: text/plain; charset=utf-8\n  Content-Length: {}\n  Connection: close\n  \n", reason_phrase(status), body.len()));
            }
            if !(200..300).contains(&status) {
                return fail(
                    io,
                    &format!("wget: server returned error: HTTP/1.1 {status} {}\n", reason_phrase(status)),
                );
            }
            if request.spider {
                return 0;
            }
            let file = if request.to_stdout { None } else { Some(file_name(&path)) };
            if !request.quiet {
                io.err(file.as_ref().map_or("writing to stdout\n".into(), |f| format!("saving to '{f}'\n")));
            }
            match file.clone() {
                None => io.out(&body),
                Some(file) => io.files.push((format!("/{file}"), body)),
            }
            if !request.quiet {
                io.err(file.map_or("written to stdout\n".into(), |f| format!("'{f}' saved\n")));
            }
            0
        }
    }
}

fn fail(io: &mut Io, message: &str) -> i32 {
    io.err(message);
    1
}

/// The address a host name means to `from`: itself, an IP as written, or what DNS answers
/// (the first address; a CNAME to a name outside the cluster does not resolve in the lab).
pub fn address(sim: &Sim, from: &Pod, host: &str) -> Option<String> {
    if host == "localhost" || host == "127.0.0.1" {
        return from.status.pod_ip.clone();
    }
    if host.parse::<std::net::Ipv4Addr>().is_ok() {
        return Some(host.to_string());
    }
    match dns::resolve(sim.store(), &from.metadata.namespace, host) {
        dns::Answer::Addresses(_, ips) => ips.into_iter().next(),
        dns::Answer::Alias(_, target) => {
            match dns::resolve(sim.store(), &from.metadata.namespace, &format!("{target}.")) {
                dns::Answer::Addresses(_, ips) => ips.into_iter().next(),
                _ => None,
            }
        }
        dns::Answer::NotFound | dns::Answer::NoServer => None,
    }
}

fn parse(args: &[String]) -> Option<Request> {
    let mut request = Request {
        quiet: false,
        to_stdout: false,
        spider: false,
        headers: false,
        url: String::new(),
        timeout_seconds: 900,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        match arg.as_str() {
            "--spider" => request.spider = true,
            "-q" | "--quiet" => request.quiet = true,
            _ if arg.starts_with('-') && arg.len() > 1 => {
                let cluster = &arg[1..];
                for (at, c) in cluster.char_indices() {
                    match c {
                        'q' => request.quiet = true,
                        'S' => request.headers = true,
                        'O' | 'T' | 'o' | 'P' | 'U' | 'Y' => {
                            let rest = &cluster[at + 1..];
                            let value = if rest.is_empty() {
                                args.get(i).inspect(|_| i += 1)?.clone()
                            } else {
                                rest.to_string()
                            };
                            if c == 'O' {
                                request.to_stdout = value == "-";
                            }
                            if c == 'T' {
                                request.timeout_seconds = value.parse().unwrap_or(request.timeout_seconds);
                            }
                            break;
                        }
                        _ => {}
                    }
                }
            }
            _ if request.url.is_empty() => request.url = arg.clone(),
            _ => {}
        }
    }
    (!request.url.is_empty()).then_some(request)
}

/// `http://host[:port][/path]` → (host, port, path).
fn split_url(url: &str) -> Option<(String, i32, String)> {
    let rest = url.strip_prefix("http://").or_else(|| (!url.contains("://")).then_some(url))?;
    let (authority, path) = match rest.find(['/', '?']) {
        Some(at) => (&rest[..at], rest[at..].to_string()),
        None => (rest, "/".to_string()),
    };
    let path = if path.starts_with('?') { format!("/{path}") } else { path };
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, port.parse().ok()?),
        None => (authority, 80),
    };
    (!host.is_empty()).then(|| (host.to_string(), port, path))
}

/// The file busybox saves to without `-O`: the path's last segment, else `index.html`.
fn file_name(path: &str) -> String {
    let path = path.split('?').next().unwrap_or("");
    let last = path.rsplit('/').next().unwrap_or("");
    if last.is_empty() { "index.html".into() } else { last.to_string() }
}

pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        508 => "Loop Detected",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_flags_parse_as_busybox_reads_them() {
        assert_eq!(split_url("http://hello"), Some(("hello".into(), 80, "/".into())));
        assert_eq!(split_url("10.244.1.2:8080/hog?mb=100"), Some(("10.244.1.2".into(), 8080, "/hog?mb=100".into())));
        assert_eq!(split_url("ftp://x"), None);
        let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let request = parse(&words("-qO- http://hello")).unwrap();
        assert!(request.quiet && request.to_stdout && request.url == "http://hello");
        let request = parse(&words("-q -O - -T 2 hello")).unwrap();
        assert!(request.quiet && request.to_stdout && request.url == "hello");
        assert!(parse(&words("-q")).is_none());
    }
}
