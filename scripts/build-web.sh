#!/usr/bin/env bash
# Builds the browser bundle into target/web-bundle/: the kubelab-web crate for wasm32
# (profile wasm-release), cut in two by wasm-split at `engine::open_engine`: the page
# (kubelab_web_bg.wasm, the first load) and the simulator (split_engine.wasm plus any shared
# chunk_*.wasm, fetched after the first paint through __wasm_split.js). The page gets its JS
# glue from wasm-bindgen and is shrunk with binaryen's wasm-opt -Oz; the simulator's chunks
# are optimised for speed (-O3). Everything in static/ is copied alongside. Prints the sizes.
# Steps whose input has not changed are skipped, so a second run takes seconds.
# KUBELAB_WEB_PROFILE picks another cargo profile (the test suite's wasm-test: the same bundle,
# built in under half the time and left as built, without wasm-opt: larger and a little slower).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

bundle="target/web-bundle"
pkg="$bundle/pkg"
profile="${KUBELAB_WEB_PROFILE:-wasm-release}"
wasm_in="target/wasm/wasm32-unknown-unknown/$profile/kubelab_web.wasm"
wasm_out="$pkg/kubelab_web_bg.wasm"
wasm_opt="tests/e2e/node_modules/.bin/wasm-opt"

# Not --quiet: a first build compiles a few hundred crates, and each line shows it is moving.
echo "build-web: compiling the web app for wasm32 (profile $profile)"
scripts/cargo-wasm.sh build -p kubelab-web --profile "$profile"
[[ -f $wasm_in ]] || { echo "build-web: $wasm_in was not produced" >&2; exit 1; }

command -v wasm-bindgen >/dev/null || { echo "build-web: wasm-bindgen missing; run scripts/setup.sh" >&2; exit 1; }

command -v wasm-split-cli >/dev/null || { echo "build-web: wasm-split-cli missing; run scripts/setup.sh" >&2; exit 1; }

# What the pkg/ output depends on; when unchanged, splitting, bindgen and wasm-opt are skipped.
opt_version="none"
[[ -x $wasm_opt ]] && opt_version="$("$wasm_opt" --version)"
inputs="$(sha256sum "$wasm_in" "$0" | cut -d' ' -f1 | tr '\n' ' ')$(wasm-bindgen --version) $opt_version $profile"
stamp="$pkg/.inputs"

if [[ ! -f $stamp || $(cat "$stamp") != "$inputs" || ! -f $wasm_out ]]; then
  rm -rf "$pkg"
  mkdir -p "$pkg"
  split="$(mktemp -d)"
  trap 'rm -rf "$split"' EXIT
  wasm-split-cli "$wasm_in" "$split" --target web --out-name kubelab_web
  # --keep-lld-exports: the chunks import the page's function table, memory and globals.
  wasm-bindgen --target web --no-typescript --keep-lld-exports --out-dir "$pkg" "$split/kubelab_web.wasm"
  mv "$split/__wasm_split.js" "$pkg/"
  if [[ $profile != wasm-release ]]; then
    # Only the shipped bundle is worth binaryen's minutes; another profile's is used as built.
    find "$split" -name '*.wasm' ! -name kubelab_web.wasm -exec mv {} "$pkg/" \;
  elif [[ -x $wasm_opt ]]; then
    "$wasm_opt" -Oz "$wasm_out" -o "$wasm_out.opt"
    mv "$wasm_out.opt" "$wasm_out"
    for chunk in "$split"/*.wasm; do
      [[ $chunk == "$split/kubelab_web.wasm" ]] && continue
      "$wasm_opt" -O3 "$chunk" -o "$pkg/$(basename "$chunk")"
    done
  else
    echo "build-web: warning: $wasm_opt missing (scripts/setup.sh installs it); keeping the unoptimised wasm" >&2
    find "$split" -name '*.wasm' ! -name kubelab_web.wasm -exec mv {} "$pkg/" \;
  fi
  printf '%s' "$inputs" >"$stamp"
fi

mkdir -p "$bundle"
cp -R static/. "$bundle/"

size_line() {
  local file="$1"
  printf '  %-28s %9d bytes  %9d gzip -9\n' "${file#"$bundle"/}" "$(wc -c <"$file")" "$(gzip -9c "$file" | wc -c)"
}
gzip_sum() {
  local total=0 file
  for file in "$@"; do total=$((total + $(gzip -9c "$file" | wc -c))); done
  echo "$total"
}
echo "web bundle: $bundle"
first=("$wasm_out" "$pkg/kubelab_web.js" "$bundle/style.css")
for file in "${first[@]}"; do size_line "$file"; done
printf '  %-28s %9d bytes  %9d gzip -9\n' "first load" "$(cat "${first[@]}" | wc -c)" "$(gzip_sum "${first[@]}")"
later=("$pkg/__wasm_split.js" "$pkg"/split_*.wasm)
shopt -s nullglob
later+=("$pkg"/chunk_*.wasm)
for file in "${later[@]}"; do size_line "$file"; done
printf '  %-28s %9d bytes  %9d gzip -9\n' "simulator (after first paint)" "$(cat "${later[@]}" | wc -c)" "$(gzip_sum "${later[@]}")"
