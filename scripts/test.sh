#!/usr/bin/env bash
# The full test suite, as CI runs it (`make test` runs scripts/setup.sh first). Each stage
# prints a header and its time; the first failing stage stops the run and is named at the end.
#   format · clippy · guests (wasm32) · native tests (the lessons replay there) · server API on PostgreSQL · web bundle (the core and the app
#   for wasm32) · native/wasm determinism · browser end-to-end · classes end-to-end
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-auto}"
export RUST_BACKTRACE="${RUST_BACKTRACE:-1}"
# The kubectl 1.36 oracle tests must run, not skip (setup installed the binary), and so must
# the tests that run the WebAssembly guest (the stage before the native tests builds it).
export KUBELAB_REQUIRE_ORACLE=1
export KUBELAB_REQUIRE_GUESTS=1
# A full run compiles each crate once per profile: incremental caches would only cost disk (they
# were half of a fresh clone's target directory) and time. Set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

summary=()
current_stage=""
suite_start=$SECONDS

on_exit() {
  local status=$?
  echo
  echo "== summary"
  local line
  for line in "${summary[@]}"; do echo "$line"; done
  if [[ $status -ne 0 && -n $current_stage ]]; then
    printf '  FAIL  %-34s (exit %d)\n' "$current_stage" "$status"
  fi
  printf '  total %ds\n' $((SECONDS - suite_start))
  [[ $status -eq 0 ]] && echo "all stages passed"
}
trap on_exit EXIT

# stage NAME COMMAND...: runs one stage with a header line and records its time.
stage() {
  local name="$1"
  shift
  current_stage="$name"
  echo
  echo "== $name: $*"
  local start=$SECONDS
  "$@"
  local took=$((SECONDS - start))
  echo "-- $name ok (${took}s)"
  summary+=("$(printf '  ok    %-34s %4ds' "$name" "$took")")
  current_stage=""
}

# The native `kubelab` binary as `cargo test --workspace` built it (for the server's
# integration tests). Building it with `cargo build -p kubelab-server` instead would select other
# dependency features (no dev-dependencies) and compile much of the tree a second time.
build_kubelab() {
  cargo test --workspace --no-run --quiet
}

# Compares the native binary with the wasm bundle on every scenario.
determinism() {
  build_kubelab
  node tests/wasm/determinism.mjs
}

# The server's API tests again, on a private PostgreSQL (the native tests ran them on SQLite).
server_on_postgres() {
  local url
  url="$(scripts/postgres.sh)"
  # --workspace: the same feature set as the native tests, so nothing is rebuilt.
  KUBELAB_TEST_DATABASE_URL="$url" cargo test --workspace --tests --quiet api::tests
}

# A fresh clone's run writes about 12 GB under target/; say so up front rather than fail an hour in.
free_gb=$(df -Pk "$root" | awk 'NR == 2 {print int($4 / 1048576)}')
if ((free_gb < 15)); then
  echo "warning: ${free_gb} GB free on the disk under $root; a fresh run needs about 12 GB for target/"
fi

stage "format" cargo fmt --all --check
stage "clippy" cargo clippy --workspace --all-targets -- -D warnings
stage "guests (the agent's wasm32 workload)" scripts/build-guests.sh
stage "native tests" cargo test --workspace
stage "server API on PostgreSQL" server_on_postgres
stage "fuzz targets (a few seconds each)" scripts/fuzz.sh
stage "web bundle (profile wasm-test)" env KUBELAB_WEB_PROFILE=wasm-test scripts/build-web.sh
stage "determinism native = wasm" determinism
stage "browser end-to-end" node tests/e2e/run.mjs
stage "classes end-to-end" node tests/e2e/class.mjs

# Later stages go here, each as one `stage` line.
