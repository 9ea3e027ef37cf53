//! The learner's side of a class: joining, progress sent to the server, a lab shared with the
//! instructor, faults the instructor injects.

pub mod join_page;
pub mod lab_sync;
pub mod live_faults;
pub mod progress_event;
pub mod progress_queue;
pub mod progress_sync;
