//! Go's `text/tabwriter` as kubectl's describers configure it (`minwidth 0, padding 2, padchar
//! ' '`): tab-terminated cells in consecutive lines form a column block padded to its widest
//! cell; the text after a line's last tab belongs to no column. Mirrors `text/tabwriter.format`.

/// Spaces after the widest cell of a column.
const PADDING: usize = 2;

/// Lays out `text` as `tabwriter.Writer` with kubectl's settings would after `Flush`.
pub fn format(text: &str) -> String {
    let (body, ends_with_newline) = match text.strip_suffix('\n') {
        Some(body) => (body, true),
        None => (text, false),
    };
    let lines: Vec<Vec<&str>> = body.split('\n').map(|line| line.split('\t').collect()).collect();
    let mut writer = Writer { lines, widths: Vec::new(), out: String::new() };
    let count = writer.lines.len();
    writer.format(0, count);
    if !ends_with_newline && writer.out.ends_with('\n') {
        writer.out.pop();
    }
    writer.out
}

struct Writer<'a> {
    lines: Vec<Vec<&'a str>>,
    widths: Vec<usize>,
    out: String,
}

impl Writer<'_> {
    /// Whether line `index` has a tab-terminated cell in `column`.
    fn has_cell(&self, index: usize, column: usize) -> bool {
        column + 1 < self.lines[index].len()
    }

    fn format(&mut self, mut line0: usize, line1: usize) {
        let column = self.widths.len();
        let mut this = line0;
        while this < line1 {
            if !self.has_cell(this, column) {
                this += 1;
                continue;
            }
            self.write_lines(line0, this);
            line0 = this;
            let mut width = 0;
            while this < line1 && self.has_cell(this, column) {
                width = width.max(self.lines[this][column].chars().count() + PADDING);
                this += 1;
            }
            self.widths.push(width);
            self.format(line0, this);
            self.widths.pop();
            line0 = this;
        }
        self.write_lines(line0, line1);
    }

    fn write_lines(&mut self, line0: usize, line1: usize) {
        for index in line0..line1 {
            for (column, cell) in self.lines[index].iter().enumerate() {
                self.out.push_str(cell);
                if let Some(width) = self.widths.get(column) {
                    let padding = width.saturating_sub(cell.chars().count());
                    self.out.extend(std::iter::repeat_n(' ', padding));
                }
            }
            self.out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn consecutive_lines_share_column_widths_and_single_cells_break_blocks() {
        let text = "Name:\thello\nNamespace:\tdefault\nIPs:\n  IP:\t10.0.0.1\nEvents:\t<none>\n";
        assert_eq!(format(text), "Name:       hello\nNamespace:  default\nIPs:\n  IP:    10.0.0.1\nEvents:  <none>\n");
    }

    #[test]
    fn empty_cells_pad_and_trailing_padding_is_kept() {
        let text = "Tolerations:\ta\n\tb\nIP:\t\n";
        assert_eq!(format(text), "Tolerations:  a\n              b\nIP:           \n");
    }

    #[test]
    fn nested_columns_align_within_their_block() {
        let text = "  Type\tReason\tAge\n  ----\t------\t---\n  Normal\tScheduled\t5s\n";
        assert_eq!(format(text), "  Type    Reason     Age\n  ----    ------     ---\n  Normal  Scheduled  5s\n");
    }
}
