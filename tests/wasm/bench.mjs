// The engine benchmark under wasm32 (Node): the same scenario as
// `cargo bench -p kubelab-core --bench engine`, timed here since the core has no clock.
// Usage: node tests/wasm/bench.mjs [scale]   (scale 1 = 5,000 nodes, 1,500 x 100 pods; 10 = a tenth)
// Needs the web bundle (scripts/build-web.sh). Prints the same lines as the native bench.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./bundle.mjs";
import { printPhases, scenario, timePhases } from "./phases.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// KUBELAB_WASM_PKG points at another wasm-bindgen output (to compare build profiles).
const pkg = process.env.KUBELAB_WASM_PKG ?? path.join(root, "target/web-bundle/pkg");
const glue = path.join(pkg, "kubelab_web.js");
if (!fs.existsSync(glue)) {
  console.error("bench: target/web-bundle is missing; run scripts/build-web.sh first");
  process.exit(1);
}
const scale = Math.max(1, Number(process.argv[2] ?? 1));
const size = scenario(scale);
const module = await loadBundle(pkg);
if (!printPhases("engine (wasm32, Node)", size, timePhases(module, size))) {
  process.exit(1);
}
