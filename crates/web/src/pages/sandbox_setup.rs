//! The sandbox's starting point, chosen on the page: a cluster size (nodes spread over three
//! zones as the default cluster is) and a scenario (the scripts run first). The size travels in
//! the permalink (`#/sandbox?nodes=500&log=…`); the scenario's scripts are in the log itself.

use kubelab_core::cluster::{ClusterSpec, NodeTemplate};

/// The sizes offered; 3 is the default cluster.
pub const SIZES: [usize; 4] = [3, 50, 500, 5000];
/// The largest size a link may ask for (the engine's bench scale).
const MAX_NODES: usize = 5000;
/// Pods per node in the big scenario: 150,000 pods at 5,000 nodes, as the engine bench.
const BIG_PODS_PER_NODE: usize = 30;
const ZONES: [&str; 3] = ["zone-a", "zone-b", "zone-c"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    Empty,
    /// Three small Deployments.
    Few,
    /// Deployments filling every node with `BIG_PODS_PER_NODE` pods.
    Big,
}

impl Scenario {
    pub const ALL: [Scenario; 3] = [Scenario::Empty, Scenario::Few, Scenario::Big];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Empty => "empty",
            Scenario::Few => "few",
            Scenario::Big => "big",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scenario::Empty => "Empty",
            Scenario::Few => "A few Deployments",
            Scenario::Big => "Big: 30 pods on every node",
        }
    }

    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The scripts that build it on a cluster of `nodes`, one Deployment per script so the
    /// page can run them between frames; they end with time for the pods to start.
    pub fn scripts(self, nodes: usize) -> Vec<String> {
        let create = |name: &str, replicas: usize| {
            format!("kubectl create deployment {name} --image=hello:v1 --replicas={replicas}")
        };
        let mut scripts: Vec<String> = match self {
            Scenario::Empty => return Vec::new(),
            Scenario::Few => vec![create("web", 6), create("api", 3), create("cache", 2)],
            Scenario::Big => (1..=BIG_PODS_PER_NODE).map(|i| create(&format!("app-{i:02}"), nodes)).collect(),
        };
        scripts.push("sleep 30s".into());
        scripts
    }
}

/// `nodes` machines, `node-1`… (`node-0001`… past nine, so names sort), a zone each in turn.
/// Three is exactly the default cluster.
pub fn cluster(nodes: usize) -> ClusterSpec {
    let width = nodes.to_string().len();
    let nodes = (1..=nodes.clamp(1, MAX_NODES))
        .map(|i| {
            let mut node = NodeTemplate::named(&format!("node-{i:0width$}"));
            node.labels.insert("topology.kubernetes.io/zone", ZONES[(i - 1) % ZONES.len()]);
            node
        })
        .collect();
    ClusterSpec { nodes, ..ClusterSpec::default() }
}

/// A parameter of the hash's query (`#/sandbox?nodes=50&scenario=big`).
pub fn parameter<'a>(hash: &'a str, name: &str) -> Option<&'a str> {
    let (_, query) = hash.split_once('?')?;
    query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// The cluster size a hash asks for: 3 (the default cluster) when absent or out of range, so
/// links from before sizes existed open as they did.
pub fn nodes_in(hash: &str) -> usize {
    parameter(hash, "nodes").and_then(|n| n.parse().ok()).filter(|n| (1..=MAX_NODES).contains(n)).unwrap_or(3)
}

/// The hash that opens a fresh sandbox of this size and scenario.
pub fn start_hash(nodes: usize, scenario: Scenario) -> String {
    format!("#/sandbox?nodes={nodes}&scenario={}", scenario.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_nodes_is_the_default_cluster() {
        assert_eq!(cluster(3), ClusterSpec::default());
        let big = cluster(5000);
        assert_eq!(big.nodes.len(), 5000);
        assert_eq!(big.nodes[0].name, "node-0001");
        assert_eq!(big.nodes[4].labels.get("topology.kubernetes.io/zone"), Some("zone-b"));
    }

    #[test]
    fn the_big_scenario_fills_5000_nodes_with_150000_pods() {
        let scripts = Scenario::Big.scripts(5000);
        assert_eq!(scripts.len(), 31);
        assert!(scripts[0].ends_with("app-01 --image=hello:v1 --replicas=5000"), "{}", scripts[0]);
        assert_eq!(scripts.last().unwrap(), "sleep 30s");
        assert!(Scenario::Empty.scripts(50).is_empty());
        assert!(scripts.iter().all(|s| kubelab_core::script::parse(s).is_ok()));
    }

    #[test]
    fn hashes_carry_the_size_and_old_links_keep_three_nodes() {
        let hash = start_hash(500, Scenario::Big);
        assert_eq!(nodes_in(&hash), 500);
        assert_eq!(parameter(&hash, "scenario").and_then(Scenario::parse), Some(Scenario::Big));
        assert_eq!(nodes_in("#/sandbox?log=abc"), 3);
        assert_eq!(nodes_in("#/sandbox?nodes=999999"), 3);
        assert_eq!(nodes_in("#/sandbox"), 3);
    }
}
