//! The device plugin's config file (k8s-device-plugin's `api/config/v1`): `flags.migStrategy`
//! and `sharing.timeSlicing`, as the GPU Operator hands it over from a ConfigMap. Each key of
//! the ConfigMap is one named config; a node's `nvidia.com/device-plugin.config` label picks
//! one, and a node without the label gets the `default` one.

use super::machine::MigStrategy;
use serde::Deserialize;

/// The ConfigMap the lab's GPU Operator reads, as if installed with
/// `--set devicePlugin.config.name=device-plugin-config,devicePlugin.config.default=default`.
pub const CONFIG_MAP_NAMESPACE: &str = "gpu-operator";
pub const CONFIG_MAP_NAME: &str = "device-plugin-config";
pub const DEFAULT_KEY: &str = "default";
/// The node label naming the key of the ConfigMap that node uses (the config manager's).
pub const CONFIG_LABEL: &str = "nvidia.com/device-plugin.config";

/// What one named config sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PluginConfig {
    /// `flags.migStrategy`; the install's strategy when left out.
    pub mig_strategy: Option<MigStrategy>,
    pub time_slicing: Option<TimeSlicing>,
}

/// `sharing.timeSlicing`: each listed resource's devices advertised `replicas` times; nothing
/// isolates the sharers (memory, faults and time are all shared).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeSlicing {
    /// `renameByDefault`: advertise `<name>.shared` instead of `<name>`.
    pub rename_by_default: bool,
    /// `failRequestsGreaterThanOne`.
    pub fail_requests_greater_than_one: bool,
    pub resources: Vec<ReplicatedResource>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicatedResource {
    pub name: String,
    /// `rename`: the name its replicas are advertised under, instead of `name`.
    pub rename: Option<String>,
    pub replicas: u32,
}

impl TimeSlicing {
    /// The replicas per device of `resource` (1 when it is not shared).
    pub fn replicas_of(&self, resource: &str) -> u32 {
        self.resources.iter().find(|r| r.name == resource).map_or(1, |r| r.replicas)
    }

    /// The name `resource`'s replicas are advertised under.
    pub fn shared_name(&self, resource: &str) -> String {
        match self.resources.iter().find(|r| r.name == resource) {
            Some(ReplicatedResource { rename: Some(rename), .. }) => qualified(rename),
            Some(_) if self.rename_by_default => format!("{resource}.shared"),
            _ => resource.to_string(),
        }
    }

    /// Whether `resource` keeps its name while shared (GFD then marks its product `-SHARED`).
    pub fn shares_in_place(&self, resource: &str) -> bool {
        self.replicas_of(resource) >= 2 && self.shared_name(resource) == resource
    }
}

/// A `rename` without a domain is in the plugin's, `nvidia.com/`.
fn qualified(name: &str) -> String {
    if name.contains('/') { name.to_string() } else { format!("nvidia.com/{name}") }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: String,
    #[serde(default)]
    flags: Flags,
    #[serde(default)]
    sharing: Sharing,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Flags {
    mig_strategy: Option<String>,
    // The plugin's other flags (failOnInitError, plugin.deviceListStrategy, …) change nothing
    // the lab models; they are accepted and left alone.
    #[serde(flatten)]
    _other: serde_yaml::Mapping,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Sharing {
    time_slicing: Option<TimeSlicingFile>,
    mps: Option<serde_yaml::Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TimeSlicingFile {
    #[serde(default)]
    rename_by_default: bool,
    #[serde(default)]
    fail_requests_greater_than_one: bool,
    #[serde(default)]
    resources: Vec<ResourceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResourceFile {
    name: String,
    rename: Option<String>,
    replicas: i64,
    devices: Option<serde_yaml::Value>,
}

/// Parses one named config; the error is the one the plugin's config manager logs.
pub fn parse(text: &str) -> Result<PluginConfig, String> {
    let file: File = serde_yaml::from_str(text).map_err(|e| format!("unable to parse config file: {e}"))?;
    if file.version != "v1" {
        return Err(format!("unknown version: {}", file.version));
    }
    let mig_strategy = file.flags.mig_strategy.as_deref().map(MigStrategy::parse).transpose()?;
    if file.sharing.mps.is_some() {
        return Err("sharing.mps: MPS is not supported on the lab's GPUs; use timeSlicing".into());
    }
    let time_slicing = match file.sharing.time_slicing {
        Some(ts) => Some(time_slicing(ts)?),
        None => None,
    };
    Ok(PluginConfig { mig_strategy, time_slicing })
}

fn time_slicing(file: TimeSlicingFile) -> Result<TimeSlicing, String> {
    let mut resources = Vec::new();
    for (i, r) in file.resources.into_iter().enumerate() {
        if !(r.name == super::device_plugin::GPU_RESOURCE || r.name.starts_with("nvidia.com/mig-")) {
            return Err(format!(
                "sharing.timeSlicing.resources[{i}]: unsupported resource name \"{}\": must be nvidia.com/gpu or nvidia.com/mig-<profile>",
                r.name
            ));
        }
        if r.replicas < 1 {
            return Err(format!(
                "sharing.timeSlicing.resources[{i}]: number of replicas must be >= 1, not {}",
                r.replicas
            ));
        }
        if r.devices.is_some() {
            return Err(format!(
                "sharing.timeSlicing.resources[{i}].devices: selecting devices is not supported; every device is shared"
            ));
        }
        let replicas = u32::try_from(r.replicas.min(1024)).unwrap_or(1024);
        resources.push(ReplicatedResource { name: r.name, rename: r.rename, replicas });
    }
    Ok(TimeSlicing {
        rename_by_default: file.rename_by_default,
        fail_requests_greater_than_one: file.fail_requests_greater_than_one,
        resources,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR_WAYS: &str = "version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/gpu\n      replicas: 4\n";

    #[test]
    fn nvidias_example_shares_each_gpu_four_ways() {
        let config = parse(FOUR_WAYS).unwrap();
        assert_eq!(config.mig_strategy, Some(MigStrategy::None));
        let ts = config.time_slicing.unwrap();
        assert_eq!(ts.replicas_of("nvidia.com/gpu"), 4);
        assert_eq!(ts.replicas_of("nvidia.com/mig-1g.5gb"), 1);
        assert_eq!(ts.shared_name("nvidia.com/gpu"), "nvidia.com/gpu");
        assert!(ts.shares_in_place("nvidia.com/gpu"));
    }

    #[test]
    fn rename_by_default_and_rename_give_other_names() {
        let text = FOUR_WAYS.replace("timeSlicing:\n", "timeSlicing:\n    renameByDefault: true\n");
        let ts = parse(&text).unwrap().time_slicing.unwrap();
        assert_eq!(ts.shared_name("nvidia.com/gpu"), "nvidia.com/gpu.shared");
        assert!(!ts.shares_in_place("nvidia.com/gpu"));
        let text = FOUR_WAYS.replace("replicas: 4", "rename: gpu-quarter\n      replicas: 4");
        let ts = parse(&text).unwrap().time_slicing.unwrap();
        assert_eq!(ts.shared_name("nvidia.com/gpu"), "nvidia.com/gpu-quarter");
    }

    #[test]
    fn mistakes_are_named() {
        let cases = [
            (FOUR_WAYS.replace("v1", "v2"), "unknown version: v2"),
            (FOUR_WAYS.replace("replicas: 4", "replicas: 0"), "number of replicas must be >= 1, not 0"),
            (FOUR_WAYS.replace("nvidia.com/gpu", "amd.com/gpu"), "unsupported resource name \"amd.com/gpu\""),
            (FOUR_WAYS.replace("migStrategy: none", "migStrategy: all"), "unknown MIG strategy \"all\""),
            (FOUR_WAYS.replace("timeSlicing", "timeSlice"), "unknown field `timeSlice`"),
            ("version: v1\nsharing: [".to_string(), "unable to parse config file"),
        ];
        for (text, wanted) in cases {
            let error = parse(&text).unwrap_err();
            assert!(error.contains(wanted), "{error:?} lacks {wanted:?}");
        }
    }
}
