#!/usr/bin/env bash
# The full test suite, as CI runs it (`make test` runs scripts/setup.sh first). Each stage
# prints a header and its time; the first failing stage stops the run and is named at the end.
#   format · clippy and the test build · guests (wasm32) · native tests (the lessons replay there) · server API on PostgreSQL · web bundle (the core and the app
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
  stop_background
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

# --- a build on the CPU the test build leaves idle --------------------------------------------
# The fuzz targets have a target dir of their own (target/fuzz), so they can compile while the
# test build runs, which on two cores leaves CPU idle whenever it links or compiles one large
# crate alone. The fuzz build runs at the lowest CPU priority (nice 19), so the test build keeps
# the CPU it asks for, and it is stopped while the native tests run (some measure time or a CPU
# quota) and continued after them; its own stage waits for it, then runs what it built.
logs="$root/target/test-logs"
declare -A background_pid=()

# in_background NAME COMMAND...: starts the build in a process group of its own, logged, and
# waits until it is past cargo's package-cache lock, which the stages after it need too.
in_background() {
  local name="$1"
  shift
  mkdir -p "$logs"
  setsid nice -n 19 "$@" </dev/null >"$logs/$name.log" 2>&1 &
  background_pid[$name]=$!
  local waited=0
  until grep -aqE '^ *(Compiling|Finished|Fresh)|error' "$logs/$name.log" || ! kill -0 "$!" 2>/dev/null || ((waited >= 120)); do
    sleep 1
    waited=$((waited + 1))
  done
  echo
  echo "-- started at low priority beside the next stages: $name ($*; log: target/test-logs/$name.log)"
}

# signal_background SIGNAL: sends it to every background build's process group.
signal_background() {
  local pid
  for pid in "${background_pid[@]}"; do
    kill "-$1" -- "-$pid" 2>/dev/null || true
  done
}

# await NAME: waits for that build, printing its latest line every 30 s so that a wait never
# looks hung; on failure, its log's last lines.
await() {
  local name="$1" pid="${background_pid[$1]}" ticks=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    ticks=$((ticks + 1))
    if ((ticks % 30 == 0)); then
      printf '   waiting for %s: %s\n' "$name" "$(grep -a 'Compiling\|Finished\|built' "$logs/$name.log" | tail -n 1 | cut -c1-100)"
    fi
  done
  if ! wait "$pid"; then
    tail -n 40 "$logs/$name.log"
    echo "$name failed (its log: target/test-logs/$name.log)"
    return 1
  fi
  echo "   $name: done (log: target/test-logs/$name.log)"
}

# A stopped build is continued so that it can act on the TERM.
stop_background() {
  signal_background TERM
  signal_background CONT
}

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

# Clippy's lints, warnings denied, run inside the test build rather than in a check build of
# their own: clippy-driver is rustc with the lints added, and these two variables are how
# `cargo clippy -- -D warnings` runs it (on the workspace's crates only; dependencies are
# compiled by plain rustc). Each crate of the workspace is then compiled once, linted as it is,
# which on two cores saves a fresh clone the whole separate check build (about 6 minutes).
# Every native cargo command below runs through `linted`, so none of them rebuilds: the
# wrapper's path is part of the artifacts' names.
clippy_driver="$(dirname "$(rustup which cargo-clippy)")/clippy-driver"
linted() {
  RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" "$@"
}

# Every target clippy's `--all-targets` checks (the benches too), compiled and linted; the next
# stage runs the tests.
lint_and_build() {
  linted cargo test --workspace --all-targets --no-run
}

# The native `kubelab` binary as `cargo test --workspace` built it (for the server's
# integration tests). Building it with `cargo build -p kubelab-server` instead would select other
# dependency features (no dev-dependencies) and compile much of the tree a second time.
build_kubelab() {
  linted cargo test --workspace --no-run --quiet
}

# The fuzz targets, from the build started beside the earlier stages.
fuzz_targets() {
  await fuzz-build
  scripts/fuzz.sh
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
  KUBELAB_TEST_DATABASE_URL="$url" linted cargo test --workspace --tests --quiet api::tests
}

# A fresh clone's run writes about 12 GB under target/; say so up front rather than fail an hour in.
free_gb=$(df -Pk "$root" | awk 'NR == 2 {print int($4 / 1048576)}')
if ((free_gb < 15)); then
  echo "warning: ${free_gb} GB free on the disk under $root; a fresh run needs about 12 GB for target/"
fi

stage "format" cargo fmt --all --check
in_background fuzz-build scripts/fuzz.sh --build-only
stage "clippy -D warnings, building the tests" lint_and_build
stage "guests (the agent's wasm32 workload)" scripts/build-guests.sh
signal_background STOP
stage "native tests" linted cargo test --workspace
stage "server API on PostgreSQL" server_on_postgres
signal_background CONT
stage "fuzz targets (a few seconds each)" fuzz_targets
stage "web bundle (profile wasm-test)" env KUBELAB_WEB_PROFILE=wasm-test scripts/build-web.sh
stage "determinism native = wasm" determinism
stage "browser end-to-end" node tests/e2e/run.mjs
stage "classes end-to-end" node tests/e2e/class.mjs

# Later stages go here, each as one `stage` line.
