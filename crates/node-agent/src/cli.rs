//! The command line (cmd/kubelet's flags, the few this agent has), and the `Config` it becomes.

use crate::agent::Config;
use crate::gpus::{GpuSource, Inventory, MigStrategy};
use crate::ipam::PodNetwork;
use clap::Parser;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

/// Joins a kubelab lab as a node and runs the pods bound to it
#[derive(Parser, Debug)]
#[command(name = "kubelab-agent", version, about)]
pub struct Cli {
    /// The lab's API URL (https://HOST:PORT/k8s/LAB, as its kubeconfig names it)
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// The lab's join token (read from the environment: a command line is visible to `ps`)
    #[arg(long, env = "KUBELAB_AGENT_TOKEN", hide_env_values = true, value_name = "TOKEN")]
    pub token: Option<String>,
    /// Read the join token from this file instead
    #[arg(long, value_name = "FILE", conflicts_with = "token")]
    pub token_file: Option<PathBuf>,
    /// Skip the join and send this token as the node's (with --pod-cidr)
    #[arg(long, value_name = "TOKEN", hide_env_values = true, env = "KUBELAB_AGENT_NODE_TOKEN")]
    pub node_token: Option<String>,
    /// The node's name (default: this machine's hostname)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Where the GPU inventory comes from: none, nvml, or fake:FILE (a YAML description)
    #[arg(long, default_value = "none", value_name = "SOURCE")]
    pub gpus: String,
    /// The device plugin's MIG strategy: none, single or mixed (default: the file's, else single)
    #[arg(long, value_name = "STRATEGY")]
    pub mig_strategy: Option<String>,
    /// The lab's certificate authority (PEM), to check the server's certificate
    #[arg(long, value_name = "FILE")]
    pub certificate_authority: Option<PathBuf>,
    /// The name the server's certificate must carry (default: the URL's host)
    #[arg(long, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// The node's InternalIP (default: the source address of the route to the server)
    #[arg(long, value_name = "IP")]
    pub address: Option<IpAddr>,
    /// The kubelet server's port, on --address
    #[arg(long, default_value_t = 10250, value_name = "PORT")]
    pub kubelet_port: u16,
    /// The pods' network, instead of the one the join hands out
    #[arg(long, value_name = "CIDR")]
    pub pod_cidr: Option<String>,
    /// How pod IPs become reachable: lo (the podCIDR on the loopback device) or none
    #[arg(long, default_value = "lo", value_name = "MODE")]
    pub pod_network: String,
    /// The WebAssembly workload every container runs (default: guests/workload.wasm beside
    /// the directory of this binary, where `scripts/build-guests.sh` puts it)
    #[arg(long, value_name = "FILE")]
    pub guest: Option<PathBuf>,
    /// Run containers whose command is CMD (a program on this machine's PATH, as nvidia-smi)
    /// as host processes, kept to their pod's GPUs, for GPU exercises; repeatable (default:
    /// every container runs in wasmtime)
    #[arg(long = "allow-process", value_name = "CMD")]
    pub allow_process: Vec<String>,
    /// Print the GPUs --gpus finds (models, memory, MIG mode, GPU and MIG UUIDs) and exit
    #[arg(long)]
    pub print_gpus: bool,
}

impl Cli {
    /// The guest module's path: `--guest`, or `../guests/workload.wasm` from this binary's folder.
    pub fn guest_path(&self) -> PathBuf {
        if let Some(path) = &self.guest {
            return path.clone();
        }
        let exe = std::env::current_exe().unwrap_or_default();
        let folder = exe.parent().and_then(Path::parent).unwrap_or(Path::new("."));
        folder.join("guests").join("workload.wasm")
    }
}

impl Cli {
    /// The agent's configuration, or the line to exit with.
    pub fn config(&self) -> Result<Config, String> {
        let server = self.server.clone().ok_or("--server is required")?;
        let token = match (&self.token, &self.token_file) {
            (Some(token), _) => token.clone(),
            (None, Some(path)) => std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read --token-file {}: {e}", path.display()))?
                .trim()
                .to_string(),
            (None, None) if self.node_token.is_some() => String::new(),
            (None, None) => return Err("a join token is needed: KUBELAB_AGENT_TOKEN, --token or --token-file".into()),
        };
        let ca_pem = match &self.certificate_authority {
            Some(path) => Some(
                std::fs::read(path)
                    .map_err(|e| format!("cannot read --certificate-authority {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Config {
            server,
            token,
            node_token: self.node_token.clone(),
            name: self.name.clone().unwrap_or_else(crate::host::hostname),
            gpus: GpuSource::parse(&self.gpus)?,
            mig_strategy: self.mig_strategy.as_deref().map(MigStrategy::parse).transpose()?,
            ca_pem,
            tls_server_name: self.tls_server_name.clone(),
            address: self.address,
            kubelet_port: self.kubelet_port,
            pod_cidr: self.pod_cidr.clone(),
            pod_network: PodNetwork::parse(&self.pod_network)?,
        })
    }
}

impl Cli {
    /// The GPUs `--gpus` finds, read as the agent reads them when it joins.
    pub fn gpus(&self) -> Result<Option<Inventory>, String> {
        let name = self.name.clone().unwrap_or_else(crate::host::hostname);
        let strategy = self.mig_strategy.as_deref().map(MigStrategy::parse).transpose()?;
        let cpus = crate::host::MachineInfo::read().cpus as u32;
        GpuSource::parse(&self.gpus)?.load(&name, cpus, strategy)
    }
}

/// `--print-gpus`: one row per GPU and MIG device (as `nvidia-smi -L` lists them, with memory
/// and MIG mode), then the device plugin's resources.
pub fn gpu_table(inventory: Option<&Inventory>) -> String {
    let Some(inventory) = inventory else { return "no GPUs (--gpus none)\n".to_string() };
    let mut rows = vec![["DEVICE".to_string(), "MODEL".into(), "MEMORY".into(), "MIG".into(), "UUID".into()]];
    for gpu in &inventory.machine.gpus {
        let mig = if gpu.model.mig.is_none() {
            "n/a"
        } else if gpu.mig_enabled {
            "enabled"
        } else {
            "disabled"
        };
        let memory = format!("{} MiB", gpu.model.memory_mib);
        rows.push([format!("GPU {}", gpu.index), gpu.model.product.clone(), memory, mig.into(), gpu.uuid.clone()]);
        for mig in gpu.mig_devices() {
            let uuid = inventory.mig_uuids.get(&(gpu.index, mig.gpu_instance.id)).cloned().unwrap_or(mig.uuid.clone());
            let device = format!("  MIG {}/{}", gpu.index, mig.gpu_instance.id);
            let memory = format!("{} MiB", mig.profile.memory_mib);
            rows.push([device, mig.profile.name.clone(), memory, String::new(), uuid]);
        }
    }
    let mut widths = [0; 5];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in &rows {
        let cells: Vec<String> = row.iter().zip(widths).map(|(cell, width)| format!("{cell:<width$}")).collect();
        text.push_str(cells.join("   ").trim_end());
        text.push('\n');
    }
    let resources: Vec<String> =
        inventory.capacity().into_iter().map(|(name, count)| format!("{name}: {count}")).collect();
    text.push_str(&format!(
        "MIG strategy {}; resources: {}\n",
        inventory.machine.strategy.as_str(),
        resources.join(", ")
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Config, String> {
        Cli::try_parse_from(args).map_err(|e| e.to_string())?.config()
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
        let config = parse(&[
            "kubelab-agent",
            "--server=https://127.0.0.1:6443/k8s/demo",
            "--token=t",
            "--name=edge-1",
            "--gpus=fake:/tmp/gpus.yaml",
            "--address=192.168.1.20",
            "--pod-network=none",
        ])
        .unwrap();
        assert_eq!(config.server, "https://127.0.0.1:6443/k8s/demo");
        assert_eq!((config.name.as_str(), config.kubelet_port), ("edge-1", 10250));
        assert_eq!(config.gpus, GpuSource::Fake("/tmp/gpus.yaml".into()));
        assert_eq!(config.pod_network, PodNetwork::None);
    }

    #[test]
    fn the_gpu_table_lists_gpus_and_mig_devices() {
        let file = "migStrategy: mixed\ngpus:\n- model: A100-SXM4-40GB\n  uuid: GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab\n  mig: all-3g.20gb\n- model: A100-SXM4-40GB\n";
        let inventory = crate::gpus::fake::parse(file, "gpu-1").unwrap();
        let table = gpu_table(Some(&inventory));
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 6, "{table}");
        assert!(lines[0].starts_with("DEVICE"), "{table}");
        assert!(lines[1].contains("NVIDIA A100-SXM4-40GB") && lines[1].contains("40960 MiB"), "{table}");
        assert!(lines[1].contains("enabled") && lines[1].ends_with("GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab"));
        assert!(lines[2].contains("3g.20gb") && lines[2].contains(" MIG-"), "{table}");
        assert!(lines[4].contains("disabled"), "{table}");
        assert!(lines[5].contains("nvidia.com/gpu: 1") && lines[5].contains("nvidia.com/mig-3g.20gb: 2"), "{table}");
        assert_eq!(gpu_table(None), "no GPUs (--gpus none)\n");
        let cli =
            Cli::try_parse_from(["kubelab-agent", "--allow-process", "nvidia-smi", "--allow-process=env"]).unwrap();
        assert_eq!(cli.allow_process, ["nvidia-smi", "env"]);
    }

    #[test]
    fn missing_and_bad_values_are_named() {
        assert!(parse(&["kubelab-agent", "--token=t"]).unwrap_err().contains("--server"));
        assert!(
            parse(&["kubelab-agent", "--server=https://lab", "--token=t", "--gpus=cuda"])
                .unwrap_err()
                .contains("--gpus")
        );
        assert!(
            parse(&["kubelab-agent", "--server=https://lab", "--token=t", "--mig-strategy=all"])
                .unwrap_err()
                .contains("MIG strategy")
        );
        let with_node_token =
            parse(&["kubelab-agent", "--server=https://lab", "--node-token=n", "--pod-cidr=10.244.9.0/24"]);
        assert_eq!(with_node_token.unwrap().node_token.as_deref(), Some("n"));
    }
}
