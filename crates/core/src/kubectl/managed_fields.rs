//! `--show-managed-fields`: kubectl's JSON and YAML printers leave `metadata.managedFields`
//! out unless asked, of an object or of each item of a List (cli-runtime's
//! `OmitManagedFieldsPrinter`); jsonpath and the tables still see them.

use super::args::Flag;
use serde_json::Value;

pub const SHOW_MANAGED_FIELDS: Flag = Flag::switch(
    "show-managed-fields",
    None,
    "If true, keep the managedFields when printing objects in JSON or YAML format.",
);

/// `document` without managedFields, on the object or the items of a list.
pub fn omit(mut document: Value) -> Value {
    match document.get_mut("items") {
        Some(Value::Array(items)) => items.iter_mut().for_each(omit_one),
        _ => omit_one(&mut document),
    }
    document
}

fn omit_one(object: &mut Value) {
    if let Some(Value::Object(meta)) = object.get_mut("metadata") {
        meta.remove("managedFields");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn managed_fields_leave_objects_and_list_items() {
        let object = json!({"metadata": {"name": "web", "managedFields": [{"manager": "kubectl"}]}});
        assert_eq!(omit(object.clone()), json!({"metadata": {"name": "web"}}));
        let list = json!({"kind": "List", "items": [object]});
        assert_eq!(omit(list), json!({"kind": "List", "items": [{"metadata": {"name": "web"}}]}));
    }
}
