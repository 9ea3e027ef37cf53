//! Tab completion for a terminal line: the line's first word (`kubectl`, `helm`, `sleep`,
//! `lab`), then kubectl's or helm's own completion.

use crate::sim::Sim;

/// What a line may start with.
const FIRST_WORDS: &[&str] = &["helm", "kubectl", "lab", "sleep"];

/// Candidates for the word under the cursor, sorted; each replaces that whole word.
pub fn complete(sim: &Sim, line: &str, cursor: usize) -> Vec<String> {
    let Some(typed) = line.get(..cursor.min(line.len())) else { return Vec::new() };
    let mut words: Vec<&str> = typed.split_whitespace().collect();
    let current = if typed.ends_with(char::is_whitespace) || typed.is_empty() { "" } else { words.pop().unwrap_or("") };
    match words.first() {
        None => FIRST_WORDS.iter().filter(|w| w.starts_with(current)).map(|w| w.to_string()).collect(),
        Some(&"kubectl") => crate::kubectl::complete(sim, line, cursor),
        Some(&"helm") => crate::helm::complete::candidates(sim, &words[1..], current),
        Some(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::ClusterSpec;

    #[test]
    fn first_words_then_helm_commands_charts_and_flags() {
        let sim = Sim::new(1, &ClusterSpec::default());
        assert_eq!(complete(&sim, "he", 2), ["helm"]);
        assert_eq!(complete(&sim, "helm in", 7), ["install"]);
        assert_eq!(complete(&sim, "helm get ", 9), ["manifest", "notes", "values"]);
        assert_eq!(complete(&sim, "helm install web ", 17), ["kubelab/hello", "kubelab/nginx"]);
        assert_eq!(complete(&sim, "helm upgrade web kubelab/hello --re", 35), ["--reset-values", "--reuse-values"]);
        assert_eq!(complete(&sim, "kubectl ge", 10), ["get"]);
    }
}
