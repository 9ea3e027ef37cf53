//! `#/about`: what kubelab is and how its lab works.

use leptos::prelude::*;

#[component]
pub fn AboutPage() -> impl IntoView {
    view! {
        <article class="about">
            <h1>"About kubelab"</h1>
            <p>"kubelab teaches Kubernetes by letting you break a cluster and watch it heal. The cluster is a
                faithful simulation — API server, controllers, scheduler and kubelets — compiled to WebAssembly
                and running in this page. Nothing is sent to a server."</p>
            <p>"Time in the lab is virtual: it only moves when you let it, with "<code>"sleep 10s"</code>
                " or the buttons under the terminal. The same seed and the same commands always give the same cluster."</p>
            <p>"kubelab is open source under the Apache 2.0 licence."</p>
        </article>
    }
}
