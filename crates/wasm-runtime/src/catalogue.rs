//! Image → behaviour: the simulation's own catalogue (kubelab-core's `Catalogue::resolve`, its
//! registry and containerd's pull), so a real node runs the same entry a lab simulates.

use kubelab_core::workload::{Catalogue, PullError};

/// The behaviour of `image` as the guest reads it (core's `Behaviour`, serialised), or the
/// pull error the simulation reports for it (`PullError::message` is the waiting message).
pub fn behaviour_for(image: &str) -> Result<serde_json::Value, PullError> {
    let info = Catalogue::builtin_shared().resolve(image)?;
    Ok(serde_json::to_value(&info.workload.behaviour).unwrap_or_default())
}
