//! The lessons compiled into the bundle (`build.rs` lists `lessons/*.yaml`), parsed once at
//! start with the core's lesson format. A file that fails to parse is kept as an error to show.

use kubelab_core::lesson::Lesson;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// A lesson file that did not parse: which file, where, and why.
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
    /// Parses lesson files given as (file name, text) pairs.
    pub fn parse(files: &[(&'static str, &str)]) -> Catalogue {
        let mut catalogue = Catalogue::default();
        for (file, text) in files {
            match Lesson::from_yaml(text) {
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

    #[test]
    fn a_broken_file_is_reported_with_its_line() {
        let catalogue = Catalogue::parse(&[("bad.yaml", "id: x\ncolour: red\n")]);
        assert_eq!(catalogue.broken.len(), 1);
        assert_eq!(catalogue.broken[0].file, "bad.yaml");
        assert!(catalogue.broken[0].line >= 1);
    }
}
