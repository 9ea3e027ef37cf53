//! `kubelab sim [--seed N] [--cluster FILE] [--strict] [--trace FILE] SCRIPT|-`: runs a
//! scenario script headless and prints its transcript. Exit 0; 2 for a malformed script line;
//! with `--strict`, 1 at the first command that fails.

use crate::disk_files::DiskFiles;
use kubelab_core::cluster::ClusterSpec;
use kubelab_core::script::sim_run::sim_run;
use std::io::Read;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage: kubelab sim [--seed N] [--cluster FILE] [--strict] [--trace FILE] SCRIPT|-";

#[derive(Debug, Default)]
struct Options {
    seed: u64,
    cluster: Option<PathBuf>,
    strict: bool,
    trace: Option<PathBuf>,
    script: Option<String>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options { seed: 1, ..Default::default() };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i).cloned().ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        match arg {
            "--seed" => options.seed = value()?.parse().map_err(|_| format!("--seed must be a number\n{USAGE}"))?,
            "--cluster" => options.cluster = Some(PathBuf::from(value()?)),
            "--trace" => options.trace = Some(PathBuf::from(value()?)),
            "--strict" => options.strict = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other if other.starts_with("--") => return Err(format!("unknown flag {other}\n{USAGE}")),
            other if options.script.is_none() => options.script = Some(other.to_string()),
            other => return Err(format!("unexpected argument {other}\n{USAGE}")),
        }
        i += 1;
    }
    Ok(options)
}

/// Runs the command; returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    match run(args) {
        Ok(code) => code,
        Err((message, code)) => {
            eprintln!("kubelab sim: {message}");
            code
        }
    }
}

fn run(args: &[String]) -> Result<i32, (String, i32)> {
    let options = parse_options(args).map_err(|m| (m, 2))?;
    let script_arg = options.script.clone().ok_or_else(|| (USAGE.to_string(), 2))?;
    let (text, base_dir) = read_script(&script_arg).map_err(|m| (m, 2))?;
    let cluster = match &options.cluster {
        Some(path) => {
            let yaml = std::fs::read_to_string(path).map_err(|e| (format!("{}: {e}", path.display()), 2))?;
            ClusterSpec::from_yaml(&yaml).map_err(|m| (m, 2))?
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_refuse_unknown_flags() {
        let args: Vec<String> = ["--seed", "7", "--strict", "x.sim"].iter().map(|s| s.to_string()).collect();
        let options = parse_options(&args).unwrap();
        assert_eq!((options.seed, options.strict, options.script.as_deref()), (7, true, Some("x.sim")));
        assert!(parse_options(&["--fast".to_string()]).unwrap_err().starts_with("unknown flag --fast"));
    }
}
