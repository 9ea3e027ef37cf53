//! `ApiError` (what the API server answers) and `FieldError` (one validation cause), worded as
//! kubectl prints them. Mirrors k8s.io/apimachinery/pkg/api/errors and util/validation/field.

use std::fmt;

/// One reason an object is invalid (upstream `field.Error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub kind: FieldErrorKind,
    pub detail: String,
}

/// The upstream `field.ErrorType`s, with the offending value already rendered Go-style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldErrorKind {
    Required,
    Invalid {
        value: String,
    },
    NotSupported {
        value: String,
        supported: Vec<String>,
    },
    Forbidden,
    Duplicate {
        value: String,
    },
    TooLong {
        value: String,
    },
    NotFound {
        value: String,
    },
    /// A cause already rendered by another validator (`Invalid value: "x": …`).
    Preformatted {
        body: String,
    },
}

impl FieldError {
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { field: field.into(), kind: FieldErrorKind::Required, detail: detail.into() }
    }

    pub fn invalid(field: impl Into<String>, value: impl Into<String>, detail: impl Into<String>) -> Self {
        let kind = FieldErrorKind::Invalid { value: value.into() };
        FieldError { field: field.into(), kind, detail: detail.into() }
    }

    pub fn not_supported(field: impl Into<String>, value: &str, supported: &[&str]) -> Self {
        let kind = FieldErrorKind::NotSupported {
            value: go_quote(value),
            supported: supported.iter().map(|s| go_quote(s)).collect(),
        };
        FieldError { field: field.into(), kind, detail: String::new() }
    }

    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError { field: field.into(), kind: FieldErrorKind::Forbidden, detail: detail.into() }
    }

    pub fn not_found(field: impl Into<String>, value: &str) -> Self {
        let kind = FieldErrorKind::NotFound { value: go_quote(value) };
        FieldError { field: field.into(), kind, detail: String::new() }
    }

    pub fn preformatted(field: impl Into<String>, body: impl Into<String>) -> Self {
        let kind = FieldErrorKind::Preformatted { body: body.into() };
        FieldError { field: field.into(), kind, detail: String::new() }
    }

    pub fn duplicate(field: impl Into<String>, value: &str) -> Self {
        let kind = FieldErrorKind::Duplicate { value: go_quote(value) };
        FieldError { field: field.into(), kind, detail: String::new() }
    }
}

impl FieldError {
    /// Upstream `ErrorBody()`: the error without its field (a StatusCause's message).
    pub fn body(&self) -> String {
        let whole = self.to_string();
        whole.strip_prefix(&format!("{}: ", self.field)).map(str::to_string).unwrap_or(whole)
    }

    /// The StatusCause's reason (`metav1.CauseType`: `FieldValueInvalid`, …).
    pub fn cause_type(&self) -> &'static str {
        match self.kind {
            FieldErrorKind::Required => "FieldValueRequired",
            FieldErrorKind::Invalid { .. } | FieldErrorKind::Preformatted { .. } => "FieldValueInvalid",
            FieldErrorKind::NotSupported { .. } => "FieldValueNotSupported",
            FieldErrorKind::Forbidden => "FieldValueForbidden",
            FieldErrorKind::Duplicate { .. } => "FieldValueDuplicate",
            FieldErrorKind::TooLong { .. } => "FieldValueTooLong",
            FieldErrorKind::NotFound { .. } => "FieldValueNotFound",
        }
    }
}

impl fmt::Display for FieldError {
    /// Upstream `field.Error.Error()`: `spec.replicas: Invalid value: -1: must be …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let body = match &self.kind {
            FieldErrorKind::Required => "Required value".to_string(),
            FieldErrorKind::Invalid { value } => format!("Invalid value: {value}"),
            FieldErrorKind::NotSupported { value, supported } => {
                format!("Unsupported value: {value}: supported values: {}", supported.join(", "))
            }
            FieldErrorKind::Forbidden => "Forbidden".to_string(),
            FieldErrorKind::Duplicate { value } => format!("Duplicate value: {value}"),
            FieldErrorKind::TooLong { value } => format!("Too long: {value}"),
            FieldErrorKind::NotFound { value } => format!("Not found: {value}"),
            FieldErrorKind::Preformatted { body } => body.clone(),
        };
        write!(f, "{}: {body}", self.field)?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// A string as Go's `%q` prints it.
pub fn go_quote(s: &str) -> String {
    format!("{s:?}")
}

/// An error from the API server, as `kubectl` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// `pods "web-1" not found` (resource is the plural, group-qualified: `deployments.apps`).
    NotFound {
        resource: String,
        name: String,
    },
    AlreadyExists {
        resource: String,
        name: String,
    },
    Conflict {
        resource: String,
        name: String,
        message: String,
    },
    /// A server-side apply that would change fields other managers own: the message and,
    /// per field, its path and `conflict with "<manager>" …` (Status causes of type
    /// `FieldManagerConflict`).
    ApplyConflict {
        message: String,
        causes: Vec<(String, String)>,
    },
    /// `The Deployment "hello" is invalid: …`
    Invalid {
        kind: String,
        name: String,
        causes: Vec<FieldError>,
    },
    BadRequest {
        message: String,
    },
    Forbidden {
        message: String,
    },
    MethodNotAllowed {
        message: String,
    },
    /// `429`: try again later (`retry_after_seconds`, 0 for "no suggestion"), with causes
    /// as `(type, message)` (the Eviction subresource's `DisruptionBudget`).
    TooManyRequests {
        message: String,
        retry_after_seconds: i32,
        causes: Vec<(String, String)>,
    },
    /// A `Status` a handler answers with its own code and no reason (the Eviction
    /// subresource's `500` for a pod under several budgets).
    Failure {
        code: u16,
        message: String,
    },
    /// `410 Gone`: a watch asked to start before what the server still holds.
    Gone {
        message: String,
    },
    /// A body in a format the endpoint does not read (a patch's Content-Type).
    UnsupportedMediaType {
        message: String,
    },
    /// A resource the server does not serve (a custom resource whose CRD is not installed).
    NotServed,
    /// An admission policy's refusal (see `PolicyDenial`).
    PolicyDenied(Box<PolicyDenial>),
}

/// An admission policy's refusal (`admission.NewForbidden` given the policy's reason): the
/// Status names the object (`resource` plural, its `group`) and carries one cause, `cause`.
/// kubectl prints an `Invalid` one from those details, `The deployments "web" is invalid: :
/// <cause>`, and any other by its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyDenial {
    pub reason: &'static str,
    pub group: String,
    pub resource: String,
    pub name: String,
    pub message: String,
    pub cause: String,
}

impl ApiError {
    pub fn not_found(resource: impl Into<String>, name: impl Into<String>) -> Self {
        ApiError::NotFound { resource: resource.into(), name: name.into() }
    }

    pub fn invalid(kind: &str, name: &str, causes: Vec<FieldError>) -> Self {
        ApiError::Invalid { kind: kind.to_string(), name: name.to_string(), causes }
    }

    /// The `metav1.StatusReason` (`NotFound`, `Invalid`, …).
    pub fn reason(&self) -> &'static str {
        match self {
            ApiError::NotFound { .. } => "NotFound",
            ApiError::AlreadyExists { .. } => "AlreadyExists",
            ApiError::Conflict { .. } | ApiError::ApplyConflict { .. } => "Conflict",
            ApiError::Invalid { .. } => "Invalid",
            ApiError::BadRequest { .. } => "BadRequest",
            ApiError::Forbidden { .. } => "Forbidden",
            ApiError::MethodNotAllowed { .. } => "MethodNotAllowed",
            ApiError::TooManyRequests { .. } => "TooManyRequests",
            ApiError::Failure { .. } => "",
            ApiError::UnsupportedMediaType { .. } => "UnsupportedMediaType",
            ApiError::Gone { .. } => "Expired",
            ApiError::NotServed => "NotFound",
            ApiError::PolicyDenied(d) => d.reason,
        }
    }

    /// The HTTP status the API server would send.
    pub fn http_status(&self) -> u16 {
        match self {
            ApiError::NotFound { .. } => 404,
            ApiError::AlreadyExists { .. } | ApiError::Conflict { .. } | ApiError::ApplyConflict { .. } => 409,
            ApiError::Invalid { .. } => 422,
            ApiError::BadRequest { .. } => 400,
            ApiError::Forbidden { .. } => 403,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::TooManyRequests { .. } => 429,
            ApiError::Failure { code, .. } => *code,
            ApiError::UnsupportedMediaType { .. } => 415,
            ApiError::Gone { .. } => 410,
            ApiError::NotServed => 404,
            // The dispatcher's `reasonToCode`.
            ApiError::PolicyDenied(d) => match d.reason {
                "Unauthorized" => 401,
                "Forbidden" => 403,
                "RequestEntityTooLarge" => 413,
                _ => 422,
            },
        }
    }

    /// The Status message, without kubectl's `Error from server (Reason): ` prefix.
    pub fn message(&self) -> String {
        match self {
            ApiError::NotFound { resource, name } => format!("{resource} \"{name}\" not found"),
            ApiError::AlreadyExists { resource, name } => format!("{resource} \"{name}\" already exists"),
            ApiError::Conflict { resource, name, message } => {
                format!("Operation cannot be fulfilled on {resource} \"{name}\": {message}")
            }
            ApiError::Invalid { kind, name, causes } => invalid_message(kind, name, causes),
            ApiError::BadRequest { message }
            | ApiError::ApplyConflict { message, .. }
            | ApiError::Forbidden { message }
            | ApiError::MethodNotAllowed { message }
            | ApiError::TooManyRequests { message, .. }
            | ApiError::Failure { message, .. }
            | ApiError::UnsupportedMediaType { message }
            | ApiError::Gone { message } => message.clone(),
            ApiError::PolicyDenied(d) => d.message.clone(),
            ApiError::NotServed => "the server could not find the requested resource".to_string(),
        }
    }
}

/// Upstream `errors.NewInvalid`: one cause inline, several as a bulleted list.
fn invalid_message(kind: &str, name: &str, causes: &[FieldError]) -> String {
    match causes {
        [one] => format!("{kind} \"{name}\" is invalid: {one}"),
        many => {
            let list: Vec<String> = many.iter().map(|c| format!("* {c}")).collect();
            format!("{kind} \"{name}\" is invalid: \n{}", list.join("\n"))
        }
    }
}

impl fmt::Display for ApiError {
    /// What kubectl prints: `Error from server (NotFound): …`; Invalid is printed bare
    /// (`The Deployment "hello" is invalid: …`), as kubectl does.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Invalid { .. } => write!(f, "The {}", self.message()),
            ApiError::PolicyDenied(d) if d.reason == "Invalid" => {
                write!(f, "The {} \"{}\" is invalid: : {}", d.resource, d.name, d.cause)
            }
            ApiError::PolicyDenied(d) if d.reason == "Unauthorized" => {
                write!(f, "error: You must be logged in to the server ({})", self.message())
            }
            // kubectl's `StandardErrorMessage` for a Status without a reason.
            ApiError::Failure { message, .. } => write!(f, "Error from server: {message}"),
            _ => write!(f, "Error from server ({}): {}", self.reason(), self.message()),
        }
    }
}

impl std::error::Error for ApiError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_like_kubectl() {
        let cases = [
            (ApiError::not_found("pods", "web-1"), "Error from server (NotFound): pods \"web-1\" not found"),
            (
                ApiError::invalid("Deployment", "hello", vec![FieldError::required("spec.selector", "")]),
                "The Deployment \"hello\" is invalid: spec.selector: Required value",
            ),
            (
                ApiError::invalid(
                    "Deployment",
                    "hello",
                    vec![
                        FieldError::invalid("spec.replicas", "-1", "must be greater than or equal to 0"),
                        FieldError::not_supported("spec.strategy.type", "Fast", &["Recreate", "RollingUpdate"]),
                    ],
                ),
                "The Deployment \"hello\" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* spec.strategy.type: Unsupported value: \"Fast\": supported values: \"Recreate\", \"RollingUpdate\"",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
        }
    }
}
