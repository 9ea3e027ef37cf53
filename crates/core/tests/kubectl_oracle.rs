//! kubectl 1.36.4, the real binary (installed by `make setup` into target/oracle), as the
//! oracle for what kubectl prints without a server: `version --client`, and the objects that
//! `create … --dry-run=client -o yaml` builds. The lab's kubectl must print the same bytes.
//!
//! Skipped (with a notice) when the binary is missing, unless `KUBELAB_REQUIRE_ORACLE` is set,
//! as `make test` sets it.

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{self, Context, MemoryFiles};
use kubelab_core::sim::Sim;
use std::path::PathBuf;
use std::process::Command;

fn oracle() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/oracle/kubectl-1.36/bin/kubectl");
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("KUBELAB_REQUIRE_ORACLE").is_none(),
        "kubectl 1.36 not found at {}: run `make setup`",
        path.display()
    );
    eprintln!("skipped: kubectl 1.36 not installed (make setup installs it)");
    None
}

/// What the real kubectl prints for `args` (with no cluster to talk to).
fn real(kubectl: &PathBuf, args: &[&str]) -> String {
    let out = Command::new(kubectl).args(args).env("KUBECONFIG", "/nonexistent").output().expect("kubectl 1.36 runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What the lab's kubectl prints for the same `args`.
fn lab(args: &[&str]) -> String {
    let mut sim = Sim::new(1, &ClusterSpec::default());
    let files = MemoryFiles::new();
    let mut ctx = Context { sim: &mut sim, files: &files, stdin: None };
    let argv: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    kubectl::run(&mut ctx, &argv).render()
}

#[test]
fn version_matches_kubectl_1_36() {
    let Some(kubectl) = oracle() else { return };
    for args in
        [&["version", "--client"][..], &["version", "--client", "-o", "yaml"], &["version", "--client", "-o", "json"]]
    {
        assert_eq!(lab(args), real(&kubectl, args), "kubectl {}", args.join(" "));
    }
}

#[test]
fn objects_built_client_side_match_kubectl_1_36() {
    let Some(kubectl) = oracle() else { return };
    let cases: &[&[&str]] = &[
        &["create", "deployment", "hello", "--image=hello:v1", "--replicas=3", "--dry-run=client", "-o", "yaml"],
        &["create", "configmap", "greeting", "--from-literal=GREETING=hi", "--dry-run=client", "-o", "yaml"],
        &["create", "namespace", "team-a", "--dry-run=client", "-o", "yaml"],
        &[
            "create",
            "secret",
            "docker-registry",
            "regcred",
            "--docker-username=jane",
            "--docker-password=pw",
            "--docker-email=jane@example.com",
            "--dry-run=client",
            "-o",
            "yaml",
        ],
        &[
            "create",
            "secret",
            "generic",
            "db",
            "--from-literal=password=s3cret",
            "--type=Opaque",
            "--dry-run=client",
            "-o",
            "yaml",
        ],
        &["create", "service", "clusterip", "hello", "--tcp=80:8080", "--dry-run=client", "-o", "yaml"],
        &[
            "create",
            "quota",
            "compute",
            "--hard=cpu=0.5,memory=1G,pods=2,count/deployments.apps=3",
            "--dry-run=client",
            "-o",
            "yaml",
        ],
        &[
            "create",
            "quota",
            "best-effort",
            "--hard=pods=100",
            "--scopes=BestEffort",
            "-n",
            "team",
            "--dry-run=client",
            "-o",
            "json",
        ],
    ];
    let mut differ = Vec::new();
    for args in cases {
        let (want, got) = (real(&kubectl, args), lab(args));
        if want != got {
            differ.push(format!("kubectl {}\n--- kubectl 1.36\n{want}--- lab\n{got}", args.join(" ")));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
