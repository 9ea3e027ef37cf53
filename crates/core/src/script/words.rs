//! Shell-style word splitting for script lines and the terminal: spaces separate words;
//! single quotes keep everything; double quotes keep all but `\"` and `\\`; backslash escapes.

/// Splits a command line into words, or says why it cannot.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => current.push(ch),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => current.push(ch),
                            Some(ch) => {
                                current.push('\\');
                                current.push(ch);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(ch) => current.push(ch),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(ch) = chars.next() {
                    current.push(ch);
                }
            }
            _ => {
                in_word = true;
                current.push(c);
            }
        }
    }
    if in_word {
        words.push(current);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_works_like_a_shell() {
        assert_eq!(split("get pods -l 'app in (a,b)'").unwrap(), ["get", "pods", "-l", "app in (a,b)"]);
        assert_eq!(split(r#"patch cm x -p "{\"a\":1}""#).unwrap(), ["patch", "cm", "x", "-p", "{\"a\":1}"]);
        assert_eq!(split("a\\ b  c").unwrap(), ["a b", "c"]);
        assert_eq!(split("''").unwrap(), [""]);
        assert!(split("'open").is_err());
        assert_eq!(split("get pods -w   # a comment").unwrap(), ["get", "pods", "-w"]);
        assert_eq!(split("echo a#b").unwrap(), ["echo", "a#b"]);
    }
}
