//! The lab's manifest editor: YAML with highlighting and line numbers (a textarea over a
//! highlighted copy), prefilled from the lesson's files, applied as the exact
//! `kubectl apply -f - <<EOF` script the terminal would run (so it joins the transcript, the
//! timeline and permalinks), with kubectl's error marked on the line it is about.

use crate::lab::lab_handle::LabHandle;
use crate::lab::manifest_errors::error_line;
use crate::lab::yaml_highlight;
use crate::lesson::lessons::catalogue;
use leptos::prelude::*;
use web_sys::KeyboardEvent;

/// What the sandbox's editor starts with: a small Deployment to apply and change.
const SANDBOX_EXAMPLE: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: hello:v1\n";

/// The last apply's failure: its line when one could be found, and kubectl's message.
#[derive(Clone, Debug, PartialEq)]
struct Problem {
    line: Option<usize>,
    message: String,
}

/// A page's own lesson files, for a lesson the catalogue does not hold (a drawn challenge).
#[derive(Clone)]
pub struct PageFiles(pub Vec<(String, String)>);

/// The files the editor offers: the page's, the lesson's own (by name), or the sandbox's example.
fn starting_files(lesson_id: &str) -> Vec<(String, String)> {
    let files: Vec<(String, String)> = use_context::<PageFiles>().map(|f| f.0).unwrap_or_else(|| {
        catalogue()
            .find(lesson_id)
            .map(|lesson| lesson.files.iter().map(|(name, text)| (name.clone(), text.clone())).collect())
            .unwrap_or_default()
    });
    if files.is_empty() { vec![("web.yaml".to_string(), SANDBOX_EXAMPLE.to_string())] } else { files }
}

/// The script Apply runs: the manifest as a heredoc, with a tag the text does not contain.
pub fn apply_script(manifest: &str) -> String {
    let tag = if manifest.lines().any(|line| line.trim() == "EOF") { "MANIFEST" } else { "EOF" };
    format!("kubectl apply -f - <<{tag}\n{}\n{tag}", manifest.trim_end_matches('\n'))
}

/// The part of kubectl's message worth showing beside the line (the rest names the request).
fn short_message(output: &str) -> &str {
    let output = output.trim();
    ["strict decoding error: ", "json: ", "yaml: "]
        .iter()
        .find_map(|marker| output.find(marker).map(|at| &output[at..]))
        .unwrap_or(output)
}

#[component]
pub fn ManifestEditor(lab: LabHandle) -> impl IntoView {
    let files = StoredValue::new(starting_files(&lab.peek(|session| session.lesson_id().to_string())));
    let first = files.with_value(|files| files[0].1.clone());
    let text = RwSignal::new(first.clone());
    // What the textarea was last given (set on a file switch only, so typing keeps its caret).
    let loaded = RwSignal::new(first);
    let problem = RwSignal::new(None::<Problem>);
    let status = RwSignal::new(String::new());
    let escaped = StoredValue::new(false);
    let area = NodeRef::<leptos::html::Textarea>::new();

    let apply = move || {
        let manifest = text.get_untracked();
        let Some(entry) = lab.run(&apply_script(&manifest)) else { return };
        if entry.succeeded {
            problem.set(None);
            status.set(entry.output.trim().to_string());
        } else {
            status.set(String::new());
            problem.set(Some(Problem {
                line: error_line(&manifest, &entry.output),
                message: entry.output.trim().to_string(),
            }));
        }
    };
    let choose = move |index: usize| {
        let chosen = files.with_value(|files| files.get(index).map(|file| file.1.clone()));
        if let Some(chosen) = chosen {
            text.set(chosen.clone());
            loaded.set(chosen);
            problem.set(None);
        }
    };
    let on_keydown = move |ev: KeyboardEvent| {
        let after_escape = escaped.get_value();
        escaped.set_value(ev.key() == "Escape");
        match ev.key().as_str() {
            "Tab" if !after_escape && !ev.shift_key() && !ev.ctrl_key() && !ev.alt_key() && !ev.meta_key() => {
                ev.prevent_default();
                if let Some(area) = area.get() {
                    insert_indent(&area);
                    text.set(area.value());
                }
            }
            "Enter" if ev.ctrl_key() || ev.meta_key() => {
                ev.prevent_default();
                apply();
            }
            _ => {}
        }
    };
    let highlighted = move || {
        let marked = problem.get().and_then(|p| p.line.map(|line| (line, short_message(&p.message).to_string())));
        text.with(|text| {
            yaml_highlight::to_html(text, marked.as_ref().map(|(line, message)| (*line, message.as_str())))
        })
    };
    let numbers =
        move || text.with(|text| (1..=text.split('\n').count()).map(|n| n.to_string()).collect::<Vec<_>>().join("\n"));

    view! {
        <details class="manifest-editor" open>
            <summary>"Manifest editor"</summary>
            <div class="editor-bar">
                <FilePicker files=files choose=choose />
                <button type="button" on:click=move |_| apply()>"Apply"</button>
            </div>
            <div class="editor-scroll">
                <pre class="editor-gutter" aria-hidden="true">{numbers}</pre>
                <div class="editor-code">
                    <pre class="editor-highlight" aria-hidden="true" inner_html=highlighted></pre>
                    <textarea node_ref=area class="editor-input" spellcheck="false" wrap="off"
                        autocomplete="off" autocapitalize="off" aria-label="Manifest (YAML)"
                        aria-describedby="editor-help"
                        prop:value=move || loaded.get()
                        on:input=move |ev| { text.set(event_target_value(&ev)); problem.update(|p| if let Some(p) = p { p.line = None }) }
                        on:keydown=on_keydown></textarea>
                </div>
            </div>
            <p id="editor-help" class="editor-help">"Ctrl+Enter applies · Tab indents (Esc then Tab leaves the editor)"</p>
            <div class="editor-result" role="status">
                {move || problem.get().map(|p| view! { <pre class="editor-error">{p.message}</pre> })}
                {move || (!status.get().is_empty()).then(|| view! { <pre class="editor-ok">{status.get()}</pre> })}
            </div>
        </details>
    }
}

/// The file being edited: a picker when the lesson has several, else its name.
#[component]
fn FilePicker(files: StoredValue<Vec<(String, String)>>, choose: impl Fn(usize) + 'static) -> impl IntoView {
    let names: Vec<String> = files.with_value(|files| files.iter().map(|file| file.0.clone()).collect());
    if names.len() == 1 {
        return view! { <span class="editor-file">{names[0].clone()}</span> }.into_any();
    }
    view! {
        <label class="editor-file">"File "
            <select on:change=move |ev| choose(event_target_value(&ev).parse().unwrap_or(0))>
                {names.into_iter().enumerate().map(|(i, name)| view! { <option value=i.to_string()>{name}</option> }).collect_view()}
            </select>
        </label>
    }
    .into_any()
}

/// Replaces the selection with two spaces (what Tab means in YAML), caret after them.
fn insert_indent(area: &web_sys::HtmlTextAreaElement) {
    let start = area.selection_start().ok().flatten().unwrap_or(0);
    let end = area.selection_end().ok().flatten().unwrap_or(start);
    if area.set_range_text_with_start_and_end("  ", start, end).is_ok() {
        let _ = area.set_selection_range(start + 2, start + 2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_runs_a_heredoc_the_script_parser_reads_back() {
        let script = apply_script("kind: Pod\n");
        assert_eq!(script, "kubectl apply -f - <<EOF\nkind: Pod\nEOF");
        assert!(kubelab_core::script::parse(&script).is_ok());
        assert!(apply_script("a: |\n  EOF\n").starts_with("kubectl apply -f - <<MANIFEST\n"));
    }

    #[test]
    fn the_sandbox_example_applies() {
        let mut session = crate::lab::lab_session::LabSession::sandbox();
        let entries = session.run(&apply_script(&starting_files("sandbox")[0].1));
        assert_eq!(entries[0].output, "deployment.apps/web created\n");
    }

    #[test]
    fn messages_beside_the_line_drop_the_request() {
        let output = "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replica\"\n";
        assert_eq!(short_message(output), "strict decoding error: unknown field \"spec.replica\"");
    }
}
