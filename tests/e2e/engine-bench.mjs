// The engine benchmark in the browser: the scenario of `tests/wasm/bench.mjs` (and of
// `cargo bench -p kubelab-core --bench engine`), run in headless chromium, where learners run the
// simulator. Node's V8 is older than a current browser's, so both figures are reported.
// Usage: node tests/e2e/engine-bench.mjs [scale]   (scale 1 = 5,000 nodes, 1,500 x 100 pods; 10 = a tenth)
// KUBELAB_WASM_PKG points at another wasm-bindgen output (to compare builds). Needs the bundle
// (scripts/build-web.sh), chromium and playwright-core (scripts/setup.sh).

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { bundle, launchBrowser, prerequisites } from "./harness.mjs";

const pkg = process.env.KUBELAB_WASM_PKG ?? path.join(bundle, "pkg");
const scale = Math.max(1, Number(process.argv[2] ?? 1));
const nodes = Math.floor(5000 / scale);
const deployments = Math.floor(1500 / scale);
const replicas = 100;

const chromium = await prerequisites("engine-bench", false);

// Serves the wasm-bindgen output and an empty page that imports it, on a free loopback port.
const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
const server = http.createServer((request, response) => {
  const name = path.basename(new URL(request.url, "http://x").pathname) || "index.html";
  const file = path.join(pkg, name);
  if (name === "index.html") {
    response.writeHead(200, { "content-type": types[".html"] });
    response.end("<!doctype html><title>engine bench</title>");
  } else if (fs.existsSync(file)) {
    response.writeHead(200, { "content-type": types[path.extname(name)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  } else {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await launchBrowser(chromium);
try {
  const page = await browser.newPage();
  page.on("console", (message) => console.error(`page: ${message.text()}`));
  await page.goto(`${base}/index.html`);
  // The same phases the native bench times: setup, apply -> all Running, the quiet hour.
  const result = await page.evaluate(async ({ nodes, deployments, replicas }) => {
    const glue = await import("/kubelab_web.js");
    await glue.default();
    await glue.load_engine();
    let started = performance.now();
    const bench = new glue.EngineBench(nodes);
    const setup = performance.now() - started;
    started = performance.now();
    const report = JSON.parse(bench.run(deployments, replicas));
    const seconds = (performance.now() - started) / 1000;
    started = performance.now();
    const timers = Number(bench.idle_hour());
    const idle = performance.now() - started;
    bench.free();
    return { setup, report, seconds, timers, idle };
  }, { nodes, deployments, replicas }, { timeout: 0 });
  const pad = (text) => text.padStart(10);
  const { setup, report, seconds, timers, idle } = result;
  console.log(`engine (wasm32, ${browser.version()}): ${nodes} nodes, ${deployments} deployments x ${replicas} replicas`);
  console.log(`  cluster setup:              ${pad(setup.toFixed(1))} ms`);
  console.log(`  apply -> all Running:       ${pad(seconds.toFixed(2))} s wall (${report.virtualSeconds} s virtual)`);
  console.log(`  pods to Running per second: ${pad(String(Math.round(report.running / seconds)))}`);
  console.log(`  quiet hour:                 ${pad(idle.toFixed(2))} ms wall, ${timers} timers fired`);
  if (report.running !== deployments * replicas) {
    console.error(`engine-bench: only ${report.running} of ${deployments * replicas} pods Running`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.close();
}
