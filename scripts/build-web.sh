#!/usr/bin/env bash
# Builds the browser bundle into target/web-bundle/: the kubelab-web crate for wasm32
# (profile wasm-release), its JS glue from wasm-bindgen (pkg/), shrunk with binaryen's
# wasm-opt -Oz, plus everything in static/. Prints the bundle size. Steps whose input has not
# changed are skipped, so a second run takes seconds.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

bundle="target/web-bundle"
pkg="$bundle/pkg"
wasm_in="target/wasm/wasm32-unknown-unknown/wasm-release/kubelab_web.wasm"
wasm_out="$pkg/kubelab_web_bg.wasm"
wasm_opt="tests/e2e/node_modules/.bin/wasm-opt"

scripts/cargo-wasm.sh build --quiet -p kubelab-web --profile wasm-release
[[ -f $wasm_in ]] || { echo "build-web: $wasm_in was not produced" >&2; exit 1; }

command -v wasm-bindgen >/dev/null || { echo "build-web: wasm-bindgen missing; run scripts/setup.sh" >&2; exit 1; }

# What the pkg/ output depends on; when unchanged, bindgen and wasm-opt are skipped.
opt_version="none"
[[ -x $wasm_opt ]] && opt_version="$("$wasm_opt" --version)"
inputs="$(sha256sum "$wasm_in" | cut -d' ' -f1) $(wasm-bindgen --version) $opt_version"
stamp="$pkg/.inputs"

if [[ ! -f $stamp || $(cat "$stamp") != "$inputs" || ! -f $wasm_out ]]; then
  rm -rf "$pkg"
  mkdir -p "$pkg"
  wasm-bindgen --target web --no-typescript --out-dir "$pkg" "$wasm_in"
  if [[ -x $wasm_opt ]]; then
    "$wasm_opt" -Oz "$wasm_out" -o "$wasm_out.opt"
    mv "$wasm_out.opt" "$wasm_out"
  else
    echo "build-web: warning: $wasm_opt missing (scripts/setup.sh installs it); keeping the unoptimised wasm" >&2
  fi
  printf '%s' "$inputs" >"$stamp"
fi

mkdir -p "$bundle"
cp -R static/. "$bundle/"

size_line() {
  local file="$1"
  printf '  %-28s %9d bytes  %9d gzip -9\n' "${file#"$bundle"/}" "$(wc -c <"$file")" "$(gzip -9c "$file" | wc -c)"
}
echo "web bundle: $bundle"
size_line "$wasm_out"
size_line "$pkg/kubelab_web.js"
total_raw=$(cat "$wasm_out" "$pkg/kubelab_web.js" | wc -c)
total_gzip=$(( $(gzip -9c "$wasm_out" | wc -c) + $(gzip -9c "$pkg/kubelab_web.js" | wc -c) ))
printf '  %-28s %9d bytes  %9d gzip -9\n' "wasm + js" "$total_raw" "$total_gzip"
