//! The wasm32 global allocator: dlmalloc, as the standard library uses, but fed memory in
//! growing steps instead of 64 KiB at a time.
//!
//! Each `memory.grow` makes V8 (and other engines) account the new external memory, and past a
//! threshold run a full mark-compact of the JS heap. A 15,000-pod lab grows its heap by hundreds
//! of megabytes; at 64 KiB a step that was some 1,600 collections and most of the time the
//! engine spent outside the simulator. Growing by an eighth of the current memory (at least
//! 1 MiB) takes a few dozen steps to reach the same size and leaves at most an eighth unused.
#![allow(unsafe_code)] // a global allocator cannot be written without it; the core forbids unsafe.

use core::arch::wasm32;
use core::cell::UnsafeCell;
use std::alloc::{GlobalAlloc, Layout};

const PAGE: usize = 64 * 1024;
/// At least this many pages per grow (1 MiB).
const MIN_GROW_PAGES: usize = 16;

/// Where dlmalloc gets memory: `memory.grow`, by at least an eighth of the current size.
struct GrowingMemory;

unsafe impl dlmalloc::Allocator for GrowingMemory {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let needed = size.div_ceil(PAGE);
        let generous = needed.max(wasm32::memory_size(0) / 8).max(MIN_GROW_PAGES);
        // Near the 4 GiB limit the generous step may not fit; the exact one still might.
        for pages in [generous, needed] {
            let previous = wasm32::memory_grow(0, pages);
            if previous != usize::MAX {
                return ((previous * PAGE) as *mut u8, pages * PAGE, 0);
            }
        }
        (core::ptr::null_mut(), 0, 0)
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        core::ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

/// dlmalloc over `GrowingMemory`. wasm32 without the atomics feature runs one thread, so the
/// cell needs no lock.
struct Allocator(UnsafeCell<dlmalloc::Dlmalloc<GrowingMemory>>);

// SAFETY: single-threaded target (see the cfg on the module in lib.rs).
unsafe impl Sync for Allocator {}

/// The natural malloc alignment on wasm32 (two words); anything up to it needs no `memalign`.
const MALLOC_ALIGN: usize = 2 * core::mem::size_of::<usize>();

// The layout-carrying `free` and `realloc` check the layout's size against the chunk on every
// call (an assert that is on in release builds too: a tenth of the allocator's time in the
// engine bench). The C-shaped entry points take the size from the chunk header instead.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).malloc(layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).calloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { (*self.0.get()).c_free(ptr) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let heap = unsafe { &mut *self.0.get() };
        if layout.align() <= MALLOC_ALIGN {
            unsafe { heap.c_realloc(ptr, new_size) }
        } else {
            // Only the layout-carrying realloc keeps an over-alignment.
            unsafe { heap.realloc(ptr, layout.size(), layout.align(), new_size) }
        }
    }
}

#[global_allocator]
static ALLOCATOR: Allocator = Allocator(UnsafeCell::new(dlmalloc::Dlmalloc::new_with_allocator(GrowingMemory)));
