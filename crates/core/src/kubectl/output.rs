//! What a kubectl command produces, as data: tables, documents and text on stdout, messages on
//! stderr, in order, plus an exit code. `render.rs` turns it into what a terminal shows.

use serde_json::Value;

/// A table as kubectl's human-readable printer lays it out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentFormat {
    Yaml,
    Json,
}

/// One piece of stdout.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Lines of plain text (each printed with a trailing newline).
    Text(String),
    /// Bytes printed as they are, with no newline added (`-o jsonpath`, `exec` output).
    Raw(String),
    Table(Table),
    Document(Value, DocumentFormat),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Stdout(Block),
    Stderr(String),
}

/// The result of one command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Output {
    pub items: Vec<Item>,
    pub exit_code: i32,
}

impl Output {
    pub fn line(&mut self, text: impl Into<String>) {
        self.items.push(Item::Stdout(Block::Text(text.into())));
    }

    /// Text printed exactly as given (no trailing newline added).
    pub fn raw(&mut self, text: impl Into<String>) {
        self.items.push(Item::Stdout(Block::Raw(text.into())));
    }

    pub fn table(&mut self, table: Table) {
        self.items.push(Item::Stdout(Block::Table(table)));
    }

    pub fn document(&mut self, value: Value, format: DocumentFormat) {
        self.items.push(Item::Stdout(Block::Document(value, format)));
    }

    /// A message on stderr; does not change the exit code.
    pub fn warn(&mut self, text: impl Into<String>) {
        self.items.push(Item::Stderr(text.into()));
    }

    /// A message on stderr that makes the command fail (exit 1).
    pub fn error(&mut self, text: impl Into<String>) {
        self.items.push(Item::Stderr(text.into()));
        self.exit_code = 1;
    }

    /// An output that is just one failing message.
    pub fn failed(text: impl Into<String>) -> Output {
        let mut out = Output::default();
        out.error(text);
        out
    }

    pub fn succeeded(&self) -> bool {
        self.exit_code == 0
    }

    /// Everything, stdout and stderr interleaved as a terminal shows them.
    pub fn render(&self) -> String {
        super::render::render_items(&self.items, |_| true)
    }

    pub fn stdout(&self) -> String {
        super::render::render_items(&self.items, |i| matches!(i, Item::Stdout(_)))
    }

    pub fn stderr(&self) -> String {
        super::render::render_items(&self.items, |i| matches!(i, Item::Stderr(_)))
    }
}
