//! `-o custom-columns=HEADER:JSONPATH,…`: one column per spec, each cell the JSONPath's
//! results joined by commas, `<none>` when there are none. Mirrors
//! staging/src/k8s.io/cli-runtime/pkg/printers/customcolumn.go.

use super::jsonpath::{self, Template};
use super::output::Table;
use crate::api::Object;

/// The parsed column specs: header and template.
#[derive(Clone, Debug, PartialEq)]
pub struct Columns(Vec<(String, Template)>);

impl Columns {
    /// `NAME:.metadata.name,NODE:.spec.nodeName`.
    pub fn parse(spec: &str) -> Result<Columns, String> {
        if spec.is_empty() {
            return Err("error: custom-columns format specified but no custom columns given".into());
        }
        let mut columns = Vec::new();
        for part in spec.split(',') {
            let Some((header, path)) = part.split_once(':') else {
                return Err(format!(
                    "error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                ));
            };
            let template = Template::parse(&jsonpath::relaxed(path))
                .map_err(|e| format!("error: error parsing jsonpath {}, {e}", jsonpath::relaxed(path)))?;
            columns.push((header.to_string(), template));
        }
        Ok(Columns(columns))
    }

    /// The table for `objects`.
    pub fn table(&self, objects: &[Object]) -> Table {
        let headers = self.0.iter().map(|(h, _)| h.clone()).collect();
        let rows = objects.iter().map(|object| self.row(&object.to_json_value())).collect();
        Table { headers, rows }
    }

    fn row(&self, value: &serde_json::Value) -> Vec<String> {
        let cell = |template: &Template| {
            let results = template.find_results(value);
            if results.first().is_none_or(|r| r.is_empty()) {
                return "<none>".to_string();
            }
            results.iter().flatten().map(jsonpath::go_value).collect::<Vec<_>>().join(",")
        };
        self.0.iter().map(|(_, template)| cell(template)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{hello_lab, run};
    use super::*;

    #[test]
    fn get_prints_custom_columns_jsonpath_and_labels() {
        let mut sim = hello_lab(10);
        let text = run(&mut sim, "kubectl get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,X:.nope");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "NAME                     NODE     X");
        assert!(lines[1].starts_with("hello-") && lines[1].ends_with("   <none>"), "{text}");
        let text = run(&mut sim, "kubectl get pods -o jsonpath='{.items[*].metadata.labels.app}'");
        assert_eq!(text, "hello hello hello");
        let text = run(
            &mut sim,
            "kubectl get deploy hello -o jsonpath='{range .status.conditions[*]}{.type}={.status}{\"\\n\"}{end}'",
        );
        assert_eq!(text, "Available=True\nProgressing=True\n");
        let text = run(&mut sim, "kubectl get deploy --show-labels");
        assert!(text.starts_with("NAME    READY   UP-TO-DATE   AVAILABLE   AGE   LABELS\nhello   3/3     3            3           10s   <none>\n"), "{text}");
        assert_eq!(
            run(&mut sim, "kubectl get pods -o jsonpath='{.items[}'"),
            "error: error parsing jsonpath {.items[}, unclosed array expect ]\n"
        );
        let text = run(&mut sim, "kubectl get pods -w -l app=nope");
        assert_eq!(text, "No resources found in default namespace.\n");
    }

    #[test]
    fn specs_parse_and_bad_ones_say_why() {
        assert!(Columns::parse("NAME:.metadata.name,NODE:spec.nodeName").is_ok());
        assert_eq!(
            Columns::parse("NAME").unwrap_err(),
            "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"
        );
        assert_eq!(
            Columns::parse("").unwrap_err(),
            "error: custom-columns format specified but no custom columns given"
        );
    }
}
