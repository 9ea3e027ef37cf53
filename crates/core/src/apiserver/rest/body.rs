//! A request body read by its Content-Type: protobuf from typed clients (client-go's, so
//! `kubectl create deployment` and `kubectl drain`'s Evictions), YAML for server-side apply's
//! configuration and `application/yaml`, JSON otherwise. A JSON body that does not parse is refused with the
//! words Go's encoding/json uses, which the API server passes on
//! (`couldn't get version/kind; json parse error: unexpected end of JSON input`).

use crate::error::ApiError;
use serde_json::Value;

/// The body as a JSON value.
pub fn parse(body: &[u8], content_type: &str) -> Result<Value, ApiError> {
    if crate::api::protobuf::is_protobuf(content_type) {
        return crate::api::protobuf::decode(body).map_err(|message| ApiError::BadRequest { message });
    }
    let refuse = |detail: String| ApiError::BadRequest {
        message: format!("couldn't get version/kind; json parse error: {detail}"),
    };
    let text = std::str::from_utf8(body).map_err(|_| refuse("invalid UTF-8 in string".into()))?;
    let media = content_type.split(';').next().unwrap_or("").trim();
    if media.ends_with("yaml") {
        return serde_yaml::from_str(text).map_err(|e| refuse(e.to_string()));
    }
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        // A client that names no type may have sent YAML (kube-apiserver would refuse it;
        // curl users forget the header more often than they send YAML on purpose).
        Err(_) if media.is_empty() && serde_yaml::from_str::<Value>(text).is_ok() => {
            serde_yaml::from_str(text).map_err(|e| refuse(e.to_string()))
        }
        Err(error) => Err(refuse(go_json_error(text, &error))),
    }
}

/// What Go's encoding/json says of the same mistake.
fn go_json_error(text: &str, error: &serde_json::Error) -> String {
    if error.is_eof() {
        return "unexpected end of JSON input".into();
    }
    let offending = offending_char(text, error.line(), error.column());
    let serde = error.to_string();
    let context = if serde.starts_with("expected `:`") {
        "after object key"
    } else if serde.starts_with("expected `,` or `}`") {
        "after object key:value pair"
    } else if serde.starts_with("key must be a string") {
        "looking for beginning of object key string"
    } else if serde.starts_with("expected `,` or `]`") {
        "after array element"
    } else if serde.starts_with("trailing characters") {
        "after top-level value"
    } else {
        "looking for beginning of value"
    };
    match offending {
        Some(c) => format!("invalid character {} {context}", go_quote_char(c)),
        None => "unexpected end of JSON input".into(),
    }
}

/// The character at serde's line and column (both 1-based).
fn offending_char(text: &str, line: usize, column: usize) -> Option<char> {
    text.lines().nth(line.checked_sub(1)?)?.chars().nth(column.checked_sub(1)?)
}

/// Go's `quoteChar`: `'x'`, with `\'` and `\"` escaped and control characters as `\x..`.
fn go_quote_char(c: char) -> String {
    match c {
        '\'' => r"'\''".into(),
        '"' => r#"'"'"#.into(),
        c if c.is_control() => format!("'\\x{:02x}'", c as u32),
        c => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(body: &str) -> String {
        parse(body.as_bytes(), "application/json").unwrap_err().to_string()
    }

    #[test]
    fn malformed_json_is_refused_in_go_encoding_json_words() {
        let cases = [
            (r#"{"kind": "#, "unexpected end of JSON input"),
            (r#"{"kind" "Pod"}"#, "invalid character '\"' after object key"),
            (r#"{"kind": "Pod" "x": 1}"#, "invalid character '\"' after object key:value pair"),
            (r#"{kind: "Pod"}"#, "invalid character 'k' looking for beginning of object key string"),
            (r#"{"kind": Pod}"#, "invalid character 'P' looking for beginning of value"),
            (r#"{"a": [1 2]}"#, "invalid character '2' after array element"),
        ];
        for (body, want) in cases {
            assert_eq!(
                refusal(body),
                format!("Error from server (BadRequest): couldn't get version/kind; json parse error: {want}"),
                "{body}"
            );
        }
    }

    #[test]
    fn yaml_is_read_where_its_type_says_so() {
        let value = parse(b"kind: Pod\nmetadata:\n  name: web\n", "application/apply-patch+yaml").unwrap();
        assert_eq!(value["metadata"]["name"], "web");
        assert!(parse(b"kind: Pod\n", "application/json").is_err());
    }
}
