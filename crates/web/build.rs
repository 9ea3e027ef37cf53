//! Compiles every `lessons/*.yaml` into the bundle as JSON: writes `$OUT_DIR/lessons/<file>.json`
//! and `$OUT_DIR/lessons.rs`, a list of (file name, its JSON or where its YAML broke) in
//! file-name order. Reading YAML here keeps a YAML parser out of the page's first load; the
//! lesson format itself is checked when the page reads the JSON (`lessons.rs`), and natively by
//! `kubelab lessons check`. On wasm32 it also links with relocations kept, which wasm-split
//! needs (`scripts/build-web.sh`).

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
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).to_path_buf();
    std::fs::create_dir_all(out.join("lessons")).expect("OUT_DIR is writable");
    let mut source = String::from(
        "/// Every lesson file, by name, in order: its JSON, or (line, column, message) where its\n\
         /// YAML does not parse.\n\
         pub const LESSON_FILES: &[BundledLesson] = &[\n",
    );
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let text = std::fs::read_to_string(path).expect("a lesson file is readable");
        let entry = match serde_yaml::from_str::<serde_json::Value>(&text) {
            Ok(value) => {
                let json = out.join("lessons").join(format!("{name}.json"));
                std::fs::write(&json, value.to_string()).expect("OUT_DIR is writable");
                format!("Ok(include_str!({:?}))", json.display().to_string())
            }
            Err(err) => {
                let (line, column) = err.location().map_or((1, 1), |l| (l.line(), l.column()));
                format!("Err(({line}, {column}, {:?}))", err.to_string())
            }
        };
        source.push_str(&format!("    ({name:?}, {entry}),\n"));
    }
    source.push_str("];\n");
    std::fs::write(out.join("lessons.rs"), source).expect("OUT_DIR is writable");
}
