#!/usr/bin/env bash
# Runs the simulator benchmarks (crates/core/benches: store, scheduler, engine, slices, lifecycle,
# gpu_scheduler, traffic, jobs); then the engine scenario at a tenth of the size natively and in the
# wasm32 bundle in headless chromium, twice in turn so the two compare within one run, and once
# under Node; then the traffic scenario under Node; then the full-size
# scenario in chromium; then the server's load benchmark, a served lab's API (kube_api) and one real
# node (agent: kubelab-agent's pod start, pods and memory); then the browser budgets
# (tests/e2e/budgets.mjs: first load, time to interactive, frames, a 5,000-node sandbox).
# Extra arguments go to cargo bench.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
cargo bench -p kubelab-core "$@"

echo
echo "== engine at a tenth of the size: native, then wasm32 in chromium, twice; then wasm32 under Node"
scripts/build-web.sh >/dev/null
for round in 1 2; do
  KUBELAB_BENCH_SCALE=10 cargo bench --quiet -p kubelab-core --bench engine
  node tests/e2e/engine-bench.mjs 10
done
node tests/wasm/bench.mjs 10

echo
echo "== traffic: simulated requests per second of wall time, wasm32 under Node (native: the traffic bench above)"
node tests/wasm/traffic-bench.mjs

echo
echo "== engine at full size in chromium (the native figure is the engine bench's, above)"
node tests/e2e/engine-bench.mjs 1

echo
echo "== server: learners holding WebSockets and posting progress (crates/server/benches/load.rs)"
cargo bench --quiet -p kubelab-server --bench load

echo
echo "== a served lab's Kubernetes API over TLS: get pods on 5,000 pods, 100 clients, 1,000 watches (crates/server/benches/kube_api.rs)"
cargo bench --quiet -p kubelab-server --bench kube_api

echo
echo "== one kubelab-agent on loopback: pod start, pods per agent, memory per pod (crates/server/benches/agent.rs)"
cargo build --quiet --release -p kubelab-node-agent && scripts/build-guests.sh >/dev/null && cargo bench --quiet -p kubelab-server --bench agent

echo
echo "== browser budgets (tests/e2e/budgets.mjs)"
cargo test --workspace --no-run --quiet
node tests/e2e/budgets.mjs
