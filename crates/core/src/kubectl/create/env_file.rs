//! `--from-env-file`: `KEY=value` lines read into a ConfigMap's or Secret's data, as kubectl's
//! `AddFromEnvFile` (staging/src/k8s.io/kubectl/pkg/cmd/util/env_file.go) reads them: leading
//! space trimmed, blank lines and `#` comments skipped, each key a valid env var name. A line
//! without `=` takes its value from kubectl's own environment, which in the lab is empty.

use crate::kubectl::Context;

const ENV_VAR_NAME_RULE: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/// The pairs of every env file named, in order.
pub fn read_all(ctx: &Context<'_>, paths: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut entries = Vec::new();
    for path in paths {
        if ctx.files.list_dir(path).is_some() {
            return Err("error: env config file cannot be a directory".to_string());
        }
        let text =
            ctx.files.read_file(path).map_err(|_| format!("error: error reading {path}: no such file or directory"))?;
        entries.extend(parse(&text)?);
    }
    Ok(entries)
}

/// One file's pairs.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = if number == 0 { line.trim_start_matches('\u{feff}') } else { line };
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        if let Some(problem) = env_var_name_problem(key) {
            return Err(format!("error: {key:?} is not a valid key name: {problem}"));
        }
        entries.push((key.to_string(), value.to_string()));
    }
    Ok(entries)
}

/// `validation.IsEnvVarName`'s complaint, if any.
fn env_var_name_problem(key: &str) -> Option<String> {
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || "-._".contains(c));
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c));
    let mut problems = Vec::new();
    if !(first_ok && rest_ok) {
        problems.push(ENV_VAR_NAME_RULE.to_string());
    }
    match key {
        "." => problems.push("must not be '.'".to_string()),
        ".." => problems.push("must not be '..'".to_string()),
        _ if key.starts_with("..") => problems.push("must not start with '..'".to_string()),
        _ => {}
    }
    (!problems.is_empty()).then(|| problems.join(";"))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn lines_become_pairs_as_kubectl_reads_them() {
        let text = "\u{feff}# settings\nGREETING=hi there\n\n   LOG_LEVEL=info=verbose\nEMPTY\n";
        let pairs = parse(text).unwrap();
        let expected = [("GREETING", "hi there"), ("LOG_LEVEL", "info=verbose"), ("EMPTY", "")];
        assert_eq!(pairs, expected.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(
            parse("1ST=x").unwrap_err(),
            "error: \"1ST\" is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"
        );
    }
}
