//! Templates in, text (or Helm's error) out.

use std::collections::BTreeMap;

use super::{Value, render_all};

const FILE: &str = "hello/templates/deployment.yaml";

/// Renders `template` as `hello/templates/deployment.yaml` beside `helpers`, with `values`
/// (YAML, numbers as float64 as Helm reads values files) as `.Values`.
fn render_with(template: &str, helpers: &str, values: &str) -> Result<String, String> {
    let values = serde_json::Value::Object(crate::helm::values::parse_values_file(values).unwrap());
    let release = serde_json::json!({"Name": "web", "Namespace": "default", "Revision": 1, "Service": "Helm", "IsInstall": true, "IsUpgrade": false});
    let mut top = BTreeMap::new();
    top.insert("Values".to_string(), Value::from_json(&values));
    top.insert("Release".to_string(), Value::from_json(&release));
    top.insert("Files".to_string(), Value::Unavailable("Files"));
    let top = Value::Map(std::rc::Rc::new(top));
    let mut files = BTreeMap::new();
    files.insert(FILE.to_string(), template.to_string());
    files.insert("hello/templates/_helpers.tpl".to_string(), helpers.to_string());
    render_all(&files, &top).map(|mut rendered| rendered.remove(FILE).unwrap())
}

fn render(template: &str, values: &str) -> String {
    render_with(template, "", values).unwrap()
}

fn error(template: &str, values: &str) -> String {
    render_with(template, "", values).unwrap_err()
}

#[test]
fn values_print_as_go_prints_them_and_missing_ones_are_empty() {
    let values = "replicaCount: 1\nname: web\nbig: 1000000\nratio: 0.5\non: true\n";
    assert_eq!(render("{{ .Values.replicaCount }} {{ .Values.name }} {{ .Values.big }}", values), "1 web 1e+06");
    assert_eq!(render("{{ .Values.ratio }} {{ .Values.on }} [{{ .Values.missing }}]", values), "0.5 true []");
    assert_eq!(
        render("{{ .Release.Name }}/{{ .Release.Namespace }} r{{ .Release.Revision }}", values),
        "web/default r1"
    );
}

#[test]
fn trim_markers_comments_and_pipelines() {
    let values = "image:\n  repository: nginx\n  tag: \"\"\n";
    let template =
        "image: {{ .Values.image.repository }}:{{ .Values.image.tag | default \"1.27\" }}\n{{- /* no line */}}\n";
    assert_eq!(render(template, values), "image: nginx:1.27\n");
    assert_eq!(render("{{ \"hello\" | upper | quote }} {{ squote \"x\" }}", ""), "\"HELLO\" 'x'");
}

#[test]
fn if_else_if_else_with_go_truthiness() {
    let template = "{{ if .Values.a }}a{{ else if .Values.b }}b{{ else }}none{{ end }}";
    assert_eq!(render(template, "a: 0\nb: [x]\n"), "b");
    assert_eq!(render(template, "a: \"\"\nb: {}\n"), "none");
    assert_eq!(render(template, "a: yes-string\n"), "a");
    assert_eq!(render("{{ with .Values.svc }}{{ .port }}{{ else }}no{{ end }}", "svc:\n  port: 80\n"), "80");
}

#[test]
fn range_over_lists_maps_and_integers_with_variables() {
    let values = "ports: [80, 443]\nlabels:\n  tier: web\n  app: hello\n";
    let template = "{{ range $i, $p := .Values.ports }}{{ $i }}={{ $p }} {{ end }}|{{ range $k, $v := .Values.labels }}{{ $k }}:{{ $v }},{{ end }}";
    assert_eq!(render(template, values), "0=80 1=443 |app:hello,tier:web,");
    assert_eq!(
        render("{{ range 3 }}{{ . }}{{ end }}{{ range .Values.none }}x{{ else }}empty{{ end }}", ""),
        "012empty"
    );
    let template = "{{ $root := . }}{{ range .Values.ports }}{{ if eq . 443.0 }}{{ break }}{{ end }}{{ $root.Release.Name }}-{{ . }}{{ end }}";
    assert_eq!(render(template, values), "web-80");
}

#[test]
fn define_include_and_template_share_names_across_files() {
    let helpers = "{{- define \"hello.fullname\" -}}\n{{ printf \"%s-%s\" .Release.Name \"hello\" | trunc 63 | trimSuffix \"-\" }}\n{{- end }}\n{{ define \"hello.labels\" }}app: {{ .Release.Name }}{{ end }}";
    let template = "name: {{ include \"hello.fullname\" . }}\nlabels:{{ include \"hello.labels\" . | nindent 2 }}\n{{ template \"hello.labels\" . }}";
    assert_eq!(render_with(template, helpers, "").unwrap(), "name: web-hello\nlabels:\n  app: web\napp: web");
}

#[test]
fn to_yaml_nindent_and_the_other_functions() {
    let values = "resources:\n  limits:\n    cpu: 100m\n    memory: 128Mi\nname: a-very-long-name\n";
    let template = "resources:{{ toYaml .Values.resources | nindent 2 }}\n{{ .Values.name | trunc 6 }} {{ replace \"-\" \"_\" .Values.name }} {{ b64enc \"hi\" }} {{ int \"42\" }} {{ toString 3 }} {{ empty .Values.none }}";
    assert_eq!(
        render(template, values),
        "resources:\n  limits:\n    cpu: 100m\n    memory: 128Mi\na-very a_very_long_name aGk= 42 3 true"
    );
    assert_eq!(render("{{ and 1 0 }} {{ or 0 \"\" \"x\" }} {{ not true }} {{ ne 1 2 }}", ""), "0 x false true");
}

#[test]
fn a_nil_field_fails_as_text_template_words_it() {
    let template = "kind: Deployment\nspec:\n  replicas: {{ .Values.x.y }}\n";
    assert_eq!(
        error(template, ""),
        "template: hello/templates/deployment.yaml:3:22: executing \"hello/templates/deployment.yaml\" at <.Values.x.y>: nil pointer evaluating interface {}.y"
    );
}

#[test]
fn required_and_fail_show_their_message_with_its_location() {
    let template = "image: {{ required \"image.repository is required\" .Values.image }}";
    assert_eq!(
        error(template, ""),
        "execution error at (hello/templates/deployment.yaml:1:10): image.repository is required"
    );
}

#[test]
fn unknown_and_refused_functions_fail_at_parse_time() {
    assert_eq!(
        error("a\n{{ frobnicate . }}", ""),
        "parse error at (hello/templates/deployment.yaml:2): function \"frobnicate\" not defined"
    );
    assert_eq!(
        error("{{ tpl .Values.x . }}", ""),
        "parse error at (hello/templates/deployment.yaml:1): function \"tpl\" is not available in the lab's Helm"
    );
    assert!(error("{{ if .x }}", "").contains("unexpected EOF"));
    assert!(error("{{ $y }}", "").contains("undefined variable \"$y\""));
}

#[test]
fn files_and_unknown_capabilities_are_refused_not_rendered_wrong() {
    let message = error("{{ .Files.Get \"x\" }}", "");
    assert!(message.contains("at <.Files.Get>: Files is not available in the lab's Helm"), "{message}");
}

#[test]
fn comparing_a_float64_value_with_an_int_constant_fails_as_in_helm() {
    let message = error("{{ if eq .Values.replicaCount 1 }}one{{ end }}", "replicaCount: 1\n");
    assert!(message.ends_with("error calling eq: incompatible types for comparison"), "{message}");
}

#[test]
fn hostile_templates_stop_at_the_labs_limits() {
    let helpers = "{{ define \"loop\" }}{{ include \"loop\" . }}{{ end }}";
    let message = render_with("{{ include \"loop\" . }}", helpers, "").unwrap_err();
    assert!(message.contains("rendering template has a nested reference name: loop"), "{message}");
    let message = error("{{ range 100000000 }}x{{ end }}", "");
    assert!(message.contains("the lab's limit"), "{message}");
    let deep = format!("{}1{}", "(".repeat(500), ")".repeat(500));
    assert!(error(&format!("{{{{ {deep} }}}}"), "").contains("max expression depth exceeded"));
}
