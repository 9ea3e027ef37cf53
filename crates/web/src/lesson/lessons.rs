//! The lessons compiled into the bundle (`build.rs` turns `lessons/*.yaml` into JSON), read
//! once at start with the core's lesson format. A file that fails is kept as an error to show.

use kubelab_core::lesson::{FormatError, Lesson};
use std::sync::OnceLock;

/// A lesson file as `build.rs` compiles it in: its name, and its JSON or, where its YAML does
/// not parse, (line, column, message).
pub type BundledLesson = (&'static str, Result<&'static str, (usize, usize, &'static str)>);

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// A lesson file that did not parse: which file, where (line 0: not known), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenLesson {
    pub file: &'static str,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Every lesson in file order, and the files that failed to parse.
#[derive(Debug, Default)]
pub struct Catalogue {
    pub lessons: Vec<Lesson>,
    pub broken: Vec<BrokenLesson>,
}

impl Catalogue {
    /// Reads lesson files given as `build.rs` lists them: (file name, JSON or YAML error).
    pub fn parse(files: &[BundledLesson]) -> Catalogue {
        let mut catalogue = Catalogue::default();
        for &(file, ref read) in files {
            let lesson = match *read {
                Ok(json) => Lesson::from_json(json),
                Err((line, column, message)) => Err(FormatError { line, column, message: message.to_string() }),
            };
            match lesson {
                Ok(lesson) => catalogue.lessons.push(lesson),
                Err(err) => catalogue.broken.push(BrokenLesson {
                    file,
                    line: err.line,
                    column: err.column,
                    message: err.message,
                }),
            }
        }
        catalogue
    }

    pub fn find(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|lesson| lesson.id == id)
    }
}

/// The bundle's lessons, parsed on first use.
pub fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| Catalogue::parse(LESSON_FILES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_lesson_parses() {
        let catalogue = catalogue();
        assert!(catalogue.broken.is_empty(), "{:?}", catalogue.broken);
        assert_eq!(catalogue.lessons.len(), LESSON_FILES.len());
        assert!(catalogue.find("apply-to-running").is_some());
    }

    /// The JSON the build made reads exactly as the YAML file does natively.
    #[test]
    fn the_bundled_json_is_the_yaml_lesson() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
        for (file, json) in LESSON_FILES {
            let yaml = std::fs::read_to_string(dir.join(file)).unwrap();
            assert_eq!(Lesson::from_json(json.unwrap()), Lesson::from_yaml(&yaml), "{file}");
        }
    }

    #[test]
    fn broken_files_are_reported() {
        let catalogue = Catalogue::parse(&[
            ("bad.yaml", Ok(r#"{"id": "x", "colour": "red"}"#)),
            ("worse.yaml", Err((2, 7, "did not find expected key"))),
        ]);
        let broken = &catalogue.broken;
        assert_eq!(broken.len(), 2);
        assert_eq!((broken[0].file, broken[0].line), ("bad.yaml", 0));
        assert!(broken[0].message.starts_with("unknown field `colour`"), "{}", broken[0].message);
        assert_eq!((broken[1].file, broken[1].line, broken[1].column), ("worse.yaml", 2, 7));
    }
}
