#!/usr/bin/env bash
# Device check: kubelab-agent on a machine with an NVIDIA GPU and its driver. Run it there by
# hand (it is never part of CI or scripts/test.sh): it needs NVML and a real nvidia-smi.
#
# Within 10 minutes it builds the lab and the agent (release), prints the GPUs NVML reports,
# starts `kubelab up`, joins this machine as node gpu-node with a bootstrap token (--gpus nvml
# --allow-process nvidia-smi), runs a pod asking nvidia.com/gpu: 1 whose command is
# `nvidia-smi -L`, and checks its logs list exactly one GPU, the one the agent gave the pod;
# a pod asking no GPU must not get to run nvidia-smi. One PASS/FAIL line per check; any FAIL
# exits non-zero.
#
#   scripts/device-check.sh            # on the GPU machine
#   scripts/device-check.sh --dry-run  # anywhere: debug build, two fake A100s from a file
#                                      # and a stand-in nvidia-smi on PATH
#
# The agent runs every other container in wasmtime, so it needs target/guests/workload.wasm:
# scripts/build-guests.sh builds it where the wasm32 toolchain is; elsewhere carry a prebuilt
# one along. Overrides: KUBELAB_DEVICE_CHECK_PROFILE (release or dev),
# KUBELAB_DEVICE_CHECK_GPUS (nvml, or fake:FILE). Needs curl, base64, timeout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

dry_run=false
if [[ ${1:-} == --dry-run ]]; then
  dry_run=true
elif [[ $# -gt 0 ]]; then
  echo "usage: scripts/device-check.sh [--dry-run]" >&2
  exit 2
fi

started=$SECONDS
budget=600
node="gpu-node"
work="$(mktemp -d "${TMPDIR:-/tmp}/kubelab-device-check.XXXXXX")"
lab_pid=""
agent_pid=""
results=()
failed=0

say() { printf '[device-check %3ds] %s\n' "$((SECONDS - started))" "$*"; }
pass() { results+=("PASS  $1"); say "PASS: $1"; }
fail() { results+=("FAIL  $1"); failed=1; say "FAIL: $1"; }

# Seconds left of the budget, for a wait that must end before it does (at least 1).
left() {
  local rest=$((budget - (SECONDS - started)))
  ((rest > 0)) && echo "$rest" || echo 1
}

# `within SECONDS CMD...`: runs CMD under timeout, capped by what is left of the budget.
within() {
  local limit=$1
  shift
  local rest
  rest="$(left)"
  ((limit < rest)) || limit=$rest
  timeout "$limit" "$@"
}

# `wait_for SECONDS CMD...`: CMD again every second until it succeeds (each call is under a
# timeout of its own) or SECONDS (capped by the budget) pass; whether it succeeded.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) && [[ $(left) -gt 1 ]] || return 1
    sleep 1
  done
}

summary() {
  echo
  echo "device-check summary ($((SECONDS - started)) s):"
  if ((${#results[@]} == 0)); then
    echo "FAIL  nothing was checked"
  else
    printf '%s\n' "${results[@]}"
  fi
}

cleanup() {
  local code=$?
  if [[ -n $agent_pid ]] && kill -0 "$agent_pid" 2>/dev/null; then
    kill -TERM "$agent_pid" 2>/dev/null || true
    wait "$agent_pid" 2>/dev/null || true
  fi
  if [[ -n $lab_pid ]] && kill -0 "$lab_pid" 2>/dev/null; then
    kill -INT "$lab_pid" 2>/dev/null || true
    wait "$lab_pid" 2>/dev/null || true
  fi
  if ((failed)) && [[ -f $work/agent.log ]]; then
    echo
    echo "the agent's log (last 40 lines):"
    tail -n 40 "$work/agent.log"
  fi
  summary
  rm -rf "$work"
  if ((failed)) || ((code != 0)); then
    exit 1
  fi
}
trap cleanup EXIT

for tool in curl base64 timeout; do
  command -v "$tool" >/dev/null || { fail "$tool is needed on this machine"; exit 1; }
done

if $dry_run; then
  profile="${KUBELAB_DEVICE_CHECK_PROFILE:-dev}"
  # Two A100s with known UUIDs, and an nvidia-smi that lists them as `nvidia-smi -L` does,
  # filtered by --id/-i (the real one ignores NVIDIA_VISIBLE_DEVICES, as this one does).
  mkdir -p "$work/fake-bin"
  cat >"$work/gpus.yaml" <<'EOF'
gpus:
- model: A100-SXM4-40GB
  uuid: GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab
- model: A100-SXM4-40GB
  uuid: GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ac
EOF
  printf '%s\n' GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ab GPU-5c3e1c7a-8f0b-4d2e-9a61-0123456789ac \
    >"$work/fake-bin/gpus.txt"
  cat >"$work/fake-bin/nvidia-smi" <<'EOF'
#!/bin/sh
ids=""
while [ $# -gt 0 ]; do
  case "$1" in
    --id=*) ids="${1#--id=}" ;;
    -i|--id) shift; ids="$1" ;;
  esac
  shift
done
index=0
while read -r uuid; do
  case ",$ids," in
    ,,|*",$uuid,"*) echo "GPU $index: NVIDIA A100-SXM4-40GB (UUID: $uuid)" ;;
  esac
  index=$((index + 1))
done < "$(dirname "$0")/gpus.txt"
EOF
  chmod +x "$work/fake-bin/nvidia-smi"
  export PATH="$work/fake-bin:$PATH"
  gpus="${KUBELAB_DEVICE_CHECK_GPUS:-fake:$work/gpus.yaml}"
  say "dry run: GPUs from $gpus, nvidia-smi from $work/fake-bin"
else
  profile="${KUBELAB_DEVICE_CHECK_PROFILE:-release}"
  gpus="${KUBELAB_DEVICE_CHECK_GPUS:-nvml}"
fi

# --- build ---------------------------------------------------------------------------------
case $profile in
  release) build_flags=(--release); bin="target/release" ;;
  dev) build_flags=(); bin="target/debug" ;;
  *) echo "KUBELAB_DEVICE_CHECK_PROFILE must be release or dev, not $profile" >&2; exit 2 ;;
esac
say "building kubelab and kubelab-agent ($profile, $(nproc) jobs)"
if within 420 cargo build "${build_flags[@]}" -j "$(nproc)" -p kubelab-server -p kubelab-node-agent; then
  pass "build: $bin/kubelab and $bin/kubelab-agent"
else
  fail "build: cargo build ${build_flags[*]} -p kubelab-server -p kubelab-node-agent"
  exit 1
fi

guest="target/guests/workload.wasm"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown ||
  [[ -x /usr/lib/llvm-22/bin/wasm-ld ]]; then
  say "building the wasm guest (scripts/build-guests.sh)"
  if ! within 300 scripts/build-guests.sh; then
    say "scripts/build-guests.sh failed; trying a prebuilt $guest"
  fi
else
  say "no wasm32 toolchain here: using a prebuilt $guest if one was carried along"
fi
if [[ -f $guest ]]; then
  pass "guest: $guest ($(stat -c %s "$guest") bytes)"
else
  fail "guest: $guest is missing (build it with scripts/build-guests.sh on a machine with the wasm32 toolchain and copy it here)"
  exit 1
fi

# --- what NVML reports ---------------------------------------------------------------------
say "the GPUs --gpus $gpus reports:"
if within 60 "$bin/kubelab-agent" --gpus "$gpus" --name "$node" --print-gpus >"$work/gpus.txt" 2>"$work/gpus.err"; then
  sed 's/^/    /' "$work/gpus.txt"
  mapfile -t machine_uuids < <(grep -oE '(GPU|MIG)-[0-9a-fA-F-]{36}' "$work/gpus.txt")
  if ((${#machine_uuids[@]} > 0)); then
    pass "inventory: kubelab-agent --gpus $gpus --print-gpus lists ${#machine_uuids[@]} device(s)"
  else
    fail "inventory: no GPU in kubelab-agent --print-gpus"
    exit 1
  fi
else
  sed 's/^/    /' "$work/gpus.err"
  fail "inventory: kubelab-agent --gpus $gpus --print-gpus: $(head -n 1 "$work/gpus.err")"
  exit 1
fi

# --- the lab -------------------------------------------------------------------------------
say "starting kubelab up"
config="$work/config"
XDG_STATE_HOME="$work" "$bin/kubelab" up --name device-check --addr 127.0.0.1:0 --kubeconfig "$config" \
  >"$work/up.out" 2>"$work/up.err" &
lab_pid=$!
# The first line on stdout comes once the API listens and the kubeconfig is written.
lab_up() { [[ -s $work/up.out ]]; }
if wait_for 60 lab_up; then
  pass "lab: kubelab up ($(head -n 1 "$work/up.out"))"
else
  fail "lab: kubelab up did not come up within 60 s: $(tail -n 3 "$work/up.err")"
  exit 1
fi

field() { sed -n "s/^ *$1: *//p" "$config" | head -n 1; }
server="$(field server)"
owner="$(field token)"
field certificate-authority-data | base64 -d >"$work/ca.pem"
port="${server##*:}"

# `lab_call METHOD PATH [BODY]`: the lab's API as its owner; the body of the answer.
lab_call() {
  local args=(-sS --fail-with-body --cacert "$work/ca.pem" -H "Authorization: Bearer $owner" -X "$1")
  [[ $# -ge 3 ]] && args+=(-H "Content-Type: application/json" --data-binary "$3")
  within 60 curl "${args[@]}" "$server$2"
}

# `lab_run LINES`: script lines through the lab's own kubectl (POST /kubelab/run); the
# transcript without its `$ command` echo lines.
lab_run() {
  within 60 curl -sS --fail-with-body --cacert "$work/ca.pem" -H "Authorization: Bearer $owner" \
    -H "Content-Type: text/plain" --data-binary "$1" "$server/kubelab/run" | grep -v '^\$ ' || true
}

issued="$(lab_call POST /kubelab/tokens '{"user":"agents","role":"bootstrap"}')" || issued=""
join_token="$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' <<<"$issued")"
if [[ -n $join_token ]]; then
  pass "bootstrap token: issued through POST /kubelab/tokens"
else
  fail "bootstrap token: POST /kubelab/tokens answered: $issued"
  exit 1
fi

# --- the agent -----------------------------------------------------------------------------
say "starting kubelab-agent as $node (--gpus $gpus --allow-process nvidia-smi)"
KUBELAB_AGENT_TOKEN="$join_token" "$bin/kubelab-agent" --server "https://127.0.0.1:$port" \
  --certificate-authority "$work/ca.pem" --tls-server-name localhost --name "$node" \
  --gpus "$gpus" --allow-process nvidia-smi --guest "$guest" \
  --pod-network none --address 127.0.0.1 --kubelet-port 0 >"$work/agent.log" 2>&1 &
agent_pid=$!

node_ready() {
  kill -0 "$agent_pid" 2>/dev/null || { say "kubelab-agent exited"; return 1; }
  lab_run "kubectl get node $node --no-headers" | grep -qE "^$node +Ready "
}
if wait_for 90 node_ready; then
  pass "node: $node joined and is Ready"
else
  fail "node: $node not Ready within 90 s"
  exit 1
fi
lab_run "kubectl get node $node -o jsonpath={.status.capacity}" | sed 's/^/    capacity: /'

# --- a pod with one GPU runs nvidia-smi -L --------------------------------------------------
# `pod_manifest NAME [LIMITS]`: the script line that applies a pod running `nvidia-smi -L` on
# the node, with resources.limits LIMITS when given.
pod_manifest() {
  local resources=""
  if [[ -n ${2:-} ]]; then
    resources=$'\n    resources:\n      limits: {'"$2"'}'
  fi
  cat <<EOF
kubectl apply -f - <<END
apiVersion: v1
kind: Pod
metadata:
  name: $1
spec:
  nodeName: $node
  restartPolicy: Never
  containers:
  - name: smi
    image: nvidia/cuda:12.4.0-base-ubuntu22.04
    command: [nvidia-smi, -L]$resources
END
EOF
}

say "creating pod gpu-check (nvidia.com/gpu: 1, nvidia-smi -L)"
lab_run "$(pod_manifest gpu-check 'nvidia.com/gpu: 1')" | sed 's/^/    /'

# `pod_field POD JSONPATH`: one field of the pod, through the lab's kubectl.
pod_field() { lab_run "kubectl get pod $1 -o jsonpath={$2}"; }

finished() {
  phase="$(pod_field gpu-check .status.phase)"
  [[ $phase == Succeeded || $phase == Failed ]]
}
phase=""
wait_for 120 finished || true
exit_code="$(pod_field gpu-check '.status.containerStatuses[0].state.terminated.exitCode')"
if [[ $phase == Succeeded ]]; then
  pass "pod: gpu-check Succeeded (exit code $exit_code)"
else
  waiting="$(pod_field gpu-check '.status.containerStatuses[0].state.waiting.message')"
  fail "pod: gpu-check is ${phase:-unknown} (exit code ${exit_code:-none}) ${waiting}"
fi

logs="$(lab_run "kubectl logs gpu-check")"
while IFS= read -r line; do echo "    logs: $line"; done <<<"$logs"
mapfile -t listed < <(grep -E '^GPU [0-9]+: ' <<<"$logs" || true)
# The agent says which devices it kept the process to (its audit line for host processes).
given="$(sed -n 's/.*default\/gpu-check container smi: running .*(devices: \(.*\))$/\1/p' "$work/agent.log" | tail -n 1)"
say "the agent gave gpu-check: ${given:-nothing}"
if ((${#listed[@]} == 1)); then
  pass "logs: nvidia-smi -L lists exactly one GPU"
else
  fail "logs: nvidia-smi -L lists ${#listed[@]} GPUs, not 1"
fi
shown="$(grep -oE 'UUID: (GPU|MIG)-[0-9a-fA-F-]+' <<<"${listed[0]:-}" | sed 's/UUID: //' || true)"
if [[ -n $shown && $shown == "$given" ]]; then
  pass "logs: the GPU listed is the one the pod was given ($given)"
else
  fail "logs: the GPU listed (${shown:-none}) is not the one the pod was given (${given:-none})"
fi
if [[ -n $shown ]] && printf '%s\n' "${machine_uuids[@]}" | grep -qx -- "$shown"; then
  pass "logs: $shown is a device --print-gpus reported"
else
  fail "logs: ${shown:-no UUID} is not among the devices --print-gpus reported"
fi

# --- a pod with no GPU may not run nvidia-smi -----------------------------------------------
say "creating pod no-gpu (no nvidia.com resource, nvidia-smi -L)"
lab_run "$(pod_manifest no-gpu)" | sed 's/^/    /'
refused() {
  reason="$(pod_field no-gpu '.status.containerStatuses[0].state.waiting.reason')"
  [[ $reason == CreateContainerError ]]
}
reason=""
wait_for 60 refused || true
if [[ $reason == CreateContainerError ]]; then
  pass "refusal: no-gpu waits in CreateContainerError: $(pod_field no-gpu '.status.containerStatuses[0].state.waiting.message')"
else
  fail "refusal: no-gpu is not refused (waiting reason: ${reason:-none}, phase: $(pod_field no-gpu .status.phase))"
fi

say "done"
