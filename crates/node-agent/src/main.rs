//! kubelab-agent: a real machine joining a kubelab lab as a node.
//!
//! What it will be: `kubelab-agent --server URL --token T` registers with a lab, heartbeats,
//! reports capacity (CPU and memory from the host; GPUs and MIG instances from NVML), and runs
//! the pods it is assigned as WebAssembly workloads in wasmtime with enforced limits. Until
//! the server side of shared labs exists, it prints what it would report about this machine.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") || args.is_empty() {
        println!("kubelab-agent: joins a kubelab lab as a node (not yet connected to a server).");
        println!("usage: kubelab-agent --server URL --token TOKEN");
        println!("this machine: {} CPUs", available_cpus());
        return ExitCode::SUCCESS;
    }
    eprintln!("kubelab-agent: joining labs arrives with the server's shared labs; nothing to join yet");
    ExitCode::from(2)
}

fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
