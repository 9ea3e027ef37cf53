//! What a process really uses, so the host's limits really bite: the memory its behaviour
//! says it holds (`memoryMi`, `/hog?mb=N`) lives in the guest's linear memory, and a request's
//! CPU (`millicoresPerRps`) is a real loop that fuel or epochs can throttle.

use std::hint::black_box;

const MIB: usize = 1 << 20;
const PAGE: usize = 4096;
/// The largest block `new` reserves at once.
const BLOCK_MIB: u64 = 512;
/// Loop turns that take about a millisecond of CPU in code cranelift compiles (measured on
/// the development machine; the CPU limit throttles by time spent, not by turns).
const TURNS_PER_MS: u64 = 700_000;

/// Memory a process holds until it exits.
#[derive(Default)]
pub struct Held {
    blocks: Vec<Vec<u8>>,
}

impl Held {
    /// The process's own `memoryMi`: reserved in linear memory (it counts against the limit)
    /// but left untouched, so it costs the node nothing until used, like a fresh heap.
    /// In blocks of at most `BLOCK_MIB`: one wasm32 allocation holds less than 2 GiB (an
    /// inference server's 2,048 MiB would not fit in one).
    pub fn new(memory_mi: u64) -> Held {
        let mut held = Held::default();
        let mut left = memory_mi;
        while left > 0 {
            let block = left.min(BLOCK_MIB);
            let mut reserved = Vec::new();
            if reserved.try_reserve_exact(mib(block)).is_err() {
                out_of_memory();
            }
            held.blocks.push(reserved);
            left -= block;
        }
        held
    }

    /// `/hog?mb=N`: N MiB taken and written, page by page, as a hog really uses it.
    pub fn hog(&mut self, mb: u64) {
        let mut block = Vec::new();
        if block.try_reserve_exact(mib(mb)).is_err() {
            out_of_memory();
        }
        block.resize(mib(mb), 0u8);
        for page in block.chunks_mut(PAGE) {
            page[0] = 1;
        }
        self.blocks.push(black_box(block));
    }

    pub fn release(&mut self) {
        self.blocks.clear();
    }

    /// MiB held.
    pub fn mib(&self) -> u64 {
        (self.blocks.iter().map(Vec::capacity).sum::<usize>() / MIB) as u64
    }
}

fn mib(mb: u64) -> usize {
    usize::try_from(mb).unwrap_or(usize::MAX).saturating_mul(MIB)
}

/// More than the address space: ask for all of it, so the host's memory limit ends the process
/// as the kernel's OOM killer would (and without a limit, abort).
fn out_of_memory() -> ! {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::memory_grow(0, 65_536);
    panic!("out of memory")
}

/// Spins for about `ms` milliseconds of CPU.
pub fn burn_cpu_ms(ms: u64) {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for turn in 0..ms.saturating_mul(TURNS_PER_MS) {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(turn));
    }
    black_box(x);
}
