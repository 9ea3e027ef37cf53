//! Helm 3 in the lab's terminal: `helm …` lines render the built-in charts with Go's
//! text/template and install them through the API door as the admin, keeping each release
//! in a Secret as Helm's storage driver does, so `kubectl get secrets` shows it.

pub mod strvals;
pub mod template;
pub mod values;
