//! `kubelab lessons check [DIR]`: lints every lesson file in a folder (default `lessons/`) —
//! format errors with file:line, checks and scripts that cannot run, tasks whose solutions do
//! not complete them, predictions without exactly one true choice. Exit 1 on any problem.
//! `kubelab lessons schema` prints the lesson format's JSON Schema; `kubelab lessons challenge
//! SEED` prints the pod doctor challenge that seed draws, as a lesson file.

use kubelab_core::lesson::{challenge, lint, schema};
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum LessonsCommand {
    /// Lint every lesson in DIR and replay its solutions (exit 1 on any problem)
    Check {
        #[arg(default_value = "lessons", value_name = "DIR")]
        dir: PathBuf,
    },
    /// Print the lesson format's JSON Schema
    Schema,
    /// Print the pod doctor challenge a seed draws, as a lesson file
    Challenge {
        #[arg(value_name = "SEED")]
        seed: u64,
    },
}

/// Runs the command; returns the process exit code.
pub fn main(command: LessonsCommand) -> i32 {
    match command {
        LessonsCommand::Check { dir } => check(&dir),
        LessonsCommand::Schema => {
            print!("{}", schema::lesson_schema_json());
            0
        }
        LessonsCommand::Challenge { seed } => {
            print!("{}", challenge::challenge(seed).to_yaml());
            0
        }
    }
}

/// The lesson files in a folder: `*.yaml` and `*.yml`, sorted by name.
fn lesson_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    Ok(files)
}

fn check(dir: &Path) -> i32 {
    let files = match lesson_files(dir) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("kubelab lessons: {message}");
            return 2;
        }
    };
    let mut problems = 0;
    for path in &files {
        let shown = path.display().to_string();
        let diagnostics = match std::fs::read_to_string(path) {
            Ok(text) => lint(&text),
            Err(e) => vec![lint::Diagnostic { line: 1, message: format!("cannot read: {e}") }],
        };
        for diagnostic in &diagnostics {
            println!("{}", diagnostic.render(&shown));
        }
        problems += diagnostics.len();
    }
    let lessons = if files.len() == 1 { "lesson" } else { "lessons" };
    println!("{} {lessons} checked, {problems} problem{}", files.len(), if problems == 1 { "" } else { "s" });
    i32::from(problems > 0)
}
