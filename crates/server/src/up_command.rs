//! `kubelab up` and `kubelab down`: a local lab whose Kubernetes API listens on loopback, and a
//! kubeconfig for it written the way kind writes one (a context named for the lab). The
//! kubeconfig goes to its own file unless `--merge` asks for `$KUBECONFIG` or `~/.kube/config`;
//! `kubelab down` removes what `up` wrote. The token comes from the OS's randomness.

use crate::http_server::{self, ConnectionBounds};
use crate::kube_api::lab::{ApiLab, Clock};
use crate::kube_api::tokens::{Role, TokenLimits, Tokens};
use crate::kube_api::{ServedLab, certificates};
use clap::Args;
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::store::UserInfo;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct UpArgs {
    /// The lab's name (the kubeconfig's context is kubelab-NAME)
    #[arg(long, default_value = "kubelab")]
    name: String,
    /// Where the API listens (port 0: any free port)
    #[arg(long, default_value = "127.0.0.1:0", value_name = "HOST:PORT")]
    addr: SocketAddr,
    /// Write the kubeconfig here (default: NAME.kubeconfig in kubelab's state directory)
    #[arg(long, value_name = "FILE")]
    kubeconfig: Option<PathBuf>,
    /// Merge the context into $KUBECONFIG (or ~/.kube/config) and make it current
    #[arg(long, conflicts_with = "kubeconfig")]
    merge: bool,
    /// The simulation's seed
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start with the clock paused (time passes only when stepped: POST /kubelab/clock)
    #[arg(long)]
    paused: bool,
    /// Run as `kubelab sim` does: from the simulator's epoch, time passing only at a `sleep`
    /// (POST /kubelab/run), a step, or while a client waits on a watch
    #[arg(long, conflicts_with = "paused")]
    scripted: bool,
}

#[derive(Args, Debug)]
pub struct DownArgs {
    /// The lab's name
    #[arg(long, default_value = "kubelab")]
    name: String,
}

/// kubelab's state directory: `$XDG_STATE_HOME/kubelab`, or `~/.local/state/kubelab`.
fn state_dir() -> PathBuf {
    let base = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from).unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("."));
        home.join(".local/state")
    });
    base.join("kubelab")
}

/// Where `--merge` writes: the first file of `$KUBECONFIG`, or `~/.kube/config`.
fn merged_kubeconfig() -> PathBuf {
    match std::env::var("KUBECONFIG").ok().and_then(|v| v.split(':').find(|p| !p.is_empty()).map(PathBuf::from)) {
        Some(path) => path,
        None => std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default().join(".kube/config"),
    }
}

pub fn up(args: UpArgs) -> i32 {
    let started = Instant::now();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("kubelab up: cannot start the runtime: {e}");
            return 1;
        }
    };
    eprintln!("Creating lab {:?} ...", args.name);
    let clock = match (args.paused, args.scripted) {
        (_, true) => Clock::Scripted,
        (true, false) => Clock::Paused,
        _ => Clock::Running(1.0),
    };
    let lab = match ApiLab::start(args.seed, &ClusterSpec::default(), clock) {
        Ok(lab) => lab,
        Err(e) => {
            eprintln!("kubelab up: cannot start the lab: {e}");
            return 1;
        }
    };
    let tokens = Tokens::new(TokenLimits::default());
    let (token, _) = tokens.issue(&UserInfo::admin().name, Role::Owner);
    let served = ServedLab { lab, tokens: Arc::new(tokens), agents: Arc::default() };
    let listener = match runtime.block_on(tokio::net::TcpListener::bind(args.addr)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("kubelab up: cannot listen on {}: {e}", args.addr);
            return 1;
        }
    };
    let Ok(addr) = listener.local_addr() else { return 1 };
    let context = format!("kubelab-{}", args.name);
    let (path, merged) = match &args.kubeconfig {
        Some(path) => (path.clone(), false),
        None if args.merge => (merged_kubeconfig(), true),
        None => (state_dir().join(format!("{}.kubeconfig", args.name)), false),
    };
    let tls = match certificates::generate(addr.ip()) {
        Ok(tls) => tls,
        Err(e) => {
            eprintln!("kubelab up: {e}");
            return 1;
        }
    };
    let server = format!("https://{addr}");
    if let Err(e) = kubeconfig::write(&path, &context, (&server, &tls.ca_pem), &token) {
        eprintln!("kubelab up: cannot write the kubeconfig {}: {e}", path.display());
        return 1;
    }
    let _ = std::fs::create_dir_all(state_dir());
    let record = format!("{}\n{}\n{}\n", std::process::id(), path.display(), context);
    let _ = std::fs::write(state_dir().join(format!("{}.up", args.name)), record);
    eprintln!(" ✓ Control plane ready ({} ms)", started.elapsed().as_millis());
    eprintln!("Set kubectl context to {context:?}");
    eprintln!("You can now use your lab with:\n");
    if merged {
        println!("kubectl cluster-info --context {context}");
    } else {
        println!("kubectl cluster-info --kubeconfig {}", path.display());
    }
    eprintln!("\nThe API listens on {server}; Ctrl-C stops the lab (kubelab down removes its kubeconfig).");
    let app = served.router();
    let stop = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    runtime.block_on(http_server::serve(listener, app, (ConnectionBounds::default(), Some(tls.acceptor)), stop));
    0
}

pub fn down(args: DownArgs) -> i32 {
    let record_path = state_dir().join(format!("{}.up", args.name));
    let Ok(record) = std::fs::read_to_string(&record_path) else {
        eprintln!("kubelab down: no lab named {:?} is up", args.name);
        return 1;
    };
    let mut lines = record.lines();
    let (pid, path, context) = (lines.next().unwrap_or(""), lines.next().unwrap_or(""), lines.next().unwrap_or(""));
    if let Ok(pid) = pid.parse::<u32>() {
        // The lab's process stops on SIGTERM; one that is already gone is not an error.
        let _ = std::process::Command::new("kill").arg(pid.to_string()).status();
    }
    if let Err(e) = kubeconfig::remove(Path::new(path), context) {
        eprintln!("kubelab down: cannot update {path}: {e}");
    }
    let _ = std::fs::remove_file(&record_path);
    eprintln!("Deleted lab {:?}", args.name);
    0
}

/// Kubeconfig files, as clientcmd reads them.
pub mod kubeconfig {
    use serde_yaml::{Mapping, Value};
    use std::path::Path;

    fn named(name: &str, key: &str, inner: Value) -> Value {
        let mut entry = Mapping::new();
        entry.insert("name".into(), name.into());
        entry.insert(key.into(), inner);
        Value::Mapping(entry)
    }

    fn read(path: &Path) -> std::io::Result<Mapping> {
        match std::fs::read_to_string(path) {
            Ok(text) if !text.trim().is_empty() => serde_yaml::from_str(&text)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string())),
            Ok(_) => Ok(Mapping::new()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Mapping::new()),
            Err(e) => Err(e),
        }
    }

    /// Replaces the entry called `name` in the list under `key`, or adds it.
    fn upsert(config: &mut Mapping, key: &str, name: &str, entry: Value) {
        let list = config.entry(key.into()).or_insert_with(|| Value::Sequence(Vec::new()));
        if !list.is_sequence() {
            *list = Value::Sequence(Vec::new());
        }
        let Value::Sequence(items) = list else { return };
        items.retain(|item| item.get("name").and_then(Value::as_str) != Some(name));
        items.push(entry);
    }

    /// Writes (or merges) the lab's cluster, user and context, and makes the context current.
    pub fn write(path: &Path, context: &str, (server, ca_pem): (&str, &str), token: &str) -> std::io::Result<()> {
        let mut config = read(path)?;
        add(&mut config, context, (server, ca_pem), token);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_yaml::to_string(&config).map_err(|e| std::io::Error::other(e.to_string()))?;
        write_private(path, &text)
    }

    /// A kubeconfig with only this lab in it (a download from a hosted lab's page).
    pub fn document(context: &str, (server, ca_pem): (&str, &str), token: &str) -> String {
        let mut config = Mapping::new();
        add(&mut config, context, (server, ca_pem), token);
        serde_yaml::to_string(&config).unwrap_or_default()
    }

    /// The lab's cluster, user and context in `config`, the context made current.
    fn add(config: &mut Mapping, context: &str, (server, ca_pem): (&str, &str), token: &str) {
        use base64::Engine;
        config.insert("apiVersion".into(), "v1".into());
        config.insert("kind".into(), "Config".into());
        let mut cluster = Mapping::new();
        let ca = base64::engine::general_purpose::STANDARD.encode(ca_pem);
        cluster.insert("certificate-authority-data".into(), ca.into());
        cluster.insert("server".into(), server.into());
        upsert(config, "clusters", context, named(context, "cluster", Value::Mapping(cluster)));
        let mut user = Mapping::new();
        user.insert("token".into(), token.into());
        upsert(config, "users", context, named(context, "user", Value::Mapping(user)));
        let mut ctx = Mapping::new();
        ctx.insert("cluster".into(), context.into());
        ctx.insert("user".into(), context.into());
        upsert(config, "contexts", context, named(context, "context", Value::Mapping(ctx)));
        config.insert("current-context".into(), context.into());
    }

    /// A kubeconfig holds a credential: only its owner may read it.
    fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
        use std::io::Write;
        #[cfg(unix)]
        use std::os::unix::fs::OpenOptionsExt;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        options.mode(0o600);
        options.open(path)?.write_all(text.as_bytes())
    }

    /// Takes the lab's entries out again; a file left with nothing else is removed.
    pub fn remove(path: &Path, context: &str) -> std::io::Result<()> {
        let mut config = read(path)?;
        for key in ["clusters", "users", "contexts"] {
            if let Some(Value::Sequence(items)) = config.get_mut(key) {
                items.retain(|item| item.get("name").and_then(Value::as_str) != Some(context));
            }
        }
        if config.get("current-context").and_then(Value::as_str) == Some(context) {
            config.insert("current-context".into(), "".into());
        }
        let empty = ["clusters", "users", "contexts"]
            .iter()
            .all(|k| config.get(*k).and_then(Value::as_sequence).is_none_or(Vec::is_empty));
        if empty {
            return match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        let text = serde_yaml::to_string(&config).map_err(|e| std::io::Error::other(e.to_string()))?;
        write_private(path, &text)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_merged_context_leaves_the_others_and_goes_again() {
            let dir = std::env::temp_dir().join(format!("kubelab-kubeconfig-{}", std::process::id()));
            let path = dir.join("config");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, "apiVersion: v1\nkind: Config\nclusters:\n- name: kind-kind\n  cluster: {server: 'https://127.0.0.1:1'}\ncurrent-context: kind-kind\n").unwrap();
            write(&path, "kubelab-x", ("https://127.0.0.1:2", "PEM"), "t0k").unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("kind-kind") && text.contains("current-context: kubelab-x"), "{text}");
            remove(&path, "kubelab-x").unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("kind-kind") && !text.contains("kubelab-x"), "{text}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
