//! `#/teach`: an instructor signs up or in, lists their classes (each with its join code and a
//! link to its live dashboard), creates new ones and starts hosted labs.

use crate::instructor::host_lab_form::HostLabForm;
use crate::instructor::teach_auth::{SignInForm, SignUpForm, sign_out};
use crate::pages::error_panel::FormError;
use crate::pages::route::Route;
use crate::server::api_client;
use crate::server::server_context::ServerContext;
use kubelab_wire::{Class, Me};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Serialize;

#[derive(Serialize)]
struct NewClass {
    name: String,
}

#[component]
pub fn TeachPage() -> impl IntoView {
    let Some(server) = ServerContext::get() else { return ().into_any() };
    view! {
        <h1>"Teach"</h1>
        {move || match (server.available.get(), server.me.get()) {
            (Some(false), _) => view! { <p>"Classes need a kubelab server: run "<code>"kubelab serve"</code>"."</p> }.into_any(),
            (_, Some(Me::Instructor { display_name, .. })) => view! { <Classes server=server name=display_name /> }.into_any(),
            (_, Some(Me::Learner { .. })) => view! {
                <p>"You are signed in as a learner. Sign in as an instructor to teach."</p>
                <SignInForm server=server />
            }.into_any(),
            _ => view! { <SignInForm server=server /> <SignUpForm server=server /> }.into_any(),
        }}
    }
    .into_any()
}

#[component]
fn Classes(server: ServerContext, name: String) -> impl IntoView {
    let classes = RwSignal::new(Vec::<Class>::new());
    let error = RwSignal::new(None::<String>);
    let reload = move || {
        spawn_local(async move {
            match api_client::get::<Vec<Class>>("/api/classes").await {
                Ok(list) => classes.set(list),
                Err(problem) => error.set(Some(problem.detail)),
            }
        })
    };
    reload();
    view! {
        <p class="signed-in">{format!("Signed in as {name}. ")}
            <button type="button" class="link-button" on:click=move |_| sign_out(server)>"Sign out"</button>
        </p>
        <NewClassForm on_created=move || reload() />
        <HostLabForm />
        <InviteForm />
        <h2>"Your classes"</h2>
        <FormError error=error />
        <Show when=move || classes.with(Vec::is_empty)>
            <p>"No classes yet: create one above and give its join code to your learners."</p>
        </Show>
        <ul class="classes">
            {move || classes.get().into_iter().map(class_item).collect_view()}
        </ul>
    }
}

fn class_item(class: Class) -> impl IntoView {
    let learners = if class.learners == 1 { "1 learner".to_string() } else { format!("{} learners", class.learners) };
    view! {
        <li class="class-item">
            <a href=Route::TeachClass(class.id.clone()).href()>{class.name}</a>
            " · join code "<code class="join-code">{class.join_code}</code>" · "{learners}
        </li>
    }
}

#[component]
fn NewClassForm(on_created: impl Fn() + Copy + 'static) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let created = RwSignal::new(None::<Class>);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = NewClass { name: name.get_untracked().trim().to_string() };
        spawn_local(async move {
            match api_client::send_json::<_, Class>("POST", "/api/classes", &body).await {
                Ok(class) => {
                    error.set(None);
                    name.set(String::new());
                    created.set(Some(class));
                    on_created();
                }
                Err(problem) => error.set(Some(problem.detail)),
            }
        });
    };
    view! {
        <form class="card-form" on:submit=submit aria-labelledby="new-class-heading">
            <h2 id="new-class-heading">"Create a class"</h2>
            <label for="class-name">"Class name"</label>
            <input id="class-name" required prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
            <button type="submit">"Create class"</button>
            <FormError error=error />
            <p class="created-class" role="status">
                {move || created.get().map(|class| view! {
                    {format!("Created “{}”. Learners join at #/join with the code ", class.name)}
                    <code id="new-join-code">{class.join_code.clone()}</code>". "
                    <a href=Route::TeachClass(class.id.clone()).href()>"Open its dashboard"</a>
                })}
            </p>
        </form>
    }
}

#[derive(serde::Deserialize)]
struct Invite {
    invite: String,
}

/// Makes a one-use invite code for another instructor (servers where sign-up is by invitation).
#[component]
fn InviteForm() -> impl IntoView {
    let code = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let invite = move |_| {
        leptos::task::spawn_local(async move {
            match crate::server::api_client::send_json::<(), Invite>("POST", "/api/invites", &()).await {
                Ok(made) => code.set(Some(made.invite)),
                Err(problem) => error.set(Some(problem.detail)),
            }
        });
    };
    view! {
        <section class="invite" aria-labelledby="invite-heading">
            <h2 id="invite-heading">"Invite an instructor"</h2>
            <button type="button" on:click=invite>"Make an invite code"</button>
            {move || code.get().map(|code| view! {
                <p>"Give them this code (one use, valid for a week): "<code id="invite-code">{code}</code></p>
            })}
            <crate::pages::error_panel::FormError error=error />
        </section>
    }
}
