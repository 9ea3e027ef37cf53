//! Deferred work, for a UI that must keep drawing while a big cluster reconciles: a command's
//! controller passes, or a whole `sleep`, begun now and run a little at a time
//! (`Sim::settle_for`). The passes are the ones running at once would run, in the same order,
//! so slicing changes no outcome; anything else that touches the lab finishes them first.

use super::{MAX_RECONCILE_PASSES, Sim};
use crate::sim::time::SimTime;

/// Units of work between two looks at the host's interrupt (a few milliseconds' worth).
const INTERRUPT_SLICE: usize = 4096;

#[derive(Clone, Debug, Default)]
pub(super) struct Pending {
    /// Controller passes run so far by an unfinished settle.
    settling: Option<usize>,
    /// An unfinished advance: where it goes, and whether its closing settle has begun.
    advancing: Option<(SimTime, bool)>,
}

impl Sim {
    /// While on, `settle` and `advance` only begin their work; `settle_for` runs it. Turn it
    /// off again before handing the lab to anything else.
    pub fn defer_settling(&mut self, deferred: bool) {
        self.deferred = deferred;
    }

    /// Runs at most `work` units of the pending work (a controller's sync, or one pod's sync by
    /// its kubelet: `Controllers::run_some`); true when none is left.
    pub fn settle_for(&mut self, work: usize) -> bool {
        let mut left = work;
        let done = self.settle_some(&mut left);
        // The command's work so far, against the lab's budget (a count, so every replay stops
        // at the same unit).
        self.command_work += (work - left) as u64;
        if !done && self.command_work > self.store.limits().max_work_units {
            self.pending = Pending::default();
            self.over_budget = true;
            return true;
        }
        done
    }

    /// Whether the command just run was stopped for doing more work than the lab allows
    /// (`LabLimits::max_work_units`); asking clears it.
    pub fn take_over_budget(&mut self) -> bool {
        std::mem::take(&mut self.over_budget)
    }

    fn settle_some(&mut self, left: &mut usize) -> bool {
        loop {
            if !self.settle_within(left) {
                return false;
            }
            let Some((target, closing)) = self.pending.advancing else { return true };
            if closing {
                self.pending.advancing = None;
                return true;
            }
            match self.queue.next_due().filter(|due| *due <= target) {
                Some(due) => self.fire_due(due),
                None => {
                    self.set_now(target);
                    self.pending.advancing = Some((target, true));
                }
            }
            self.pending.settling = Some(0);
        }
    }

    /// Whether work is pending (the page shows "reconciling…").
    pub fn is_settling(&self) -> bool {
        self.pending.settling.is_some() || self.pending.advancing.is_some()
    }

    pub(super) fn begin_settle(&mut self) {
        self.pending.settling.get_or_insert(0);
        if !self.deferred {
            self.finish_pending();
        }
    }

    pub(super) fn begin_advance(&mut self, target: SimTime) {
        self.pending.advancing = Some((target, false));
        if !self.deferred {
            self.finish_pending();
        }
    }

    pub(super) fn finish_pending(&mut self) {
        // In slices, so that a host's interrupt is heard between them (slicing changes nothing).
        while !self.settle_for(INTERRUPT_SLICE) {
            if self.interrupted() {
                self.pending = Pending::default();
                return;
            }
        }
    }

    /// Runs owed passes while `left` lasts; true when the settle is done (timers scheduled for
    /// the new writes), as `settle` ends.
    fn settle_within(&mut self, left: &mut usize) -> bool {
        let Some(mut done) = self.pending.settling else { return true };
        loop {
            let wrote = if done < MAX_RECONCILE_PASSES {
                match self.controllers.run_some(&mut self.store, &self.load, left) {
                    Some(wrote) => wrote,
                    None => {
                        self.pending.settling = Some(done);
                        return false;
                    }
                }
            } else {
                false
            };
            if !wrote {
                self.pending.settling = None;
                self.schedule_timers();
                return true;
            }
            done += 1;
        }
    }
}
