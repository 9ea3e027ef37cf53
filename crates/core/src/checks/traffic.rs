//! `traffic`: what the traffic generator counted on its latest run to a Service (the one
//! running, or the last one stopped): enough requests, how many failed, how many versions
//! answered. A rollout that dropped nothing under load passes; one that dropped requests, or
//! one that ran with no traffic at all, does not.
//!
//! ```yaml
//! traffic: {service: hello, min_requests: 1000, max_failed: 0, min_versions: 2}
//! ```

use super::{Context, Verdict};
use crate::network::traffic::by_version;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrafficCheck {
    /// The Service the generator sent to (`lab traffic start svc/NAME`).
    pub service: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// At least this many requests sent.
    #[serde(default)]
    pub min_requests: Option<u32>,
    /// At most this many failed.
    #[serde(default)]
    pub max_failed: Option<u32>,
    /// At least this many failed.
    #[serde(default)]
    pub min_failed: Option<u32>,
    /// At least this many versions answered (a rollout happened under traffic).
    #[serde(default)]
    pub min_versions: Option<usize>,
}

impl TrafficCheck {
    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let namespace = super::namespace_or_default(&self.namespace);
        let service = &self.service;
        let run = ctx.traffic.filter(|g| g.target.service == *service && g.target.namespace == namespace);
        let Some(run) = run else {
            // The command to run, with the namespace when it is not the default one.
            let flag = if namespace == "default" { String::new() } else { format!(" -n {namespace}") };
            return Verdict::new(
                false,
                format!("no traffic has been sent to svc/{service} (lab traffic start svc/{service}{flag})"),
            );
        };
        let totals = run.totals();
        let (ok, failed) = (totals.ok_total(), totals.failed_total());
        let sent = ok + failed;
        let versions = totals.ok.len();
        let answered = if versions == 0 {
            "nothing answered".to_string()
        } else {
            format!("answered by {}", by_version(&totals.ok))
        };
        let summary = if failed == 0 {
            format!("{sent} requests to svc/{service}, none failed, {answered}")
        } else {
            format!("{failed} of {sent} requests to svc/{service} failed ({}), {answered}", by_version(&totals.failed))
        };
        let problem = if self.min_requests.is_some_and(|min| sent < min) {
            Some(format!(
                "only {sent} requests to svc/{service} so far (want at least {})",
                self.min_requests.unwrap_or(0)
            ))
        } else if self.max_failed.is_some_and(|max| failed > max) || self.min_failed.is_some_and(|min| failed < min) {
            Some(summary.clone())
        } else if self.min_versions.is_some_and(|min| versions < min) {
            let want = self.min_versions.unwrap_or(0);
            Some(format!("{summary}: {versions} of the {want} versions wanted answered"))
        } else {
            None
        };
        match problem {
            Some(message) => Verdict::new(false, message),
            None => Verdict::new(true, summary),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, hello_lab};

    #[test]
    fn counts_what_the_generator_saw() {
        let c = check("traffic: {service: hello, min_requests: 500, max_failed: 0, min_versions: 2}");
        let mut lab = hello_lab(20);
        let verdict = c.evaluate(&lab.context());
        assert_eq!(verdict.message, "no traffic has been sent to svc/hello (lab traffic start svc/hello)");
        lab.run("kubectl expose deployment hello --port=80 --target-port=8080\nsleep 3s\nlab traffic start svc/hello --rps 100\nsleep 3s");
        let verdict = c.evaluate(&lab.context());
        assert_eq!(
            (verdict.passed, verdict.message.as_str()),
            (false, "only 400 requests to svc/hello so far (want at least 500)")
        );
        lab.run("sleep 5s");
        let verdict = c.evaluate(&lab.context());
        assert_eq!(
            verdict.message,
            "900 requests to svc/hello, none failed, answered by v1=900: 1 of the 2 versions wanted answered"
        );
        lab.run("kubectl set image deployment/hello hello=hello:v2\nkubectl rollout status deployment/hello\nsleep 5s\nlab traffic stop");
        let verdict = c.evaluate(&lab.context());
        assert!(!verdict.passed && verdict.message.contains(" requests to svc/hello failed ("), "{}", verdict.message);
    }
}
