//! `$(VAR)` references in env values, expanded as
//! third_party/forked/golang/expansion `Expand` does: `$$` escapes, an unknown name stays as
//! written.

/// Expands `$(NAME)` in `input` with `lookup`.
pub fn expand(input: &str, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            // `$$` is an escaped `$`.
            out.push('$');
            rest = tail;
        } else if let Some(body) = after.strip_prefix('(') {
            match body.find(')') {
                Some(close) => {
                    let name = &body[..close];
                    match lookup(name) {
                        Some(value) => out.push_str(&value),
                        None => out.push_str(&format!("$({name})")),
                    }
                    rest = &body[close + 1..];
                }
                // Unclosed: kept as written.
                None => {
                    out.push_str("$(");
                    rest = body;
                }
            }
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn references_expand_escapes_stay_and_unknown_names_are_kept() {
        let lookup = |name: &str| (name == "A").then(|| "1".to_string());
        for (input, want) in [
            ("$(A)-x", "1-x"),
            ("$$(A)", "$(A)"),
            ("$(B)", "$(B)"),
            ("$(A", "$(A"),
            ("a$b", "a$b"),
            ("$(A)$(A)", "11"),
            ("", ""),
        ] {
            assert_eq!(expand(input, &lookup), want, "{input}");
        }
    }
}
