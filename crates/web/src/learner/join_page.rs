//! `#/join`: a learner joins a class with its join code and a display name (no password), and
//! is shown the resume code to write down; with that code they continue on another device. The
//! server keeps only its hash, so the code shows once; a learner who lost it makes a new one.

use crate::lesson::lessons::catalogue;
use crate::pages::error_panel::FormError;
use crate::pages::route::Route;
use crate::server::api_client;
use crate::server::server_context::ServerContext;
use kubelab_wire::Me;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Serialize;

#[derive(Serialize)]
struct Join {
    join_code: String,
    display_name: String,
}

#[derive(Serialize)]
struct ResumeCode {
    resume_code: String,
}

#[component]
pub fn JoinPage() -> impl IntoView {
    let Some(server) = ServerContext::get() else { return ().into_any() };
    view! {
        <h1>"Join a class"</h1>
        {move || match (server.available.get(), server.me.get()) {
            (Some(false), _) => view! { <p>"Classes need a kubelab server; this copy of kubelab runs on its own."</p> }.into_any(),
            (_, Some(me @ Me::Learner { .. })) => view! { <Joined me=me server=server /> }.into_any(),
            _ => view! { <JoinForm server=server /> <ResumeForm server=server /> }.into_any(),
        }}
    }
    .into_any()
}

/// Signs in with the server's answer, or shows its refusal.
fn sign_in_with(server: ServerContext, answer: Result<Me, api_client::ApiError>, error: RwSignal<Option<String>>) {
    match answer {
        Ok(me) => {
            error.set(None);
            server.set_me(Some(me));
        }
        Err(problem) => error.set(Some(problem.detail)),
    }
}

#[component]
fn JoinForm(server: ServerContext) -> impl IntoView {
    let code = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = Join {
            join_code: code.get_untracked().trim().to_string(),
            display_name: name.get_untracked().trim().to_string(),
        };
        spawn_local(
            async move { sign_in_with(server, api_client::send_json("POST", "/api/join", &body).await, error) },
        );
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="join-heading">
            <h2 id="join-heading">"I have a join code"</h2>
            <label for="join-code">"Join code"</label>
            <input id="join-code" required autocomplete="off" prop:value=code on:input=move |ev| code.set(event_target_value(&ev)) />
            <label for="display-name">"Your name, as your instructor will see it"</label>
            <input id="display-name" required prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
            <button type="submit">"Join"</button>
            <FormError error=error />
        </form>
    }
}

#[component]
fn ResumeForm(server: ServerContext) -> impl IntoView {
    let code = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = ResumeCode { resume_code: code.get_untracked().trim().to_string() };
        spawn_local(
            async move { sign_in_with(server, api_client::send_json("POST", "/api/resume", &body).await, error) },
        );
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="resume-heading">
            <h2 id="resume-heading">"Resume on another device"</h2>
            <label for="resume-code-input">"Your resume code"</label>
            <input id="resume-code-input" required autocomplete="off" prop:value=code on:input=move |ev| code.set(event_target_value(&ev)) />
            <button type="submit">"Resume"</button>
            <FormError error=error />
        </form>
    }
}

#[component]
fn Joined(me: Me, server: ServerContext) -> impl IntoView {
    let Me::Learner { display_name, class_name, resume_code, .. } = me else { return ().into_any() };
    let first = catalogue().lessons.first().map(|l| Route::Lesson(l.id.clone()).href()).unwrap_or_else(|| "#/".into());
    // A learner back on a new device continues where they were; a new one starts at lesson 1.
    let next = move || match server.resume.get() {
        Some(resume) => {
            view! { <a class="button" href=Route::Lesson(resume.lesson).href()>"Continue where you left off"</a> }
                .into_any()
        }
        None => view! { <a class="button" href=first.clone()>"Start the first lesson"</a> }.into_any(),
    };
    view! {
        <section class="joined" aria-labelledby="joined-heading">
            <h2 id="joined-heading">{format!("Welcome, {display_name}: you are in {class_name}")}</h2>
            <ResumeCodePanel shown=resume_code />
            <p>"Your instructor sees your progress as you go, and may break your cluster on purpose."</p>
            <p>{next}</p>
        </section>
    }
    .into_any()
}

#[derive(serde::Deserialize)]
struct NewResumeCode {
    resume_code: String,
}

/// The resume code when it was just made; otherwise a button that makes a new one (the old
/// one then stops working).
#[component]
fn ResumeCodePanel(shown: Option<String>) -> impl IntoView {
    let code = RwSignal::new(shown);
    let error = RwSignal::new(None::<String>);
    let renew = move |_| {
        spawn_local(async move {
            match api_client::send_json::<(), NewResumeCode>("POST", "/api/me/resume-code", &()).await {
                Ok(made) => code.set(Some(made.resume_code)),
                Err(problem) => error.set(Some(problem.detail)),
            }
        });
    };
    view! {
        {move || match code.get() {
            Some(code) => view! {
                <p>"Your resume code — write it down to continue on another device (it is shown only now):"</p>
                <p class="resume-code"><code id="resume-code">{code}</code></p>
            }.into_any(),
            None => view! {
                <p>"To continue on another device you need a resume code; making one replaces the old one."</p>
                <p><button type="button" id="new-resume-code" on:click=renew>"Make a new resume code"</button></p>
            }.into_any(),
        }}
        <FormError error=error />
    }
}
