// The traffic benchmark under wasm32 (Node): the same scenario as
// `cargo bench -p kubelab-core --bench traffic` — 500 pods on 50 nodes behind a Service, the
// traffic generator at 1,000 requests/s for 600 s of virtual time — timed here since the core
// has no clock. Needs the web bundle (scripts/build-web.sh). Usage: node tests/wasm/traffic-bench.mjs

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = process.env.KUBELAB_WASM_PKG ?? path.join(root, "target/web-bundle/pkg");
if (!fs.existsSync(path.join(pkg, "kubelab_web.js"))) {
  console.error("traffic-bench: target/web-bundle is missing; run scripts/build-web.sh first");
  process.exit(1);
}
const [nodes, pods, rps, seconds] = [50, 500, 1000, 600];
const module = await loadBundle(pkg);
console.log(`traffic (wasm32, Node): ${pods} pods on ${nodes} nodes, ${rps} requests/s for ${seconds} s of virtual time`);
const rates = [];
for (let round = 1; round <= 3; round++) {
  const bench = new module.EngineBench(nodes);
  bench.serve(pods);
  const started = performance.now();
  const report = JSON.parse(bench.traffic(rps, BigInt(seconds)));
  const wall = (performance.now() - started) / 1000;
  bench.free();
  if (report.ok !== report.requests) {
    console.error(`traffic-bench: ${report.requests - report.ok} of ${report.requests} requests failed`);
    process.exit(1);
  }
  const rate = report.requests / wall;
  rates.push(rate);
  console.log(`  round ${round}: ${report.requests} requests in ${wall.toFixed(2)} s wall: ${Math.round(rate).toString().padStart(10)} simulated requests/s`);
}
rates.sort((a, b) => a - b);
console.log(`  median: ${Math.round(rates[1])} simulated requests per second of wall time`);
