//! `kubectl create cronjob NAME --image=I --schedule=S [--restart=OnFailure|Never] [-- COMMAND …]`.
//! Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_cronjob.go (`createCronJob`).

use super::{generated_metadata, one_name};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb};
use serde_json::json;

pub const VERB: Verb = Verb {
    name: "create cronjob",
    short: "Create a cron job with the specified name",
    usage: "kubectl create cronjob NAME --image=image --schedule='0/5 * * * ?' -- [COMMAND] [args...] [flags] [options]",
    flags: &[
        Flag::value("image", None, "Image name to run."),
        Flag::value("schedule", None, "A schedule in the Cron format the job should be run with."),
        Flag::value("restart", None, "job's restart policy. supported values: OnFailure, Never"),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let Some(image) = args.get("image").filter(|i| !i.is_empty()) else {
        return Output::failed("error: required flag(s) \"image\" not set");
    };
    let Some(schedule) = args.get("schedule").filter(|s| !s.is_empty()) else {
        return Output::failed("error: required flag(s) \"schedule\" not set");
    };
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let restart = args.get("restart").filter(|r| !r.is_empty()).unwrap_or("OnFailure");
    let mut container = json!({"image": image, "name": name, "resources": {}});
    let command = args.positionals.get(1..).unwrap_or_default();
    if !command.is_empty() {
        container["command"] = json!(command);
    }
    let cron_job = json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": generated_metadata(&args, &name, None),
        "spec": {
            "jobTemplate": {
                "metadata": {"name": name},
                "spec": {"template": {"metadata": {}, "spec": {"containers": [container], "restartPolicy": restart}}},
            },
            "schedule": schedule,
        },
        "status": {},
    });
    print_flags::create(ctx, &args, cron_job, Refusal::Prefixed("failed to create cronjob: "))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn client_dry_run_prints_what_kubectl_generates() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(
            &mut sim,
            "create cronjob hello --image=busybox --schedule='*/10 * * * *' --dry-run=client -o yaml -- sh -c 'date; sleep 30'",
        );
        assert_eq!(
            text,
            "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: hello\nspec:\n  jobTemplate:\n    metadata:\n      name: hello\n    spec:\n      template:\n        metadata: {}\n        spec:\n          containers:\n          - command:\n            - sh\n            - -c\n            - date; sleep 30\n            image: busybox\n            name: hello\n            resources: {}\n          restartPolicy: OnFailure\n  schedule: '*/10 * * * *'\nstatus: {}\n"
        );
        let (text, _) = kubectl(&mut sim, "create cronjob hello --image=busybox");
        assert_eq!(text, "error: required flag(s) \"schedule\" not set\n");
        let (text, _) = kubectl(&mut sim, "create cronjob hello --image=busybox --schedule=often");
        assert_eq!(
            text,
            "error: failed to create cronjob: CronJob \"hello\" is invalid: spec.schedule: Invalid value: \"often\": expected exactly 5 fields, found 1: [often]\n"
        );
    }
}
