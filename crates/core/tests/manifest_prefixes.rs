//! Every prefix of every manifest in the repository goes through `kubectl apply`: each must
//! end in an error or a success, never a panic. Manifests are cut at each byte; the long
//! lesson files (tens of KB, and each cut re-parses the whole prefix) at each line's edges.

mod support;

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

/// Where to cut `text`: every byte of the first `EVERY_BYTE` bytes, then the last byte of
/// each line, its newline and the first byte of the next (where a YAML block or a flow
/// collection can be left open), and the end.
fn cuts_of(text: &str) -> Vec<usize> {
    const EVERY_BYTE: usize = 2048;
    let mut cuts: Vec<usize> = (0..=text.len().min(EVERY_BYTE)).collect();
    for (i, _) in text.match_indices('\n').filter(|(i, _)| *i > EVERY_BYTE) {
        cuts.extend([i - 1, i, i + 1]);
    }
    cuts.push(text.len());
    cuts.retain(|i| *i <= text.len() && text.is_char_boundary(*i));
    cuts.dedup();
    cuts
}

#[test]
fn every_prefix_of_every_manifest_applies_or_fails_cleanly() {
    let files = MemoryFiles::new();
    let argv: Vec<String> = ["apply", "-f", "-"].iter().map(|s| s.to_string()).collect();
    let paths = manifests();
    assert!(paths.len() >= 3, "found {paths:?}");
    let cuts = support::parallel_map(&paths, |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut sim = Sim::new(1, &ClusterSpec::default());
        let cuts = cuts_of(&text);
        for &cut in &cuts {
            let mut ctx = Context { sim: &mut sim, files: &files, stdin: Some(&text[..cut]) };
            let output = kubectl::run(&mut ctx, &argv);
            assert!(output.exit_code == 0 || output.exit_code == 1, "{}: cut {cut}", path.display());
        }
        cuts.len()
    });
    assert!(cuts.iter().sum::<usize>() > 1000);
}
