//! Checks on what people send: each returns the cleaned value or a 400 whose detail names
//! the field and the rule, so a form can show it next to the field.

use super::problem::{ApiError, ApiResult};

/// A display name: trimmed, 1–60 characters, no control characters.
pub fn display_name(field: &str, text: &str) -> ApiResult<String> {
    let text = text.trim();
    let count = text.chars().count();
    if count == 0 || count > 60 {
        return Err(bad(field, "must be 1 to 60 characters"));
    }
    if text.chars().any(char::is_control) {
        return Err(bad(field, "must not contain control characters"));
    }
    Ok(text.to_string())
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
/// hashing it cannot be used to burn the server's CPU).
pub fn new_password(text: &str) -> ApiResult<&str> {
    let count = text.chars().count();
    if count < 8 {
        return Err(bad("password", "must be at least 8 characters"));
    }
    if count > 1024 {
        return Err(bad("password", "must be at most 1024 characters"));
    }
    Ok(text)
}

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
        assert!(display_name("display_name", "a\u{7}b").is_err());
        assert!(new_password("short").is_err());
        assert!(new_password("long enough").is_ok());
    }
}
