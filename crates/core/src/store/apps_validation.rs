//! ControllerRevision's validation (apps/v1), as pkg/apis/apps/validation words it.

use crate::api::ControllerRevision;
use crate::error::FieldError;

/// `ValidateControllerRevisionCreate` and, with `old`, `ValidateControllerRevisionUpdate`.
pub fn controller_revision(cr: &ControllerRevision, old: Option<&ControllerRevision>) -> Vec<FieldError> {
    let mut causes = Vec::new();
    if cr.data.is_none() {
        causes.push(FieldError::required("data", "data is mandatory"));
    }
    if cr.revision < 0 {
        causes.push(FieldError::invalid("revision", cr.revision.to_string(), "must be greater than or equal to 0"));
    }
    if let Some(old) = old
        && old.data != cr.data
    {
        let shown = cr.data.as_ref().map_or("null".to_string(), crate::controllers::history::go_json);
        causes.push(FieldError::invalid("data", shown, "field is immutable"));
    }
    causes
}
