//! The cluster's network: Services → EndpointSlices → each node's kube-proxy rules → a
//! connection to a pod, with cluster DNS beside it. Everything that sends a request — `wget`
//! in a pod, a request from outside, request load — goes through [`connection`].

pub mod connection;
pub mod dns;
pub mod gateway;
pub mod gateway_status;
pub mod http1;
pub mod ingress;
pub mod ingress_rules;
pub mod ingress_status;
pub mod kube_proxy;
pub mod load_balancer;
pub mod nslookup;
pub mod port_forward;
pub mod service_rules;
pub mod traffic;
pub mod wget;

pub use kube_proxy::KubeProxy;
#[cfg(test)]
mod tests;
