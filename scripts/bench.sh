#!/usr/bin/env bash
# Runs the simulator benchmarks (crates/core/benches: store, scheduler, engine, slices), then the engine
# scenario again in the wasm32 bundle under Node at a tenth of the size, next to a native run of
# the same size, so the two can be compared in one run; then the server's load benchmark; then the
# browser budgets (tests/e2e/budgets.mjs: first load, time to interactive, frames, a 5,000-node
# sandbox). Extra arguments go to cargo bench.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
cargo bench -p kubelab-core "$@"

echo
echo "== engine at a tenth of the size: native, then wasm32"
KUBELAB_BENCH_SCALE=10 cargo bench --quiet -p kubelab-core --bench engine
scripts/build-web.sh >/dev/null
node tests/wasm/bench.mjs 10

echo
echo "== server: learners holding WebSockets and posting progress (crates/server/benches/load.rs)"
cargo bench --quiet -p kubelab-server --bench load

echo
echo "== browser budgets (tests/e2e/budgets.mjs)"
cargo test --workspace --no-run --quiet
node tests/e2e/budgets.mjs
