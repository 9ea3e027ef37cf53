//! The instructor's sign-up and sign-in forms (`POST /api/instructors`, `POST /api/session`),
//! and signing out (`DELETE /api/session`).

use crate::pages::error_panel::FormError;
use crate::server::api_client;
use crate::server::server_context::ServerContext;
use kubelab_wire::Me;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Serialize;

#[derive(Serialize)]
struct SignUp {
    email: String,
    password: String,
    display_name: String,
    /// Sent only when typed: servers where sign-up is by invitation ask for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
}

#[derive(Serialize)]
struct SignIn {
    email: String,
    password: String,
}

/// Sends a form and signs in with the answer, or shows the refusal.
fn submit_and_sign_in<B: Serialize + 'static>(
    server: ServerContext,
    path: &'static str,
    body: B,
    error: RwSignal<Option<String>>,
) {
    spawn_local(async move {
        match api_client::send_json::<_, Me>("POST", path, &body).await {
            Ok(me) => {
                error.set(None);
                server.set_me(Some(me));
            }
            Err(problem) => error.set(Some(problem.detail)),
        }
    });
}

/// Signs out, then forgets who was signed in.
pub fn sign_out(server: ServerContext) {
    spawn_local(async move {
        let _ = api_client::send_no_answer::<()>("DELETE", "/api/session", None).await;
        server.set_me(None);
    });
}

#[component]
pub fn SignInForm(server: ServerContext) -> impl IntoView {
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = SignIn { email: email.get_untracked().trim().to_string(), password: password.get_untracked() };
        submit_and_sign_in(server, "/api/session", body, error);
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="sign-in-heading">
            <h2 id="sign-in-heading">"Sign in"</h2>
            <label for="sign-in-email">"Email"</label>
            <input id="sign-in-email" type="email" required autocomplete="email" prop:value=email on:input=move |ev| email.set(event_target_value(&ev)) />
            <label for="sign-in-password">"Password"</label>
            <input id="sign-in-password" type="password" required autocomplete="current-password" prop:value=password on:input=move |ev| password.set(event_target_value(&ev)) />
            <button type="submit">"Sign in"</button>
            <FormError error=error />
        </form>
    }
}

#[component]
pub fn SignUpForm(server: ServerContext) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let email = RwSignal::new(String::new());
    let password = RwSignal::new(String::new());
    let invite = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = SignUp {
            email: email.get_untracked().trim().to_string(),
            password: password.get_untracked(),
            display_name: name.get_untracked().trim().to_string(),
            invite: Some(invite.get_untracked().trim().to_string()).filter(|code| !code.is_empty()),
        };
        submit_and_sign_in(server, "/api/instructors", body, error);
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="sign-up-heading">
            <h2 id="sign-up-heading">"New here? Create an instructor account"</h2>
            <label for="sign-up-name">"Your name, as learners will see it"</label>
            <input id="sign-up-name" required autocomplete="name" prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
            <label for="sign-up-email">"Email"</label>
            <input id="sign-up-email" type="email" required autocomplete="email" prop:value=email on:input=move |ev| email.set(event_target_value(&ev)) />
            <label for="sign-up-password">"Password (at least 8 characters)"</label>
            <input id="sign-up-password" type="password" required minlength="8" autocomplete="new-password" prop:value=password on:input=move |ev| password.set(event_target_value(&ev)) />
            <label for="sign-up-invite">"Invite code (if this server asks for one)"</label>
            <input id="sign-up-invite" autocomplete="off" prop:value=invite on:input=move |ev| invite.set(event_target_value(&ev)) />
            <button type="submit">"Create account"</button>
            <FormError error=error />
        </form>
    }
}
