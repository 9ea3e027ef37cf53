//! Lesson parts: steps, tasks and their checks, predictions, quizzes, the lesson text, the
//! compiled-in lessons and the learner's progress in this browser.

pub mod lessons;
pub mod markdown;
pub mod prediction_panel;
pub mod progress;
pub mod quiz_panel;
pub mod quiz_results;
pub mod step_panel;
pub mod task_panel;
