//! The real kubectl 1.36's `port-forward` against `kubelab up`: SPDY/3.1 tunnelled in a
//! WebSocket to the lab, plain HTTP from a local socket to the pod's simulated server and back,
//! through a Deployment and a Service, and kubectl's error for a port nothing listens on.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use support::up::{Up, oracle};

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: hello:v1
        ports:
        - containerPort: 8080
        # Ready once it serves (half a second after it starts), so the rollout waits for that.
        readinessProbe:
          httpGet: {path: /healthz, port: 8080}
          periodSeconds: 1
";

/// A running `kubectl port-forward`: its local port once it printed `Forwarding from …`.
struct Forwarding {
    child: Child,
    port: u16,
    remote: String,
    lines: mpsc::Receiver<String>,
}

impl Forwarding {
    /// `kubectl port-forward ARGS`; with `spdy`, over a plain SPDY upgrade (kubectl's fallback
    /// when a WebSocket upgrade is refused) instead of SPDY tunnelled in a WebSocket.
    fn start(up: &Up, kubectl: &Path, args: &[&str], spdy: bool) -> Forwarding {
        let mut child = Command::new(kubectl)
            .arg("--kubeconfig")
            .arg(&up.kubeconfig)
            .arg("port-forward")
            .args(args)
            .env("HOME", &up.dir)
            .env("KUBECTL_PORT_FORWARD_WEBSOCKETS", if spdy { "false" } else { "true" })
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl starts");
        let (send, lines) = mpsc::channel();
        for stream in
            [Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>, Box::new(child.stderr.take().unwrap())]
        {
            let send = send.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = send.send(line);
                }
            });
        }
        let mut seen = String::new();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let Ok(line) = lines.recv_timeout(Duration::from_millis(200)) else { continue };
            seen.push_str(&line);
            seen.push('\n');
            if let Some(rest) = line.strip_prefix("Forwarding from 127.0.0.1:") {
                let (port, remote) = rest.split_once(" -> ").expect("a port pair");
                return Forwarding { child, port: port.parse().unwrap(), remote: remote.to_string(), lines };
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("kubectl port-forward {args:?} did not start forwarding:\n{seen}");
    }

    /// What kubectl printed from here on, until it exits or `wait` passes, and whether it
    /// exited successfully (`None` while it runs).
    fn rest(mut self, wait: Duration) -> (String, Option<bool>) {
        let deadline = Instant::now() + wait;
        let mut text = String::new();
        while Instant::now() < deadline {
            match self.lines.recv_timeout(Duration::from_millis(100)) {
                Ok(line) => text.push_str(&(line + "\n")),
                // Both pipes closed: kubectl has exited.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
        let status = match self.child.try_wait().unwrap() {
            Some(status) => Some(status.success()),
            None if Instant::now() >= deadline => None,
            None => self.child.wait().ok().map(|s| s.success()),
        };
        (text, status)
    }
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `requests` on one connection and reads until the server closes it.
fn exchange(port: u16, requests: &str) -> String {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).expect("the forwarded port accepts");
    socket.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    socket.write_all(requests.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

const GET: &str = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

/// The status line and body of one response.
fn status_and_body(response: &str) -> (&str, &str) {
    let status = response.split("\r\n").next().unwrap_or_default();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, body)
}

#[test]
fn kubectl_port_forward_reaches_the_pods_server() {
    let Some(kubectl) = oracle() else { return };
    let up = Up::start("port-forward");
    let (applied, ok) = up.kubectl(&kubectl, "apply -f -", Some(DEPLOYMENT));
    assert!(ok, "{applied}");
    let (rolled, ok) = up.kubectl(&kubectl, "rollout status deployment/web --timeout=60s", None);
    assert!(ok, "{rolled}");
    let (pod, _) = up.kubectl(&kubectl, "get pods -l app=web -o jsonpath={.items[0].metadata.name}", None);

    let forward = Forwarding::start(&up, &kubectl, &["deploy/web", "0:8080"], false);
    assert_eq!(forward.remote, "8080");
    for _ in 0..2 {
        let response = exchange(forward.port, GET);

        let (status, body) = status_and_body(&response);
        assert_eq!(status, "HTTP/1.1 200 OK", "{response}");
        assert_eq!(body, format!("hello from {pod} (v1)\n"), "{response}");
        assert!(response.contains("\r\nContent-Type: text/plain; charset=utf-8\r\n"), "{response}");
    }
    // Two requests on one kept-alive connection, the second ending it.
    let both = exchange(forward.port, &format!("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n{GET}"));
    assert_eq!(both.matches("HTTP/1.1 200 OK\r\n").count(), 2, "{both}");
    let (printed, exited) = forward.rest(Duration::from_millis(300));
    assert_eq!(exited, None, "kubectl keeps forwarding:\n{printed}");
    assert!(printed.contains("Handling connection for "), "{printed}");

    // A Service: kubectl picks one of its pods and maps port 80 to the target port. This one
    // speaks plain SPDY.
    let (exposed, ok) = up.kubectl(&kubectl, "expose deployment web --port=80 --target-port=8080", None);
    assert!(ok, "{exposed}");
    let forward = Forwarding::start(&up, &kubectl, &["svc/web", "0:80"], true);
    assert_eq!(forward.remote, "8080");
    let response = exchange(forward.port, GET);
    assert_eq!(status_and_body(&response), ("HTTP/1.1 200 OK", format!("hello from {pod} (v1)\n").as_str()));
    drop(forward);

    // Nothing listens on 81: the connection closes, kubectl prints the kubelet's error and stops.
    let forward = Forwarding::start(&up, &kubectl, &[&format!("pod/{pod}"), "0:81"], false);
    assert_eq!(exchange(forward.port, GET), "");
    let (printed, exited) = forward.rest(Duration::from_secs(20));
    assert_eq!(exited, Some(false), "kubectl stops:\n{printed}");
    assert!(printed.contains("error forwarding port 81 to pod "), "{printed}");
    assert!(
        printed.contains("failed to connect to localhost:81 inside namespace")
            && printed.contains("IPv4: dial tcp4 127.0.0.1:81: connect: connection refused"),
        "{printed}"
    );
    assert!(printed.ends_with("error: lost connection to pod\n"), "{printed}");
}
