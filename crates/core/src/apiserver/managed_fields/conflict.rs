//! An apply's conflicts as the API server reports them: 409 Conflict, one
//! `FieldManagerConflict` cause per field, and the message upstream words in
//! apimachinery/pkg/util/managedfields/internal/conflict.go (`NewConflictError`).

use super::managers::{Manager, Operation};
use super::path_element;
use crate::error::{ApiError, go_quote};
use serde_json::json;

/// One field another manager owns with another value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub manager: Manager,
    pub path: Vec<String>,
}

pub fn error(conflicts: &[Conflict]) -> ApiError {
    let causes = conflicts
        .iter()
        .map(|c| (path_element::display(&c.path), format!("conflict with {}", print_manager(&c.manager))))
        .collect();
    ApiError::ApplyConflict { message: message(conflicts), causes }
}

fn message(conflicts: &[Conflict]) -> String {
    if let [one] = conflicts {
        let (who, path) = (print_manager(&one.manager), path_element::display(&one.path));
        return format!("Apply failed with 1 conflict: conflict with {who}: {path}");
    }
    let mut managers: Vec<&Manager> = Vec::new();
    for conflict in conflicts {
        if !managers.iter().any(|m| **m == conflict.manager) {
            managers.push(&conflict.manager);
        }
    }
    managers.sort_by_key(|m| identifier(m));
    let mut lines = Vec::new();
    for manager in managers {
        lines.push(format!("conflicts with {}:", print_manager(manager)));
        let paths = conflicts.iter().filter(|c| c.manager == *manager);
        lines.extend(paths.map(|c| format!("- {}", path_element::display(&c.path))));
    }
    format!("Apply failed with {} conflicts: {}", conflicts.len(), lines.join("\n"))
}

/// The JSON upstream names a manager by (`BuildManagerIdentifier`), which orders them.
fn identifier(manager: &Manager) -> String {
    let mut entry = json!({"manager": manager.name, "operation": manager.operation.as_str()});
    if manager.operation == Operation::Update && !manager.api_version.is_empty() {
        entry["apiVersion"] = json!(manager.api_version);
    }
    if !manager.subresource.is_empty() {
        entry["subresource"] = json!(manager.subresource);
    }
    let fields = ["manager", "operation", "apiVersion", "subresource"];
    let parts: Vec<String> = fields.iter().filter_map(|f| entry.get(*f).map(|v| format!("{}:{v}", json!(f)))).collect();
    format!("{{{}}}", parts.join(","))
}

/// `"kubectl" with subresource "scale" using apps/v1` (upstream `printManager`).
fn print_manager(manager: &Manager) -> String {
    let mut out = go_quote(&manager.name);
    if !manager.subresource.is_empty() {
        out = format!("{out} with subresource {}", go_quote(&manager.subresource));
    }
    if manager.operation == Operation::Update {
        out = format!("{out} using {}", manager.api_version);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::managed_fields::path_element::field;
    use crate::apiserver::response::Status;

    #[test]
    fn one_conflict_is_one_line_with_its_cause() {
        let conflict = Conflict {
            manager: Manager::apps_updater("kubectl", "scale"),
            path: vec![field("spec"), field("replicas")],
        };
        let status = Status(error(&[conflict])).to_json();
        assert_eq!(
            status["message"],
            r#"Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas"#
        );
        assert_eq!((status["code"].clone(), status["reason"].clone()), (json!(409), json!("Conflict")));
        assert_eq!(
            status["details"],
            json!({"causes": [{"reason": "FieldManagerConflict", "message": "conflict with \"kubectl\" with subresource \"scale\" using apps/v1", "field": ".spec.replicas"}]})
        );
    }

    #[test]
    fn several_conflicts_are_grouped_by_manager() {
        let image = vec![field("spec"), field("template"), field("spec"), field("containers")];
        let conflicts = [
            Conflict { manager: Manager::apps_updater("kubectl-set", ""), path: image },
            Conflict {
                manager: Manager::apps_updater("kubectl", "scale"),
                path: vec![field("spec"), field("replicas")],
            },
            Conflict { manager: Manager::apps_updater("kubectl", "scale"), path: vec![field("spec"), field("paused")] },
        ];
        assert_eq!(
            error(&conflicts).message(),
            "Apply failed with 3 conflicts: conflicts with \"kubectl\" with subresource \"scale\" using apps/v1:\n- .spec.replicas\n- .spec.paused\nconflicts with \"kubectl-set\" using apps/v1:\n- .spec.template.spec.containers"
        );
    }
}
