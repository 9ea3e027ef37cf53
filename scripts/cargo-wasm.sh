#!/usr/bin/env bash
# Runs cargo for wasm32-unknown-unknown: `scripts/cargo-wasm.sh build -p kubelab-web ...`.
# Every wasm32 cargo command goes through here, so the compiler, flags and target directory
# (target/wasm) never change between runs; a mismatch would make the next build start over.
# With rustup's wasm32 target installed it is plain cargo; otherwise it uses Debian's
# rustc-web (/usr/bin) and builds the standard library for wasm32 from source.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -ge 1 ]] || { echo "usage: scripts/cargo-wasm.sh <cargo subcommand> [args...]" >&2; exit 2; }
subcommand="$1"
shift

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
wasm_flags=(--target wasm32-unknown-unknown --target-dir "$root/target/wasm")

installed_targets="$(PATH="$cargo_bin:$PATH" rustup target list --installed 2>/dev/null || true)"
if grep -qx wasm32-unknown-unknown <<<"$installed_targets"; then
  export PATH="$cargo_bin:$PATH"
  exec cargo "$subcommand" "${wasm_flags[@]}" "$@"
fi

for tool in /usr/bin/cargo /usr/bin/rustc /usr/lib/llvm-22/bin/wasm-ld; do
  [[ -x $tool ]] || { echo "cargo-wasm: $tool missing; run scripts/setup.sh" >&2; exit 1; }
done
export PATH="/usr/bin:$PATH"
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/lib/llvm-22/bin/wasm-ld
unset RUSTUP_TOOLCHAIN
# The standard library built from source is built for speed in the bundle's profile, as the
# simulator is (Cargo.toml): String clones and Vec growth run in the simulator's hot loops.
std_speed=()
for crate in std alloc core; do
  std_speed+=(--config "profile.wasm-release.package.$crate.opt-level=3")
done
exec /usr/bin/cargo "$subcommand" "${wasm_flags[@]}" -Zbuild-std=std,panic_abort "${std_speed[@]}" "$@"
