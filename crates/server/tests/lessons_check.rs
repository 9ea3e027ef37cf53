//! `kubelab lessons check` as a lesson author runs it: on the broken fixtures it prints each
//! problem with file and line (the same report the core's lessons test keeps in
//! `expected.txt`), a count, and exits 1; a folder that does not exist exits 2. The curriculum
//! itself is replayed once, by the core's lessons test, not again here.

use std::path::Path;
use std::process::Command;

fn lessons_check(cwd: &Path, dir: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kubelab"))
        .args(["lessons", "check", dir])
        .current_dir(cwd)
        .output()
        .expect("run kubelab");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

#[test]
fn the_broken_fixtures_are_reported_with_file_and_line() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests");
    let expected = std::fs::read_to_string(tests.join("fixtures/lessons/expected.txt")).unwrap();
    let lessons = std::fs::read_dir(tests.join("fixtures/lessons"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "yaml"))
        .count();
    let problems = expected.lines().count();
    let (code, stdout, _) = lessons_check(&tests, "fixtures/lessons");
    assert_eq!(stdout, format!("{expected}{lessons} lessons checked, {problems} problems\n"));
    assert_eq!(code, 1);
}

#[test]
fn a_missing_folder_is_named() {
    let (code, stdout, stderr) = lessons_check(Path::new(env!("CARGO_MANIFEST_DIR")), "no-such-lessons");
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.starts_with("kubelab lessons: no-such-lessons: "), "{stderr}");
}
