//! `kubelab up` for the tests that drive a lab with real clients: the lab on a free loopback
//! port, its kubeconfig in a fresh folder (which is also the clients' HOME, so their caches
//! start empty), and the oracles `make setup` installs under target/oracle.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The Python next to the oracle kubectl (its venv holds the `kubernetes` client).
pub fn oracle_python() -> Option<PathBuf> {
    oracle().map(|kubectl| kubectl.with_file_name("python"))
}

pub fn oracle() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/oracle/kubectl-1.36/bin/kubectl");
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("KUBELAB_REQUIRE_ORACLE").is_none(), "kubectl 1.36 is not installed: run make setup");
    eprintln!("skipped: kubectl 1.36 is not installed (make setup installs it)");
    None
}

/// Two replicas of `hello:v1`, the Deployment the real-client tests apply.
pub const HELLO_DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: hello:v1
";

/// Runs kubectl with a kubeconfig (its folder the HOME, so caches start empty), `stdin` fed to
/// it: stdout then stderr, and whether it succeeded.
pub fn kubectl_with(kubectl: &Path, config: &Path, args: &str, stdin: Option<&str>) -> (String, bool) {
    let mut command = Command::new(kubectl);
    command.arg("--kubeconfig").arg(config).args(split(args));
    let home = config.parent().unwrap_or(Path::new("."));
    command.env("HOME", home).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr);
    (text, output.status.success())
}

/// `kubelab up` on a free loopback port, its kubeconfig in a fresh directory.
pub struct Up {
    child: Child,
    pub kubeconfig: PathBuf,
    pub dir: PathBuf,
}

impl Up {
    pub fn start(name: &str) -> Up {
        Up::start_with(name, &[])
    }

    /// As `start`, with more `kubelab up` flags.
    pub fn start_with(name: &str, flags: &[&str]) -> Up {
        let dir = std::env::temp_dir().join(format!("kubelab-up-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let kubeconfig = dir.join("config");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubelab"))
            .args(["up", "--name", name, "--kubeconfig"])
            .arg(&kubeconfig)
            .args(flags)
            .env("XDG_STATE_HOME", &dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kubelab up starts");
        // The first line on stdout comes once the API listens and the kubeconfig is written.
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.contains("kubectl cluster-info --kubeconfig"), "{line:?}");
        Up { child, kubeconfig, dir }
    }

    pub fn kubectl(&self, kubectl: &Path, args: &str, stdin: Option<&str>) -> (String, bool) {
        self.kubectl_with(&self.kubeconfig, kubectl, args, stdin)
    }

    /// As `kubectl`, with another kubeconfig (another user's token).
    pub fn kubectl_with(&self, config: &Path, kubectl: &Path, args: &str, stdin: Option<&str>) -> (String, bool) {
        kubectl_with(kubectl, config, args, stdin)
    }
}

impl Drop for Up {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Words split at spaces, single quotes keeping a word whole.
pub fn split(args: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in args.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Calls the lab's own endpoints (`/kubelab/…`) as its owner, with the kubeconfig's server,
/// CA and token (Python's urllib: the test needs no HTTPS client of its own).
const OWNER_CALL: &str = r#"
import base64, json, ssl, sys, tempfile, urllib.request
config, method, path, body = sys.argv[1:5]
text = open(config).read()
def field(name):
    return next(l.split(": ", 1)[1].strip() for l in text.splitlines() if l.strip().startswith(name + ":"))
ca = tempfile.NamedTemporaryFile(suffix=".pem", delete=False)
ca.write(base64.b64decode(field("certificate-authority-data"))); ca.close()
request = urllib.request.Request(field("server") + path, data=body.encode() if body else None, method=method)
request.add_header("Authorization", "Bearer " + field("token"))
with urllib.request.urlopen(request, context=ssl.create_default_context(cafile=ca.name)) as response:
    sys.stdout.write(response.read().decode())
"#;

impl Up {
    /// A kubeconfig for a new token of `user` with `role` (`viewer` or `owner`), issued by the
    /// owner through `/kubelab/tokens`: its path and the token's id.
    pub fn kubeconfig_for(&self, user: &str, role: &str) -> (PathBuf, String) {
        self.kubeconfig_issued(user, &format!(r#"{{"user":"{user}","role":"{role}"}}"#))
    }

    /// A kubeconfig for the token `/kubelab/tokens` issues for `request` (its JSON body).
    pub fn kubeconfig_issued(&self, user: &str, request: &str) -> (PathBuf, String) {
        let issued = self.owner_call("POST", "/kubelab/tokens", request);
        let issued: serde_json::Value = serde_json::from_str(&issued).unwrap();
        let owner = std::fs::read_to_string(&self.kubeconfig).unwrap();
        let token = |text: &str| text.lines().find_map(|l| l.trim().strip_prefix("token: ")).unwrap().to_string();
        let config = owner.replace(&token(&owner), issued["token"].as_str().unwrap());
        let path = self.dir.join(format!("{user}.config"));
        std::fs::write(&path, config).unwrap();
        (path, issued["id"].as_str().unwrap().to_string())
    }

    /// `method path` on the lab as its owner; the response body.
    pub fn owner_call(&self, method: &str, path: &str, body: &str) -> String {
        let python = oracle_python().expect("the oracle's python");
        let output = Command::new(python)
            .args(["-c", OWNER_CALL])
            .arg(&self.kubeconfig)
            .args([method, path, body])
            .output()
            .expect("python runs");
        assert!(output.status.success(), "{method} {path}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}
