//! Random ids, session tokens, join codes and resume codes, from the OS's secure generator.
//! Codes people type use an alphabet without look-alikes (no 0/O, 1/I/L) and are read back
//! leniently: any case, spaces and dashes ignored.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use sha2::{Digest, Sha256};

const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// 128 random bits as 32 hex digits: ids of users, classes and labs.
pub fn new_id() -> String {
    hex(&random_bytes::<16>())
}

/// 256 random bits as 64 hex digits: a session cookie's value.
pub fn new_session_token() -> String {
    hex(&random_bytes::<32>())
}

/// What the database keeps of a session token: its SHA-256, so a leaked table signs no one in.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A class's join code, `ABCD-2345` (8 symbols, about 40 bits).
pub fn new_join_code() -> String {
    grouped(&random_symbols(8))
}

/// A learner's resume code, `ABCD-2345-WXYZ` (12 symbols, about 59 bits).
pub fn new_resume_code() -> String {
    grouped(&random_symbols(12))
}

/// A typed code in its stored form; `None` when it holds a symbol no code has.
pub fn normalize_code(typed: &str) -> Option<String> {
    let symbols: String =
        typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
    let valid = !symbols.is_empty() && symbols.len() <= 32 && symbols.bytes().all(|b| CODE_ALPHABET.contains(&b));
    valid.then(|| grouped(&symbols))
}

fn random_symbols(count: usize) -> String {
    let mut symbols = String::with_capacity(count);
    while symbols.len() < count {
        for byte in random_bytes::<16>() {
            // Rejection sampling keeps every symbol equally likely (248 = 8 × 31).
            if byte < 248 && symbols.len() < count {
                symbols.push(char::from(CODE_ALPHABET[usize::from(byte) % CODE_ALPHABET.len()]));
            }
        }
    }
    symbols
}

fn grouped(symbols: &str) -> String {
    let chunks: Vec<&str> =
        symbols.as_bytes().chunks(4).map(|chunk| std::str::from_utf8(chunk).unwrap_or_default()).collect();
    chunks.join("-")
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    OsRng.fill_bytes(&mut bytes);
    bytes
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_look_as_documented() {
        let join = new_join_code();
        assert_eq!(join.len(), 9, "{join}");
        assert_eq!(&join[4..5], "-");
        assert_eq!(new_resume_code().len(), 14);
        assert_eq!(new_id().len(), 32);
        assert_ne!(new_session_token(), new_session_token());
    }

    #[test]
    fn typed_codes_are_read_leniently() {
        assert_eq!(normalize_code(" abcd 2345 ").as_deref(), Some("ABCD-2345"));
        assert_eq!(normalize_code("ABCD-2345-wxyz").as_deref(), Some("ABCD-2345-WXYZ"));
        assert_eq!(normalize_code("AB0D-2345"), None, "0 is never in a code");
        assert_eq!(normalize_code("--"), None);
    }

    #[test]
    fn tokens_are_stored_hashed() {
        let hash = token_hash("abc");
        assert_eq!(hash, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
