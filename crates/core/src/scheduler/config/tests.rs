use super::*;

const BIN_PACKING: &str = "\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: gpu-binpack
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: nvidia.com/gpu
          weight: 5
        - name: cpu
";

#[test]
fn no_profiles_is_one_default_profile() {
    let config =
        SchedulerConfig::parse("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n");
    assert_eq!(config, Ok(SchedulerConfig::default()));
}

#[test]
fn a_bin_packing_profile_beside_the_default_one_with_weights_defaulted() {
    let config = SchedulerConfig::parse(BIN_PACKING).unwrap();
    assert_eq!(config.profile("default-scheduler").map(|p| &p.scoring), Some(&None));
    let strategy = config.profile("gpu-binpack").and_then(|p| p.scoring.clone()).unwrap();
    assert_eq!(strategy.kind, ScoringStrategyType::MostAllocated);
    let weights: Vec<(&str, i64)> = strategy.resources.iter().map(|r| (r.name.as_str(), r.weight)).collect();
    // A weight left out is 1 (SetDefaults_NodeResourcesFitArgs).
    assert_eq!(weights, [("nvidia.com/gpu", 5), ("cpu", 1)]);
    assert!(config.profile("my-scheduler").is_none());
}

#[test]
fn a_strategy_without_resources_scores_cpu_and_memory() {
    let text = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated}}\n";
    let config = SchedulerConfig::parse(text).unwrap();
    let profile = &config.profiles[0];
    assert_eq!(profile.scheduler_name, "default-scheduler", "one profile is named for the default");
    assert_eq!(profile.scoring.as_ref().unwrap().resources, default_resources());
}

/// Each file kube-scheduler refuses, with its words.
#[test]
fn refused_files_say_what_upstream_says() {
    let head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
    let fit = |strategy: &str| {
        format!(
            "{head}profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy: {strategy}\n"
        )
    };
    let cases = [
        (
            "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n".to_string(),
            "no kind \"KubeSchedulerConfiguration\" is registered for version \"kubescheduler.config.k8s.io/v1beta3\"",
        ),
        (
            fit("{type: Packed}"),
            "profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: \"Packed\": supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"",
        ),
        (
            fit("{type: MostAllocated, resources: [{name: nvidia.com/gpu, weight: 101}]}"),
            "profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of nvidia.com/gpu not in valid range (0, 100]",
        ),
        (
            fit("{type: RequestedToCapacityRatio}"),
            "profiles[0].pluginConfig[0].args.scoringStrategy.shape: Required value: at least one point must be specified",
        ),
        (
            fit(
                "{type: RequestedToCapacityRatio, requestedToCapacityRatio: {shape: [{utilization: 50, score: 11}, {utilization: 40, score: 0}]}}",
            ),
            "[profiles[0].pluginConfig[0].args.scoringStrategy.shape[1].utilization: Invalid value: 40: values must be sorted in increasing order, profiles[0].pluginConfig[0].args.scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, 10]]",
        ),
        (
            format!("{head}profiles:\n- schedulerName: a\n- schedulerName: a\n- {{}}\n"),
            "[profiles[1].schedulerName: Duplicate value: \"a\", profiles[2].schedulerName: Required value]",
        ),
        (
            format!("{head}profiles:\n- pluginConfig:\n  - name: PodTopologySpread\n"),
            "profiles[0].pluginConfig[0].name: Unsupported value: \"PodTopologySpread\": supported values: \"NodeResourcesFit\"",
        ),
        (
            format!("{head}percentageOfNodesToScore: 50\n"),
            "percentageOfNodesToScore: Forbidden: not supported by the lab's scheduler (it has no effect here)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(SchedulerConfig::parse(&text).unwrap_err(), want, "{text}");
    }
    let unknown = SchedulerConfig::parse(&format!("{head}profile: []\n")).unwrap_err();
    assert!(unknown.starts_with("strict decoding error: unknown field `profile`"), "{unknown}");
}

#[test]
fn plugins_score_sets_weights_disables_and_refuses_what_the_lab_lacks() {
    let head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    score:\n";
    let text = format!(
        "{head}      disabled: [{{name: PodTopologySpread}}]\n      enabled: [{{name: NodeResourcesFit, weight: 10}}, {{name: ImageLocality}}]\n"
    );
    let weights = SchedulerConfig::parse(&text).unwrap().profiles[0].score_weights.unwrap();
    // TaintToleration, NodeAffinity, NodeResourcesFit, PodTopologySpread, InterPodAffinity,
    // NodeResourcesBalancedAllocation, ImageLocality; a weight left out is 1.
    assert_eq!(weights, [3, 2, 10, 0, 2, 1, 1]);
    let all_off =
        format!("{head}      disabled: [{{name: \"*\"}}]\n      enabled: [{{name: NodeResourcesFit, weight: 1}}]\n");
    assert_eq!(SchedulerConfig::parse(&all_off).unwrap().profiles[0].score_weights, Some([0, 0, 1, 0, 0, 0, 0]));
    let unknown = format!("{head}      enabled: [{{name: NodeResourcesLeastAllocated}}]\n");
    let error = SchedulerConfig::parse(&unknown).unwrap_err();
    assert!(error.starts_with("profiles[0].plugins.score.enabled[0].name: Unsupported value: \"NodeResourcesLeastAllocated\": supported values: \"TaintToleration\""), "{error}");
    let filter = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- plugins:\n    filter: {disabled: [{name: NodeResourcesFit}]}\n";
    assert_eq!(
        SchedulerConfig::parse(filter).unwrap_err(),
        "profiles[0].plugins.filter: Forbidden: not supported by the lab's scheduler (it has no effect here)"
    );
}
