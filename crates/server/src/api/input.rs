//! Checks on what people send: each returns the cleaned value or a 400 whose detail names
//! the field and the rule, so a form can show it next to the field.

use super::problem::{ApiError, ApiResult};

/// A display name as the dashboard shows it: NFC, without control or format characters (bidi
/// overrides that would reorder a class list, zero-width spaces that make two names look alike)
/// except the ZWNJ and ZWJ that Persian words and emoji sequences need; trimmed; 1–60
/// characters.
pub fn display_name(field: &str, text: &str) -> ApiResult<String> {
    use unicode_normalization::UnicodeNormalization;
    let kept: String = text.nfc().filter(|c| !c.is_control() && !is_format(*c)).collect();
    let text = kept.trim();
    let count = text.chars().count();
    if count == 0 || count > 60 {
        return Err(bad(field, "must be 1 to 60 characters"));
    }
    Ok(text.to_string())
}

/// Unicode's format characters (General Category Cf), but ZWNJ and ZWJ.
fn is_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{0600}'..='\u{0605}' | '\u{061C}' | '\u{06DD}' | '\u{070F}' | '\u{0890}'..='\u{0891}'
        | '\u{08E2}' | '\u{180E}' | '\u{200B}' | '\u{200E}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}' | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// An email address, lower-cased: one `@`, a dot in the domain, no spaces, at most 254 bytes.
pub fn email(text: &str) -> ApiResult<String> {
    let text = text.trim().to_lowercase();
    let valid = text.len() <= 254
        && !text.chars().any(|c| c.is_whitespace() || c.is_control())
        && text.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && !domain.contains('@') && domain.contains('.') && !domain.starts_with('.')
        });
    if valid { Ok(text) } else { Err(bad("email", "is not an email address")) }
}

/// A new password: 8 to 1024 characters (long enough to resist guessing, short enough that
/// hashing it cannot be used to burn the server's CPU), and not one that guessing tries first.
pub fn new_password(text: &str) -> ApiResult<&str> {
    let count = text.chars().count();
    if count < 8 {
        return Err(bad("password", "must be at least 8 characters"));
    }
    if count > 1024 {
        return Err(bad("password", "must be at most 1024 characters"));
    }
    if is_common(text) {
        return Err(bad("password", "is one of the first that guessing tries; choose one others would not"));
    }
    Ok(text)
}

/// What a guesser tries first: one character repeated, a run along the keyboard or the
/// alphabet (either way), or one of the most common passwords of eight characters or more.
fn is_common(text: &str) -> bool {
    let lower = text.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let repeated = chars.iter().all(|c| *c == chars[0]);
    let step = |d: i32| chars.windows(2).all(|w| w[1] as i32 - w[0] as i32 == d);
    let keyboard = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"];
    let along_keys =
        keyboard.iter().any(|row| row.contains(&lower) || row.chars().rev().collect::<String>().contains(&lower));
    repeated || step(1) || step(-1) || along_keys || COMMON.contains(&lower.as_str())
}

/// The commonest passwords of at least eight characters in published breach corpora.
const COMMON: &[&str] = &[
    "password",
    "password1",
    "password12",
    "password123",
    "passw0rd",
    "p@ssw0rd",
    "p@ssword",
    "iloveyou",
    "sunshine",
    "princess",
    "football",
    "baseball",
    "welcome1",
    "welcome123",
    "letmein1",
    "trustno1",
    "superman",
    "starwars",
    "whatever",
    "qwerty123",
    "qwerty12",
    "1q2w3e4r",
    "1qaz2wsx",
    "abc12345",
    "abcd1234",
    "11223344",
    "12341234",
    "123123123",
    "123456789",
    "1234567890",
    "987654321",
    "00000000",
    "iloveyou1",
    "master12",
    "monkey12",
    "dragon12",
    "shadow12",
    "michael1",
    "charlie1",
    "jennifer",
    "computer",
    "internet",
    "changeme",
    "kubernetes",
    "administrator",
    "qwertyuiop",
    "zaq12wsx",
    "asdf1234",
];

/// A name-like token (lesson ids, event kinds' items): 1–`max` printable characters.
pub fn token(field: &str, text: &str, max: usize) -> ApiResult<String> {
    let count = text.chars().count();
    if count == 0 || count > max {
        return Err(bad(field, &format!("must be 1 to {max} characters")));
    }
    if text.chars().any(char::is_control) {
        return Err(bad(field, "must not contain control characters"));
    }
    Ok(text.to_string())
}

pub fn bad(field: &str, rule: &str) -> ApiError {
    ApiError::BadRequest(format!("{field} {rule}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert_eq!(email(" Ada@Example.org ").unwrap(), "ada@example.org");
        for bad in ["ada", "ada@", "@example.org", "ada@example", "a b@example.org", "a@b@c.org"] {
            assert!(email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_and_passwords() {
        assert_eq!(display_name("display_name", "  Ada  ").unwrap(), "Ada");
        let err = display_name("display_name", "").unwrap_err();
        assert!(matches!(err, ApiError::BadRequest(ref d) if d == "display_name must be 1 to 60 characters"));
        assert_eq!(display_name("display_name", "a\u{7}b").unwrap(), "ab");
        // A bidi override would show "Bob" reversed in every list; a zero-width space makes a twin.
        assert_eq!(display_name("display_name", "\u{202E}boB\u{202C}").unwrap(), "boB");
        assert_eq!(display_name("display_name", "Ad\u{200B}a").unwrap(), "Ada");
        // One spelling however it was typed: e + combining acute is é.
        assert_eq!(display_name("display_name", "Zoe\u{301}").unwrap(), "Zo\u{e9}");
        // Persian needs ZWNJ; a family emoji is joined by ZWJ.
        assert_eq!(display_name("display_name", "می\u{200C}خواهم").unwrap(), "می\u{200C}خواهم");
        assert_eq!(display_name("display_name", "👩\u{200D}👧").unwrap(), "👩\u{200D}👧");
        assert!(display_name("display_name", "\u{200B}\u{FEFF}").is_err(), "nothing left is no name");
        assert!(new_password("short").is_err());
        assert!(new_password("long enough").is_ok());
        for guessed in ["aaaaaaaa", "12345678", "87654321", "abcdefgh", "qwertyui", "Password1", "iloveyou"] {
            assert!(new_password(guessed).is_err(), "{guessed}");
        }
        assert!(new_password("correct horse").is_ok());
    }
}
