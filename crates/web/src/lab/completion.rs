//! Tab completion at the terminal's prompt: replaces the word being typed by the one candidate,
//! or by the candidates' longest common prefix and lists them.

/// The new line after completing its last word with `candidates`, and the candidates to list
/// (empty when the completion was unique).
pub fn apply(line: &str, candidates: &[String]) -> (String, Vec<String>) {
    let start = line.rfind(char::is_whitespace).map_or(0, |at| at + 1);
    let (head, word) = line.split_at(start);
    match candidates {
        [] => (line.to_string(), Vec::new()),
        [only] => (format!("{head}{only} "), Vec::new()),
        many => {
            let prefix = common_prefix(many);
            let word = if prefix.len() > word.len() { prefix } else { word.to_string() };
            (format!("{head}{word}"), many.to_vec())
        }
    }
}

fn common_prefix(words: &[String]) -> String {
    let first = &words[0];
    let mut end = first.len();
    for word in &words[1..] {
        end = end.min(first.bytes().zip(word.bytes()).take_while(|(a, b)| a == b).count());
    }
    while !first.is_char_boundary(end) {
        end -= 1;
    }
    first[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_unique_candidate_completes_the_word() {
        assert_eq!(apply("kubectl ge", &words(&["get"])), ("kubectl get ".into(), vec![]));
        assert_eq!(apply("kubectl get ", &words(&["pods"])), ("kubectl get pods ".into(), vec![]));
    }

    #[test]
    fn several_candidates_extend_to_their_common_prefix() {
        let (line, listed) = apply("kubectl get de", &words(&["deployments", "deployments.apps"]));
        assert_eq!(line, "kubectl get deployments");
        assert_eq!(listed.len(), 2);
        assert_eq!(apply("x", &[]), ("x".into(), vec![]));
    }
}
