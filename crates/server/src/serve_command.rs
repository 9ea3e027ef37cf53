//! `kubelab serve`'s arguments (and their environment variables), and starting the server
//! with logging filtered by `RUST_LOG` (default `info`: one line per request).

use crate::api::Limits;
use crate::api::invites::SignUp;
use crate::http_server::ConnectionBounds;
use crate::{db, serve};
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on
    #[arg(long, env = "KUBELAB_ADDR", default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: SocketAddr,
    /// Database URL: sqlite://FILE or postgres://USER:PASS@HOST/DB (a URL with a password
    /// belongs in DATABASE_URL or --database-file: `ps` shows a command line to everyone)
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, default_value = db::DEFAULT_URL, value_name = "URL")]
    database: String,
    /// Read the database URL from this file instead
    #[arg(long, value_name = "FILE", conflicts_with = "database")]
    database_file: Option<PathBuf>,
    /// The lessons to serve (default: lessons/ when it exists)
    #[arg(long, value_name = "DIR")]
    lessons: Option<PathBuf>,
    /// The built web app
    #[arg(long = "static", default_value = "target/web-bundle", value_name = "DIR")]
    static_dir: PathBuf,
    /// A proxy whose X-Forwarded-For names the client (repeat for several)
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<IpAddr>,
    /// Who may sign up as an instructor: anyone, or those an instructor invites (the first
    /// instructor of an empty database needs no invitation)
    #[arg(long, value_enum, default_value = "open", env = "KUBELAB_SIGNUP")]
    signup: SignUp,
    /// Serve HTTPS with this PEM certificate chain (with --tls-key)
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The PEM private key for --tls-cert
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Where the hosted labs' Kubernetes API listens (TLS with the server's own CA, as kind
    /// makes one); unset, the web app's address with a port the system picks
    #[arg(long, env = "KUBELAB_KUBE_API_ADDR", value_name = "HOST:PORT")]
    kube_api_addr: Option<std::net::SocketAddr>,
}

/// Runs the server; returns the process exit code.
pub fn main(args: ServeArgs) -> i32 {
    let database_url = match database_url(&args) {
        Ok(url) => url,
        Err(message) => {
            eprintln!("kubelab serve: {message}");
            return 2;
        }
    };
    init_logging();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kubelab serve: cannot start the runtime: {e}");
            return 1;
        }
    };
    let lessons_dir = args.lessons.or_else(|| Some(PathBuf::from("lessons")).filter(|dir| dir.is_dir()));
    let config = serve::ServeConfig {
        addr: args.addr,
        static_dir: args.static_dir,
        database_url,
        lessons_dir,
        bounds: ConnectionBounds::default(),
        limits: Limits { trusted_proxies: args.trusted_proxy, signup: args.signup, ..Limits::default() },
        tls: args.tls_cert.zip(args.tls_key),
        kube_api_addr: args.kube_api_addr,
    };
    match runtime.block_on(serve::run(config)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kubelab serve: {e}");
            1
        }
    }
}

fn database_url(args: &ServeArgs) -> Result<String, String> {
    if let Some(path) = &args.database_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --database-file {}: {e}", path.display()))?;
        return Ok(text.trim().to_string());
    }
    // A URL that `redact` changes holds a password; warn only when it came from argv.
    let from_argv = std::env::var("DATABASE_URL").ok().as_deref() != Some(args.database.as_str());
    if from_argv && db::redact(&args.database) != args.database {
        eprintln!(
            "kubelab serve: warning: --database carries a password, which `ps` shows to every user of this machine; use DATABASE_URL or --database-file"
        );
    }
    Ok(args.database.clone())
}

/// `RUST_LOG` filters as in every tracing-based server (`RUST_LOG=debug`,
/// `RUST_LOG=kubelab=debug,sqlx=warn`); unset, `info`.
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_target(false).with_env_filter(filter).init();
}
