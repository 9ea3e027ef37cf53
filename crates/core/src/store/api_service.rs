//! The APIService strategy (kube-aggregator's pkg/registry/apiservice and
//! pkg/apis/apiregistration/validation): the service port's default, and the rules that tie
//! the name to `spec.version + "." + spec.group`.

use crate::api::ApiService;
use crate::error::FieldError;

const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/// `SetDefaults_ServiceReference`: a Service is reached on 443 unless told otherwise.
pub fn default_api_service(service: &mut ApiService) {
    if let Some(reference) = service.spec.service.as_mut() {
        reference.port.get_or_insert(443);
    }
}

/// `ValidateAPIService`, in its order (the name's own checks are the store's path-segment rule).
pub fn validate_api_service(service: &ApiService) -> Vec<FieldError> {
    let spec = &service.spec;
    let group = spec.group.as_deref().unwrap_or_default();
    let version = spec.version.as_deref().unwrap_or_default();
    let mut causes = Vec::new();
    let required_name = format!("{version}.{group}");
    if service.metadata.name != required_name {
        let detail = format!("must be `spec.version+\".\"+spec.group`: {required_name:?}");
        causes.push(FieldError::invalid("metadata.name", &service.metadata.name, detail));
    }
    if group.is_empty() && version != "v1" {
        causes.push(FieldError::required("spec.group", "only v1 may have an empty group and it better be legacy kube"));
    }
    if !group.is_empty() {
        for problem in super::validation::name_problems(group, super::validation::NameRule::Subdomain) {
            causes.push(FieldError::invalid("spec.group", group, problem));
        }
    }
    if !is_dns1035_label(version) {
        causes.push(FieldError::invalid("spec.version", version, DNS1035_LABEL_MSG));
    }
    if spec.group_priority_minimum <= 0 || spec.group_priority_minimum > 20000 {
        let value = spec.group_priority_minimum.to_string();
        causes.push(FieldError::invalid("spec.groupPriorityMinimum", value, "must be positive and less than 20000"));
    }
    if spec.version_priority <= 0 || spec.version_priority > 1000 {
        let value = spec.version_priority.to_string();
        causes.push(FieldError::invalid("spec.versionPriority", value, "must be positive and less than 1000"));
    }
    causes.extend(service_problems(service));
    causes
}

/// The rules for where requests go: a local APIService has no TLS settings; a proxied one names
/// its Service fully.
fn service_problems(service: &ApiService) -> Vec<FieldError> {
    let spec = &service.spec;
    let skip_verify = spec.insecure_skip_tls_verify == Some(true);
    let ca_bundle = spec.ca_bundle.as_deref().unwrap_or_default();
    let mut causes = Vec::new();
    let Some(reference) = &spec.service else {
        if !ca_bundle.is_empty() {
            let value = format!("{} bytes", decoded_len(ca_bundle));
            causes.push(FieldError::invalid("spec.caBundle", value, "local APIServices may not have a caBundle"));
        }
        if skip_verify {
            let detail = "local APIServices may not have insecureSkipTLSVerify";
            causes.push(FieldError::invalid("spec.insecureSkipTLSVerify", "true", detail));
        }
        return causes;
    };
    if reference.namespace.is_empty() {
        causes.push(FieldError::required("spec.service.namespace", ""));
    }
    if reference.name.is_empty() {
        causes.push(FieldError::required("spec.service.name", ""));
    }
    let port = reference.port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        let detail = "port is not valid: must be between 1 and 65535, inclusive";
        causes.push(FieldError::invalid("spec.service.port", port.to_string(), detail));
    }
    if skip_verify && !ca_bundle.is_empty() {
        causes.push(FieldError::invalid(
            "spec.insecureSkipTLSVerify",
            "true",
            "may not be true if caBundle is present",
        ));
    }
    causes
}

/// `caBundle` travels base64-encoded; upstream counts the decoded bytes.
fn decoded_len(encoded: &str) -> usize {
    let padding = encoded.bytes().rev().take_while(|b| *b == b'=').count();
    (encoded.len() / 4 * 3).saturating_sub(padding)
}

/// `IsDNS1035Label`: a letter first, letters, digits or '-' after, no '-' last, 63 at most.
fn is_dns1035_label(value: &str) -> bool {
    let bytes = value.as_bytes();
    let inner = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes[0].is_ascii_lowercase()
        && bytes.iter().all(inner)
        && bytes.last() != Some(&b'-')
}

#[cfg(test)]
mod tests {
    use super::validate_api_service;
    use crate::api::ApiService;
    use crate::api::api_service::ServiceReference;

    fn api_service(name: &str, group: &str, version: &str) -> ApiService {
        let mut service = ApiService::default();
        service.metadata.name = name.into();
        service.spec.group = Some(group.into());
        service.spec.version = Some(version.into());
        service.spec.group_priority_minimum = 100;
        service.spec.version_priority = 100;
        service
    }

    fn details(service: &ApiService) -> Vec<String> {
        validate_api_service(service).iter().map(|e| format!("{}: {}", e.field, e.detail)).collect()
    }

    #[test]
    fn the_name_must_be_version_dot_group() {
        assert!(details(&api_service("v1beta1.metrics.k8s.io", "metrics.k8s.io", "v1beta1")).is_empty());
        assert!(details(&api_service("v1.", "", "v1")).is_empty());
        assert_eq!(
            details(&api_service("metrics", "metrics.k8s.io", "v1beta1")),
            ["metadata.name: must be `spec.version+\".\"+spec.group`: \"v1beta1.metrics.k8s.io\""]
        );
        assert_eq!(
            details(&api_service("v2.", "", "v2")),
            ["spec.group: only v1 may have an empty group and it better be legacy kube"]
        );
    }

    #[test]
    fn priorities_and_the_service_reference_are_checked() {
        let mut service = api_service("v1.example.com", "example.com", "v1");
        service.spec.group_priority_minimum = 0;
        service.spec.insecure_skip_tls_verify = Some(true);
        assert_eq!(
            details(&service),
            [
                "spec.groupPriorityMinimum: must be positive and less than 20000",
                "spec.insecureSkipTLSVerify: local APIServices may not have insecureSkipTLSVerify",
            ]
        );
        service.spec.group_priority_minimum = 100;
        service.spec.service = Some(ServiceReference { namespace: String::new(), name: "api".into(), port: Some(0) });
        assert_eq!(
            details(&service),
            [
                "spec.service.namespace: ",
                "spec.service.port: port is not valid: must be between 1 and 65535, inclusive"
            ]
        );
    }
}
