//! The wasm32 global allocator: dlmalloc, as the standard library uses, but fed memory in
//! growing steps instead of 64 KiB at a time, with blocks of up to 1 KiB cut from 64 KiB arenas
//! and recycled through per-size free lists in front of it.
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

/// Blocks of at most this many bytes are recycled through per-size free lists in front of
/// dlmalloc: the simulator's strings, `Arc`s, map nodes and stored objects are small and come and
/// go by the million, and a list push or pop is a few instructions where dlmalloc's bins take
/// dozens (its tree bins, above 256 bytes, more).
const SMALL_MAX: usize = 1024;
/// The free lists' size classes: multiples of this many bytes.
const CLASS_STEP: usize = 16;
const CLASSES: usize = SMALL_MAX / CLASS_STEP;
/// A small block no list has yet is cut from an arena of this size, taken from dlmalloc in one
/// piece: the engine bench asks for 2.4 million blocks that way, one dlmalloc call each before.
const ARENA: usize = 64 * 1024;

/// The natural malloc alignment on wasm32 (two words); anything up to it needs no `memalign`.
const MALLOC_ALIGN: usize = 2 * core::mem::size_of::<usize>();

struct Heap {
    dlmalloc: dlmalloc::Dlmalloc<GrowingMemory>,
    /// For each size class, the most recently freed block; each free block's first word points
    /// at the next. Blocks stay in their class (never returned to dlmalloc).
    free: [*mut u8; CLASSES],
    /// The rest of the current arena, `[arena, arena_end)`. What is left when a block no longer
    /// fits (less than `SMALL_MAX` bytes of 64 KiB) is not used.
    arena: usize,
    arena_end: usize,
}

impl Heap {
    /// A fresh block of `size` bytes (a multiple of `CLASS_STEP`, at most `SMALL_MAX`).
    ///
    /// # Safety
    /// Single-threaded use of the heap, as `Allocator` guarantees.
    unsafe fn cut(&mut self, size: usize) -> *mut u8 {
        if self.arena_end - self.arena < size {
            let arena = unsafe { self.dlmalloc.malloc(ARENA, MALLOC_ALIGN) };
            if arena.is_null() {
                return arena;
            }
            self.arena = arena as usize;
            self.arena_end = self.arena + ARENA;
        }
        let block = self.arena as *mut u8;
        self.arena += size;
        block
    }
}

/// The size class of a layout the free lists serve, if any.
fn class_of(layout: Layout) -> Option<usize> {
    let size = layout.size();
    (size != 0 && size <= SMALL_MAX && layout.align() <= MALLOC_ALIGN).then(|| (size - 1) / CLASS_STEP)
}

/// wasm32 without the atomics feature runs one thread, so the cell needs no lock.
struct Allocator(UnsafeCell<Heap>);

// SAFETY: single-threaded target (see the cfg on the module in lib.rs).
unsafe impl Sync for Allocator {}

// The layout-carrying `free` and `realloc` check the layout's size against the chunk on every
// call (an assert that is on in release builds too: a tenth of the allocator's time in the
// engine bench). The C-shaped entry points take the size from the chunk header instead.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let heap = unsafe { &mut *self.0.get() };
        let Some(class) = class_of(layout) else {
            return unsafe { heap.dlmalloc.malloc(layout.size(), layout.align()) };
        };
        let head = heap.free[class];
        if head.is_null() {
            // A whole class's worth, so the block can serve any size of its class later.
            return unsafe { heap.cut((class + 1) * CLASS_STEP) };
        }
        // SAFETY: a free block's first word holds the next free block (set in `dealloc`).
        heap.free[class] = unsafe { head.cast::<*mut u8>().read() };
        head
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if class_of(layout).is_none() {
            return unsafe { (*self.0.get()).dlmalloc.calloc(layout.size(), layout.align()) };
        }
        let block = unsafe { self.alloc(layout) };
        if !block.is_null() {
            // SAFETY: the block holds at least layout.size() bytes.
            unsafe { block.write_bytes(0, layout.size()) };
        }
        block
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let heap = unsafe { &mut *self.0.get() };
        match class_of(layout) {
            Some(class) => {
                // SAFETY: the block is at least CLASS_STEP bytes and aligned for a pointer.
                unsafe { ptr.cast::<*mut u8>().write(heap.free[class]) };
                heap.free[class] = ptr;
            }
            None => unsafe { heap.dlmalloc.c_free(ptr) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: GlobalAlloc's contract: new_size rounded to layout.align() does not overflow.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (class_of(layout), class_of(new_layout)) {
            (Some(old), Some(new)) if old == new => ptr,
            (None, None) => {
                let heap = unsafe { &mut (*self.0.get()).dlmalloc };
                if layout.align() <= MALLOC_ALIGN {
                    unsafe { heap.c_realloc(ptr, new_size) }
                } else {
                    // Only the layout-carrying realloc keeps an over-alignment.
                    unsafe { heap.realloc(ptr, layout.size(), layout.align(), new_size) }
                }
            }
            // Into or out of the free lists: a block of the other kind, and a copy.
            _ => {
                let moved = unsafe { self.alloc(new_layout) };
                if !moved.is_null() {
                    // SAFETY: both blocks hold at least the smaller size; they do not overlap.
                    unsafe { core::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size)) };
                    unsafe { self.dealloc(ptr, layout) };
                }
                moved
            }
        }
    }
}

#[global_allocator]
static ALLOCATOR: Allocator = Allocator(UnsafeCell::new(Heap {
    dlmalloc: dlmalloc::Dlmalloc::new_with_allocator(GrowingMemory),
    free: [core::ptr::null_mut(); CLASSES],
    arena: 0,
    arena_end: 0,
}));
