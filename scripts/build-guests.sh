#!/usr/bin/env bash
# Builds the WebAssembly workload kubelab-agent runs for every container (crates/guest) into
# target/guests/workload.wasm. wasm32 goes through scripts/cargo-wasm.sh with the web bundle's
# test profile (wasm-test), so the wasm32 standard library built for one is reused by the
# other. Cargo skips an up-to-date build and the copy is skipped when nothing changed, so a
# second run takes a second or two.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

profile="wasm-test"
built="target/wasm/wasm32-unknown-unknown/$profile/kubelab_guest.wasm"
out="target/guests/workload.wasm"

echo "build-guests: compiling crates/guest for wasm32 (profile $profile)"
scripts/cargo-wasm.sh build -p kubelab-guest --lib --profile "$profile"
[[ -f $built ]] || { echo "build-guests: $built was not produced" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
if [[ -f $out ]] && cmp -s "$built" "$out"; then
  echo "build-guests: $out is up to date ($(stat -c %s "$out") bytes)"
else
  cp "$built" "$out.tmp"
  mv "$out.tmp" "$out"
  echo "build-guests: wrote $out ($(stat -c %s "$out") bytes)"
fi
