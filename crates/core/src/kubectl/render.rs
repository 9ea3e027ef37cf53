//! The one renderer: tables padded as kubectl's tabwriter pads them (3 spaces between
//! columns), YAML with sorted keys, JSON indented by 4 spaces, as kubectl prints.

use super::output::{Block, DocumentFormat, Item, Table};
use serde::Serialize;
use serde_json::Value;

pub fn render_items(items: &[Item], keep: impl Fn(&Item) -> bool) -> String {
    let mut text = String::new();
    for item in items.iter().filter(|i| keep(i)) {
        match item {
            Item::Stdout(block) => text.push_str(&render_block(block)),
            Item::Stderr(message) => {
                text.push_str(message);
                text.push('\n');
            }
        }
    }
    text
}

pub fn render_block(block: &Block) -> String {
    match block {
        Block::Text(line) => format!("{line}\n"),
        Block::Raw(text) => text.clone(),
        Block::Table(table) => render_table(table),
        Block::Document(value, DocumentFormat::Yaml) => to_yaml(value),
        Block::Document(value, DocumentFormat::Json) => format!("{}\n", to_json(value)),
    }
}

/// Columns left-aligned, padded to the widest cell plus 3 spaces; the last column unpadded.
pub fn render_table(table: &Table) -> String {
    let columns = table.headers.len();
    let mut widths: Vec<usize> = table.headers.iter().map(|h| h.chars().count()).collect();
    for row in &table.rows {
        for (i, cell) in row.iter().enumerate().take(columns) {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in std::iter::once(&table.headers).chain(table.rows.iter()) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate().take(columns) {
            line.push_str(cell);
            if i + 1 < columns {
                line.push_str(&" ".repeat(widths[i] - cell.chars().count() + 3));
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// go-yaml v2's output, as kubectl prints (see yaml.rs).
pub fn to_yaml(value: &Value) -> String {
    super::yaml::to_yaml(value)
}

pub fn to_json(value: &Value) -> String {
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    if value.serialize(&mut serializer).is_err() {
        return String::new();
    }
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_pad_like_tabwriter() {
        let table = Table {
            headers: vec!["NAME".into(), "READY".into(), "STATUS".into()],
            rows: vec![vec!["hello-pod".into(), "1/1".into(), "Running".into()]],
        };
        assert_eq!(render_table(&table), "NAME        READY   STATUS\nhello-pod   1/1     Running\n");
    }
}
