//! `kubectl create job NAME --image=I [-- COMMAND …]` and `kubectl create job NAME
//! --from=cronjob/X`. Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_job.go
//! (`createJob`, `createJobFromCronJob`).

use super::{generated_metadata, one_name};
use crate::api::{CronJob, Kind};
use crate::kubectl::args::{Args, Flag};
use crate::kubectl::output::Output;
use crate::kubectl::print_flags::{self, DRY_RUN, OUTPUT, Refusal};
use crate::kubectl::{Context, Verb, namespace_of};
use serde_json::{Value, json};

pub const VERB: Verb = Verb {
    name: "create job",
    short: "Create a job with the specified name",
    usage: "kubectl create job NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...] [options]",
    flags: &[
        Flag::value("image", None, "Image name to run."),
        Flag::value("from", None, "The name of the resource to create a Job from (only CronJob is supported)."),
        DRY_RUN,
        OUTPUT,
    ],
    run,
};

fn run(ctx: &mut Context<'_>, args: Args) -> Output {
    let name = match one_name(&args, &VERB) {
        Ok(name) => name,
        Err(message) => return Output::failed(message),
    };
    let (image, from) = (args.get("image").unwrap_or(""), args.get("from").unwrap_or(""));
    if image.is_empty() == from.is_empty() {
        return Output::failed("error: either --image or --from must be specified");
    }
    let command = args.positionals.get(1..).unwrap_or_default();
    if !command.is_empty() && !from.is_empty() {
        return Output::failed("error: cannot specify --from and command");
    }
    let job = if from.is_empty() {
        job_from_image(&args, &name, image, command)
    } else {
        match job_from_cron_job(ctx, &args, &name, from) {
            Ok(job) => job,
            Err(message) => return Output::failed(message),
        }
    };
    print_flags::create(ctx, &args, job, Refusal::Prefixed("failed to create job: "))
}

/// `createJob`: one container named after the Job, restartPolicy Never.
fn job_from_image(args: &Args, name: &str, image: &str, command: &[String]) -> Value {
    let mut container = json!({"image": image, "name": name, "resources": {}});
    if !command.is_empty() {
        container["command"] = json!(command);
    }
    json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": generated_metadata(args, name, None),
        "spec": {"template": {"metadata": {}, "spec": {"containers": [container], "restartPolicy": "Never"}}},
        "status": {},
    })
}

/// `createJobFromCronJob`: the CronJob's job template, marked as started by hand, owned by the
/// CronJob (without blockOwnerDeletion, which would need the cronjobs/finalizers permission).
fn job_from_cron_job(ctx: &Context<'_>, args: &Args, name: &str, from: &str) -> Result<Value, String> {
    let (kind, cron_job_name) = from.split_once('/').unwrap_or((from, ""));
    if Kind::from_cli_name(kind) != Some(Kind::CronJob) || cron_job_name.is_empty() {
        let shown = if cron_job_name.is_empty() { from.to_string() } else { format!("{kind}/{cron_job_name}") };
        return Err(format!("error: from must be an existing cronjob: {shown}"));
    }
    let namespace = namespace_of(args);
    let cron_job = ctx.sim.store().get::<CronJob>(&namespace, cron_job_name).map_err(|e| e.to_string())?;
    let template = &cron_job.spec.job_template;
    let mut annotations = serde_json::Map::new();
    annotations.insert("cronjob.kubernetes.io/instantiate".into(), json!("manual"));
    for (key, value) in template.metadata.annotations.iter() {
        annotations.insert(key.into(), json!(value));
    }
    let mut metadata = generated_metadata(args, name, None);
    metadata["annotations"] = Value::Object(annotations);
    if !template.metadata.labels.is_empty() {
        metadata["labels"] = serde_json::to_value(&template.metadata.labels).unwrap_or_default();
    }
    metadata["ownerReferences"] = json!([{
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "name": cron_job.metadata.name,
        "uid": cron_job.metadata.uid.to_string(),
        "controller": true,
    }]);
    Ok(json!({
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata,
        "spec": crate::api::codec::to_value(&template.spec),
        "status": {},
    }))
}

#[cfg(test)]
mod tests {
    use crate::kubectl::create::tests::kubectl;
    use crate::sim::Sim;

    #[test]
    fn client_dry_run_prints_what_kubectl_generates() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(&mut sim, "create job pi --image=busybox --dry-run=client -o yaml -- sh -c 'echo hi'");
        assert_eq!(
            text,
            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: pi\nspec:\n  template:\n    metadata: {}\n    spec:\n      containers:\n      - command:\n        - sh\n        - -c\n        - echo hi\n        image: busybox\n        name: pi\n        resources: {}\n      restartPolicy: Never\nstatus: {}\n"
        );
        let (text, _) = kubectl(&mut sim, "create job pi");
        assert_eq!(text, "error: either --image or --from must be specified\n");
        let (text, _) = kubectl(&mut sim, "create job pi --from=cronjob/nightly");
        assert_eq!(text, "Error from server (NotFound): cronjobs.batch \"nightly\" not found\n");
        let (text, _) = kubectl(&mut sim, "create job pi --from=cronjob/nightly -- date");
        assert_eq!(text, "error: cannot specify --from and command\n");
    }

    #[test]
    fn a_job_from_a_cron_job_is_owned_by_it() {
        let mut sim = Sim::default();
        let (text, _) = kubectl(&mut sim, "create cronjob nightly --image=busybox --schedule=@daily -- date");
        assert_eq!(text, "cronjob.batch/nightly created\n");
        let (text, _) = kubectl(&mut sim, "create job now --from=cronjob/nightly");
        assert_eq!(text, "job.batch/now created\n");
        let (text, _) =
            kubectl(&mut sim, "get job now -o jsonpath={.metadata.annotations}{.metadata.ownerReferences[0].kind}");
        assert_eq!(text, "{\"cronjob.kubernetes.io/instantiate\":\"manual\"}CronJob");
    }
}
