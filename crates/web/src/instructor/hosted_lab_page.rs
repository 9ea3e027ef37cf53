//! `#/labs/<id>`: a lab the server hosts, shown live with the same cluster view and transcript
//! as any lab. The server sends the lab's lesson, seed and scripts, then each script as it
//! runs; this page replays them in its own copy of the core (deterministic, so it draws the
//! server's cluster). The lab's instructor types commands here; they go to the server, which
//! runs them and sends them back to everyone watching. What real kubectl does through the
//! lab's Kubernetes API arrives the same way (`lab api` lines), drawn live; the page offers
//! the kubeconfig that lets a watcher's own kubectl in.

use crate::engine::Engine;
use crate::instructor::dashboard_model::lesson_label;
use crate::instructor::real_nodes::RealNodesPanel;
use crate::instructor::replay_page::rebuild;
use crate::lab::cluster_view::ClusterView;
use crate::lab::lab_handle::LabHandle;
use crate::lab::terminal::transcript_text;
use crate::pages::error_panel::ErrorPanel;
use crate::server::api_client;
use crate::server::live_socket::{LinkState, LiveSocket};
use kubelab_wire::hosted_lab::from_api;
use kubelab_wire::{LabMessage, LabRequest};
use leptos::prelude::*;

/// The page's live state.
#[derive(Clone, Copy)]
struct Watch {
    engine: &'static dyn Engine,
    lab: RwSignal<Option<Result<LabHandle, String>>>,
    title: RwSignal<String>,
    may_run: RwSignal<bool>,
    notice: RwSignal<Option<String>>,
    link: RwSignal<LinkState>,
}

impl Watch {
    fn take(&self, text: String) {
        // A message that arrives after the page was left (its cleanup closes the socket) is dropped.
        if self.lab.is_disposed() {
            return;
        }
        match LabMessage::parse(&text) {
            Ok(LabMessage::State { lesson, seed, may_run, scripts, .. }) => {
                self.title.set(format!("{} · seed {seed}", lesson_label(&lesson, None)));
                self.may_run.set(may_run);
                // A (re)connection starts from the whole log: rebuild rather than patch.
                let lab = rebuild(self.engine, &lesson, seed).map(|session| {
                    let lab = LabHandle::new(session);
                    for script in &scripts {
                        if from_api(script) {
                            lab.update(|session| session.run(script));
                        } else {
                            lab.run(script);
                        }
                    }
                    lab
                });
                self.lab.set(Some(lab));
            }
            Ok(LabMessage::Ran { script, entries }) => {
                if let Some(Some(Ok(lab))) = self.lab.try_get_untracked() {
                    if from_api(&script) {
                        // Replayed for the cluster; the transcript shows who sent what.
                        lab.update(|session| session.run(&script));
                        lab.show(entries);
                    } else {
                        lab.run(&script);
                    }
                }
            }
            Ok(LabMessage::Error { message } | LabMessage::Refused { message, .. }) => self.notice.set(Some(message)),
            Err(message) => self.notice.set(Some(message)),
        }
    }
}

#[component]
pub fn HostedLabPage(id: String, engine: &'static dyn Engine) -> impl IntoView {
    let watch = Watch {
        engine,
        lab: RwSignal::new(None),
        title: RwSignal::new(String::new()),
        may_run: RwSignal::new(false),
        notice: RwSignal::new(None),
        link: RwSignal::new(LinkState::Connecting),
    };
    let path = format!("/api/labs/{}/ws", api_client::path_segment(&id));
    let socket = api_client::socket_url(&path)
        .map(|url| LiveSocket::open(url, move |text| watch.take(text), move |state| watch.link.set(state)));
    let socket = StoredValue::new_local(socket);
    on_cleanup(move || {
        let _ = socket.try_with_value(|socket| socket.iter().for_each(LiveSocket::close));
    });
    let send = move |script: String| {
        let message = serde_json::to_string(&LabRequest::Run { script }).unwrap_or_default();
        if !socket.with_value(|socket| socket.as_ref().is_some_and(|s| s.send(&message))) {
            watch.notice.set(Some("not connected to the lab; reconnecting…".into()));
        }
    };
    view! {
        <h1>"Live lab"</h1>
        <p class="lab-status" role="status">
            {move || watch.title.get()}" · "{move || link_text(watch.link.get())}
            " · share this page's address to let others watch"
        </p>
        <Show when=move || watch.notice.get().is_some()>
            <p class="progress-notice" role="alert">{move || watch.notice.get()}</p>
        </Show>
        <KubeconfigOffer id=id.clone() may_run=watch.may_run />
        <Show when=move || watch.may_run.get()>
            <RealNodesPanel id=id.clone() />
        </Show>
        {move || match watch.lab.get() {
            None => view! { <p role="status">"Connecting to the lab…"</p> }.into_any(),
            Some(Err(message)) => view! { <ErrorPanel title="This lab cannot be shown".to_string() message=message /> }.into_any(),
            Some(Ok(lab)) => view! { <LiveLab lab=lab may_run=watch.may_run send=send /> }.into_any(),
        }}
    }
}

/// Your own kubectl against this lab: a kubeconfig with a token of your own (the lab's
/// instructor may change the lab through it; anyone else may get, list and watch).
#[component]
fn KubeconfigOffer(id: String, may_run: RwSignal<bool>) -> impl IntoView {
    let config = RwSignal::new(None::<Result<String, String>>);
    let path = format!("/api/labs/{}/kubeconfig", api_client::path_segment(&id));
    let fetch = move |_| {
        let path = path.clone();
        leptos::task::spawn_local(async move {
            let answer = api_client::send_for_text("POST", &path).await.map_err(|e| e.detail);
            config.set(Some(answer));
        });
    };
    let file = format!("kubelab-{}.kubeconfig", id.chars().take(8).collect::<String>());
    view! {
        <section class="kubeconfig-offer" aria-label="Use your own kubectl">
            <button type="button" on:click=fetch>"Use your own kubectl"</button>
            {move || match config.get() {
                None => ().into_any(),
                Some(Err(message)) => view! { <p role="alert">{message}</p> }.into_any(),
                Some(Ok(text)) => {
                    let href = format!("data:application/yaml;base64,{}", kubelab_core::api::secret::base64_encode(text.as_bytes()));
                    let role = if may_run.get_untracked() { "you may change the lab" } else { "you may get, list and watch" };
                    view! {
                        <p>
                            <a href=href download=file.clone()>"Download the kubeconfig"</a>
                            " (" {role} "), then: "
                            <code>{format!("kubectl --kubeconfig {file} get pods")}</code>
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}

fn link_text(state: LinkState) -> &'static str {
    match state {
        LinkState::Connecting => "connecting",
        LinkState::Open => "live",
        LinkState::Closed => "disconnected, reconnecting",
    }
}

#[component]
fn LiveLab(
    lab: LabHandle,
    may_run: RwSignal<bool>,
    send: impl Fn(String) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <div class="lesson-layout hosted-lab">
            <section class="terminal" aria-label="The lab's transcript">
                <pre class="terminal-output" id="terminal-output" tabindex="0" aria-live="polite">
                    {move || transcript_text(&lab.transcript.get())}
                </pre>
                <Show when=move || may_run.get()>
                    <CommandForm send=send />
                </Show>
            </section>
            <ClusterView lab=lab />
        </div>
    }
}

/// The instructor's prompt: each line goes to the server, not to this page's copy.
#[component]
fn CommandForm(send: impl Fn(String) + Copy + Send + Sync + 'static) -> impl IntoView {
    let line = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = line.get_untracked().trim().to_string();
        if !text.is_empty() {
            send(text);
            line.set(String::new());
        }
    };
    view! {
        <form class="terminal-input" on:submit=submit>
            <label for="hosted-lab-input" class="prompt">"$"</label>
            <input id="hosted-lab-input" autocomplete="off" spellcheck="false" placeholder="kubectl get pods"
                prop:value=line on:input=move |ev| line.set(event_target_value(&ev)) />
            <button type="submit">"Run"</button>
        </form>
        <div class="time-controls" role="group" aria-label="Advance the lab's time">
            <span class="time-label">"Let time pass:"</span>
            {["10s", "1m"]
                .into_iter()
                .map(|duration| view! {
                    <button type="button" on:click=move |_| send(format!("sleep {duration}"))>{format!("+{duration}")}</button>
                })
                .collect_view()}
        </div>
    }
}
