//! Long work run between animation frames so a big cluster never freezes the page: queued
//! scripts run one per frame, and what a one-line script leaves to do (the controller passes
//! a command causes, every timer and pass of a `sleep`) runs a few passes per frame within a
//! wall-time budget (`Sim::settle_for`, which ends exactly where running at once ends). The
//! timeline records each script as typed, so replays and permalinks stay exact.

use crate::lab::lab_handle::LabHandle;
use crate::lab::lab_session::Entry;
use leptos::prelude::*;
use std::collections::VecDeque;

/// Clusters larger than this run every line between frames.
pub const SLICED_ABOVE_NODES: usize = 60;
/// Wall milliseconds a frame may spend reconciling, leaving the rest for drawing.
const FRAME_BUDGET_MS: f64 = 12.0;
/// How often the lab is redrawn while it reconciles: redrawing 150,000 pods every frame
/// would take most of each frame from the simulation.
const REDRAW_EVERY_MS: f64 = 250.0;
/// A redraw may take at most this share of the time while the lab reconciles: on a big
/// cluster, where one redraw takes longer than `REDRAW_EVERY_MS`, redraws space out.
const REDRAW_SHARE: f64 = 0.25;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Script(String),
    /// Controller passes owed by the one-line script just run.
    Settle,
}

impl Step {
    pub fn of(script: &str) -> Step {
        Step::Script(script.to_string())
    }
}

/// The queue and what it is doing, shared by the page's components.
#[derive(Clone, Copy)]
pub struct SlicedRun {
    queue: StoredValue<VecDeque<Step>, LocalStorage>,
    /// `Some("reconciling… t = 12s")` while work is queued.
    pub progress: RwSignal<Option<String>>,
    /// When the lab was last redrawn mid-reconcile (`Date.now()` milliseconds).
    redrawn_at: StoredValue<f64>,
    /// The last redraw's cost: the gap from the frame that asked for it to the next frame.
    redraw_cost: StoredValue<RedrawCost>,
    /// The frame the loop asked for next; cancelled when the lab's page goes away.
    next_frame: StoredValue<Option<AnimationFrameRequestHandle>>,
}

#[derive(Clone, Copy, Default)]
struct RedrawCost {
    /// When the frame that last redrew ended, if no frame has run since.
    pending_since: Option<f64>,
    ms: f64,
}

impl SlicedRun {
    /// Lives as long as the calling component: leaving the page stops the frame loop.
    pub fn new() -> SlicedRun {
        let next_frame = StoredValue::new(None::<AnimationFrameRequestHandle>);
        // A frame that ran after the page was gone would find the lab disposed: cancel it.
        on_cleanup(move || {
            if let Some(frame) = next_frame.try_update_value(Option::take).flatten() {
                frame.cancel();
            }
        });
        SlicedRun {
            queue: StoredValue::new_local(VecDeque::new()),
            progress: RwSignal::new(None),
            redrawn_at: StoredValue::new(0.0),
            redraw_cost: StoredValue::new(RedrawCost::default()),
            next_frame,
        }
    }

    /// Whether work is queued; false once the lab's page is gone.
    pub fn busy(&self) -> bool {
        self.progress.try_get_untracked().flatten().is_some()
    }

    /// Queues steps; starts the frame loop unless it is running.
    pub fn push(&self, lab: LabHandle, steps: impl IntoIterator<Item = Step>) {
        let idle = self.queue.with_value(VecDeque::is_empty);
        self.queue.update_value(|queue| queue.extend(steps));
        if idle && !self.queue.with_value(VecDeque::is_empty) {
            self.progress.set(Some("starting…".into()));
            ask_for_frame(lab);
        }
    }
}

impl Default for SlicedRun {
    fn default() -> Self {
        SlicedRun::new()
    }
}

/// Asks for the next frame, keeping its handle so the page's cleanup can cancel it. One loop
/// at a time: a frame still pending (a loop about to find its queue empty) gives way.
fn ask_for_frame(lab: LabHandle) {
    let handle = request_animation_frame_with_handle(move || frame(lab)).ok();
    if let Some(Some(pending)) = lab.sliced.next_frame.try_update_value(|slot| std::mem::replace(slot, handle)) {
        pending.cancel();
    }
}

/// One frame's share of the queue, then the next frame.
fn frame(lab: LabHandle) {
    let run = lab.sliced;
    // Nothing queued, or the lab's page is gone (its queue disposed): the loop ends.
    let Some(step) = run.queue.try_update_value(VecDeque::pop_front).flatten() else {
        let _ = run.progress.try_set(None);
        return;
    };
    let queued = run.queue.with_value(VecDeque::len);
    let more = if queued > 0 { format!(", {queued} more queued") } else { String::new() };
    match step {
        // A script of several lines runs whole: only a script's last line can be deferred.
        Step::Script(script) if script.trim().contains('\n') => {
            run.progress.set(Some(format!("running a script…{more}")));
            lab.run(&script);
        }
        Step::Script(script) => {
            run.progress.set(Some(format!("running {script}…{more}")));
            lab.run_deferred(&script);
            run.queue.update_value(|queue| queue.push_front(Step::Settle));
        }
        Step::Settle => {
            let started = js_sys::Date::now();
            run.redraw_cost.update_value(|cost| {
                if let Some(since) = cost.pending_since.take() {
                    cost.ms = started - since;
                }
            });
            let done = lab.update_quietly(|session| {
                while !session.settle_for(1) {
                    if js_sys::Date::now() - started >= FRAME_BUDGET_MS {
                        return false;
                    }
                }
                true
            });
            if done == Some(true)
                && let Some(Some(refusal)) = lab.update_quietly(|session| session.take_over_budget())
            {
                let command = "(the last command, still running)".to_string();
                lab.show(vec![Entry { command, output: format!("{refusal}\n"), succeeded: false }]);
            }
            let wall = js_sys::Date::now();
            let every = REDRAW_EVERY_MS.max(run.redraw_cost.get_value().ms / REDRAW_SHARE);
            if done != Some(false) || wall - run.redrawn_at.get_value() >= every {
                run.redrawn_at.set_value(wall);
                lab.redraw();
                let ended = js_sys::Date::now();
                run.redraw_cost.update_value(|cost| cost.pending_since = Some(ended));
            }
            if done == Some(true) {
                lab.learner_moved();
            }
            if done == Some(false) {
                let now = lab.peek(|session| session.now());
                run.progress.set(Some(format!("reconciling… t = {now}{more}")));
                run.queue.update_value(|queue| queue.push_front(Step::Settle));
            }
        }
    }
    ask_for_frame(lab);
}
