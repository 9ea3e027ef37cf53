//! The query string of an API request, decoded (`application/x-www-form-urlencoded`) into the
//! options kube-apiserver reads from it: `metav1.ListOptions`, `CreateOptions`,
//! `UpdateOptions`, `PatchOptions`, `DeleteOptions` and the log and watch parameters.

use crate::api::Kind;
use crate::api::labels::Selector;
use crate::apiserver::request::Options;
use crate::error::ApiError;
use crate::store::{FieldSelector, PropagationPolicy};

/// The decoded parameters, in the order they came, a name repeated as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    pub fn parse(query: &str) -> Query {
        let pairs = query.split('&').filter(|p| !p.is_empty()).map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        });
        Query(pairs.collect())
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Every value of `name` (`command=sh&command=-c`).
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.0.iter().filter(|(n, _)| n == name).map(|(_, v)| v.as_str()).collect()
    }

    /// A boolean parameter: `true`/`1` (Go's strconv.ParseBool), absent is false.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some("true" | "1" | "t" | "T" | "TRUE" | "True"))
    }

    /// A whole-number parameter, with the API server's wording when it is not one.
    pub fn number(&self, name: &str) -> Result<Option<i64>, ApiError> {
        self.get(name)
            .filter(|v| !v.is_empty())
            .map(|v| {
                v.parse::<i64>().map_err(|_| ApiError::BadRequest {
                    message: format!("strconv.ParseInt: parsing {v:?}: invalid syntax"),
                })
            })
            .transpose()
    }

    /// The options a request of `kind` carries.
    pub fn options(&self, kind: Kind) -> Result<Options, ApiError> {
        let bad = |message: String| ApiError::BadRequest { message };
        let mut options = Options::default();
        if let Some(text) = self.get("labelSelector").filter(|s| !s.is_empty()) {
            options.label_selector = Selector::parse(text).map_err(|e| bad(e.to_string()))?;
        }
        if let Some(text) = self.get("fieldSelector").filter(|s| !s.is_empty()) {
            options.field_selector = FieldSelector::parse(text, kind).map_err(bad)?;
        }
        options.limit = self.number("limit")?.filter(|l| *l > 0).map(|l| l as usize);
        options.continue_token = self.get("continue").filter(|c| !c.is_empty()).map(String::from);
        options.dry_run = match self.get("dryRun") {
            None | Some("") => false,
            Some("All") => true,
            Some(other) => return Err(bad(format!("Invalid dry run value: {other}"))),
        };
        options.field_manager = self.get("fieldManager").filter(|m| !m.is_empty()).map(String::from);
        options.force = self.flag("force");
        options.delete.grace_period_seconds = self.number("gracePeriodSeconds")?;
        options.delete.propagation_policy = propagation_policy(self.get("propagationPolicy").unwrap_or(""))?;
        Ok(options)
    }
}

/// A delete's `propagationPolicy` (absent: Background), from its query or its body.
pub fn propagation_policy(value: &str) -> Result<PropagationPolicy, ApiError> {
    match value {
        "" | "Background" => Ok(PropagationPolicy::Background),
        "Foreground" => Ok(PropagationPolicy::Foreground),
        "Orphan" => Ok(PropagationPolicy::Orphan),
        other => Err(ApiError::BadRequest {
            message: format!(
                "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"{other}\": supported values: \"Foreground\", \"Background\", \"Orphan\""
            ),
        }),
    }
}

/// Percent-decoding, with `+` as a space.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(high), Some(low)) => {
                    out.push(high * 16 + low);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(digit: u8) -> Option<u8> {
    (digit as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_and_repeated_names_decode() {
        let q = Query::parse("labelSelector=app%3Dweb%2Ctier+in+%28a%29&command=sh&command=-c&limit=500");
        assert_eq!(q.get("labelSelector"), Some("app=web,tier in (a)"));
        assert_eq!(q.all("command"), ["sh", "-c"]);
        assert_eq!(q.number("limit").unwrap(), Some(500));
        assert_eq!(decode("100%"), "100%");
        assert_eq!(decode("%zz"), "%zz");
    }

    #[test]
    fn a_bad_option_is_a_bad_request() {
        let q = Query::parse("dryRun=Some");
        assert_eq!(
            q.options(Kind::Pod).unwrap_err(),
            ApiError::BadRequest { message: "Invalid dry run value: Some".into() }
        );
    }
}
