// The engine benchmark under wasm32 (Node): the same scenario as
// `cargo bench -p kubelab-core --bench engine`, timed here since the core has no clock.
// Usage: node tests/wasm/bench.mjs [scale]   (scale 1 = 5,000 nodes, 1,500 x 100 pods; 10 = a tenth)
// Needs the web bundle (scripts/build-web.sh). Prints the same lines as the native bench.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// KUBELAB_WASM_PKG points at another wasm-bindgen output (to compare build profiles).
const pkg = process.env.KUBELAB_WASM_PKG ?? path.join(root, "target/web-bundle/pkg");
const glue = path.join(pkg, "kubelab_web.js");
if (!fs.existsSync(glue)) {
  console.error("bench: target/web-bundle is missing; run scripts/build-web.sh first");
  process.exit(1);
}
const scale = Math.max(1, Number(process.argv[2] ?? 1));
const nodes = Math.floor(5000 / scale);
const deployments = Math.floor(1500 / scale);
const replicas = 100;

const module = await loadBundle(pkg);
// The same phases the native bench times: setup, apply -> all Running, the quiet hour.
let started = performance.now();
const bench = new module.EngineBench(nodes);
const setup = performance.now() - started;
started = performance.now();
const report = JSON.parse(bench.run(deployments, replicas));
const seconds = (performance.now() - started) / 1000;
started = performance.now();
const timers = bench.idle_hour();
const idle = performance.now() - started;
bench.free();
const pad = (text) => text.padStart(10);
console.log(`engine (wasm32): ${nodes} nodes, ${deployments} deployments x ${replicas} replicas`);
console.log(`  cluster setup:              ${pad(setup.toFixed(1))} ms`);
console.log(`  apply -> all Running:       ${pad(seconds.toFixed(2))} s wall (${report.virtualSeconds} s virtual)`);
console.log(`  pods to Running per second: ${pad(String(Math.round(report.running / seconds)))}`);
console.log(`  quiet hour:                 ${pad(idle.toFixed(2))} ms wall, ${timers} timers fired`);
if (report.running !== deployments * replicas) {
  console.error(`bench: only ${report.running} of ${deployments * replicas} pods Running`);
  process.exit(1);
}
