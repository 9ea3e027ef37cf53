#!/usr/bin/env bash
# Builds the fuzz targets in fuzz/ and runs each under libFuzzer: a few seconds each by default
# (a test stage), or as long as asked.
#   scripts/fuzz.sh                            every target, $FUZZ_SECONDS (default 5) each, seed
#                                              $FUZZ_SEED (default 1)
#   scripts/fuzz.sh --seconds 3600 [TARGET…]   long runs, one target after another
#   scripts/fuzz.sh --merge [TARGET…]          adds what the runs found that covers new code to
#                                              the committed corpus (fuzz/corpus/TARGET)
#   scripts/fuzz.sh --list                     the targets
#   scripts/fuzz.sh --build-only               builds what a short run needs, and runs nothing
# Stable Rust: libfuzzer-sys with LLVM's coverage passes (cargo-fuzz's flags, without a
# sanitizer, which needs nightly). Everything it writes is under target/fuzz: the build, the
# corpus long runs grow (target/fuzz/corpus), logs, and crashes in target/fuzz/artifacts/TARGET/.
# Exits 1 when a target crashed, ran out of time on one input, or out of memory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Each target and the longest input it is given: room for the real files it is seeded with,
# and no more, so a mutation stays cheap to run.
declare -A MAX_LEN=(
  [manifest_apply]=16384
  [kubectl_args]=1024
  [sim_script]=16384
  [lesson_yaml]=20480
  [exec_shell]=2048
  [wire_bodies]=8192
  [api_requests]=8192
)
TARGETS=(manifest_apply kubectl_args sim_script lesson_yaml exec_shell wire_bodies api_requests)

# One input may take 10 s and 2 GiB before libFuzzer calls it a hang or an out-of-memory: the
# core must refuse or bound any input well within that.
LIBFUZZER_FLAGS=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

triple="$(rustc -vV | sed -n 's/^host: //p')"
export CARGO_TARGET_DIR="$root/target/fuzz"
work="$CARGO_TARGET_DIR"

die() { printf 'fuzz: error: %s\n' "$*" >&2; exit 2; }

seconds="${FUZZ_SECONDS:-5}"
mode=run
chosen=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --merge) mode=merge; shift ;;
    --list) printf '%s\n' "${TARGETS[@]}"; exit 0 ;;
    --build-only) mode=build; shift ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) [[ -v MAX_LEN[$1] ]] || die "no target $1 (scripts/fuzz.sh --list)"; chosen+=("$1"); shift ;;
  esac
done
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || die "--seconds wants a whole number above 0, not $seconds"
[[ ${#chosen[@]} -gt 0 ]] || chosen=("${TARGETS[@]}")
# Short runs (the test stage) use a build optimised less, quicker to make (fuzz/Cargo.toml).
profile=fuzz
((seconds < 60)) && [[ $mode != merge ]] && profile=fuzz-test
bin_dir="$CARGO_TARGET_DIR/$triple/$profile"

# cargo-fuzz's instrumentation: inline 8-bit counters with their PC table for coverage,
# compares traced so libFuzzer learns the words the parsers look for, stack depth as a
# feature; --target keeps the flags off build scripts and proc macros, which have no libFuzzer
# to link against.
build() {
  local flags=(
    --cfg fuzzing
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    -Cllvm-args=-sanitizer-coverage-stack-depth
    -Cllvm-args=-simplifycfg-branch-fold-threshold=0
  )
  command -v c++ >/dev/null || die "no C++ compiler for libFuzzer's sources (scripts/setup.sh installs g++)"
  echo "fuzz: building ${#TARGETS[@]} targets into target/fuzz (profile $profile; a few minutes from cold)"
  local start=$SECONDS
  # Not --quiet: cargo's "Compiling …" lines show the build moving.
  RUSTFLAGS="${flags[*]}" cargo build --manifest-path fuzz/Cargo.toml --profile "$profile" \
    --target "$triple" --bins
  echo "fuzz: built in $((SECONDS - start))s"
}

# fuzz TARGET: runs it for $seconds; records "TARGET EXECS EXEC/S RESULT" in $results.
fuzz() {
  local target="$1" log="$work/logs/$1.log" artifacts="$work/artifacts/$1/"
  # The first corpus folder is where libFuzzer adds what it finds; the committed one only seeds.
  # Runs of a minute or more keep what they find for the next; shorter ones (the test stage)
  # start from the committed corpus each time, so their time does not grow run after run.
  # Short runs also take a fixed seed (FUZZ_SEED, default 1): the test stage mutates the same
  # way every time, so it fails for a change in the code, not for a lucky draw.
  local found="$work/corpus/$target" seed=()
  if ((seconds < 60)); then
    found="$work/corpus-short/$target"
    rm -rf "$found"
    seed=(-seed="${FUZZ_SEED:-1}")
  fi
  mkdir -p "$found" "$artifacts" "$work/logs"
  echo
  echo "== $target: ${seconds}s, inputs up to ${MAX_LEN[$target]} bytes"
  local status=0
  "$bin_dir/$target" "${LIBFUZZER_FLAGS[@]}" "${seed[@]}" -max_len="${MAX_LEN[$target]}" -max_total_time="$seconds" \
    -artifact_prefix="$artifacts" "$found" "fuzz/corpus/$target" >"$log" 2>&1 &
  local pid=$!
  follow "$pid" "$log"
  wait "$pid" || status=$?
  report "$target" "$log" "$status"
}

# Every minute of a long run, the fuzzer's latest status line, so the run never looks hung.
follow() {
  local pid="$1" log="$2" ticks=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    ticks=$((ticks + 1))
    if ((ticks % 60 == 0)); then
      printf '   %dm %s\n' $((ticks / 60)) "$(grep -a '^#[0-9]' "$log" | tail -n 1 | cut -c1-100)"
    fi
  done
}

# report TARGET LOG STATUS: one line, and for a failure the input that caused it.
report() {
  local target="$1" log="$2" status="$3" execs rate result
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
  result="ok"
  if [[ $status -ne 0 ]]; then
    result="$(failure_kind "$log")"
    failed=1
    grep -a -m 1 -A 1 "panicked at" "$log" | sed 's/^/   /' ||
      grep -a -m 1 "ERROR: libFuzzer" "$log" | sed 's/^/   /' || true
    grep -a -m 1 "Test unit written to" "$log" | sed 's/^.*Test unit written to /   input: /' || true
    echo "   rerun it: $bin_dir/$target INPUT; the log: ${log#"$root"/}"
  fi
  printf '   %s executions, %s exec/s, %s\n' "${execs:-?}" "${rate:-?}" "$result"
  results+=("$(printf '%-16s %12s %10s  %s' "$target" "${execs:-?}" "${rate:-?}" "$result")")
}

failure_kind() {
  if grep -aq "libFuzzer: timeout" "$1"; then
    echo "TIMEOUT"
  elif grep -aq "libFuzzer: out-of-memory" "$1"; then
    echo "OUT OF MEMORY"
  else
    echo "CRASH"
  fi
}

# Adds the inputs of the grown corpus that reach code the committed corpus does not: by edges
# alone (not hit counts) and a smallest covering set, so the committed corpus stays small.
merge() {
  local target="$1"
  mkdir -p "$work/corpus/$target" "$work/logs"
  echo "== $target: merging target/fuzz/corpus/$target into fuzz/corpus/$target"
  "$bin_dir/$target" -merge=1 -set_cover_merge=1 -use_counters=0 -max_len="${MAX_LEN[$target]}" "${LIBFUZZER_FLAGS[@]}" \
    "fuzz/corpus/$target" "$work/corpus/$target" >"$work/logs/$target.merge.log" 2>&1
  grep -a "MERGE-OUTER: [0-9]* new files" "$work/logs/$target.merge.log" | sed 's/^/   /' || true
}

build
[[ $mode == build ]] && exit 0
results=()
failed=0
for target in "${chosen[@]}"; do
  if [[ $mode == merge ]]; then merge "$target"; else fuzz "$target"; fi
done
[[ $mode == merge ]] && exit 0

echo
echo "== fuzz summary (${seconds}s each; crashes in target/fuzz/artifacts/TARGET/)"
printf '%-16s %12s %10s  %s\n' target executions "exec/s" result
printf '%s\n' "${results[@]}"
exit "$failed"
