#!/usr/bin/env bash
# Builds everything and serves kubelab locally: the tools (setup.sh), the browser bundle
# (build-web.sh), then `kubelab serve` on $KUBELAB_ADDR (default 127.0.0.1:8080).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/setup.sh
scripts/build-web.sh
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export KUBELAB_ADDR="${KUBELAB_ADDR:-127.0.0.1:8080}"
exec cargo run --release -p kubelab-server --bin kubelab -- serve
