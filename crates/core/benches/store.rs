//! Store benchmark: writes per second and memory per stored pod, at 150,000 pods
//! (1,500 ReplicaSets × 100 pods, as the scale target). Run: `cargo bench -p kubelab-core --bench store`.
//! Prints figures; asserts nothing (the machines are shared and noisy).
#![allow(unsafe_code)] // the counting allocator below; the core itself forbids unsafe code.

use kubelab_core::api::container::Container;
use kubelab_core::api::meta::OwnerReference;
use kubelab_core::api::quantity::Quantity;
use kubelab_core::api::shared::Shared;
use kubelab_core::api::{ObjectMeta, Pod, ResourceQuota};
use kubelab_core::store::{Store, UserInfo};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts live heap bytes so "bytes per pod" is measured, not estimated.
struct Counting;

static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const REPLICA_SETS: usize = 1_500;
const PODS_PER_SET: usize = 100;

/// The pod a ReplicaSet controller would stamp out from its template (containers shared).
fn template(set: usize) -> Pod {
    let mut container = Container { name: "hello".into(), image: Some("hello:v1".into()), ..Default::default() };
    container.resources.requests.insert("cpu".into(), Quantity::parse("100m").unwrap());
    container.resources.requests.insert("memory".into(), Quantity::parse("64Mi").unwrap());
    let mut meta = ObjectMeta::named("default", "");
    meta.generate_name = format!("web-{set:04}-6b85969876-");
    meta.labels.insert("app", format!("web-{set:04}"));
    meta.labels.insert("pod-template-hash", "6b85969876");
    meta.owner_references.push(OwnerReference {
        api_version: "apps/v1".into(),
        kind: "ReplicaSet".into(),
        name: format!("web-{set:04}-6b85969876"),
        uid: kubelab_core::api::meta::Uid::from_random(set as u128 + 1),
        controller: Some(true),
        block_owner_deletion: Some(true),
    });
    let mut pod = Pod { metadata: meta, ..Default::default() };
    pod.spec.containers = Shared::new(vec![container]);
    pod
}

fn main() {
    let mut store = Store::new(1);
    // The store's own cost: the trace is the simulation's record of every write.
    store.stop_trace();
    let templates: Vec<Pod> = (0..REPLICA_SETS).map(template).collect();
    // Default the templates once, as the ReplicaSet's own template is defaulted at its creation.
    let templates: Vec<Pod> = templates
        .into_iter()
        .map(|mut t| {
            kubelab_core::store::defaults::pod_spec(&mut t.spec);
            t
        })
        .collect();
    let baseline = LIVE_BYTES.load(Ordering::Relaxed);
    let started = Instant::now();
    let mut created = Vec::with_capacity(REPLICA_SETS * PODS_PER_SET);
    for template in &templates {
        for _ in 0..PODS_PER_SET {
            let pod = store.create(template.clone()).expect("valid pod");
            created.push(pod.metadata.name);
        }
    }
    let create_secs = started.elapsed().as_secs_f64();
    let pods = created.len();
    drop(created);
    let stored_bytes = LIVE_BYTES.load(Ordering::Relaxed).saturating_sub(baseline);

    let started = Instant::now();
    let names: Vec<(String, String)> = store
        .list::<Pod>(Some("default"))
        .take(50_000)
        .map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone()))
        .collect();
    for (ns, name) in &names {
        let mut pod = store.get::<Pod>(ns, name).unwrap().clone();
        pod.status.phase = Some("Running".into());
        store.update_status(pod).expect("status write");
    }
    let status_secs = started.elapsed().as_secs_f64();

    println!("store benchmark ({pods} pods in {REPLICA_SETS} ReplicaSets)");
    println!("  creates:          {:>10.0} writes/s  ({pods} in {create_secs:.2}s)", pods as f64 / create_secs);
    println!(
        "  status updates:   {:>10.0} writes/s  ({} in {status_secs:.2}s)",
        names.len() as f64 / status_secs,
        names.len()
    );
    println!(
        "  memory per pod:   {:>10.0} bytes     (live heap growth / pods, watch log included)",
        stored_bytes as f64 / pods as f64
    );
    println!("  watch log:        {:>10} entries (bounded)", store.watch_log().len());
    full_chain();
}

/// Pods created in one namespace: as the API server (a superuser, in a namespace with no
/// policy), then as a user RBAC must authorize (among many bindings) into a namespace with a
/// LimitRange, a ResourceQuota and PodSecurity enforcing baseline: what the full admission
/// chain and authorization cost per write.
fn full_chain() {
    const PODS: usize = 20_000;
    let mut store = Store::new(2);
    store.stop_trace();
    for object in TENANT.split("---\n") {
        let value: serde_json::Value = serde_yaml::from_str(object).expect("bench fixture");
        store.create_object(kubelab_core::api::codec::decode(value).expect("bench fixture")).expect("admitted");
    }
    // What the quota controller writes before the first pod: the hard limits, nothing used.
    let mut quota = store.get::<ResourceQuota>("tenant", "compute").unwrap().clone();
    quota.status.hard = quota.spec.hard.clone();
    for resource in quota.spec.hard.keys() {
        quota.status.used.insert(resource.clone(), Quantity::parse("0").unwrap());
    }
    store.update_status(quota).expect("quota status");
    for n in 0..200 {
        let value = serde_json::json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": format!("noise-{n}"), "namespace": "default"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": format!("user-{n}")}]});
        store.create_object(kubelab_core::api::codec::decode(value).unwrap()).unwrap();
    }
    let mut pod = template(0);
    pod.metadata.owner_references.clear();
    let superuser = time_creates(&mut store, &pod, PODS);
    pod.metadata.namespace = "tenant".into();
    store.act_as(UserInfo::new("jane", &["system:authenticated"]));
    let tenant = time_creates(&mut store, &pod, PODS);
    println!("full chain ({PODS} pods each; 200 RoleBindings besides jane's)");
    println!("  superuser, no policy:       {:>10.0} writes/s", PODS as f64 / superuser);
    println!(
        "  RBAC + LimitRanger + PodSecurity + ResourceQuota: {:>10.0} writes/s ({:.2}x the time)",
        PODS as f64 / tenant,
        tenant / superuser
    );
}

fn time_creates(store: &mut Store, pod: &Pod, count: usize) -> f64 {
    let started = Instant::now();
    for _ in 0..count {
        store.create(pod.clone()).expect("admitted");
    }
    started.elapsed().as_secs_f64()
}

/// The tenant's namespace and its policy, and jane's RoleBinding to `edit` there.
const TENANT: &str = "apiVersion: v1
kind: Namespace
metadata: {name: tenant, labels: {pod-security.kubernetes.io/enforce: baseline}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: default, namespace: tenant}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: tenant}
spec:
  limits: [{type: Container, default: {cpu: 500m, memory: 128Mi}, defaultRequest: {cpu: 100m}}]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: tenant}
spec:
  hard: {pods: '1000000', requests.cpu: '100000', limits.cpu: '100000', requests.memory: 100Ti}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: jane-edits, namespace: tenant}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]
";
