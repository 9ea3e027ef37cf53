//! Permalinks: a lab's seed and script log in the URL's hash (`#/sandbox?log=…`), so opening
//! the link replays the same cluster; a sandbox of another size than three nodes also carries
//! `nodes=` (`sandbox_setup.rs`), and links without it open on three nodes as they always did. The log is a small text format (a version line, the
//! seed, one escaped script per line) in unpadded base64url: no compression library needed,
//! and nothing but the scripts the learner ran is shared.

use kubelab_core::version::BEHAVIOUR_VERSION;

/// The first line of every link's text: this prefix and the simulator's behaviour version
/// (`kubelab-lab-2`), so a link made by an earlier simulator still opens, with a notice.
const HEADER_PREFIX: &str = "kubelab-lab-";
/// Links longer than this are refused before decoding (browsers cut URLs near 2 MB anyway).
const MAX_ENCODED_BYTES: usize = 1 << 20;
const MAX_SCRIPTS: usize = 5000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permalink {
    /// The behaviour version of the simulator that made the link (`BEHAVIOUR_VERSION`).
    pub behaviour: u32,
    pub seed: u64,
    pub scripts: Vec<String>,
}

/// The hash for a lab: `#/lesson/<id>?log=…`, or `#/sandbox?log=…` for free play
/// (`#/sandbox?nodes=500&log=…` on a sandbox of another size).
pub fn hash_for(lesson_id: &str, seed: u64, nodes: usize, scripts: &[String]) -> String {
    let page = match (lesson_id, nodes) {
        ("sandbox", 3) => "sandbox".to_string(),
        ("sandbox", nodes) => format!("sandbox?nodes={nodes}&"),
        (id, _) => format!("lesson/{id}"),
    };
    let separator = if page.ends_with('&') { "" } else { "?" };
    format!("#/{page}{separator}log={}", encode(seed, scripts))
}

/// The `log` parameter of a hash (`#/sandbox?log=…`), when it has one.
pub fn log_parameter(hash: &str) -> Option<&str> {
    let (_, query) = hash.split_once('?')?;
    query.split('&').find_map(|pair| pair.strip_prefix("log="))
}

pub fn encode(seed: u64, scripts: &[String]) -> String {
    let mut text = format!("{HEADER_PREFIX}{BEHAVIOUR_VERSION}\n{seed}");
    for script in scripts {
        text.push('\n');
        text.push_str(&script.replace('\\', "\\\\").replace('\n', "\\n"));
    }
    base64url_encode(text.as_bytes())
}

/// Reads a `log` parameter back; the error says, for a learner, what is wrong with the link.
pub fn decode(encoded: &str) -> Result<Permalink, String> {
    if encoded.len() > MAX_ENCODED_BYTES {
        return Err("the link is too long to be a lab".into());
    }
    let bytes = base64url_decode(encoded).ok_or("the link is damaged (its log is not valid base64url)")?;
    let text = String::from_utf8(bytes).map_err(|_| "the link is damaged (its log is not text)")?;
    let mut lines = text.split('\n');
    let behaviour = lines.next().and_then(|l| l.strip_prefix(HEADER_PREFIX)).and_then(|v| v.parse::<u32>().ok());
    let Some(behaviour) = behaviour.filter(|v| (1..=BEHAVIOUR_VERSION).contains(v)) else {
        return Err("the link is not a kubelab lab, or comes from a newer kubelab".into());
    };
    let seed = lines.next().and_then(|s| s.parse().ok()).ok_or("the link is damaged (no seed)")?;
    let scripts: Vec<String> = lines.map(unescape).collect::<Result<_, _>>()?;
    if scripts.len() > MAX_SCRIPTS {
        return Err(format!("the link holds {} commands; at most {MAX_SCRIPTS} are replayed", scripts.len()));
    }
    Ok(Permalink { behaviour, seed, scripts })
}

fn unescape(line: &str) -> Result<String, String> {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, false) => out.push(c),
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                _ => return Err("the link is damaged (a bad escape in its log)".into()),
            },
        }
    }
    Ok(out)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let value = ALPHABET.iter().position(|a| a == c)? as u32;
            n |= value << (18 - 6 * i);
        }
        out.extend((0..chunk.len() - 1).map(|i| (n >> (16 - 8 * i)) as u8));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_round_trip_with_newlines_and_backslashes() {
        let scripts = vec![
            "kubectl get pods".to_string(),
            "kubectl apply -f - <<EOF\nkind: Pod\nmetadata: {name: a\\b}\nEOF".to_string(),
            "sleep 1m30s".to_string(),
            "lab node power-off node-2 # ünïcode".to_string(),
        ];
        let encoded = encode(7, &scripts);
        assert!(encoded.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{encoded}");
        let behaviour = BEHAVIOUR_VERSION;
        assert_eq!(decode(&encoded), Ok(Permalink { behaviour, seed: 7, scripts: scripts.clone() }));
        assert_eq!(decode(&encode(1, &[])), Ok(Permalink { behaviour, seed: 1, scripts: vec![] }));
        let hash = hash_for("sandbox", 1, 3, &scripts);
        assert!(hash.starts_with("#/sandbox?log="));
        assert_eq!(decode(log_parameter(&hash).unwrap()).unwrap().scripts, scripts);
        assert!(hash_for("pods-are-cattle", 1, 3, &[]).starts_with("#/lesson/pods-are-cattle?log="));
        let sized = hash_for("sandbox", 1, 500, &scripts);
        assert!(sized.starts_with("#/sandbox?nodes=500&log="), "{sized}");
        assert_eq!(crate::pages::sandbox_setup::nodes_in(&sized), 500);
        assert_eq!(decode(log_parameter(&sized).unwrap()).unwrap().scripts, scripts);
    }

    #[test]
    fn base64url_matches_the_standard_vectors() {
        for (plain, coded) in
            [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE")]
        {
            assert_eq!(base64url_encode(plain.as_bytes()), coded);
            assert_eq!(base64url_decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn a_link_from_an_earlier_simulator_still_opens_and_says_so() {
        let old = decode(&base64url_encode(b"kubelab-lab-1\n1\nkubectl get pods")).unwrap();
        assert_eq!((old.behaviour, old.scripts.as_slice()), (1, &["kubectl get pods".to_string()][..]));
        let newer = format!("kubelab-lab-{}\n1", BEHAVIOUR_VERSION + 1);
        assert!(decode(&base64url_encode(newer.as_bytes())).unwrap_err().contains("newer kubelab"));
    }

    #[test]
    fn garbled_links_say_what_is_wrong() {
        assert!(decode("!!!").unwrap_err().contains("not valid base64url"));
        assert!(decode("Zm9vYmE").unwrap_err().contains("not a kubelab lab"));
        assert!(decode(&base64url_encode(b"kubelab-lab-1\nx")).unwrap_err().contains("no seed"));
        assert!(decode(&base64url_encode(b"kubelab-lab-1\n1\nbad \\q")).unwrap_err().contains("bad escape"));
        assert!(decode(&base64url_encode(&[0xff, 0xfe])).unwrap_err().contains("not text"));
        assert!(decode("A").is_err());
        assert_eq!(log_parameter("#/sandbox"), None);
        assert_eq!(log_parameter("#/sandbox?x=1&log=abc"), Some("abc"));
    }
}
