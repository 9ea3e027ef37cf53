//! The machine as the kubelet reads it (cAdvisor's MachineInfo and the node's system info):
//! cores, memory, root filesystem, huge pages, OS image, kernel, architecture, machine ID.

use std::net::{IpAddr, UdpSocket};
use std::path::Path;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MachineInfo {
    pub hostname: String,
    pub cpus: u64,
    pub memory_bytes: u64,
    /// The root filesystem's size (`ephemeral-storage`), 0 when unknown.
    pub root_fs_bytes: u64,
    /// Pre-allocated huge pages per size in KiB (`hugepages-2Mi`, `hugepages-1Gi`).
    pub hugepages: Vec<(u64, u64)>,
    pub os_image: String,
    pub kernel_version: String,
    /// GOARCH's spelling: `amd64`, `arm64`.
    pub architecture: String,
    pub machine_id: String,
}

impl MachineInfo {
    /// This machine, now.
    pub fn read() -> MachineInfo {
        MachineInfo {
            hostname: hostname(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
            memory_bytes: read("/proc/meminfo").as_deref().and_then(mem_total_bytes).unwrap_or(0),
            root_fs_bytes: root_fs_bytes().unwrap_or(0),
            hugepages: hugepages(Path::new("/sys/kernel/mm/hugepages")),
            os_image: read("/etc/os-release").as_deref().and_then(pretty_name).unwrap_or_else(|| "Linux".into()),
            kernel_version: read("/proc/sys/kernel/osrelease").map(|s| s.trim().to_string()).unwrap_or_default(),
            architecture: go_arch(std::env::consts::ARCH).to_string(),
            machine_id: read("/etc/machine-id").map(|s| s.trim().to_string()).unwrap_or_default(),
        }
    }
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// The kernel's hostname, lower-cased as the kubelet's `--hostname-override` default is.
pub fn hostname() -> String {
    read("/proc/sys/kernel/hostname")
        .or_else(|| read("/etc/hostname"))
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// `MemTotal:  16318412 kB` in /proc/meminfo, in bytes.
pub fn mem_total_bytes(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"` in /etc/os-release.
pub fn pretty_name(os_release: &str) -> Option<String> {
    let line = os_release.lines().find(|l| l.starts_with("PRETTY_NAME="))?;
    Some(line["PRETTY_NAME=".len()..].trim().trim_matches('"').to_string())
}

/// Rust's architecture name in Go's words (`runtime.GOARCH`).
pub fn go_arch(arch: &str) -> &str {
    match arch {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "powerpc64" => "ppc64le",
        "riscv64" => "riscv64",
        "s390x" => "s390x",
        other => other,
    }
}

/// The root filesystem's size, as `df` reports it (1K blocks).
fn root_fs_bytes() -> Option<u64> {
    let output = std::process::Command::new("df").args(["-Pk", "/"]).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let blocks: u64 = text.lines().nth(1)?.split_whitespace().nth(1)?.parse().ok()?;
    Some(blocks * 1024)
}

/// Each huge page size (KiB) and how many are pre-allocated; the sizes the kernel offers.
fn hugepages(dir: &Path) -> Vec<(u64, u64)> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut sizes: Vec<(u64, u64)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            let kib: u64 = name.strip_prefix("hugepages-")?.strip_suffix("kB")?.parse().ok()?;
            let count = std::fs::read_to_string(entry.path().join("nr_hugepages")).ok()?.trim().parse().ok()?;
            Some((kib, count))
        })
        .collect();
    sizes.sort_unstable();
    sizes
}

/// The resource name of a huge page size (`hugepages-2Mi`, `hugepages-1Gi`).
pub fn hugepages_resource(kib: u64) -> String {
    if kib >= 1 << 20 && kib.is_multiple_of(1 << 20) {
        format!("hugepages-{}Gi", kib >> 20)
    } else if kib >= 1024 && kib.is_multiple_of(1024) {
        format!("hugepages-{}Mi", kib >> 10)
    } else {
        format!("hugepages-{kib}Ki")
    }
}

/// The source address of the route to `host:port` (the address the server sees this machine
/// at): a UDP socket's local address after `connect`, which sends nothing.
pub fn route_source(host: &str, port: u16) -> Option<IpAddr> {
    let target = std::net::ToSocketAddrs::to_socket_addrs(&(host, port)).ok()?.next()?;
    let bind = if target.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" };
    let socket = UdpSocket::bind(bind).ok()?;
    socket.connect(target).ok()?;
    Some(socket.local_addr().ok()?.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_and_etc_files_read_as_the_kubelet_reads_them() {
        assert_eq!(mem_total_bytes("MemTotal:       16318412 kB\nMemFree: 1 kB\n"), Some(16318412 * 1024));
        assert_eq!(
            pretty_name("NAME=x\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n").unwrap(),
            "Debian GNU/Linux 12 (bookworm)"
        );
        assert_eq!((go_arch("x86_64"), go_arch("aarch64")), ("amd64", "arm64"));
        assert_eq!(
            (hugepages_resource(2048), hugepages_resource(1 << 20)),
            ("hugepages-2Mi".into(), "hugepages-1Gi".into())
        );
    }

    #[test]
    fn the_route_to_loopback_starts_at_loopback() {
        assert_eq!(route_source("127.0.0.1", 6443), Some(IpAddr::from([127, 0, 0, 1])));
        let machine = MachineInfo::read();
        assert!(machine.cpus >= 1 && machine.memory_bytes > 0);
    }
}
