//! Resource quota's shared parts: resource-list arithmetic (k8s.io/apiserver/pkg/quota/v1
//! resources.go), what each kind's object uses (pkg/quota/v1/evaluator/core), and a
//! namespace's usage as the quota controller recalculates it (`CalculateUsage`).

pub mod evaluator;
pub mod resources;

pub use evaluator::Evaluator;
