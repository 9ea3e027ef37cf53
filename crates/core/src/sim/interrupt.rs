//! A host's way to stop a lab's work between two units of it: a hosted lab that closes while
//! a script still runs (its `sleep 24h` with thirty crash-looping pods) must free its thread at
//! once, not when the script ends. The core reads no clock and starts no thread; the host hands
//! it a question to ask, and once the answer is yes the work pending is dropped.

use std::fmt;
use std::sync::Arc;

#[derive(Clone)]
pub struct Interrupt(Arc<dyn Fn() -> bool + Send + Sync>);

impl Interrupt {
    pub fn new(requested: impl Fn() -> bool + Send + Sync + 'static) -> Interrupt {
        Interrupt(Arc::new(requested))
    }

    pub fn requested(&self) -> bool {
        (self.0)()
    }
}

impl fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Interrupt")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubectl::fixture::run;
    use crate::sim::Sim;
    use crate::sim::time::Duration;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn an_interrupted_lab_drops_its_pending_work_and_returns_at_once() {
        let mut sim = Sim::default();
        run(&mut sim, "kubectl create deployment c --image=crashy --replicas=30");
        // The host says stop on the third look (a few slices into the day).
        let looks = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&looks);
        sim.set_interrupt(Interrupt::new(move || counter.fetch_add(1, Ordering::Relaxed) >= 2));
        run(&mut sim, "sleep 24h");
        assert!(sim.interrupted());
        assert!(sim.now() < crate::sim::time::SimTime::ZERO.plus(Duration::from_secs(24 * 3600)), "{:?}", sim.now());
        let before = sim.now();
        run(&mut sim, "sleep 1h");
        assert!(sim.now() <= before.plus(Duration::from_secs(3600)));
        assert!(looks.load(Ordering::Relaxed) >= 3);
    }
}
