//! `kubelab sim [--seed N] [--cluster FILE] [--strict] [--trace FILE] SCRIPT|-`: runs a
//! scenario script headless and prints its transcript. Exit 0; 2 for a malformed script line;
//! with `--strict`, 1 at the first command that fails.

use crate::disk_files::DiskFiles;
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::script::sim_run::sim_run;
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// The lab's random seed (same seed, same script: the same transcript)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// The machines, as a cluster YAML file (default: three nodes)
    #[arg(long, value_name = "FILE")]
    cluster: Option<PathBuf>,
    /// Exit 1 at the first command that fails
    #[arg(long)]
    strict: bool,
    /// Write the lab's trace (every object change, one JSON line each) here
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// The script, or - for stdin
    #[arg(value_name = "SCRIPT")]
    script: String,
}

/// Runs the command; returns the process exit code.
pub fn main(args: &SimArgs) -> i32 {
    match run(args) {
        Ok(code) => code,
        Err((message, code)) => {
            eprintln!("kubelab sim: {message}");
            code
        }
    }
}

fn run(options: &SimArgs) -> Result<i32, (String, i32)> {
    let script_arg = &options.script;
    let (text, base_dir) = read_script(script_arg).map_err(|m| (m, 2))?;
    let cluster = match &options.cluster {
        Some(path) => {
            let yaml = std::fs::read_to_string(path).map_err(|e| (format!("{}: {e}", path.display()), 2))?;
            let cluster = ClusterSpec::from_yaml(&yaml).map_err(|m| (m, 2))?;
            for name in &cluster.addons {
                let known = kubelab_core::addons::find(name);
                known.map_err(|m| (format!("invalid cluster file: addons: {}", m.trim_start_matches("error: ")), 2))?;
            }
            cluster
        }
        None => ClusterSpec::default(),
    };
    let files = DiskFiles::new(base_dir);
    let ran = sim_run(options.seed, &cluster, &text, &files, options.strict)
        .map_err(|e| (format!("{script_arg}: {e}"), 2))?;
    print!("{}", ran.transcript);
    if let Some(path) = &options.trace {
        std::fs::write(path, &ran.trace).map_err(|e| (format!("{}: {e}", path.display()), 1))?;
    }
    Ok(ran.exit_code)
}

/// The script's text and the folder its `-f` paths are relative to.
fn read_script(arg: &str) -> Result<(String, PathBuf), String> {
    if arg == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| format!("reading stdin: {e}"))?;
        return Ok((text, PathBuf::from(".")));
    }
    let path = Path::new(arg);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{arg}: {e}"))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok((text, base))
}
