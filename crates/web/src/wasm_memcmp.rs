//! `memcmp` and `bcmp` for wasm32, comparing eight bytes at a time.
//!
//! wasm32 has no C library, so these come from Rust's compiler-builtins, which compares one
//! byte per loop turn. Every `String` key in the simulator's B-trees is compared through them,
//! and object names share long prefixes (`web-0001-6b85969876-…`), so the byte loop led the
//! engine's wasm32 profile at 16 %. Native targets use the C library's vectorised versions.
#![allow(unsafe_code)] // symbols the compiler calls; the core itself forbids unsafe.

/// Index of the first 8-byte word that differs, or of the tail when none does.
///
/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes.
unsafe fn equal_prefix_words(a: *const u8, b: *const u8, n: usize) -> usize {
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: i + 8 <= n, and the caller guarantees n readable bytes.
        let (x, y) = unsafe { (a.add(i).cast::<u64>().read_unaligned(), b.add(i).cast::<u64>().read_unaligned()) };
        if x != y {
            break;
        }
        i += 8;
    }
    i
}

/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes (the C contract).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = unsafe { equal_prefix_words(a, b, n) };
    while i < n {
        // SAFETY: i < n.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes (the C contract).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    unsafe { memcmp(a, b, n) }
}
