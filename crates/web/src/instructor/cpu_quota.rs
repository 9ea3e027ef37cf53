//! A hosted lab's quota of CPU-seconds on its real machines, for its instructor: a meter of what
//! the learner's pods there have used against the quota, and a field to change it (raising a
//! spent quota untaints the machines and lets their agents start containers again).

use crate::server::api_client;
use kubelab_wire::CpuQuotaUse;
use leptos::prelude::*;
use leptos::task::spawn_local;

#[component]
pub fn CpuQuotaMeter(id: String, #[prop(into)] usage: Signal<Option<CpuQuotaUse>>) -> impl IntoView {
    let asked = RwSignal::new(String::new());
    let answer = RwSignal::new(None::<String>);
    let path = format!("/api/labs/{}/node-settings", api_client::path_segment(&id));
    let set = move |_| {
        let (path, text) = (path.clone(), asked.get_untracked());
        spawn_local(async move {
            let said = match text.trim().parse::<u64>() {
                Ok(seconds) => {
                    let body = serde_json::json!({ "cpuSecondsQuota": seconds });
                    match api_client::send_json::<_, serde_json::Value>("PUT", &path, &body).await {
                        Ok(_) => format!("The quota is now {seconds} CPU-seconds."),
                        Err(e) => e.detail,
                    }
                }
                Err(_) => format!("{text:?} is not a whole number of seconds"),
            };
            answer.set(Some(said));
        });
    };
    view! {
        <div class="cpu-quota">
            {move || usage.get().map(|usage| view! {
                <label>
                    {summary(&usage)}
                    <meter min="0" max=usage.quota_seconds.max(1) value=usage.used_millis as f64 / 1000.0
                        high=usage.quota_seconds as f64 * 0.8 optimum="0"></meter>
                </label>
            })}
            <label>
                "Quota (CPU-seconds) "
                <input type="number" min="0" prop:value=asked on:input=move |ev| asked.set(event_target_value(&ev)) />
            </label>
            <button type="button" on:click=set>"Set quota"</button>
            {move || answer.get().map(|text| view! { <p role="status">{text}</p> })}
        </div>
    }
}

/// What the meter says in words.
fn summary(usage: &CpuQuotaUse) -> String {
    let used = usage.used_millis as f64 / 1000.0;
    let spent = if usage.exhausted { " Spent: the machines are tainted and refuse new containers." } else { "" };
    format!("CPU used on real machines: {used:.1} of {} CPU-seconds.{spent} ", usage.quota_seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meter_says_how_much_is_used_and_when_it_is_spent() {
        let usage = CpuQuotaUse { used_millis: 12_345, quota_seconds: 3600, exhausted: false };
        assert_eq!(summary(&usage), "CPU used on real machines: 12.3 of 3600 CPU-seconds. ");
        let spent = CpuQuotaUse { used_millis: 61_000, quota_seconds: 60, exhausted: true };
        assert_eq!(
            summary(&spent),
            "CPU used on real machines: 61.0 of 60 CPU-seconds. Spent: the machines are tainted and refuse new containers. "
        );
    }
}
