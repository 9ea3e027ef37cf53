//! kubelab-agent: a real machine joining a kubelab lab as a node. It trades the lab's join token
//! for a node token, registers the Node (capacity from the host, GPUs and MIG devices from NVML
//! or a file), renews its Lease, and runs the pods bound to it through the container runtime.

use clap::Parser;
use kubelab_node_agent::agent;
use kubelab_node_agent::cli::Cli;
use kubelab_node_agent::wasm_runtime::WasmRuntime;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.server.is_none() {
        let machine = kubelab_node_agent::host::MachineInfo::read();
        println!("this machine: {} CPUs, {} MiB of memory", machine.cpus, machine.memory_bytes >> 20);
        println!(
            "join a lab with: kubelab-agent --server URL --certificate-authority CA.pem (token in KUBELAB_AGENT_TOKEN or --token-file)"
        );
        return ExitCode::SUCCESS;
    }
    let config = match cli.config() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("kubelab-agent: {e}");
            return ExitCode::from(2);
        }
    };
    let containers = match WasmRuntime::new(&cli.guest_path()) {
        Ok(containers) => Arc::new(containers),
        Err(e) => {
            eprintln!("kubelab-agent: cannot load the container runtime: {e} (scripts/build-guests.sh builds it)");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("kubelab-agent: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(config, containers))
}

async fn run(config: agent::Config, containers: Arc<WasmRuntime>) -> ExitCode {
    let name = config.name.clone();
    let agent = match agent::start(config, containers).await {
        Ok(agent) => agent,
        Err(line) => {
            let line = if line.starts_with("kubelab-agent:") { line } else { format!("kubelab-agent: {line}") };
            eprintln!("{line}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "kubelab-agent: node {name:?} joined (podCIDR {}, kubelet server on {})",
        agent.pod_cidr, agent.kubelet_address
    );
    wait_for_signal().await;
    eprintln!("kubelab-agent: stopping; the node's pods keep their last status");
    agent.stop();
    ExitCode::SUCCESS
}

/// SIGTERM or SIGINT.
async fn wait_for_signal() {
    let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(signal) => signal,
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
}
