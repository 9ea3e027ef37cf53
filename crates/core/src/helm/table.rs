//! gosuri/uitable as Helm prints its tables: every cell padded to its column's width
//! (the last too), columns joined by a tab, rows by newlines, one newline after.

/// The table's text; `max_width` (0 for none) cuts longer cells with `...`.
pub fn render(rows: &[Vec<String>], max_width: usize) -> String {
    let cell = |text: &str| -> String {
        if max_width > 0 && text.chars().count() > max_width {
            let kept: String = text.chars().take(max_width.saturating_sub(3)).collect();
            format!("{kept}...")
        } else {
            text.to_string()
        }
    };
    let rows: Vec<Vec<String>> = rows.iter().map(|row| row.iter().map(|c| cell(c)).collect()).collect();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| rows.iter().filter_map(|row| row.get(i)).map(|c| c.chars().count()).max().unwrap_or(0))
        .collect();
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{c}{}", " ".repeat(widths[i] - c.chars().count())))
                .collect();
            cells.join("\t")
        })
        .collect();
    format!("{}\n", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_pad_to_their_column_and_tabs_separate() {
        let rows = vec![vec!["NAME".into(), "URL".into()], vec!["kubelab".into(), "https://x".into()]];
        assert_eq!(super::render(&rows, 0), "NAME   \tURL      \nkubelab\thttps://x\n");
        assert_eq!(super::render(&[vec!["abcdefgh".into()]], 6), "abc...\n");
    }
}
