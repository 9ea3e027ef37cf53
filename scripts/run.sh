#!/usr/bin/env bash
# Builds everything and serves kubelab locally: the tools (setup.sh), the browser bundle
# (build-web.sh), then `kubelab serve` on $KUBELAB_ADDR (default 127.0.0.1:8080).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# Each step says what it does and how long a first run takes; cargo lists every crate it
# compiles, so a long build shows it is moving.
step() { printf '\n== make run [%s] %s\n' "$1" "$2"; }

step 1/3 "installing the toolchains and tools (first run: about 6 minutes; then instant)"
scripts/setup.sh
step 2/3 "building the web app for wasm32 (first run: about 8 minutes; then seconds)"
scripts/build-web.sh
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export KUBELAB_ADDR="${KUBELAB_ADDR:-127.0.0.1:8080}"
step 3/3 "building the server (first run: about 5 minutes) and starting it on $KUBELAB_ADDR"
exec cargo run --release -p kubelab-server --bin kubelab -- serve
