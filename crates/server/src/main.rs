//! `kubelab`: the one binary. `kubelab serve` serves the web app, classes, progress, the live
//! instructor dashboard and hosted labs; `kubelab sim` runs a scenario script headless;
//! `kubelab lessons check` lints the curriculum.

mod api;
mod db;
mod disk_files;
mod hosted_lab;
mod http_server;
mod hub;
mod lesson_library;
mod lessons_command;
mod serve;
mod sim_command;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "kubelab — learn Kubernetes by breaking a simulated cluster

usage:
  kubelab serve [--addr 127.0.0.1:8080] [--database-file FILE | --database URL] [--lessons DIR] [--static DIR]
                                                       serve the web app, classes and labs (KUBELAB_ADDR sets the
                                                       address; DATABASE_URL the database: sqlite://FILE, the
                                                       default sqlite://kubelab.db, or postgres://USER:PASS@HOST/DB;
                                                       a URL with a password belongs in DATABASE_URL or in the file
                                                       --database-file names, not on a command line `ps` shows)
  kubelab sim [--seed N] [--cluster FILE] [--strict] [--trace FILE] SCRIPT|-
                                                       run a scenario script and print its transcript
  kubelab lessons check [DIR]                          lint and replay every lesson in DIR (default lessons/)
  kubelab lessons schema                               print the lesson format's JSON Schema";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("sim") => sim_command::main(&args[1..]),
        Some("lessons") => lessons_command::main(&args[1..]),
        Some("serve") => serve_main(&args[1..]),
        Some("-h" | "--help" | "help") | None => {
            println!("{USAGE}");
            0
        }
        Some(other) => {
            eprintln!("kubelab: unknown command \"{other}\"\n\n{USAGE}");
            2
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

fn serve_main(args: &[String]) -> i32 {
    let mut addr = std::env::var("KUBELAB_ADDR").unwrap_or_else(|_| "127.0.0.1:8080".to_string());
    let mut static_dir = PathBuf::from("target/web-bundle");
    let mut database_url = std::env::var("DATABASE_URL").unwrap_or_else(|_| db::DEFAULT_URL.to_string());
    let mut lessons_dir = Some(PathBuf::from("lessons")).filter(|dir| dir.is_dir());
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--addr", Some(value)) => addr = value.clone(),
            ("--static", Some(value)) => static_dir = PathBuf::from(value),
            ("--database", Some(value)) => {
                // A URL that `redact` changes holds a password.
                if db::redact(value) != *value {
                    eprintln!(
                        "kubelab serve: warning: --database carries a password, which `ps` shows to every user of this machine; use DATABASE_URL or --database-file"
                    );
                }
                database_url = value.clone();
            }
            ("--database-file", Some(path)) => match std::fs::read_to_string(path) {
                Ok(text) => database_url = text.trim().to_string(),
                Err(e) => {
                    eprintln!("kubelab serve: cannot read --database-file {path}: {e}");
                    return 2;
                }
            },
            ("--lessons", Some(value)) => lessons_dir = Some(PathBuf::from(value)),
            (other, _) => {
                eprintln!("kubelab serve: unknown or incomplete flag {other}\n\n{USAGE}");
                return 2;
            }
        }
        i += 2;
    }
    let Ok(addr) = addr.parse::<SocketAddr>() else {
        eprintln!("kubelab serve: invalid address {addr:?} (expected HOST:PORT, e.g. 127.0.0.1:8080)");
        return 2;
    };
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_target(false).init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kubelab serve: cannot start the runtime: {e}");
            return 1;
        }
    };
    let config = serve::ServeConfig {
        addr,
        static_dir,
        database_url,
        lessons_dir,
        bounds: http_server::ConnectionBounds::default(),
        limits: api::Limits::default(),
    };
    match runtime.block_on(serve::run(config)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kubelab serve: {e}");
            1
        }
    }
}
