//! kubelab-agent: a real machine joining a kubelab lab as a node. It trades the lab's join token
//! for a node token, registers the Node (capacity from the host, GPUs and MIG devices from NVML
//! or a file), renews its Lease, and runs the pods bound to it through the container runtime.

use clap::Parser;
use kubelab_node_agent::agent;
use kubelab_node_agent::cli::Cli;
use kubelab_node_agent::process_runtime::ProcessRuntime;
use kubelab_node_agent::runtime::ContainerRuntime;
use kubelab_node_agent::wasm_runtime::WasmRuntime;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.print_gpus {
        return match cli.gpus() {
            Ok(inventory) => {
                print!("{}", kubelab_node_agent::cli::gpu_table(inventory.as_ref()));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("kubelab-agent: {e}");
                ExitCode::FAILURE
            }
        };
    }
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
        // A GPU source that cannot be read stops the agent when it joins, in `agent::start`.
        Ok(containers) => Arc::new(containers.with_gpus(cli.gpus().ok().flatten().as_ref())),
        Err(e) => {
            eprintln!("kubelab-agent: cannot load the container runtime: {e} (scripts/build-guests.sh builds it)");
            return ExitCode::from(2);
        }
    };
    let containers = match with_processes(&cli, containers) {
        Ok(containers) => containers,
        Err(e) => {
            eprintln!("kubelab-agent: {e}");
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

/// `--allow-process`: the process runtime in front of the wasm one, told this machine's device
/// UUIDs (read here as the agent reads them to join, so a bad source fails the same way).
fn with_processes(cli: &Cli, wasm: Arc<WasmRuntime>) -> Result<Arc<dyn ContainerRuntime>, String> {
    if cli.allow_process.is_empty() {
        return Ok(wasm);
    }
    let devices: Vec<String> =
        cli.gpus()?.map(|inventory| inventory.devices().into_iter().map(|d| d.id).collect()).unwrap_or_default();
    let runtime = ProcessRuntime::new(cli.allow_process.iter().cloned(), Some(wasm))?.with_devices(devices);
    eprintln!(
        "kubelab-agent: containers whose command is {} run as processes on this machine (--allow-process)",
        cli.allow_process.join(", ")
    );
    Ok(Arc::new(runtime))
}

async fn run(config: agent::Config, containers: Arc<dyn ContainerRuntime>) -> ExitCode {
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
