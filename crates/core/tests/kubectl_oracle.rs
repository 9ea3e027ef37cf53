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

/// The kustomize fixtures (tests/fixtures/kustomize), as the lab's files hold them.
fn kustomize_fixtures() -> (PathBuf, MemoryFiles) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/kustomize");
    let mut files = MemoryFiles::new();
    for folder in ["base", "overlay", "legacy", "team"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            files.insert(format!("{folder}/{name}"), std::fs::read_to_string(&path).unwrap());
        }
    }
    (root, files)
}

/// `kubectl kustomize` of an overlay (namePrefix and nameSuffix, namespace, labels,
/// configMapGenerator and secretGenerator with their hashed names and the references to them
/// rewritten, images, replicas, JSON 6902 and strategic-merge patches) and of a kustomization
/// in the deprecated spellings: the same stdout and stderr as kubectl 1.36's embedded
/// kustomize, and the same as the expected files the lab's own tests read.
#[test]
fn kustomize_builds_match_kubectl_1_36() {
    let Some(kubectl) = oracle() else { return };
    let (root, files) = kustomize_fixtures();
    for dir in ["overlay", "legacy", "team"] {
        let out = Command::new(&kubectl)
            .args(["kustomize", dir])
            .current_dir(&root)
            .env("KUBECONFIG", "/nonexistent")
            .output()
            .expect("kubectl 1.36 runs");
        let (want_out, want_err) =
            (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
        let mut sim = Sim::new(1, &ClusterSpec::default());
        let mut ctx = Context { sim: &mut sim, files: &files, stdin: None };
        let lab = kubectl::run(&mut ctx, &["kustomize".to_string(), dir.to_string()]);
        assert_eq!(lab.stdout(), want_out, "kubectl kustomize {dir}: stdout");
        assert_eq!(lab.stderr(), want_err, "kubectl kustomize {dir}: stderr");
        assert_eq!(std::fs::read_to_string(root.join(format!("{dir}.out"))).unwrap(), want_out, "{dir}.out");
    }
}
