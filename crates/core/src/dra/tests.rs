//! The allocator on hand-made slices: each case a claim in YAML, the devices it gets (or why
//! not) out.

use super::allocator::{AllocateError, allocate};
use super::device_set::NodeDevices;
use super::selector::Selectors;
use crate::api::{DeviceClass, ResourceClaim, ResourceSlice};
use crate::store::Store;
use std::collections::BTreeSet;

/// Two GPUs on `node-1`, each with two MIG devices of different profiles, plus a taint on one.
const SLICE: &str = r#"
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0-a
    attributes: {type: {string: mig}, profile: {string: 1g.5gb}, parentUUID: {string: GPU-0}, index: {int: 0}}
    capacity: {memory: {value: 5Gi}}
  - name: gpu-0-b
    attributes: {type: {string: mig}, profile: {string: 3g.20gb}, parentUUID: {string: GPU-0}, index: {int: 1}}
    capacity: {memory: {value: 20Gi}}
  - name: gpu-1-a
    attributes: {type: {string: mig}, profile: {string: 1g.5gb}, parentUUID: {string: GPU-1}, index: {int: 2}}
    capacity: {memory: {value: 5Gi}}
  - name: gpu-1-b
    attributes: {type: {string: mig}, profile: {string: 1g.5gb}, parentUUID: {string: GPU-1}, index: {int: 3}}
    capacity: {memory: {value: 5Gi}}
    taints: [{key: maintenance, effect: NoSchedule}]
"#;

fn store() -> Store {
    let mut store = Store::new(1);
    let class: DeviceClass = serde_yaml::from_str(
        "metadata: {name: mig.example.com}\nspec:\n  selectors:\n  - cel: {expression: \"device.attributes['gpu.example.com'].type == 'mig'\"}\n",
    )
    .unwrap();
    store.create(class).unwrap();
    store.create(serde_yaml::from_str::<ResourceSlice>(SLICE).unwrap()).unwrap();
    store
}

/// The devices the claim gets on node-1, `request=device` each, or the error.
fn allocated(store: &Store, claim: &str, in_use: &[&str]) -> Result<String, AllocateError> {
    let mut claim: ResourceClaim = serde_yaml::from_str(claim).unwrap();
    claim.metadata.namespace = "default".into();
    crate::store::resource_validation::default_claim(&mut claim.spec.devices);
    let node = NodeDevices::on_node("node-1", store.list::<ResourceSlice>(None));
    let busy: BTreeSet<_> =
        node.devices.iter().filter(|d| in_use.contains(&d.id.device.as_str())).map(|d| d.id.clone()).collect();
    let mut selectors = Selectors::new(store.list::<DeviceClass>(None));
    let allocation = allocate(&[&claim], &node, &busy, &mut selectors)?;
    let picks: Vec<String> = allocation[0].iter().map(|r| format!("{}={}", r.request, r.device)).collect();
    Ok(picks.join(" "))
}

fn request(name: &str, extra: &str) -> String {
    format!("    - name: {name}\n      exactly:\n        deviceClassName: mig.example.com\n{extra}")
}

fn claim(requests: &[String], constraints: &str) -> String {
    format!("metadata: {{name: c}}\nspec:\n  devices:\n    requests:\n{}{constraints}", requests.join(""))
}

#[test]
fn a_request_takes_the_first_free_matching_device() {
    let store = store();
    assert_eq!(allocated(&store, &claim(&[request("mig", "")], ""), &[]).unwrap(), "mig=gpu-0-a");
    assert_eq!(allocated(&store, &claim(&[request("mig", "")], ""), &["gpu-0-a"]).unwrap(), "mig=gpu-0-b");
}

#[test]
fn selectors_and_counts_narrow_the_choice_and_a_tainted_device_is_left_alone() {
    let store = store();
    let small = "        selectors:\n        - cel: {expression: \"device.attributes['gpu.example.com'].profile == '1g.5gb'\"}\n";
    let three = format!("        count: 3\n{small}");
    assert_eq!(
        allocated(&store, &claim(&[request("small", &three)], ""), &[]),
        Err(AllocateError::NoFit),
        "only two untainted 1g.5gb devices"
    );
    let two = format!("        count: 2\n{small}");
    assert_eq!(allocated(&store, &claim(&[request("small", &two)], ""), &[]).unwrap(), "small=gpu-0-a small=gpu-1-a");
    let tolerant = format!("{two}        tolerations: [{{key: maintenance, operator: Exists}}]\n");
    assert_eq!(
        allocated(&store, &claim(&[request("small", &tolerant)], ""), &["gpu-0-a"]).unwrap(),
        "small=gpu-1-a small=gpu-1-b"
    );
}

#[test]
fn match_attribute_backtracks_to_put_both_devices_on_one_gpu() {
    let store = store();
    // Any two devices of one GPU satisfy the constraint: the first two of GPU-0.
    let same_gpu = "    constraints:\n    - matchAttribute: gpu.example.com/parentUUID\n";
    let picks = allocated(&store, &claim(&[request("a", ""), request("b", "")], same_gpu), &[]).unwrap();
    assert_eq!(picks, "a=gpu-0-a b=gpu-0-b");
    // With gpu-0-b taken, the allocator must undo its first choice and move to GPU-1.
    let tolerant = "        tolerations: [{key: maintenance, operator: Exists}]\n";
    let requests = [request("a", tolerant), request("b", tolerant)];
    let picks = allocated(&store, &claim(&requests, same_gpu), &["gpu-0-b"]).unwrap();
    assert_eq!(picks, "a=gpu-1-a b=gpu-1-b");
}

#[test]
fn all_mode_takes_every_match_or_nothing_and_first_available_falls_back() {
    let store = store();
    let all = "        allocationMode: All\n";
    assert_eq!(
        allocated(&store, &claim(&[request("every", all)], ""), &[]).unwrap(),
        "every=gpu-0-a every=gpu-0-b every=gpu-1-a"
    );
    assert_eq!(allocated(&store, &claim(&[request("every", all)], ""), &["gpu-1-a"]), Err(AllocateError::NoFit));
    let fallback = "metadata: {name: c}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      firstAvailable:\n      - name: big\n        deviceClassName: mig.example.com\n        selectors:\n        - cel: {expression: \"device.capacity['gpu.example.com'].memory.isGreaterThan(quantity('40Gi'))\"}\n      - name: small\n        deviceClassName: mig.example.com\n";
    assert_eq!(allocated(&store, fallback, &[]).unwrap(), "gpu/small=gpu-0-a");
}

#[test]
fn a_cel_runtime_error_aborts_the_allocation_with_the_selector_named() {
    let store = store();
    let missing = "        selectors:\n        - cel: {expression: \"device.attributes['gpu.example.com'].productName == 'x'\"}\n";
    assert_eq!(
        allocated(&store, &claim(&[request("gpu", missing)], ""), &[]),
        Err(AllocateError::Failed("claim default/c: selector #0: CEL runtime error: no such key: productName".into()))
    );
}
