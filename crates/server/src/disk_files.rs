//! `-f FILE` on a real disk, relative to a base folder (the script's own folder).

use kubelab_core::kubectl::FileSystem;
use std::path::PathBuf;

pub struct DiskFiles {
    base: PathBuf,
}

impl DiskFiles {
    pub fn new(base: PathBuf) -> Self {
        DiskFiles { base }
    }

    fn resolve(&self, path: &str) -> PathBuf {
        let path = PathBuf::from(path);
        if path.is_absolute() { path } else { self.base.join(path) }
    }
}

impl FileSystem for DiskFiles {
    fn read_file(&self, path: &str) -> Result<String, String> {
        let full = self.resolve(path);
        if !full.exists() {
            return Err(format!("the path \"{path}\" does not exist"));
        }
        std::fs::read_to_string(&full).map_err(|e| format!("error reading {path}: {e}"))
    }

    fn list_dir(&self, path: &str) -> Option<Vec<String>> {
        let full = self.resolve(path);
        let entries = std::fs::read_dir(&full).ok()?;
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.path().is_file())
            .map(|e| format!("{}/{}", path.trim_end_matches('/'), e.file_name().to_string_lossy()))
            .collect();
        names.sort();
        Some(names)
    }
}
