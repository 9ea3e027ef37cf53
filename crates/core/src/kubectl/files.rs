//! What `-f FILE` reads through: the real disk natively, a map of files in the browser and tests.

use std::collections::BTreeMap;

pub trait FileSystem {
    /// The file's text, or an error worded as kubectl's (`the path "x.yaml" does not exist`).
    fn read_file(&self, path: &str) -> Result<String, String>;
    /// Files directly in a folder (sorted), or `None` if `path` is not a folder.
    fn list_dir(&self, path: &str) -> Option<Vec<String>>;
}

/// Files held in memory (the browser lab, lessons, tests).
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: BTreeMap<String, String>,
}

impl MemoryFiles {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
    }
}

impl FileSystem for MemoryFiles {
    fn read_file(&self, path: &str) -> Result<String, String> {
        self.files.get(path).cloned().ok_or_else(|| format!("the path \"{path}\" does not exist"))
    }

    fn list_dir(&self, path: &str) -> Option<Vec<String>> {
        let prefix = format!("{}/", path.trim_end_matches('/'));
        let entries: Vec<String> = self
            .files
            .keys()
            .filter(|k| k.strip_prefix(&prefix).is_some_and(|rest| !rest.contains('/')))
            .cloned()
            .collect();
        (!entries.is_empty()).then_some(entries)
    }
}
