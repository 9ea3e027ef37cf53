//! The app's shell, its hash routes and its pages: the catalogue, a lesson, the sandbox, about.

pub mod about_page;
pub mod app;
pub mod catalogue_page;
pub mod challenge_page;
pub mod error_panel;
pub mod header;
pub mod lesson_page;
pub mod panic_report;
pub mod route;
pub mod sandbox_form;
pub mod sandbox_page;
pub mod sandbox_setup;
