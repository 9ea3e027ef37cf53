#!/usr/bin/env bash
# Runs the simulator benchmarks (crates/core/benches). Extra arguments go to cargo bench.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
exec cargo bench -p kubelab-core "$@"
