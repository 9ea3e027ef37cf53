//! What the runtime's tests share: the built guest (or a skip), specs, a plain HTTP client, and
//! hand-encoded modules that break the rules.
#![allow(dead_code)]

pub mod ticked;

use kubelab_wasm_runtime::{ContainerSpec, Runtime, behaviour_for};
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// `target/guests/workload.wasm`, or `None` (after saying so) when it has not been built;
/// with `KUBELAB_REQUIRE_GUESTS=1` a missing guest fails the test instead.
pub fn guest() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/guests/workload.wasm");
    if path.exists() {
        return Some(path);
    }
    if std::env::var("KUBELAB_REQUIRE_GUESTS").is_ok_and(|v| v == "1") {
        panic!("{} is missing: run scripts/build-guests.sh", path.display());
    }
    eprintln!("skipped: run scripts/build-guests.sh");
    None
}

/// One runtime per test binary: the guest is compiled once.
pub fn runtime() -> Option<&'static Runtime> {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    let path = guest()?;
    Some(RUNTIME.get_or_init(|| Runtime::new(&path).expect("the guest compiles")))
}

pub fn ip(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// A container of a catalogue image with no limits.
pub fn spec(pod: &str, image: &str, ip: IpAddr) -> ContainerSpec {
    ContainerSpec {
        pod_name: pod.into(),
        container: "app".into(),
        behaviour: behaviour_for(image).expect("a catalogue image"),
        argv: Vec::new(),
        env: Vec::new(),
        memory_limit_bytes: None,
        cpu_limit_millicores: None,
        ip,
        ports: vec![8080],
        wall_clock_cap: Duration::from_secs(5),
        gpus: Vec::new(),
    }
}

/// `GET path` over a fresh connection: status and body.
pub fn get(ip: IpAddr, port: u16, path: &str) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect_timeout(&SocketAddr::new(ip, port), Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {ip}\r\nUser-Agent: kube-probe/1.33\r\n\r\n")?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let (head, body) = response.split_once("\r\n\r\n").ok_or(std::io::ErrorKind::UnexpectedEof)?;
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or(std::io::ErrorKind::InvalidData)?;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|n| n.parse().ok())
        .ok_or(std::io::ErrorKind::InvalidData)?;
    assert_eq!(length, body.len(), "Content-Length matches the body");
    Ok((status, body.to_string()))
}

/// Polls `condition` until it holds or `timeout` passes; whether it held.
pub fn eventually(timeout: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + timeout;
    while Instant::now() < end {
        if condition() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    condition()
}

/// A module with the guest ABI's exports whose `kl_start` and `kl_tick` run the given bodies
/// (raw code: a `wat` parser would add a dependency for two functions).
pub fn raw_guest(start_body: &[u8], tick_body: &[u8]) -> Vec<u8> {
    const I32: u8 = 0x7f;
    const I64: u8 = 0x7e;
    let types: [&[u8]; 5] = [
        &[0x60, 1, I32, 1, I32],           // kl_alloc
        &[0x60, 2, I32, I32, 1, I64],      // kl_init
        &[0x60, 1, I64, 1, I64],           // kl_start, kl_tick
        &[0x60, 3, I32, I32, I64, 1, I64], // kl_http, kl_exec
        &[0x60, 1, I64, 0],                // kl_sigterm
    ];
    let functions = [0u8, 1, 2, 2, 3, 4, 3];
    let zero_i32: &[u8] = &[0x41, 0x00, 0x0b];
    let zero_i64: &[u8] = &[0x42, 0x00, 0x0b];
    let bodies: [&[u8]; 7] = [zero_i32, zero_i64, start_body, tick_body, zero_i64, &[0x0b], zero_i64];
    let names = ["kl_alloc", "kl_init", "kl_start", "kl_tick", "kl_http", "kl_sigterm", "kl_exec"];

    let mut module = b"\0asm\x01\0\0\0".to_vec();
    section(&mut module, 1, &vector(types.iter().map(|t| t.to_vec())));
    section(&mut module, 3, &vector(functions.iter().map(|f| vec![*f])));
    section(&mut module, 5, &[1, 0x00, 1]);
    let mut exports: Vec<Vec<u8>> =
        names.iter().enumerate().map(|(i, name)| [name_bytes(name), vec![0x00, i as u8]].concat()).collect();
    exports.push([name_bytes("memory"), vec![0x02, 0]].concat());
    section(&mut module, 7, &vector(exports.into_iter()));
    let code = bodies.iter().map(|body| {
        let function = [&[0u8][..], body].concat();
        [leb(function.len()), function].concat()
    });
    section(&mut module, 10, &vector(code));
    module
}

/// `loop br 0 end unreachable end`: never returns.
pub const LOOP_FOREVER: &[u8] = &[0x03, 0x40, 0x0c, 0x00, 0x0b, 0x00, 0x0b];
/// `unreachable end`.
pub const TRAP: &[u8] = &[0x00, 0x0b];
/// `i64.const 0 end`.
pub const RETURN_ZERO: &[u8] = &[0x42, 0x00, 0x0b];
/// `i64.const -1 end`: nothing due.
pub const NOTHING_DUE: &[u8] = &[0x42, 0x7f, 0x0b];

fn leb(mut value: usize) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

fn name_bytes(name: &str) -> Vec<u8> {
    [leb(name.len()), name.as_bytes().to_vec()].concat()
}

fn vector(items: impl ExactSizeIterator<Item = Vec<u8>>) -> Vec<u8> {
    let mut out = leb(items.len());
    items.for_each(|item| out.extend(item));
    out
}

fn section(module: &mut Vec<u8>, id: u8, content: &[u8]) {
    module.push(id);
    module.extend(leb(content.len()));
    module.extend(content);
}

/// Writes `bytes` to a file of its own under the target directory.
pub fn module_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/wasm-runtime-tests");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}-{}.wasm", std::process::id()));
    std::fs::write(&path, bytes).expect("module written");
    path
}
