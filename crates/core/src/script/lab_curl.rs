//! `lab curl [-i] [-k] [-H 'Host: NAME'] URL`: a request from the learner's machine, outside
//! the cluster, with curl's output and errors. Only what is reachable from outside answers: a
//! node's address with a NodePort, a LoadBalancer's external IP, an ingress controller behind
//! either. Cluster names do not resolve out here, so hosts are given with `-H 'Host: …'`.

use crate::kubectl::args::{self, Flag};
use crate::network::connection::{self, Answer, Client, Route};
use crate::sim::Sim;

pub const FLAGS: &[Flag] = &[
    Flag::repeated("header", Some('H'), "Pass a custom header to the server"),
    Flag::switch("include", Some('i'), "Include the response headers in the output"),
    Flag::switch("insecure", Some('k'), "Allow insecure server connections"),
    Flag::switch("silent", Some('s'), "Silent mode"),
];

pub fn curl(sim: &mut Sim, args: &args::Args) -> Result<String, String> {
    let [url] = args.positionals.as_slice() else {
        return Err("curl: try 'curl --help' or 'curl --manual' for more information".into());
    };
    let (https, rest) = match url.split_once("://") {
        Some(("http", rest)) => (false, rest),
        Some(("https", rest)) => (true, rest),
        Some((scheme, _)) => return Err(format!("curl: (1) Protocol \"{scheme}\" not supported")),
        None => (false, url.as_str()),
    };
    let (authority, path) = rest.find('/').map_or((rest, "/"), |at| (&rest[..at], &rest[at..]));
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (
            host,
            port.parse::<i32>().map_err(|_| {
                "curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535".to_string()
            })?,
        ),
        None => (authority, if https { 443 } else { 80 }),
    };
    if host.parse::<std::net::Ipv4Addr>().is_err() {
        return Err(format!("curl: (6) Could not resolve host: {host}"));
    }
    let header_host = args.all("header").iter().find_map(|h| {
        let (name, value) = h.split_once(':')?;
        name.trim().eq_ignore_ascii_case("host").then(|| value.trim().to_string())
    });
    let failed =
        |code: u8, why: &str| Err(format!("curl: ({code}) Failed to connect to {host} port {port} after 0 ms: {why}"));
    let (ip, backend_port) = match connection::connect(sim, Client::Outside, host, port) {
        Route::Backend { ip, port, .. } => (ip, port),
        Route::Refused => return failed(7, "Couldn't connect to server"),
        Route::Unreachable => return failed(7, "No route to host"),
        Route::TimedOut => {
            return Err(format!(
                "curl: (28) Failed to connect to {host} port {port} after 300000 ms: Timeout was reached"
            ));
        }
    };
    if https && !args.switch("insecure") {
        return Err("curl: (60) SSL certificate problem: self-signed certificate\nMore details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the webpage mentioned above.".into());
    }
    let mut headers: Vec<(String, String)> = args
        .all("header")
        .iter()
        .filter_map(|h| h.split_once(':').map(|(n, v)| (n.trim().to_string(), v.trim().to_string())))
        .filter(|(n, _)| !n.eq_ignore_ascii_case("host"))
        .collect();
    headers.push(("Host".to_string(), header_host.unwrap_or_else(|| host.to_string())));
    match connection::request_headers(sim, &ip, backend_port, path, &headers, 0) {
        Answer::Http { status, body, .. } => {
            let mut text = String::new();
            if args.switch("include") {
                text.push_str(&format!(
                    "HTTP/1.1 {status} {}\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: keep-alive\r\n\r\n",
                    crate::network::wget::reason_phrase(status),
                    body.len()
                ));
            }
            text.push_str(&body);
            Ok(text.strip_suffix('\n').unwrap_or(&text).to_string())
        }
        Answer::Refused => failed(7, "Couldn't connect to server"),
        Answer::Unreachable => failed(7, "No route to host"),
        Answer::Killed => Err("curl: (52) Empty reply from server".into()),
    }
}
