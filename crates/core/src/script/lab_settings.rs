//! `lab settings`: a lab's node-health settings, read or changed (the controller manager's
//! and the API server's flags a cluster's operator would set), so a lesson or a lab with real
//! machines can make a dead node's pods move in seconds rather than minutes.

use crate::kubectl::args::{Args, Flag};
use crate::sim::Sim;
use crate::sim::time::Duration;

pub const FLAGS: &[Flag] = &[
    Flag::value(
        "node-monitor-grace-period",
        None,
        "How long a node's Lease may go unrenewed before the node is Unknown (kube-controller-manager)",
    ),
    Flag::value(
        "default-toleration-seconds",
        None,
        "How long new pods tolerate not-ready and unreachable nodes (kube-apiserver)",
    ),
];

pub fn settings(sim: &mut Sim, args: &Args) -> Result<String, String> {
    if !args.positionals.is_empty() {
        return Err("error: lab settings takes flags only".into());
    }
    let mut settings = *sim.store().node_settings();
    if let Some(text) = args.get("node-monitor-grace-period") {
        settings.node_monitor_grace_period = Duration::parse(text).map_err(|e| format!("error: {e}"))?;
    }
    if let Some(text) = args.get("default-toleration-seconds") {
        settings.default_toleration_seconds =
            text.parse().map_err(|_| format!("error: --default-toleration-seconds: {text:?} is not a whole number"))?;
    }
    settings.validate()?;
    sim.store_mut().set_node_settings(settings);
    Ok(settings.describe())
}

#[cfg(test)]
mod tests {
    use crate::cluster::ClusterSpec;
    use crate::sim::Sim;

    fn run(sim: &mut Sim, line: &str) -> Result<String, String> {
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        super::super::lab::run(sim, &words[1..])
    }

    #[test]
    fn settings_are_read_changed_and_refused_when_bad() {
        let mut sim = Sim::new(1, &ClusterSpec::default());
        assert_eq!(
            run(&mut sim, "lab settings").unwrap(),
            "node-monitor-grace-period: 50s\ndefault-toleration-seconds: 300"
        );
        assert_eq!(
            run(&mut sim, "lab settings --node-monitor-grace-period 20s --default-toleration-seconds 5").unwrap(),
            "node-monitor-grace-period: 20s\ndefault-toleration-seconds: 5"
        );
        let refused = run(&mut sim, "lab settings --node-monitor-grace-period 2s").unwrap_err();
        assert!(refused.contains("at least 10s"), "{refused}");
        let refused = run(&mut sim, "lab settings --default-toleration-seconds soon").unwrap_err();
        assert!(refused.contains("not a whole number"), "{refused}");
        assert_eq!(sim.store().node_settings().default_toleration_seconds, 5, "a refusal changes nothing");
    }
}
