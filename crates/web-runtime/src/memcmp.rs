//! `memcmp` and `bcmp` for wasm32, comparing eight bytes at a time.
//!
//! wasm32 has no C library, so these come from Rust's compiler-builtins, which compares one
//! byte per loop turn. Every `String` key in the simulator's B-trees is compared through them,
//! and object names share long prefixes (`web-0001-6b85969876-…`), so the byte loop led the
//! engine's wasm32 profile at 16 %. A differing word names its first differing byte by its
//! lowest set bit, so no byte loop runs after it. Native targets use the C library's versions.
#![allow(unsafe_code)] // symbols the compiler calls; the core itself forbids unsafe.

/// Loads a `T` at byte `at` from both sides (wasm32 is little-endian, as the tests' hosts are).
///
/// # Safety
/// `a` and `b` must be valid for reads of `at + size_of::<T>()` bytes.
unsafe fn words<T: Copy>(a: *const u8, b: *const u8, at: usize) -> (T, T) {
    unsafe { (a.add(at).cast::<T>().read_unaligned(), b.add(at).cast::<T>().read_unaligned()) }
}

/// The sign of the first differing byte of two little-endian words known to differ: the lowest
/// set bit of `x ^ y` is in that byte.
fn first_difference(x: u64, y: u64) -> i32 {
    let shift = (x ^ y).trailing_zeros() / 8 * 8;
    i32::from((x >> shift) as u8) - i32::from((y >> shift) as u8)
}

/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes (the C contract).
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: i + 8 <= n, and the caller guarantees n readable bytes.
        let (x, y) = unsafe { words::<u64>(a, b, i) };
        if x != y {
            return first_difference(x, y);
        }
        i += 8;
    }
    if i + 4 <= n {
        // SAFETY: i + 4 <= n.
        let (x, y) = unsafe { words::<u32>(a, b, i) };
        if x != y {
            return first_difference(u64::from(x), u64::from(y));
        }
        i += 4;
    }
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

/// Equality only (`==` on strings and slices): zero when equal, non-zero otherwise.
///
/// # Safety
/// `a` and `b` must be valid for reads of `n` bytes (the C contract).
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    unsafe { memcmp(a, b, n) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    fn compare(a: &[u8], b: &[u8]) -> Ordering {
        assert_eq!(a.len(), b.len());
        // SAFETY: both slices hold a.len() bytes.
        unsafe { memcmp(a.as_ptr(), b.as_ptr(), a.len()) }.cmp(&0)
    }

    /// Every length up to 40 with the difference at every position, against slice order.
    #[test]
    fn orders_as_slices_do() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for len in 0..=base.len() {
            let a = &base[..len];
            assert_eq!(compare(a, a), Ordering::Equal, "len {len}");
            for at in 0..len {
                for delta in [1u8, 0x80] {
                    let mut b = a.to_vec();
                    b[at] = b[at].wrapping_add(delta);
                    assert_eq!(compare(a, &b), a.cmp(&b[..]), "len {len}, at {at}, +{delta}");
                    assert_eq!(compare(&b, a), b[..].cmp(a), "len {len}, at {at}, +{delta}");
                    // SAFETY: both hold len bytes.
                    assert_ne!(unsafe { bcmp(a.as_ptr(), b.as_ptr(), len) }, 0);
                }
            }
        }
    }
}
