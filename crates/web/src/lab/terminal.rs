//! The kubectl terminal: a prompt with ↑/↓ history and Tab completion, and the transcript in a
//! `<pre>` holding exactly the text the core rendered. Also takes `sleep 10s` and `lab …` lines.

use crate::lab::completion;
use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_session::Entry;
use leptos::ev::KeyboardEvent;
use leptos::html;
use leptos::prelude::*;

/// The transcript as one text: each command after a `$ ` prompt, then what it printed.
pub fn transcript_text(entries: &[Entry]) -> String {
    let mut text = String::new();
    for entry in entries {
        text.push_str("$ ");
        text.push_str(&entry.command);
        text.push('\n');
        text.push_str(&entry.output);
    }
    text
}

#[component]
pub fn Terminal(lab: LabHandle) -> impl IntoView {
    let line = RwSignal::new(String::new());
    // Position in the typed history while ↑/↓ browse it; None at the fresh prompt.
    let recalled = RwSignal::new(None::<usize>);
    let listed = RwSignal::new(Vec::<String>::new());
    let output_ref = NodeRef::<html::Pre>::new();

    Effect::new(move |_| {
        lab.transcript.track();
        if let Some(pre) = output_ref.get() {
            pre.set_scroll_top(pre.scroll_height());
        }
    });

    let submit = move || {
        let text = line.get_untracked();
        line.set(String::new());
        recalled.set(None);
        listed.set(Vec::new());
        lab.run_typed(&text);
    };
    let on_keydown = move |ev: KeyboardEvent| match ev.key().as_str() {
        "Enter" => {
            ev.prevent_default();
            submit();
        }
        "ArrowUp" | "ArrowDown" => {
            ev.prevent_default();
            let typed = lab.typed.get_untracked();
            let next = recall(recalled.get_untracked(), typed.len(), ev.key() == "ArrowUp");
            recalled.set(next);
            line.set(next.and_then(|i| typed.get(i).cloned()).unwrap_or_default());
        }
        "Tab" if !ev.shift_key() && !line.get_untracked().trim().is_empty() => {
            ev.prevent_default();
            let text = line.get_untracked();
            let candidates = lab.peek(|session| session.complete(&text, text.len()));
            let (completed, many) = completion::apply(&text, &candidates);
            line.set(completed);
            listed.set(many);
        }
        _ => {}
    };

    view! {
        <section class="terminal" aria-label="kubectl terminal">
            <pre class="terminal-output" id="terminal-output" aria-live="polite" tabindex="0"
                aria-label="Terminal output" node_ref=output_ref>
                {move || transcript_text(&lab.transcript.get())}
            </pre>
            <div class="prompt">
                <label for="terminal-input" class="prompt-sign">"$"<span class="visually-hidden">" command"</span></label>
                <input id="terminal-input" type="text" autocomplete="off" autocapitalize="off" spellcheck="false"
                    placeholder="kubectl get pods"
                    aria-describedby="terminal-help"
                    prop:value=move || line.get()
                    on:input=move |ev| line.set(event_target_value(&ev))
                    on:keydown=on_keydown />
                <button type="button" on:click=move |_| submit()>"Run"</button>
            </div>
            <p id="terminal-help" class="terminal-help">
                "Enter runs · ↑/↓ history · Tab completes · also "<code>"sleep 10s"</code>" and "<code>"lab node power-off node-2"</code>
            </p>
            <Show when=move || !listed.get().is_empty()>
                <p class="completions" role="status">{move || listed.get().join("  ")}</p>
            </Show>
        </section>
    }
}

/// The history index after one ↑ (`older`) or ↓ from `current` in a history of `len` lines;
/// None is the fresh, empty prompt below the newest line.
fn recall(current: Option<usize>, len: usize, older: bool) -> Option<usize> {
    match (current, older) {
        (_, _) if len == 0 => None,
        (None, true) => Some(len - 1),
        (Some(i), true) => Some(i.saturating_sub(1)),
        (None, false) => None,
        (Some(i), false) if i + 1 < len => Some(i + 1),
        (Some(_), false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_walk_the_history() {
        assert_eq!(recall(None, 3, true), Some(2));
        assert_eq!(recall(Some(0), 3, true), Some(0));
        assert_eq!(recall(Some(1), 3, false), Some(2));
        assert_eq!(recall(Some(2), 3, false), None);
        assert_eq!(recall(None, 0, true), None);
    }

    #[test]
    fn the_transcript_shows_prompts_and_exact_output() {
        let entries =
            vec![Entry { command: "kubectl get pods".into(), output: "No resources found\n".into(), succeeded: true }];
        assert_eq!(transcript_text(&entries), "$ kubectl get pods\nNo resources found\n");
    }
}
