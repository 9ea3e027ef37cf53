//! What a C library would give the browser build, and wasm32 has none of: the global
//! allocator (`allocator`) and `memcmp` (`memcmp`). They are their own crate so that they can be
//! built for speed (`opt-level = 3` in the `wasm-release` profile) while the page around them
//! is built for size: every allocation and every string compare in the simulator runs here.
//! Native builds use the C library's; only `memcmp`'s tests compile there.

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod allocator;
#[cfg(any(target_arch = "wasm32", test))]
mod memcmp;
