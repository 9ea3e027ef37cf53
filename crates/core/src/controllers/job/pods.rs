//! A Job's pods: made from its template with the tracking finalizer (and, for an Indexed Job,
//! the completion index as label, annotation, hostname and `JOB_COMPLETION_INDEX`), created
//! and deleted with the events upstream's `RealPodControl` records. Mirrors
//! pkg/controller/job/job_controller.go (`manageJob`) and indexed_job_utils.go.

use super::failed_indexes::IndexFailureCounts;
use crate::api::container::{EnvVar, EnvVarSource, ObjectFieldSelector};
use crate::api::job::{JOB_COMPLETION_INDEX, JOB_TRACKING_FINALIZER};
use crate::api::meta::OwnerReference;
use crate::api::{Job, Kind, ObjectMeta, Pod};
use crate::error::ApiError;
use crate::store::event_recorder::{EventType, object_reference};
use crate::store::{DeleteOptions, Store};

/// At most this many pods created or deleted per sync (`MaxPodCreateDeletePerSync`).
pub const MAX_POD_CREATE_DELETE_PER_SYNC: usize = 500;

/// The ownerReference a Job puts on its pods (`metav1.NewControllerRef`).
pub fn controller_ref(job: &Job) -> OwnerReference {
    OwnerReference {
        api_version: "batch/v1".to_string(),
        kind: "Job".to_string(),
        name: job.metadata.name.clone(),
        uid: job.metadata.uid,
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// One pod to create: its completion index (Indexed Jobs) and, with backoffLimitPerIndex, the
/// failures of its index so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NewPod {
    pub index: Option<i32>,
    pub failure_counts: Option<IndexFailureCounts>,
}

/// The pod for one more completion.
pub fn pod_from_template(job: &Job, new_pod: NewPod) -> Pod {
    let index = new_pod.index;
    let template = &job.spec.template;
    let name = &job.metadata.name;
    let mut metadata = ObjectMeta {
        generate_name: match index {
            Some(i) => format!("{name}-{i}-"),
            None => format!("{name}-"),
        },
        namespace: job.metadata.namespace.clone(),
        labels: template.metadata.labels.clone(),
        annotations: template.metadata.annotations.clone(),
        finalizers: template.metadata.finalizers.clone(),
        ..Default::default()
    };
    metadata.finalizers.push(JOB_TRACKING_FINALIZER.to_string());
    metadata.owner_references.push(controller_ref(job));
    let mut spec = template.spec.clone();
    if let Some(i) = index {
        metadata.labels.insert(JOB_COMPLETION_INDEX, i.to_string());
        metadata.annotations.insert(JOB_COMPLETION_INDEX, i.to_string());
        // `addIndexFailureCountAnnotation`: the index's failures travel from pod to pod.
        for (key, value) in new_pod.failure_counts.map(|c| c.annotations()).unwrap_or_default() {
            metadata.annotations.insert(key, value);
        }
        if spec.hostname.is_none() {
            spec.hostname = Some(format!("{name}-{i}"));
        }
        let env = EnvVar {
            name: "JOB_COMPLETION_INDEX".to_string(),
            value: None,
            value_from: Some(EnvVarSource {
                field_ref: Some(ObjectFieldSelector {
                    api_version: None,
                    field_path: format!("metadata.labels['{JOB_COMPLETION_INDEX}']"),
                }),
                ..Default::default()
            }),
        };
        // `addCompletionIndexEnvVariables`: every container, unless it already sets it.
        for containers in [&mut spec.containers, &mut spec.init_containers] {
            for container in containers.make_mut().iter_mut() {
                if !container.env.iter().any(|e| e.name == env.name) {
                    container.env.push(env.clone());
                }
            }
        }
    }
    Pod { metadata, spec, ..Default::default() }
}

/// The completion index a pod carries, if valid for this Job (`getCompletionIndex`).
pub fn completion_index(pod: &Pod, completions: i32) -> Option<i32> {
    let value = pod.metadata.annotations.get(JOB_COMPLETION_INDEX).or(pod.metadata.labels.get(JOB_COMPLETION_INDEX))?;
    value.parse::<i32>().ok().filter(|i| (0..completions).contains(i))
}

/// Creates the pods in slow-start batches (1, 2, 4, …), stopping at the first failure; returns
/// how many were created.
pub fn create(store: &mut Store, job: &Job, new_pods: &[NewPod]) -> usize {
    let mut created = 0;
    let mut batch = 1;
    while created < new_pods.len() {
        let end = (created + batch).min(new_pods.len());
        for new_pod in &new_pods[created..end] {
            match store.create(pod_from_template(job, *new_pod)) {
                Ok(pod) => {
                    let message = format!("Created pod: {}", pod.metadata.name);
                    store.record_event(object_reference(job), EventType::Normal, "SuccessfulCreate", message);
                    created += 1;
                }
                Err(err) => {
                    let message = format!("Error creating: {}", err.message());
                    store.record_event(object_reference(job), EventType::Warning, "FailedCreate", message);
                    return created;
                }
            }
        }
        batch *= 2;
    }
    created
}

/// Deletes the named pods, recording each.
pub fn delete(store: &mut Store, job: &Job, names: &[String]) {
    for name in names {
        match store.delete::<Pod>(&job.metadata.namespace, name, &DeleteOptions::default()) {
            Ok(_) => {
                let message = format!("Deleted pod: {name}");
                store.record_event(object_reference(job), EventType::Normal, "SuccessfulDelete", message);
            }
            Err(ApiError::NotFound { .. }) => {}
            Err(err) => {
                let message = format!("Error deleting: {}", err.message());
                store.record_event(object_reference(job), EventType::Warning, "FailedDelete", message);
            }
        }
    }
}

/// Takes the tracking finalizer off a pod: a PATCH upstream (`removeTrackingFinalizerPatch`).
pub fn remove_tracking_finalizer(store: &mut Store, pod: &Pod) {
    let mut pod = pod.clone();
    pod.metadata.finalizers.retain(|f| f != JOB_TRACKING_FINALIZER);
    let (namespace, name) = (pod.metadata.namespace.clone(), pod.metadata.name.clone());
    let _ = store.authorized_write(("patch", Kind::Pod, &namespace, &name, ""), |store| store.update(pod));
}
