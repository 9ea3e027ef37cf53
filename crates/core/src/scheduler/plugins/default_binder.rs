//! DefaultBinder (plugins/defaultbinder): the Bind plugin, writing the pods/binding subresource.

use crate::api::Pod;
use crate::error::ApiError;
use crate::scheduler::framework::registry::BindPlugin;
use crate::store::Store;

pub const NAME: &str = "DefaultBinder";

pub const BIND: BindPlugin = BindPlugin { name: NAME, bind };

fn bind(store: &mut Store, pod: &Pod, node: &str) -> Result<Pod, ApiError> {
    store.bind(&pod.metadata.namespace, &pod.metadata.name, node)
}
