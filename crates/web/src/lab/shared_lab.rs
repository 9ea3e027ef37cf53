//! Starting a page's lab from its URL: when the hash carries a permalink's `log=…`, its scripts
//! are replayed into the fresh lab (the same cluster, deterministically); a bad link leaves the
//! fresh lab and a notice saying what was wrong, never a panic.

use crate::engine::LiveLab;
use crate::lab::lab_handle::LabHandle;
use crate::lab::permalink;
use crate::lab::sliced_run::{SLICED_ABOVE_NODES, Step};
use leptos::prelude::*;

pub fn open(session: Box<dyn LiveLab>) -> LabHandle {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let Some(log) = permalink::log_parameter(&hash) else {
        return LabHandle::new(session);
    };
    let notice = match permalink::decode(log) {
        Err(why) => format!("This link's lab could not be opened: {why}. A fresh lab started instead."),
        Ok(link) => {
            let seed = session.replay_log().1;
            let handle = replay(session, link.scripts.clone());
            let mut notice = format!("Opened a shared lab: {} entries replayed.", link.scripts.len());
            if let Some(earlier) = kubelab_core::version::earlier_behaviour_notice(link.behaviour) {
                notice.push(' ');
                notice.push_str(earlier);
            }
            if link.seed != seed {
                notice.push_str(&format!(
                    " It was made with seed {}, this lesson now uses {seed}; the cluster may differ.",
                    link.seed
                ));
            }
            handle.notice.set(Some(notice));
            return handle;
        }
    };
    let handle = LabHandle::new(session);
    handle.notice.set(Some(notice));
    handle
}

/// Replays a link's scripts: at once on a small cluster, between frames on a big one.
fn replay(mut session: Box<dyn LiveLab>, scripts: Vec<String>) -> LabHandle {
    if session.nodes() > SLICED_ABOVE_NODES {
        let handle = LabHandle::new(session);
        handle.sliced.push(handle, scripts.iter().map(|script| Step::of(script)));
        return handle;
    }
    let entries = session.replay(&scripts);
    let handle = LabHandle::new(session);
    handle.show(entries);
    handle
}
