//! What client-go (and kube-runtime) give a controller: an informer over the watch log that
//! relists when it falls behind, a work queue, and keys to look at again later.

pub mod informer;
pub mod wakeups;
pub mod work_queue;
