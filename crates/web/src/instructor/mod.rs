//! The instructor's side: signing in, the class dashboard, injecting faults, replaying a
//! learner's lab, hosted labs.

pub mod cpu_quota;
pub mod dashboard_model;
pub mod dashboard_page;
pub mod fault_form;
pub mod host_lab_form;
pub mod hosted_lab_page;
pub mod real_nodes;
pub mod replay_page;
pub mod teach_auth;
pub mod teach_page;
