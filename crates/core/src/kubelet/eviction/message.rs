//! The words the kubelet writes on a pod it evicts and on one it refuses under pressure: the
//! reason `Evicted`, and helpers.go `evictionMessage` (the starved resource, the threshold and
//! what was available, then each container using more than it requests) and the
//! `nodeConditionMessageFmt` eviction_manager.go `Admit` answers with. Every sentence ends with
//! ". ", trailing space included, as upstream's formats do.

use super::signals::{Observation, Threshold};
use crate::api::Pod;
use crate::api::quantity::{Format, Quantity};

/// `status.reason` of an evicted or refused pod, and its Event's reason.
pub const REASON: &str = "Evicted";

/// `evictionMessage` for memory: `running` is each running container's working set in bytes.
pub fn eviction_message(threshold: &Threshold, observed: &Observation, pod: &Pod, running: &[(String, u64)]) -> String {
    let mut message = "The node was low on resource: memory. ".to_string();
    message += &format!("Threshold quantity: {}, available: {}. ", threshold.quantity, observed.available());
    let containers = pod.spec.containers.iter().chain(pod.spec.init_containers.iter());
    for (name, bytes) in running {
        let Some(container) = containers.clone().find(|c| &c.name == name) else { continue };
        let request = container.resources.requests.get("memory").copied().unwrap_or_else(Quantity::zero);
        let usage = Quantity::from_int(i64::try_from(*bytes).unwrap_or(i64::MAX), Format::BinarySI);
        if usage.value() > request.value() {
            message += &format!(
                "Container {name} was using {usage}, request is {request}, has larger consumption of memory. "
            );
        }
    }
    message
}

/// `Admit`'s refusal: `The node had condition: [MemoryPressure]. ` (Go's `%v` of the list).
pub fn node_condition_message(conditions: &[&str]) -> String {
    format!("The node had condition: [{}]. ", conditions.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::container::Container;
    use crate::api::shared::Shared;

    const MIB: u64 = 1024 * 1024;

    fn container(name: &str, request: Option<&str>) -> Container {
        let mut c = Container { name: name.into(), ..Default::default() };
        if let Some(request) = request {
            c.resources.requests.insert("memory".into(), Quantity::parse(request).unwrap());
        }
        c
    }

    #[test]
    fn names_the_threshold_what_was_left_and_each_container_over_its_request() {
        let mut pod = Pod::default();
        pod.spec.containers = Shared::new(vec![
            container("stress", Some("100Mi")),
            container("idle", Some("1Gi")),
            container("bare", None),
        ]);
        let observed = Observation::memory_available(16 << 30, (16 << 30) - 51_200 * 1024 - 1024);
        let running = [("stress".to_string(), 1800 * MIB), ("idle".to_string(), 20 * MIB), ("bare".to_string(), 12345)];
        let message = eviction_message(&Threshold::hard_default(), &observed, &pod, &running);
        assert_eq!(
            message,
            "The node was low on resource: memory. Threshold quantity: 100Mi, available: 51201Ki. \
             Container stress was using 1800Mi, request is 100Mi, has larger consumption of memory. \
             Container bare was using 12345, request is 0, has larger consumption of memory. "
        );
    }

    #[test]
    fn a_refusal_lists_the_conditions() {
        assert_eq!(node_condition_message(&["MemoryPressure"]), "The node had condition: [MemoryPressure]. ");
    }
}
