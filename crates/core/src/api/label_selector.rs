//! `LabelSelector`, the matchLabels/matchExpressions API type of Deployments, ReplicaSets, affinity and topology spread, ported from metav1 (helpers.go LabelSelectorAsSelector, validation.go ValidateLabelSelector).

use crate::api::labels::{
    Operator, Requirement, Selector, SelectorError, go_quote, invalid_body, validate_label_key, validate_label_value,
};
use crate::api::string_map::StringMap;
use serde::{Deserialize, Deserializer, Serialize};

/// A label query: `matchLabels` entries and `matchExpressions` requirements, all ANDed.
/// An empty selector matches everything; an absent one (`None`) matches nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabelSelector {
    #[serde(default, skip_serializing_if = "StringMap::is_empty", deserialize_with = "null_as_default")]
    pub match_labels: StringMap,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "null_as_default")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

/// One `matchExpressions` entry: `key operator values`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: LabelSelectorOperator,
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "null_as_default")]
    pub values: Vec<String>,
}

/// The four set-based operators the API type allows (serialized as upstream spells them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LabelSelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl From<LabelSelectorOperator> for Operator {
    fn from(op: LabelSelectorOperator) -> Operator {
        match op {
            LabelSelectorOperator::In => Operator::In,
            LabelSelectorOperator::NotIn => Operator::NotIn,
            LabelSelectorOperator::Exists => Operator::Exists,
            LabelSelectorOperator::DoesNotExist => Operator::DoesNotExist,
        }
    }
}

/// Go's JSON decoding leaves a field at its zero value on `null`; serde would reject it.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

impl LabelSelector {
    /// Upstream `LabelSelectorAsSelector`: empty selects everything; otherwise `k=v` per
    /// matchLabels entry plus one requirement per expression, the first invalid one an error.
    pub fn to_selector(&self) -> Result<Selector, SelectorError> {
        if self.match_labels.is_empty() && self.match_expressions.is_empty() {
            return Ok(Selector::everything());
        }
        let mut requirements = Vec::with_capacity(self.match_labels.len() + self.match_expressions.len());
        for (key, value) in self.match_labels.iter() {
            requirements.push(Requirement::new(key, Operator::Equals, vec![value.to_string()])?);
        }
        for expr in &self.match_expressions {
            let op = expr.operator.into();
            requirements.push(Requirement::new_from_selector_api(&expr.key, op, expr.values.clone())?);
        }
        Ok(Selector::from_requirements(requirements))
    }

    /// Whether `labels` satisfy the selector; an invalid selector matches nothing, as callers
    /// upstream treat a conversion error. Hot loops should convert once with `to_selector`.
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.to_selector().is_ok_and(|s| s.matches(labels))
    }

    /// Upstream `FormatLabelSelector`, as `kubectl describe` prints it: the canonical string,
    /// `<none>` when it selects everything, `<error>` when invalid.
    pub fn format(&self) -> String {
        match self.to_selector() {
            Ok(selector) if selector.is_empty() => "<none>".to_string(),
            Ok(selector) => selector.to_string(),
            Err(_) => "<error>".to_string(),
        }
    }

    /// Upstream `ValidateLabelSelector` (values checked, i.e. AllowInvalidLabelValueInSelector
    /// off). Each error is `(field path, message)`; the message is upstream's `ErrorBody()`,
    /// so `"{path}: {message}"` is exactly what the API server reports.
    pub fn validate(&self, field_path: &str) -> Vec<(String, String)> {
        let mut errs = Vec::new();
        let labels_path = child(field_path, "matchLabels");
        for (key, value) in self.match_labels.iter() {
            push_invalid(&mut errs, &labels_path, key, validate_label_key(key));
            push_invalid(&mut errs, &labels_path, value, validate_label_value(value));
        }
        let exprs_path = child(field_path, "matchExpressions");
        for (i, expr) in self.match_expressions.iter().enumerate() {
            errs.extend(expr.validate(&format!("{exprs_path}[{i}]")));
        }
        errs
    }
}

impl LabelSelectorRequirement {
    /// Upstream `ValidateLabelSelectorRequirement`: value count for the operator, then the key,
    /// then each value.
    pub fn validate(&self, field_path: &str) -> Vec<(String, String)> {
        let mut errs = Vec::new();
        let values_path = child(field_path, "values");
        match self.operator {
            LabelSelectorOperator::In | LabelSelectorOperator::NotIn if self.values.is_empty() => {
                let msg = "Required value: must be specified when `operator` is 'In' or 'NotIn'";
                errs.push((values_path.clone(), msg.to_string()));
            }
            LabelSelectorOperator::Exists | LabelSelectorOperator::DoesNotExist if !self.values.is_empty() => {
                let msg = "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
                errs.push((values_path.clone(), msg.to_string()));
            }
            _ => {}
        }
        let key_path = child(field_path, "key");
        push_invalid(&mut errs, &key_path, &self.key, validate_label_key(&self.key));
        for (i, value) in self.values.iter().enumerate() {
            let path = format!("{values_path}[{i}]");
            push_invalid(&mut errs, &path, value, validate_label_value(value));
        }
        errs
    }
}

/// Upstream: a nil `*LabelSelector` converts to `Nothing()` and so matches no labels.
pub fn matches_optional(selector: Option<&LabelSelector>, labels: &StringMap) -> bool {
    selector.is_some_and(|s| s.matches(labels))
}

/// `field.Path.Child`: `name` under `parent`, or alone when there is no parent.
fn child(parent: &str, name: &str) -> String {
    if parent.is_empty() { name.to_string() } else { format!("{parent}.{name}") }
}

/// One `field.Invalid(path, bad, msg)` per message, as upstream's validators append them.
fn push_invalid(errs: &mut Vec<(String, String)>, path: &str, bad: &str, msgs: Vec<String>) {
    for msg in msgs {
        errs.push((path.to_string(), invalid_body(&go_quote(bad), &msg)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label set as written in a table row.
    type Labels<'a> = &'a [(&'a str, &'a str)];

    fn set(pairs: Labels) -> StringMap {
        pairs.iter().copied().collect()
    }

    fn expr(key: &str, operator: LabelSelectorOperator, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.to_string(),
            operator,
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    fn from_json(json: &str) -> LabelSelector {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    const VALUE_REGEX: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

    /// Upstream TestLabelSelectorAsSelector: API selector in, canonical selector string out.
    #[test]
    fn to_selector_canonical_strings() {
        use LabelSelectorOperator::*;
        let foo_bar = set(&[("foo", "bar")]);
        let baz_in = vec![expr("baz", In, &["qux", "norf"])];
        let cases = [
            (LabelSelector::default(), ""),
            (LabelSelector { match_labels: foo_bar.clone(), match_expressions: vec![] }, "foo=bar"),
            (LabelSelector { match_labels: StringMap::new(), match_expressions: baz_in.clone() }, "baz in (norf,qux)"),
            (LabelSelector { match_labels: foo_bar, match_expressions: baz_in }, "baz in (norf,qux),foo=bar"),
            (
                LabelSelector {
                    match_labels: set(&[("b", "1"), ("a", "2")]),
                    match_expressions: vec![
                        expr("c", Exists, &[]),
                        expr("a", DoesNotExist, &[]),
                        expr("d", NotIn, &["y", "x"]),
                    ],
                },
                "a=2,!a,b=1,c,d notin (x,y)",
            ),
        ];
        for (selector, want) in cases {
            assert_eq!(selector.to_selector().unwrap().to_string(), want, "{selector:?}");
        }
        assert!(LabelSelector::default().to_selector().unwrap().is_empty());
    }

    /// Upstream TestLabelSelectorAsSelector's error rows, with NewRequirement's messages
    /// (an empty `values` is Go's nil slice here, printed as `null`).
    #[test]
    fn to_selector_errors() {
        use LabelSelectorOperator::*;
        let cases = [
            (
                vec![expr("baz", Exists, &["qux", "norf"])],
                "values: Invalid value: [\"qux\",\"norf\"]: values set must be empty for exists and does not exist",
            ),
            (
                vec![expr("baz", In, &[])],
                "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
            ),
            (
                vec![expr("a b", Exists, &[])],
                "key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ),
        ];
        for (match_expressions, want) in cases {
            let selector = LabelSelector { match_labels: StringMap::new(), match_expressions };
            assert_eq!(selector.to_selector().unwrap_err().to_string(), want);
            assert!(!selector.matches(&set(&[("baz", "qux")])));
            assert_eq!(selector.format(), "<error>");
        }
        let bad_value = LabelSelector { match_labels: set(&[("app", "a b")]), match_expressions: vec![] };
        assert_eq!(
            bad_value.to_selector().unwrap_err().to_string(),
            format!("values[0][app]: Invalid value: \"a b\": {VALUE_REGEX}")
        );
    }

    /// Selector, labels, verdict: matchLabels and expressions are ANDed; nil matches nothing.
    #[test]
    fn matches_labels() {
        use LabelSelectorOperator::*;
        let web = LabelSelector {
            match_labels: set(&[("app", "web")]),
            match_expressions: vec![expr("tier", In, &["fe", "be"]), expr("canary", DoesNotExist, &[])],
        };
        let cases: [(Option<&LabelSelector>, Labels, bool); 8] = [
            (Some(&web), &[("app", "web"), ("tier", "fe")], true),
            (Some(&web), &[("app", "web"), ("tier", "be"), ("x", "y")], true),
            (Some(&web), &[("app", "web"), ("tier", "db")], false),
            (Some(&web), &[("app", "web")], false),
            (Some(&web), &[("app", "web"), ("tier", "fe"), ("canary", "")], false),
            (Some(&web), &[("app", "api"), ("tier", "fe")], false),
            (Some(&LabelSelector::default()), &[("anything", "at-all")], true),
            (None, &[("app", "web"), ("tier", "fe")], false),
        ];
        for (selector, labels, want) in cases {
            assert_eq!(matches_optional(selector, &set(labels)), want, "{selector:?} on {labels:?}");
        }
    }

    /// Upstream FormatLabelSelector.
    #[test]
    fn format_for_describe() {
        assert_eq!(LabelSelector::default().format(), "<none>");
        let sel = LabelSelector { match_labels: set(&[("app", "web")]), match_expressions: vec![] };
        assert_eq!(sel.format(), "app=web");
    }

    /// Upstream ValidateLabelSelector: selector in, (path, message) list out.
    #[test]
    fn validate_messages() {
        use LabelSelectorOperator::*;
        let key_regex = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
        let cases: Vec<(LabelSelector, Vec<(&str, String)>)> = vec![
            (LabelSelector::default(), vec![]),
            (
                LabelSelector {
                    match_labels: set(&[("app", "web")]),
                    match_expressions: vec![expr("tier", In, &["fe"]), expr("x", Exists, &[])],
                },
                vec![],
            ),
            (
                LabelSelector { match_labels: StringMap::new(), match_expressions: vec![expr("tier", NotIn, &[])] },
                vec![(
                    "spec.selector.matchExpressions[0].values",
                    "Required value: must be specified when `operator` is 'In' or 'NotIn'".into(),
                )],
            ),
            (
                LabelSelector {
                    match_labels: StringMap::new(),
                    match_expressions: vec![expr("x", Exists, &["a"]), expr("y", DoesNotExist, &["b"])],
                },
                vec![
                    (
                        "spec.selector.matchExpressions[0].values",
                        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'".into(),
                    ),
                    (
                        "spec.selector.matchExpressions[1].values",
                        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'".into(),
                    ),
                ],
            ),
            (
                LabelSelector {
                    match_labels: StringMap::new(),
                    match_expressions: vec![expr("-bad", In, &["ok", "not ok"])],
                },
                vec![
                    ("spec.selector.matchExpressions[0].key", format!("Invalid value: \"-bad\": {key_regex}")),
                    (
                        "spec.selector.matchExpressions[0].values[1]",
                        format!("Invalid value: \"not ok\": {VALUE_REGEX}"),
                    ),
                ],
            ),
            (
                LabelSelector { match_labels: set(&[("", "x!"), ("/a", &"v".repeat(64))]), match_expressions: vec![] },
                vec![
                    ("spec.selector.matchLabels", "Invalid value: \"\": name part must be non-empty".into()),
                    ("spec.selector.matchLabels", format!("Invalid value: \"\": {key_regex}")),
                    ("spec.selector.matchLabels", format!("Invalid value: \"x!\": {VALUE_REGEX}")),
                    ("spec.selector.matchLabels", "Invalid value: \"/a\": prefix part must be non-empty".into()),
                    (
                        "spec.selector.matchLabels",
                        format!("Invalid value: \"{}\": must be no more than 63 bytes", "v".repeat(64)),
                    ),
                ],
            ),
        ];
        for (selector, want) in cases {
            let want: Vec<(String, String)> = want.into_iter().map(|(p, m)| (p.to_string(), m)).collect();
            assert_eq!(selector.validate("spec.selector"), want, "{selector:?}");
        }
        let bare = LabelSelector { match_labels: StringMap::new(), match_expressions: vec![expr("k", In, &[])] };
        assert_eq!(bare.validate("")[0].0, "matchExpressions[0].values");
    }

    /// The wire form: camelCase fields, operators spelled as upstream, empty parts omitted,
    /// nulls read as empty, unknown fields and operators rejected.
    #[test]
    fn serde_wire_form() {
        let json = r#"{"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]},{"key":"canary","operator":"DoesNotExist"}]}"#;
        let selector = from_json(json);
        assert_eq!(selector.match_expressions[0].operator, LabelSelectorOperator::NotIn);
        assert_eq!(serde_json::to_string(&selector).unwrap(), json);
        assert_eq!(serde_json::to_string(&LabelSelector::default()).unwrap(), "{}");
        let nulls =
            from_json(r#"{"matchLabels":null,"matchExpressions":[{"key":"k","operator":"Exists","values":null}]}"#);
        assert!(nulls.match_labels.is_empty());
        assert!(nulls.match_expressions[0].values.is_empty());
        assert!(from_json(r#"{"matchExpressions":null}"#).match_expressions.is_empty());
        let rejected = [
            r#"{"matchLabel":{"a":"b"}}"#,
            r#"{"matchExpressions":[{"key":"k","operator":"Gt","values":["1"]}]}"#,
            r#"{"matchExpressions":[{"key":"k","operator":"in","values":["1"]}]}"#,
            r#"{"matchExpressions":[{"key":"k","operator":"Exists","extra":1}]}"#,
            r#"{"matchExpressions":[{"operator":"Exists"}]}"#,
        ];
        for json in rejected {
            assert!(serde_json::from_str::<LabelSelector>(json).is_err(), "{json}");
        }
    }
}
