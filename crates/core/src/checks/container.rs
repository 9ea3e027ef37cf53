//! `container`: what the running processes of the selected pods see — their environment as
//! the kubelet made it at start, and the files their volumes mount now. `kubectl exec POD --
//! env` and `cat` show the same; a check of the pod's spec cannot tell a patched ConfigMap
//! that reached the files from one that never reached the env.
//!
//! ```yaml
//! container: {selector: app=hello, env: {GREETING: hey}}
//! container: {selector: app=hello, file: /etc/hello/GREETING, equals: hey}
//! ```

use super::pods::plural;
use super::{Context, Verdict, namespace_or_default};
use crate::api::Pod;
use crate::api::labels::Selector;
use crate::kubelet::node_server::ContainerProcess;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContainerCheck {
    /// The pods, in `kubectl -l` syntax; every one not being deleted must pass (and one must exist).
    pub selector: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// The container; the pod's first when left out.
    #[serde(default)]
    pub container: Option<String>,
    /// Variables its environment must have, with these values.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// A file its volumes mount (`/etc/hello/GREETING`)…
    #[serde(default)]
    pub file: Option<String>,
    /// …whose content, less a trailing newline, is this.
    #[serde(default)]
    pub equals: Option<String>,
}

impl ContainerCheck {
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if let Err(e) = Selector::parse(&self.selector) {
            problems.push(format!("container: selector \"{}\": {e}", self.selector));
        }
        if self.env.is_empty() && self.file.is_none() {
            problems.push("container: name `env` or a `file` to look at".to_string());
        }
        if self.equals.is_some() != self.file.is_some() {
            problems.push("container: `file` and `equals` go together".to_string());
        }
        problems
    }

    pub fn evaluate(&self, ctx: &Context<'_>) -> Verdict {
        let Ok(selector) = Selector::parse(&self.selector) else {
            return Verdict::new(false, format!("the selector \"{}\" does not parse", self.selector));
        };
        let namespace = namespace_or_default(&self.namespace);
        let pods: Vec<&Pod> = ctx
            .store
            .list::<Pod>(Some(namespace))
            .filter(|p| selector.matches(&p.metadata.labels) && !p.metadata.is_being_deleted())
            .collect();
        if pods.is_empty() {
            let place = super::in_namespace(&self.namespace);
            return Verdict::new(false, format!("no pods with {}{place}", self.selector));
        }
        let wrong: Vec<String> = pods.iter().filter_map(|pod| self.problem(ctx, pod)).collect();
        match wrong.first() {
            None => {
                let (count, verb) = (pods.len(), if pods.len() == 1 { "sees" } else { "see" });
                Verdict::new(
                    true,
                    format!("{count} {} with {} {verb} {}", plural(count, "pod"), self.selector, self.what()),
                )
            }
            Some(first) => {
                let others = wrong.len() - 1;
                let more = if others > 0 { format!(" (and {others} more)") } else { String::new() };
                Verdict::new(false, format!("{first}{more}"))
            }
        }
    }

    /// What passing means, for the message: `GREETING=hey`.
    fn what(&self) -> String {
        let mut seen: Vec<String> = self.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if let (Some(file), Some(equals)) = (&self.file, &self.equals) {
            seen.push(format!("{file} = {equals:?}"));
        }
        seen.join(", ")
    }

    /// Why this pod does not pass, if it does not.
    fn problem(&self, ctx: &Context<'_>, pod: &Pod) -> Option<String> {
        let name = &pod.metadata.name;
        let container = self.container.as_deref().or(pod.spec.containers.first().map(|c| c.name.as_str()))?;
        let Some(process) = running(ctx, pod, container) else {
            return Some(format!("pod {name}: container {container:?} is not running"));
        };
        for (key, want) in &self.env {
            match process.env.iter().rev().find(|(k, _)| k == key) {
                Some((_, value)) if value == want => {}
                Some((_, value)) => return Some(format!("pod {name}: {key} is {value:?} (want {want:?})")),
                None => return Some(format!("pod {name}: {key} is not set (want {want:?})")),
            }
        }
        let (Some(file), Some(want)) = (&self.file, &self.equals) else { return None };
        match process.mounted_files.get(file) {
            Some(content) if content.strip_suffix('\n').unwrap_or(content) == want => None,
            Some(content) => Some(format!("pod {name}: {file} reads {:?} (want {want:?})", content.trim_end())),
            None => Some(format!("pod {name}: {file}: No such file or directory")),
        }
    }
}

/// The container's running process, as its node's kubelet has it.
fn running(ctx: &Context<'_>, pod: &Pod, container: &str) -> Option<ContainerProcess> {
    let node = ctx.store.try_get::<crate::api::Node>("", pod.node_name()?)?;
    ctx.sim.node_server(node).running_container(pod, container)
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{check, empty_lab};

    const READER: &str = r#"kubectl create configmap hello-config --from-literal=GREETING=hi
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: reader, labels: {app: reader}}
spec:
  containers:
  - name: app
    image: busybox:1.37
    command: [sleep, infinity]
    envFrom: [{configMapRef: {name: hello-config}}]
    volumeMounts: [{name: config, mountPath: /etc/hello}]
  volumes: [{name: config, configMap: {name: hello-config}}]
EOF
sleep 10s
"#;

    #[test]
    fn env_stays_while_the_file_follows_the_config_map() {
        let mut lab = empty_lab();
        lab.run(READER);
        let env_hi = check("container: {selector: app=reader, env: {GREETING: hi}}");
        let file_hey = check("container: {selector: app=reader, file: /etc/hello/GREETING, equals: hey}");
        assert_eq!(env_hi.evaluate(&lab.context()).message, "1 pod with app=reader sees GREETING=hi");
        assert_eq!(
            file_hey.evaluate(&lab.context()).message,
            "pod reader: /etc/hello/GREETING reads \"hi\" (want \"hey\")"
        );
        lab.run("kubectl patch configmap hello-config -p '{\"data\":{\"GREETING\":\"hey\"}}'\nsleep 95s\n");
        assert!(file_hey.evaluate(&lab.context()).passed);
        let env_hey = check("container: {selector: app=reader, env: {GREETING: hey}}");
        assert_eq!(env_hey.evaluate(&lab.context()).message, "pod reader: GREETING is \"hi\" (want \"hey\")");
    }

    #[test]
    fn says_what_is_missing() {
        let mut lab = empty_lab();
        lab.run(READER);
        let unset = check("container: {selector: app=reader, env: {DB_PASSWORD: s3cret}}");
        assert_eq!(unset.evaluate(&lab.context()).message, "pod reader: DB_PASSWORD is not set (want \"s3cret\")");
        let nowhere = check("container: {selector: app=nobody, env: {A: b}}");
        assert_eq!(nowhere.evaluate(&lab.context()).message, "no pods with app=nobody");
        let no_file = check("container: {selector: app=reader, file: /etc/other, equals: x}");
        assert_eq!(no_file.evaluate(&lab.context()).message, "pod reader: /etc/other: No such file or directory");
    }
}
