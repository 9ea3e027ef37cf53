//! kubelab-core: a deterministic, virtual-time simulation of a Kubernetes control plane.
//!
//! Codemap:
//! - [`addons`] — what operators install on top (a gang scheduler's CRD, ingress-nginx, MetalLB, GPUs).
//! - [`api`] — object types with Kubernetes' field names, `Quantity`, label selectors, codec.
//! - [`apiserver`] — the door: one `Request` in (user, verb, resource, options), one `Response`
//!   out; kubectl, lesson checks and the UI go through it.
//! - [`store`] — the API server's registry and etcd in one: authorization, admission, defaulting,
//!   validation, resourceVersion, watch log. Only the store writes; every write carries its user.
//! - [`controllers`] — level-triggered loops that read the store and write through it.
//! - [`scheduler`] — kube-scheduler: filter and score plugins, preemption, the scheduling queue,
//!   and the reasons behind every decision.
//! - [`runtime`] — informers, work queues and wake-ups (client-go's part).
//! - [`kubelet`] — every node's kubelet, the container runtime behind it, and the node's
//!   interface the API server reaches pods through (a real machine's agent for an external node).
//! - [`kubeadm`] — what `kind create cluster` leaves in a new lab: the tainted control-plane
//!   node, the control plane as static pods, CoreDNS, kube-proxy and kindnet on every node.
//! - [`sim`] — virtual clock, seeded PRNG streams, event queue; [`sim::Sim`] ties it all together.
//! - [`view`] — plain-data views the UI draws (cluster picture, node grid, events, verdicts).
//! - [`kubectl`] — one file per verb; output as data, one renderer.
//! - [`script`] — the `kubelab sim` scenario language (kubectl, sleep, lab verbs).
//! - [`manifest`] — multi-document YAML/JSON in, JSON documents out, with kubectl's errors.
//! - [`checks`] — lesson checks, one file per kind: YAML shape, evaluator, learner message.
//! - [`lesson`] — the lesson format (YAML), the lesson lab, the linter and the JSON Schema.
//! - [`workload`] — what images do: the catalogue (registry), pulls, processes over time, probes.
//! - [`shell`] — busybox `sh` and its applets: containers' commands, probes, hooks, `kubectl exec`.
//! - [`network`] — Services → EndpointSlices → kube-proxy → a connection; cluster DNS, Ingress,
//!   load balancers, the traffic generator.
//! - [`gpu`] — GPU models and MIG geometry, the GPU Operator (GFD, device plugin, MIG manager),
//!   NVIDIA's DRA driver, `nvidia-smi`.
//! - [`dra`] — Dynamic Resource Allocation: a node's devices from its ResourceSlices, the CEL
//!   selectors' environment, the structured allocator the scheduler calls.
//! - [`cel`] — the Common Expression Language as Kubernetes configures it (DRA selectors).
//!
//! No IO, threads, wall clock or global randomness anywhere in this crate.

#![forbid(unsafe_code)]

pub mod addons;
pub mod api;
pub mod apiserver;
pub mod cel;
pub mod checks;
pub mod cluster;
pub mod controllers;
pub mod dra;
pub mod error;
pub mod gpu;
pub mod helm;
pub mod kubeadm;
pub mod kubectl;
pub mod kubelet;
pub mod lesson;
pub mod manifest;
pub mod metrics;
pub mod network;
pub mod runtime;
pub mod scheduler;
pub mod script;
pub mod shell;
pub mod sim;
pub mod store;
pub mod version;
pub mod view;
pub mod workload;
pub mod yaml11;
