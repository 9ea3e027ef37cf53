//! `kubectl describe node`: roles, taints, conditions, addresses, capacity, the pods it runs
//! with their requests and limits, and how much of it is allocated. Mirrors `describeNode` and
//! `describeNodeResource` in staging/src/k8s.io/kubectl/pkg/describe/describe.go and
//! `PodRequestsAndLimits` in staging/src/k8s.io/kubectl/pkg/util/resource/resource.go.

use super::events::{self, EventQuery};
use super::{Describer, LEVEL_0, LEVEL_1, PrefixWriter, annotations_multiline, labels_multiline, rfc1123z, since};
use crate::api::container::ResourceList;
use crate::api::meta::{MicroTime, Time};
use crate::api::node::Taint;
use crate::api::quantity::Quantity;
use crate::api::{Kind, Node, Object, Pod, ResourceSlice};
use crate::store::node_lease::NODE_LEASE_NAMESPACE;

pub fn describe(describer: &Describer<'_>, node: &Node) -> String {
    let mut w = PrefixWriter::default();
    let meta = &node.metadata;
    w.write(LEVEL_0, &format!("Name:\t{}\n", meta.name));
    let roles = roles(node);
    let roles = if roles.is_empty() { "<none>".to_string() } else { roles.join(",") };
    w.write(LEVEL_0, &format!("Roles:\t{roles}\n"));
    labels_multiline(&mut w, "", "Labels", &meta.labels);
    annotations_multiline(&mut w, "Annotations", &meta.annotations);
    w.write(LEVEL_0, &format!("CreationTimestamp:\t{}\n", rfc1123z(meta.creation_timestamp)));
    taints_multiline(&mut w, &node.spec.taints);
    w.write(LEVEL_0, &format!("Unschedulable:\t{}\n", node.spec.unschedulable.unwrap_or(false)));
    lease(&mut w, describer, node);
    conditions(&mut w, node);
    w.write(LEVEL_0, "Addresses:\n");
    for address in &node.status.addresses {
        w.write(LEVEL_1, &format!("{}:\t{}\n", address.type_, address.address));
    }
    resource_list(&mut w, "Capacity", &node.status.capacity);
    resource_list(&mut w, "Allocatable", &node.status.allocatable);
    node_local_slices(&mut w, describer, node);
    system_info(&mut w, node);
    if let Some(cidr) = node.spec.pod_cidr.as_deref().filter(|c| !c.is_empty()) {
        w.write(LEVEL_0, &format!("PodCIDR:\t{cidr}\n"));
    }
    if !node.spec.pod_cidrs.is_empty() {
        w.write(LEVEL_0, &format!("PodCIDRs:\t{}\n", node.spec.pod_cidrs.join(",")));
    }
    if let Some(provider) = node.spec.provider_id.as_deref().filter(|p| !p.is_empty()) {
        w.write(LEVEL_0, &format!("ProviderID:\t{provider}\n"));
    }
    let pods: Vec<&Pod> = describer
        .store
        .list::<Pod>(None)
        .filter(|p| p.node_name() == Some(meta.name.as_str()))
        .filter(|p| !matches!(p.status.phase.as_deref(), Some("Succeeded" | "Failed")))
        .collect();
    node_resources(&mut w, describer, node, &pods);
    let mut found = events::search(describer, &EventQuery::for_object(node));
    let by_name = EventQuery { uid: meta.name.clone(), ..EventQuery::for_object(node) };
    found.extend(events::search(describer, &by_name));
    events::describe(&mut w, describer, found);
    w.finish()
}

/// New in kubectl 1.36: the DRA pools whose slices are this node's own (`spec.nodeName`), at
/// most ten, then how many more.
fn node_local_slices(w: &mut PrefixWriter, describer: &Describer<'_>, node: &Node) {
    let mut pools: std::collections::BTreeMap<(&str, &str), (usize, usize)> = Default::default();
    for slice in describer.store.list::<ResourceSlice>(None).filter(|s| s.node() == Some(node.metadata.name.as_str())) {
        let entry = pools.entry((slice.spec.driver.as_str(), slice.spec.pool.name.as_str())).or_default();
        entry.0 += 1;
        entry.1 += slice.spec.devices.len();
    }
    if pools.is_empty() {
        return;
    }
    const MAX_POOLS: usize = 10;
    w.write(LEVEL_0, "Node-Local ResourceSlices:\n");
    w.write(LEVEL_1, "Driver\tPool\tSlices\tDevices\n");
    w.write(LEVEL_1, "------\t----\t------\t-------\n");
    for ((driver, pool), (slices, devices)) in pools.iter().take(MAX_POOLS) {
        w.write(LEVEL_1, &format!("{driver}\t{pool}\t{slices}\t{devices}\n"));
    }
    if pools.len() > MAX_POOLS {
        w.write(LEVEL_1, &format!("...and {} more pools\n", pools.len() - MAX_POOLS));
    }
}

/// `findNodeRoles`: `node-role.kubernetes.io/<role>` labels and `kubernetes.io/role`, sorted.
fn roles(node: &Node) -> Vec<String> {
    let mut roles: Vec<String> = node
        .metadata
        .labels
        .iter()
        .filter_map(|(key, value)| match key.strip_prefix("node-role.kubernetes.io/") {
            Some(role) if !role.is_empty() => Some(role.to_string()),
            Some(_) => None,
            None => (key == "kubernetes.io/role" && !value.is_empty()).then(|| value.to_string()),
        })
        .collect();
    roles.sort();
    roles.dedup();
    roles
}

fn taints_multiline(w: &mut PrefixWriter, taints: &[Taint]) {
    w.write(LEVEL_0, "Taints:\t");
    if taints.is_empty() {
        w.write_line("<none>");
        return;
    }
    let mut sorted: Vec<&Taint> = taints.iter().collect();
    sorted.sort_by(|a, b| format!("{},{}", a.effect, a.key).cmp(&format!("{},{}", b.effect, b.key)));
    for (i, taint) in sorted.into_iter().enumerate() {
        if i != 0 {
            w.write(LEVEL_0, "\t");
        }
        match taint.value.as_deref().filter(|v| !v.is_empty()) {
            Some(value) => w.write(LEVEL_0, &format!("{}={value}:{}\n", taint.key, taint.effect)),
            None => w.write(LEVEL_0, &format!("{}:{}\n", taint.key, taint.effect)),
        }
    }
}

/// The node's Lease in kube-node-lease, held by its kubelet and renewed every 10 s while the
/// kubelet runs; a node that stopped reporting keeps its last heartbeat.
/// The node's Lease in kube-node-lease, read as a client reads it (its renewTime is the last
/// renewal). `describeNode` prints this section only when the Lease exists.
fn lease(w: &mut PrefixWriter, describer: &Describer<'_>, node: &Node) {
    let object = describer.store.get_object(Kind::Lease, NODE_LEASE_NAMESPACE, &node.metadata.name);
    let Ok(Object::Lease(lease)) = object else { return };
    let micro = |t: Option<MicroTime>| t.map_or("<unset>".to_string(), |t| rfc1123z(Some(Time(t.0))));
    w.write(LEVEL_0, "Lease:\n");
    let holder = lease.spec.holder_identity.as_deref().unwrap_or("<unset>");
    w.write(LEVEL_1, &format!("HolderIdentity:\t{holder}\n"));
    w.write(LEVEL_1, &format!("AcquireTime:\t{}\n", micro(lease.spec.acquire_time)));
    w.write(LEVEL_1, &format!("RenewTime:\t{}\n", micro(lease.spec.renew_time)));
}

fn conditions(w: &mut PrefixWriter, node: &Node) {
    if node.status.conditions.is_empty() {
        return;
    }
    w.write(LEVEL_0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n");
    w.write(LEVEL_1, "----\t------\t-----------------\t------------------\t------\t-------\n");
    for c in &node.status.conditions {
        let line = format!(
            "{} \t{} \t{} \t{} \t{} \t{}\n",
            c.type_,
            c.status,
            rfc1123z(c.last_heartbeat_time),
            rfc1123z(c.last_transition_time),
            c.reason.as_deref().unwrap_or(""),
            c.message.as_deref().unwrap_or(""),
        );
        w.write(LEVEL_1, &line);
    }
}

fn resource_list(w: &mut PrefixWriter, title: &str, list: &ResourceList) {
    if list.is_empty() {
        return;
    }
    w.write(LEVEL_0, &format!("{title}:\n"));
    for (name, quantity) in list {
        w.write(LEVEL_0, &format!("  {name}:\t{quantity}\n"));
    }
}

fn system_info(w: &mut PrefixWriter, node: &Node) {
    let info = node.status.node_info.clone().unwrap_or_default();
    w.write(LEVEL_0, "System Info:\n");
    let fields = [
        ("Machine ID", info.machine_id.as_str()),
        ("System UUID", ""),
        ("Boot ID", ""),
        ("Kernel Version", &info.kernel_version),
        ("OS Image", &info.os_image),
        ("Operating System", &info.operating_system),
        ("Architecture", &info.architecture),
        ("Container Runtime Version", &info.container_runtime_version),
        ("Kubelet Version", &info.kubelet_version),
    ];
    for (title, value) in fields {
        w.write(LEVEL_0, &format!("  {title}:\t{value}\n"));
    }
}

/// `describeNodeResource`: the non-terminated pods table and the allocated totals.
fn node_resources(w: &mut PrefixWriter, describer: &Describer<'_>, node: &Node, pods: &[&Pod]) {
    w.write(LEVEL_0, &format!("Non-terminated Pods:\t({} in total)\n", pods.len()));
    w.write(LEVEL_1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n");
    w.write(LEVEL_1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n");
    let allocatable = if node.status.allocatable.is_empty() { &node.status.capacity } else { &node.status.allocatable };
    let mut totals = (ResourceList::new(), ResourceList::new());
    for pod in pods {
        let (requests, limits) = pod_requests_and_limits(pod);
        let cell = |list: &ResourceList, name: &str| fraction_cell(list.get(name), allocatable.get(name), name);
        let line = format!(
            "{}\t{}\t\t{}\t{}\t{}\t{}\t{}\n",
            pod.metadata.namespace,
            pod.metadata.name,
            cell(&requests, "cpu"),
            cell(&limits, "cpu"),
            cell(&requests, "memory"),
            cell(&limits, "memory"),
            since(pod.metadata.creation_timestamp, describer.now),
        );
        w.write(LEVEL_1, &line);
        add_into(&mut totals.0, &requests);
        add_into(&mut totals.1, &limits);
    }
    allocated(w, allocatable, &totals.0, &totals.1);
}

fn allocated(w: &mut PrefixWriter, allocatable: &ResourceList, requests: &ResourceList, limits: &ResourceList) {
    w.write(LEVEL_0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n");
    w.write(LEVEL_1, "Resource\tRequests\tLimits\n");
    w.write(LEVEL_1, "--------\t--------\t------\n");
    for name in ["cpu", "memory", "ephemeral-storage"] {
        let request = fraction_cell(requests.get(name), allocatable.get(name), name);
        let limit = fraction_cell(limits.get(name), allocatable.get(name), name);
        w.write(LEVEL_1, &format!("{name}\t{request}\t{limit}\n"));
    }
    let huge_pages = allocatable.keys().filter(|name| name.starts_with("hugepages-"));
    for name in huge_pages {
        let request = fraction_cell(requests.get(name), allocatable.get(name), name);
        let limit = fraction_cell(limits.get(name), allocatable.get(name), name);
        w.write(LEVEL_1, &format!("{name}\t{request}\t{limit}\n"));
    }
    let standard = |name: &str| matches!(name, "cpu" | "memory" | "ephemeral-storage" | "pods");
    let extended = allocatable.keys().filter(|name| !standard(name) && !name.starts_with("hugepages-"));
    for name in extended {
        let zero = Quantity::zero();
        let request = requests.get(name).unwrap_or(&zero);
        let limit = limits.get(name).unwrap_or(&zero);
        w.write(LEVEL_1, &format!("{name}\t{request}\t{limit}\n"));
    }
}

/// `1100m (27%)`: a quantity and its share of the allocatable amount, truncated as Go's
/// `int64(float64(a) / float64(b) * 100)` truncates.
fn fraction_cell(used: Option<&Quantity>, allocatable: Option<&Quantity>, name: &str) -> String {
    let zero = Quantity::zero();
    let used = used.unwrap_or(&zero);
    let allocatable = allocatable.unwrap_or(&zero);
    let (numerator, denominator) = if name == "cpu" {
        (used.milli_value(), allocatable.milli_value())
    } else {
        (used.value(), allocatable.value())
    };
    let percent = if denominator == 0 { 0 } else { (numerator as f64 / denominator as f64 * 100.0) as i64 };
    format!("{used} ({percent}%)")
}

/// `PodRequestsAndLimits`: containers summed, each init container a floor, overhead added.
pub fn pod_requests_and_limits(pod: &Pod) -> (ResourceList, ResourceList) {
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    for container in pod.spec.containers.iter() {
        add_into(&mut requests, &container.resources.requests);
        add_into(&mut limits, &container.resources.limits);
    }
    for container in pod.spec.init_containers.iter() {
        max_into(&mut requests, &container.resources.requests);
        max_into(&mut limits, &container.resources.limits);
    }
    if let Some(overhead) = &pod.spec.overhead {
        add_into(&mut requests, overhead);
        add_into(&mut limits, overhead);
    }
    (requests, limits)
}

fn add_into(total: &mut ResourceList, list: &ResourceList) {
    for (name, quantity) in list {
        let sum = total.get(name).map_or(*quantity, |existing| existing.add(quantity));
        total.insert(name.clone(), sum);
    }
}

fn max_into(total: &mut ResourceList, list: &ResourceList) {
    for (name, quantity) in list {
        let larger = total.get(name).is_none_or(|existing| quantity.cmp_value(existing).is_gt());
        if larger {
            total.insert(name.clone(), *quantity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quantity(text: &str) -> Quantity {
        Quantity::parse(text).unwrap()
    }

    #[test]
    fn allocations_print_with_truncated_percentages() {
        let cpu = quantity("4");
        assert_eq!(fraction_cell(Some(&quantity("1100m")), Some(&cpu), "cpu"), "1100m (27%)");
        assert_eq!(fraction_cell(None, Some(&cpu), "cpu"), "0 (0%)");
        let memory = quantity("16Gi");
        assert_eq!(fraction_cell(Some(&quantity("386Mi")), Some(&memory), "memory"), "386Mi (2%)");
        assert_eq!(fraction_cell(Some(&quantity("1Gi")), None, "memory"), "1Gi (0%)");
    }

    #[test]
    fn taints_sort_by_effect_then_key() {
        let taint = |key: &str, effect: &str| Taint { key: key.into(), effect: effect.into(), ..Default::default() };
        let mut w = PrefixWriter::default();
        taints_multiline(&mut w, &[taint("b", "NoSchedule"), taint("a", "NoExecute")]);
        assert_eq!(w.finish(), "Taints:  a:NoExecute\n         b:NoSchedule\n");
    }
}
