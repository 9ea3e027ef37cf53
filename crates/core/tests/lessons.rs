//! Lessons are tests: every lesson in `lessons/` passes the linter (its tasks are not done on
//! arrival and are done by their solutions; its predictions have exactly one true choice), a
//! lesson whose solution does nothing fails it, the broken fixtures in `tests/fixtures/lessons/`
//! report each kind of problem with file and line, and `lessons/lesson.schema.json` is current.
//!
//! `KUBELAB_BLESS=1 cargo test -p kubelab-core --test lessons` rewrites the schema and the
//! fixtures' expected report; `KUBELAB_LESSONS=20-` replays only the lessons whose file name
//! contains it (while writing one).

mod support;

use kubelab_core::lesson::{Lesson, lint, schema};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

/// `KUBELAB_LESSONS`: replay only the files whose name contains it.
fn only() -> Option<String> {
    std::env::var("KUBELAB_LESSONS").ok().filter(|s| !s.is_empty())
}

/// The curriculum's files (those `KUBELAB_LESSONS` names, when set).
fn lesson_files() -> Vec<PathBuf> {
    let mut files = yaml_files(&repo().join("lessons"));
    files.retain(|p| only().is_none_or(|only| p.to_string_lossy().contains(&only)));
    files
}

fn bless() -> bool {
    std::env::var_os("KUBELAB_BLESS").is_some()
}

/// Compares `actual` with a committed file, or rewrites it when blessing.
fn golden(path: &Path, actual: &str) {
    if bless() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} is out of date (KUBELAB_BLESS=1 cargo test -p kubelab-core --test lessons rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

#[test]
fn every_lesson_passes_the_linter() {
    let files = lesson_files();
    assert!(files.len() >= 2 || only().is_some(), "lessons/ holds the curriculum");
    let problems = support::parallel_map(&files, |path| {
        let text = std::fs::read_to_string(path).unwrap();
        lint(&text).iter().map(|d| d.render(&path.display().to_string())).collect::<Vec<String>>()
    });
    let problems = problems.concat();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The linter refuses a task that is done on arrival, so a solution that does nothing fails every
/// task of a lesson that passes it; this proves that rule on the first lesson only (every lesson
/// again would double the replay time of the whole curriculum).
#[test]
fn a_solution_that_does_nothing_fails_the_linter() {
    let mut tasks = 0;
    for path in lesson_files().into_iter().take(1) {
        let lesson = Lesson::from_yaml(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (i, step) in lesson.steps.iter().enumerate().filter(|(_, s)| s.task.is_some()) {
            let mut broken = lesson.clone();
            broken.steps[i].task.as_mut().unwrap().solution = "# nothing\n".into();
            let mut text = Vec::new();
            let mut serializer = serde_yaml::Serializer::new(&mut text);
            serde_yaml::with::singleton_map_recursive::serialize(&broken, &mut serializer).unwrap();
            let problems = lint(&String::from_utf8(text).unwrap());
            assert!(
                problems.iter().any(|d| d.message.starts_with("the solution does not complete the task")),
                "{}: step {:?} with a no-op solution passed: {problems:?}",
                path.display(),
                step.title
            );
            tasks += 1;
        }
    }
    assert!(tasks >= 2);
}

#[test]
fn broken_lessons_report_each_problem_with_file_and_line() {
    let dir = repo().join("crates/core/tests/fixtures/lessons");
    let mut report = String::new();
    for path in yaml_files(&dir) {
        let name = format!("fixtures/lessons/{}", path.file_name().unwrap().to_string_lossy());
        for diagnostic in lint(&std::fs::read_to_string(&path).unwrap()) {
            report.push_str(&diagnostic.render(&name));
            report.push('\n');
        }
    }
    golden(&dir.join("expected.txt"), &report);
}

#[test]
fn the_committed_schema_is_current() {
    golden(&repo().join("lessons/lesson.schema.json"), &schema::lesson_schema_json());
}
