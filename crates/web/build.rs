//! Compiles every `lessons/*.yaml` into the bundle: writes `$OUT_DIR/lessons.rs`, a list of
//! (file name, text) pairs in file-name order, each text an `include_str!` of the file.

use std::path::Path;

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=--emit-relocs");
    }
    let lessons_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    println!("cargo:rerun-if-changed={}", lessons_dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&lessons_dir)
        .expect("lessons/ is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "yaml"))
        .collect();
    files.sort();
    let mut source =
        String::from("/// Every lesson file, by name, in order.\npub const LESSON_FILES: &[(&str, &str)] = &[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let absolute = path.canonicalize().expect("a lesson file's path resolves");
        source.push_str(&format!("    ({name:?}, include_str!({:?})),\n", absolute.display().to_string()));
    }
    source.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lessons.rs");
    std::fs::write(out, source).expect("OUT_DIR is writable");
}
