//! The lessons `kubelab serve --lessons DIR` offers: each parsed (hosted labs start from them)
//! and kept as written (the web app fetches the text and reads it with the same parser, so an
//! instructor's own lessons appear beside the built-in ones).

use kubelab_core::lesson::Lesson;
use serde::Serialize;
use std::path::Path;

#[derive(Clone, Debug, Serialize)]
pub struct LessonSource {
    pub id: String,
    pub title: String,
    /// The lesson file's text (YAML).
    pub source: String,
    #[serde(skip)]
    pub lesson: Lesson,
}

#[derive(Clone, Debug, Default)]
pub struct LessonLibrary {
    /// In file-name order, as `lessons/` numbers them.
    pub lessons: Vec<LessonSource>,
}

impl LessonLibrary {
    /// Reads every `*.yaml`/`*.yml` in the folder; a file that does not parse is logged and
    /// skipped (`kubelab lessons check` says why).
    pub fn load(dir: &Path) -> LessonLibrary {
        let Ok(entries) = std::fs::read_dir(dir) else {
            tracing::warn!(dir = %dir.display(), "cannot read the lessons folder; hosted labs offer the sandbox only");
            return LessonLibrary::default();
        };
        let mut paths: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        paths.sort();
        let mut library = LessonLibrary::default();
        for path in paths {
            match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|text| library.add(text)) {
                Ok(()) => {}
                Err(error) => tracing::warn!(file = %path.display(), %error, "skipping a lesson that does not load"),
            }
        }
        tracing::info!(count = library.lessons.len(), dir = %dir.display(), "lessons loaded");
        library
    }

    /// Adds a lesson from its text; a later lesson with the same id replaces the earlier one.
    pub fn add(&mut self, source: String) -> Result<(), String> {
        let lesson = Lesson::from_yaml(&source).map_err(|e| format!("line {}:{}: {}", e.line, e.column, e.message))?;
        self.lessons.retain(|known| known.id != lesson.id);
        self.lessons.push(LessonSource { id: lesson.id.clone(), title: lesson.title.clone(), source, lesson });
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|known| known.id == id).map(|known| &known.lesson)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_the_repository_lessons_in_order() {
        let library = LessonLibrary::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lessons"));
        assert!(library.lessons.len() >= 7, "{}", library.lessons.len());
        let ids: Vec<&str> = library.lessons.iter().map(|l| l.id.as_str()).collect();
        assert!(library.get(ids[0]).is_some());
        assert!(library.lessons[0].source.contains(&format!("id: {}", ids[0])));
    }

    #[test]
    fn a_broken_lesson_says_where() {
        let mut library = LessonLibrary::default();
        let error = library.add("id: x\ntitle: X\nsteps: 3\n".into()).unwrap_err();
        assert!(error.starts_with("line 3:"), "{error}");
        assert!(library.lessons.is_empty());
    }
}
