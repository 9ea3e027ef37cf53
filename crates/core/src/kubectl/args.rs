//! Command-line flags, parsed as kubectl's pflag does: `--flag=v`, `--flag v`, `-n v`, `-nv`,
//! bool flags without a value, `--` ends flags. Each verb declares its flags (with help), so
//! parsing, `--help` and completion read the same table.

use super::usage_error::UsageError;
use std::collections::BTreeMap;

/// One flag a verb accepts.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    pub long: &'static str,
    pub short: Option<char>,
    pub takes_value: bool,
    pub repeatable: bool,
    pub help: &'static str,
}

impl Flag {
    pub const fn value(long: &'static str, short: Option<char>, help: &'static str) -> Flag {
        Flag { long, short, takes_value: true, repeatable: false, help }
    }

    pub const fn repeated(long: &'static str, short: Option<char>, help: &'static str) -> Flag {
        Flag { long, short, takes_value: true, repeatable: true, help }
    }

    pub const fn switch(long: &'static str, short: Option<char>, help: &'static str) -> Flag {
        Flag { long, short, takes_value: false, repeatable: false, help }
    }
}

/// Flags every verb accepts.
pub const GLOBAL_FLAGS: &[Flag] = &[
    Flag::value("namespace", Some('n'), "If present, the namespace scope for this CLI request"),
    Flag::switch("help", Some('h'), "help for this command"),
    Flag::value(
        "as",
        None,
        "Username to impersonate for the operation. User could be a regular user or a service account in a namespace.",
    ),
    Flag::repeated(
        "as-group",
        None,
        "Group to impersonate for the operation, this flag can be repeated to specify multiple groups.",
    ),
];

/// Parsed arguments: positionals in order, flags by long name (last value wins unless repeatable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    pub positionals: Vec<String>,
    /// How many positionals came before a `--` (cobra's `ArgsLenAtDash`); `None` without one.
    pub args_len_at_dash: Option<usize>,
    values: BTreeMap<&'static str, Vec<String>>,
}

impl Args {
    pub fn get(&self, long: &str) -> Option<&str> {
        self.values.get(long).and_then(|v| v.last()).map(String::as_str)
    }

    pub fn all(&self, long: &str) -> &[String] {
        self.values.get(long).map_or(&[], Vec::as_slice)
    }

    pub fn has(&self, long: &str) -> bool {
        self.values.contains_key(long)
    }

    /// Sets a flag the command line left out (the kubeconfig context's namespace).
    pub fn set_default(&mut self, long: &'static str, value: &str) {
        self.values.entry(long).or_insert_with(|| vec![value.to_string()]);
    }

    /// A bool flag: present without value, or `=true`.
    pub fn switch(&self, long: &str) -> bool {
        self.get(long).is_some_and(|v| v == "true")
    }
}

/// Parses `argv` (after the verb) against the verb's flags plus the global ones.
pub fn parse(argv: &[String], flags: &[Flag]) -> Result<Args, String> {
    let lookup_long = |name: &str| flags.iter().chain(GLOBAL_FLAGS).find(|f| f.long == name).copied();
    let lookup_short = |c: char| flags.iter().chain(GLOBAL_FLAGS).find(|f| f.short == Some(c)).copied();
    let mut args = Args::default();
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        if arg == "--" {
            args.args_len_at_dash = Some(args.positionals.len());
            args.positionals.extend(argv[i..].iter().cloned());
            break;
        }
        if let Some(body) = arg.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let flag = lookup_long(name).ok_or_else(|| format!("unknown flag: --{name}"))?;
            let value = flag_value(flag, inline, argv, &mut i, &format!("--{name}"))?;
            store(&mut args, flag, value);
        } else if arg.len() > 1 && arg.starts_with('-') && !is_negative_number(arg) {
            parse_shorthands(&arg[1..], argv, &mut i, &lookup_short, &mut args)?;
        } else {
            args.positionals.push(arg.clone());
        }
    }
    Ok(args)
}

/// An integer flag (`--replicas=3`), with pflag's wording when the value is not one.
pub fn int_flag(args: &Args, long: &str) -> Result<Option<i64>, UsageError> {
    let Some(text) = args.get(long) else { return Ok(None) };
    text.parse::<i64>().map(Some).map_err(|_| {
        UsageError::flag(format!(
            "invalid argument \"{text}\" for \"--{long}\" flag: strconv.ParseInt: parsing \"{text}\": invalid syntax"
        ))
    })
}

/// A duration flag (`--timeout=30s`), Go's syntax; `None` when not given.
pub fn duration_flag(args: &Args, long: &str) -> Result<Option<crate::sim::time::Duration>, UsageError> {
    let Some(text) = args.get(long) else { return Ok(None) };
    crate::sim::time::Duration::parse(text)
        .map(Some)
        .map_err(|e| UsageError::flag(format!("invalid argument \"{text}\" for \"--{long}\" flag: {e}")))
}

fn is_negative_number(arg: &str) -> bool {
    arg[1..].chars().all(|c| c.is_ascii_digit())
}

fn parse_shorthands(
    cluster: &str,
    argv: &[String],
    i: &mut usize,
    lookup: &dyn Fn(char) -> Option<Flag>,
    args: &mut Args,
) -> Result<(), String> {
    let chars = cluster.char_indices();
    for (at, c) in chars {
        let flag = lookup(c).ok_or_else(|| format!("unknown shorthand flag: '{c}' in -{cluster}"))?;
        if flag.takes_value {
            let rest = &cluster[at + c.len_utf8()..];
            let inline = (!rest.is_empty()).then(|| rest.strip_prefix('=').unwrap_or(rest).to_string());
            let value = flag_value(flag, inline, argv, i, &format!("-{c}"))?;
            store(args, flag, value);
            return Ok(());
        }
        if let Some(value) = cluster[at + c.len_utf8()..].strip_prefix('=') {
            // pflag's `-w=false`: a shorthand bool with an inline value.
            let value = flag_value(flag, Some(value.to_string()), argv, i, &format!("-{c}"))?;
            store(args, flag, value);
            return Ok(());
        }
        store(args, flag, "true".to_string());
    }
    Ok(())
}

fn flag_value(
    flag: Flag,
    inline: Option<String>,
    argv: &[String],
    i: &mut usize,
    spelled: &str,
) -> Result<String, String> {
    if !flag.takes_value {
        return match inline.as_deref() {
            None | Some("true") => Ok("true".into()),
            Some("false") => Ok("false".into()),
            Some(other) => Err(format!(
                "invalid argument \"{other}\" for \"{spelled}\" flag: strconv.ParseBool: parsing \"{other}\": invalid syntax"
            )),
        };
    }
    if let Some(value) = inline {
        return Ok(value);
    }
    let value = argv.get(*i).cloned().ok_or_else(|| format!("flag needs an argument: {spelled}"))?;
    *i += 1;
    Ok(value)
}

fn store(args: &mut Args, flag: Flag, value: String) {
    let values = args.values.entry(flag.long).or_default();
    if !flag.repeatable {
        values.clear();
    }
    values.push(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAGS: &[Flag] = &[
        Flag::value("output", Some('o'), ""),
        Flag::repeated("filename", Some('f'), ""),
        Flag::switch("all-namespaces", Some('A'), ""),
    ];

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_parse_in_every_spelling() {
        let args = parse(&argv("pods -n kube-system -owide -f a.yaml --filename=b.yaml -A x"), FLAGS).unwrap();
        assert_eq!(args.positionals, ["pods", "x"]);
        assert_eq!(args.get("namespace"), Some("kube-system"));
        assert_eq!(args.get("output"), Some("wide"));
        assert_eq!(args.all("filename"), ["a.yaml", "b.yaml"]);
        assert!(args.switch("all-namespaces"));
    }

    #[test]
    fn shorthand_bools_take_inline_values_and_ints_parse() {
        let flags = &[Flag::switch("watch", Some('w'), ""), Flag::value("replicas", None, "")];
        let args = parse(&argv("-w=false --replicas 3"), flags).unwrap();
        assert_eq!(args.get("watch"), Some("false"));
        assert_eq!(int_flag(&args, "replicas"), Ok(Some(3)));
        let args = parse(&argv("--replicas=x"), flags).unwrap();
        assert_eq!(
            int_flag(&args, "replicas").unwrap_err(),
            UsageError::flag(
                "invalid argument \"x\" for \"--replicas\" flag: strconv.ParseInt: parsing \"x\": invalid syntax"
            )
        );
    }

    #[test]
    fn unknown_and_incomplete_flags_are_usage_errors() {
        assert_eq!(parse(&argv("--replica 3"), FLAGS).unwrap_err(), "unknown flag: --replica");
        assert_eq!(parse(&argv("-x"), FLAGS).unwrap_err(), "unknown shorthand flag: 'x' in -x");
        assert_eq!(parse(&argv("-o"), FLAGS).unwrap_err(), "flag needs an argument: -o");
    }
}
