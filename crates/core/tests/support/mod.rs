//! What the core's integration tests share: running independent cases (lessons, scenarios,
//! manifests) on every core, since each test binary otherwise replays them one after another
//! while the other cores wait.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` over every item, on as many threads as the machine has cores (each takes the next item
/// left); the results in the items' order. A case's panic fails the test as it would inline.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    let work = || {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else { break };
            let result = f(item);
            results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
        }
    };
    std::thread::scope(|scope| {
        // A lesson's replay nests deeply (YAML, CEL): more stack than a spawned thread's 2 MiB.
        let spawn = |_| std::thread::Builder::new().stack_size(16 << 20).spawn_scoped(scope, work);
        let workers: Vec<_> = (0..threads).map(spawn).collect();
        for worker in workers {
            if let Err(panic) = worker.expect("a test thread").join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().map(|r| r.expect("every item ran")).collect()
}
