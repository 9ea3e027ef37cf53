//! Validation and defaults of the DRA kinds (pkg/apis/resource/validation and v1/defaults.go),
//! worded as upstream's field errors: `spec.devices.requests[0].exactly.deviceClassName:
//! Required value`. Selectors are compiled here, so a bad CEL expression is refused on write
//! with cel-go's message rather than failing at scheduling time.

use super::validation::{NameRule, is_dns1123_label, is_dns1123_subdomain, name_problems};
use crate::api::resource_claim::{DeviceClaim, DeviceSelector, DeviceSubRequest, ExactDeviceRequest};
use crate::api::resource_slice::ResourceSliceSpec;
use crate::api::{DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice};
use crate::dra::selector;
use crate::error::{FieldError, go_quote};
use std::collections::BTreeSet;

/// SetDefaults_ExactDeviceRequest / SetDefaults_DeviceSubRequest: `ExactCount`, and a count of
/// 0 (or none) becomes 1.
pub fn default_claim(claim: &mut DeviceClaim) {
    for request in &mut claim.requests {
        if let Some(exactly) = &mut request.exactly {
            default_mode(&mut exactly.allocation_mode, &mut exactly.count);
        }
        for sub in &mut request.first_available {
            default_mode(&mut sub.allocation_mode, &mut sub.count);
        }
    }
}

fn default_mode(mode: &mut Option<String>, count: &mut Option<i64>) {
    if mode.as_deref().is_none_or(str::is_empty) {
        *mode = Some("ExactCount".into());
    }
    if mode.as_deref() == Some("ExactCount") && count.is_none_or(|c| c == 0) {
        *count = Some(1);
    }
}

pub fn resource_claim(claim: &ResourceClaim, old: Option<&ResourceClaim>) -> Vec<FieldError> {
    if let Some(old) = old
        && old.spec != claim.spec
    {
        return vec![immutable("spec", &claim.spec)];
    }
    device_claim(&claim.spec.devices, "spec.devices")
}

pub fn resource_claim_template(
    template: &ResourceClaimTemplate,
    old: Option<&ResourceClaimTemplate>,
) -> Vec<FieldError> {
    if let Some(old) = old
        && old.spec != template.spec
    {
        return vec![immutable("spec", &template.spec)];
    }
    device_claim(&template.spec.spec.devices, "spec.spec.devices")
}

pub fn device_class(class: &DeviceClass) -> Vec<FieldError> {
    let mut causes = selectors(&class.spec.selectors, "spec.selectors");
    for (i, config) in class.spec.config.iter().enumerate() {
        if config.opaque.is_none() {
            causes.push(FieldError::required(format!("spec.config[{i}].opaque"), ""));
        }
    }
    causes
}

/// `field is immutable`, with the new value as the API server quotes an internal struct.
fn immutable(field: &str, value: &impl serde::Serialize) -> FieldError {
    let json = serde_json::to_value(value).map(go_field_names).unwrap_or_default();
    FieldError::invalid(field, json.to_string(), "field is immutable")
}

/// JSON of an internal (untagged) Go struct: its keys are the Go field names.
fn go_field_names(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let mut chars = k.chars();
                    let key = chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str());
                    (key.unwrap_or_default(), go_field_names(v))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(go_field_names).collect()),
        other => other,
    }
}

fn device_claim(claim: &DeviceClaim, path: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if claim.requests.len() > 32 {
        let detail = format!("Too many: {}: must have at most 32 items", claim.requests.len());
        causes.push(FieldError::preformatted(format!("{path}.requests"), detail));
    }
    let mut names = BTreeSet::new();
    let mut known = BTreeSet::new();
    for (i, request) in claim.requests.iter().enumerate() {
        let at = format!("{path}.requests[{i}]");
        causes.extend(request_name(&request.name, &at));
        if !names.insert(request.name.as_str()) {
            causes.push(FieldError::duplicate(&at, &request.name));
        }
        known.insert(request.name.clone());
        match (&request.exactly, request.first_available.is_empty()) {
            (None, true) => {
                causes.push(FieldError::required(&at, "exactly one of `exactly` or `firstAvailable` is required"))
            }
            (Some(_), false) => causes.push(FieldError::invalid(
                &at,
                "null",
                "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
            )),
            (Some(exactly), true) => causes.extend(exact_request(exactly, &format!("{at}.exactly"))),
            (None, false) => {
                let mut subs = BTreeSet::new();
                for (j, sub) in request.first_available.iter().enumerate() {
                    let sub_at = format!("{at}.firstAvailable[{j}]");
                    causes.extend(request_name(&sub.name, &sub_at));
                    if !subs.insert(sub.name.as_str()) {
                        causes.push(FieldError::duplicate(&sub_at, &sub.name));
                    }
                    known.insert(format!("{}/{}", request.name, sub.name));
                    causes.extend(sub_request(sub, &sub_at));
                }
            }
        }
    }
    causes.extend(constraints_and_config(claim, path, &known));
    causes
}

fn request_name(name: &str, at: &str) -> Vec<FieldError> {
    if name.is_empty() {
        return vec![FieldError::required(format!("{at}.name"), "")];
    }
    name_problems(name, NameRule::Label)
        .into_iter()
        .map(|problem| FieldError::invalid(format!("{at}.name"), go_quote(name), problem))
        .collect()
}

fn exact_request(request: &ExactDeviceRequest, at: &str) -> Vec<FieldError> {
    one_request(&request.device_class_name, &request.selectors, request.allocation_mode.as_deref(), request.count, at)
}

fn sub_request(request: &DeviceSubRequest, at: &str) -> Vec<FieldError> {
    one_request(&request.device_class_name, &request.selectors, request.allocation_mode.as_deref(), request.count, at)
}

/// What an exact request and a subrequest share: the class, the selectors, mode and count.
fn one_request(
    class: &str,
    list: &[DeviceSelector],
    mode: Option<&str>,
    count: Option<i64>,
    at: &str,
) -> Vec<FieldError> {
    let mut causes = class_name(class, at);
    causes.extend(selectors(list, &format!("{at}.selectors")));
    causes.extend(mode_and_count(mode, count, at));
    causes
}

fn class_name(name: &str, at: &str) -> Vec<FieldError> {
    let field = format!("{at}.deviceClassName");
    if name.is_empty() {
        return vec![FieldError::required(field, "")];
    }
    name_problems(name, NameRule::Subdomain)
        .into_iter()
        .map(|p| FieldError::invalid(&field, go_quote(name), p))
        .collect()
}

fn mode_and_count(mode: Option<&str>, count: Option<i64>, at: &str) -> Vec<FieldError> {
    match (mode.unwrap_or("ExactCount"), count) {
        ("ExactCount", Some(n)) if n <= 0 => {
            vec![FieldError::invalid(format!("{at}.count"), n.to_string(), "must be greater than zero")]
        }
        ("All", Some(n)) if n != 0 => vec![FieldError::invalid(
            format!("{at}.count"),
            n.to_string(),
            "must not be specified when allocationMode is 'All'",
        )],
        ("ExactCount" | "All", _) => Vec::new(),
        (other, _) => vec![FieldError::not_supported(format!("{at}.allocationMode"), other, &["All", "ExactCount"])],
    }
}

fn selectors(selectors: &[DeviceSelector], at: &str) -> Vec<FieldError> {
    let mut causes = Vec::new();
    for (i, s) in selectors.iter().enumerate() {
        let field = format!("{at}[{i}].cel");
        match &s.cel {
            None => causes.push(FieldError::required(field, "")),
            Some(cel) if cel.expression.len() > selector::MAX_EXPRESSION_LENGTH => {
                causes.push(FieldError::preformatted(
                    format!("{field}.expression"),
                    format!("Too long: may not be more than {} bytes", selector::MAX_EXPRESSION_LENGTH),
                ))
            }
            Some(cel) => {
                if let Err(detail) = selector::check(&cel.expression) {
                    causes.push(FieldError::invalid(format!("{field}.expression"), go_quote(&cel.expression), detail));
                }
            }
        }
    }
    causes
}

fn constraints_and_config(claim: &DeviceClaim, path: &str, known: &BTreeSet<String>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let unknown = |name: &str, field: String| {
        (!known.contains(name)).then(|| {
            FieldError::invalid(
                field,
                go_quote(name),
                "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
            )
        })
    };
    for (i, constraint) in claim.constraints.iter().enumerate() {
        let at = format!("{path}.constraints[{i}]");
        for (j, name) in constraint.requests.iter().enumerate() {
            causes.extend(unknown(name, format!("{at}.requests[{j}]")));
        }
        match (&constraint.match_attribute, &constraint.distinct_attribute) {
            (Some(attribute), None) => causes.extend(fully_qualified(attribute, &format!("{at}.matchAttribute"))),
            (None, Some(attribute)) => causes.extend(fully_qualified(attribute, &format!("{at}.distinctAttribute"))),
            // Sic: upstream words both cases (none and both) the same way.
            _ => causes.push(FieldError::required(
                &at,
                "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set",
            )),
        }
    }
    for (i, config) in claim.config.iter().enumerate() {
        let at = format!("{path}.config[{i}]");
        for (j, name) in config.requests.iter().enumerate() {
            causes.extend(unknown(name, format!("{at}.requests[{j}]")));
        }
        if config.opaque.is_none() {
            causes.push(FieldError::required(format!("{at}.opaque"), ""));
        }
    }
    causes
}

fn fully_qualified(name: &str, field: &str) -> Option<FieldError> {
    let valid = name
        .split_once('/')
        .is_some_and(|(domain, id)| is_dns1123_subdomain(domain) && is_c_identifier(id) && !id.contains('/'));
    (!valid).then(|| {
        FieldError::invalid(
            field,
            go_quote(name),
            "a fully qualified name must be a domain and a name separated by a slash",
        )
    })
}

fn is_c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= 32
}

pub fn resource_slice(slice: &ResourceSlice) -> Vec<FieldError> {
    let spec = &slice.spec;
    let mut causes = node_selection(spec);
    if spec.driver.is_empty() {
        causes.push(FieldError::required("spec.driver", ""));
    }
    if spec.pool.name.is_empty() {
        causes.push(FieldError::required("spec.pool.name", ""));
    }
    if spec.pool.generation < 0 {
        let value = spec.pool.generation.to_string();
        causes.push(FieldError::invalid("spec.pool.generation", value, "must be greater than or equal to zero"));
    }
    if spec.pool.resource_slice_count <= 0 {
        let value = spec.pool.resource_slice_count.to_string();
        causes.push(FieldError::invalid("spec.pool.resourceSliceCount", value, "must be greater than zero"));
    }
    if !spec.devices.is_empty() && !spec.shared_counters.is_empty() {
        causes.push(FieldError::invalid("spec", "\"\"", "only one of `sharedCounters` or `devices` is allowed"));
    }
    causes.extend(devices(spec));
    causes
}

fn node_selection(spec: &ResourceSliceSpec) -> Vec<FieldError> {
    let mut set = Vec::new();
    let mut causes = Vec::new();
    if let Some(name) = &spec.node_name {
        set.push("`nodeName`");
        if name.is_empty() {
            causes.push(FieldError::invalid(
                "spec.nodeName",
                "\"\"",
                "must be either unset or set to a non-empty string",
            ));
        }
    }
    if spec.node_selector.is_some() {
        set.push("`nodeSelector`");
    }
    if let Some(all) = spec.all_nodes {
        set.push("`allNodes`");
        if !all {
            causes.push(FieldError::invalid("spec.allNodes", "false", "must be either unset or set to true"));
        }
    }
    if spec.per_device_node_selection.is_some() {
        set.push("`perDeviceNodeSelection`");
    }
    const ONE_OF: &str = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
    match set.len() {
        0 => causes.push(FieldError::required("spec", ONE_OF)),
        1 => {}
        _ => causes.push(FieldError::invalid(
            "spec",
            go_quote(&format!("{{{}}}", set.join(", "))),
            format!("{ONE_OF}, but multiple fields are set"),
        )),
    }
    causes
}

fn devices(spec: &ResourceSliceSpec) -> Vec<FieldError> {
    let mut causes = Vec::new();
    let mut names = BTreeSet::new();
    for (i, device) in spec.devices.iter().enumerate() {
        let at = format!("spec.devices[{i}]");
        if !is_dns1123_label(&device.name) {
            for problem in name_problems(&device.name, NameRule::Label) {
                causes.push(FieldError::invalid(format!("{at}.name"), go_quote(&device.name), problem));
            }
        }
        if !names.insert(device.name.as_str()) {
            causes.push(FieldError::duplicate(&at, &device.name));
        }
        let total = device.attributes.len() + device.capacity.len();
        if total > 32 {
            causes.push(FieldError::invalid(
                &at,
                total.to_string(),
                "the total number of attributes and capacities must not exceed 32",
            ));
        }
        for (name, attribute) in &device.attributes {
            let field = format!("{at}.attributes[{name}]");
            if attribute.values_set() != 1 {
                causes.push(FieldError::invalid(&field, "\"\"", "exactly one value must be specified"));
            }
            if let Some(version) = &attribute.version
                && selector::parse_semver(version).is_err()
            {
                causes.push(FieldError::invalid(
                    format!("{field}.version"),
                    go_quote(version),
                    "must be a string compatible with semver.org spec 2.0.0",
                ));
            }
            if attribute.string.as_ref().is_some_and(|s| s.len() > 64) {
                let body = "Too long: may not be more than 64 bytes";
                causes.push(FieldError::preformatted(format!("{field}.string"), body));
            }
        }
    }
    causes
}
