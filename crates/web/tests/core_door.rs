//! The web app reads the core only through its public door and views: the object model
//! (`api`), the API door (`apiserver`), the plain-data views (`view`), the lesson format and
//! lab (`lesson`), scripts, cluster files, the version, manifests, the lab engine (`Sim`, its
//! clock, the benchmark's cluster) and the terminal's `kubectl` entry points. Every
//! `kubelab_core::…` path in `crates/web/src` is checked against that list, and so is every
//! use of a core module it imports whole (`kubectl::complete`). The views themselves may not
//! re-export internals by glob.

use std::path::{Path, PathBuf};

/// Modules the web may use in full.
const WHOLE_MODULES: &[&str] =
    &["api", "apiserver", "view", "lesson", "script", "cluster", "version", "manifest", "sim::time", "sim::load"];

/// Single items the web may use from modules it may not use in full.
const ITEMS: &[&str] = &["sim::Sim", "kubectl::complete", "kubectl::VERBS", "kubectl::MemoryFiles"];

/// Why `path` (after `kubelab_core::`) is outside the door, if it is.
fn refusal(path: &str) -> Option<String> {
    let within = |allowed: &str| path == allowed || path.starts_with(&format!("{allowed}::"));
    if WHOLE_MODULES.iter().any(|m| within(m)) || ITEMS.iter().any(|i| within(i)) {
        return None;
    }
    // A module the web imports only to reach allowed items through it (`use kubelab_core::kubectl;`).
    let module_of_items = ITEMS.iter().any(|i| i.rsplit_once("::").is_some_and(|(m, _)| m == path));
    if module_of_items {
        return None;
    }
    Some(format!("kubelab_core::{path} is not part of the core's door or views"))
}

/// Every path one `kubelab_core::…` import names, braces expanded; `(path, alias)` for each,
/// where a module brought in by `self` (or `self as x`) also names its alias.
fn expand(prefix: &str, tree: &str, out: &mut Vec<(String, Option<String>)>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        for part in split_top(inner) {
            expand(prefix, part, out);
        }
        return;
    }
    if let Some((head, rest)) = tree.split_once("::") {
        let prefix = if prefix.is_empty() { head.to_string() } else { format!("{prefix}::{head}") };
        return expand(&prefix, rest, out);
    }
    let (name, alias) = match tree.split_once(" as ") {
        Some((name, alias)) => (name.trim(), Some(alias.trim().to_string())),
        None => (tree, None),
    };
    let path = match name {
        "self" => prefix.to_string(),
        "*" => format!("{prefix}::*"),
        _ if prefix.is_empty() => name.to_string(),
        _ => format!("{prefix}::{name}"),
    };
    let alias = alias.or_else(|| Some(path.rsplit("::").next().unwrap_or_default().to_string()));
    out.push((path, alias));
}

/// Splits a brace group's contents at its top-level commas.
fn split_top(inner: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// Every refusal in one source file.
fn check_source(source: &str) -> Vec<String> {
    let mut refusals = Vec::new();
    let mut imported = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("kubelab_core::") {
        let after = &rest[at + "kubelab_core::".len()..];
        let end = path_end(after);
        expand("", &after[..end], &mut imported);
        rest = &after[end..];
    }
    for (path, alias) in &imported {
        if let Some(why) = refusal(path) {
            refusals.push(why);
            continue;
        }
        // A module imported whole: each `alias::item` in the file must be allowed too.
        let Some(alias) = alias.as_deref().filter(|a| a.chars().next().is_some_and(char::is_lowercase)) else {
            continue;
        };
        let needle = format!("{alias}::");
        for (at, _) in source.match_indices(&needle) {
            let before = source[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let item: String =
                source[at + needle.len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !item.is_empty()
                && let Some(why) = refusal(&format!("{path}::{item}"))
            {
                refusals.push(why);
            }
        }
    }
    refusals
}

/// Where an import's path ends: after its brace group, or at the first character no path has.
fn path_end(text: &str) -> usize {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return i + 1,
            '}' => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_alphanumeric() || c == '_' || c == ':' || c == '*' => {}
            _ => return i,
        }
    }
    text.len()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_web_reads_the_core_only_through_its_door_and_views() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 30, "found the web's sources");
    let mut refusals = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable source");
        for why in check_source(&source) {
            refusals.push(format!("{}: {why}", file.strip_prefix(&src).unwrap_or(file).display()));
        }
    }
    assert!(refusals.is_empty(), "imports outside the core's door:\n{}", refusals.join("\n"));
}

#[test]
fn the_views_re_export_no_internals_by_glob() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let mut files = Vec::new();
    for folder in ["view", "apiserver"] {
        rust_files(&core.join(folder), &mut files);
    }
    for file in files {
        let source = std::fs::read_to_string(&file).expect("readable source");
        let globs: Vec<&str> =
            source.lines().filter(|l| l.trim_start().starts_with("pub use") && l.contains('*')).collect();
        assert!(globs.is_empty(), "{}: {globs:?}", file.display());
    }
}

#[test]
fn internals_are_refused_and_the_door_is_not() {
    let refused = [
        "use kubelab_core::store::Store;",
        "use kubelab_core::scheduler::decision::Outcome;",
        "use kubelab_core::kubectl::printers::pod_status;",
        "use kubelab_core::sim::{Sim, Timer};",
        "use kubelab_core::runtime::informer::{Changes, Informer};",
        "use kubelab_core::kubectl;\nfn f() { kubectl::printers::pod_status(); }",
        "use kubelab_core::store::*;",
    ];
    for source in refused {
        assert!(!check_source(source).is_empty(), "{source}");
    }
    let allowed = [
        "use kubelab_core::api::pod::Pod;",
        "use kubelab_core::view::cluster::{self as cluster_model, NodeCard};",
        "use kubelab_core::sim::{Sim, load};",
        "use kubelab_core::kubectl::{self, VERBS};\nfn f() { kubectl::complete(); }",
        "use kubelab_core::lesson::{Lesson, LessonLab};",
    ];
    for source in allowed {
        assert_eq!(check_source(source), Vec::<String>::new(), "{source}");
    }
}
