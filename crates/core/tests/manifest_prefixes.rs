//! Every prefix of every manifest in the repository (cut at each byte) goes through
//! `kubectl apply`: each must end in an error or a success, never a panic.

use kubelab_core::cluster::ClusterSpec;
use kubelab_core::kubectl::{self, Context, MemoryFiles};
use kubelab_core::sim::Sim;
use std::path::{Path, PathBuf};

fn manifests() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    let mut folders = vec![root.join("tests"), root.join("lessons")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !path.ends_with("node_modules") {
                folders.push(path);
            } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_prefix_of_every_manifest_applies_or_fails_cleanly() {
    let files = MemoryFiles::new();
    let argv: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
    let paths = manifests();
    assert!(paths.len() >= 3, "found {paths:?}");
    let mut cuts = 0;
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut sim = Sim::new(1, &ClusterSpec::default());
        for cut in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            let mut ctx = Context { sim: &mut sim, files: &files, stdin: Some(&text[..cut]) };
            let output = kubectl::run(&mut ctx, &argv);
            assert!(output.exit_code == 0 || output.exit_code == 1, "{}: cut {cut}", path.display());
            cuts += 1;
        }
    }
    assert!(cuts > 1000);
}
