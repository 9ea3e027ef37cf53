//! kubelab-agent: a real machine joining a kubelab lab as a node.
//!
//! What it will be: `kubelab-agent --server URL --token T` registers with a lab, heartbeats,
//! reports capacity (CPU and memory from the host; GPUs and MIG instances from NVML), and runs
//! the pods it is assigned as WebAssembly workloads in wasmtime with enforced limits. Until
//! the server side of shared labs exists, it prints what it would report about this machine.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Joins a kubelab lab as a node (not yet connected to a server)
#[derive(Parser, Debug)]
#[command(name = "kubelab-agent", version, about)]
struct Cli {
    /// The kubelab server's URL
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// The lab's join token (read from the environment: a command line is visible to `ps`)
    #[arg(long, env = "KUBELAB_AGENT_TOKEN", hide_env_values = true, value_name = "TOKEN")]
    token: Option<String>,
    /// Read the join token from this file instead
    #[arg(long, value_name = "FILE", conflicts_with = "token")]
    token_file: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.server.is_none() {
        println!("this machine: {} CPUs", available_cpus());
        println!("join a lab with: kubelab-agent --server URL (token in KUBELAB_AGENT_TOKEN or --token-file)");
        return ExitCode::SUCCESS;
    }
    eprintln!("kubelab-agent: joining labs arrives with the server's shared labs; nothing to join yet");
    ExitCode::from(2)
}

fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["kubelab-agent", "--server=http://lab:8080"]).unwrap();
        assert_eq!(cli.server.as_deref(), Some("http://lab:8080"));
    }
}
