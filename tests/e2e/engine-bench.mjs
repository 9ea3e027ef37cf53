// The engine benchmark in the browser: the scenario of `tests/wasm/bench.mjs` (and of
// `cargo bench -p kubelab-core --bench engine`), run in headless chromium, where learners run the
// simulator. Node's V8 is older than a current browser's, so both figures are reported.
// Usage: node tests/e2e/engine-bench.mjs [scale]   (scale 1 = 5,000 nodes, 1,500 x 100 pods; 10 = a tenth)
// KUBELAB_WASM_PKG points at another wasm-bindgen output (to compare builds). Needs the bundle
// (scripts/build-web.sh), chromium and playwright-core (scripts/setup.sh).

import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { printPhases, scenario } from "../wasm/phases.mjs";
import { bundle, launchBrowser, prerequisites, root } from "./harness.mjs";

const pkg = process.env.KUBELAB_WASM_PKG ?? path.join(bundle, "pkg");
const scale = Math.max(1, Number(process.argv[2] ?? 1));
const size = scenario(scale);

const chromium = await prerequisites("engine-bench", false);

// Serves the wasm-bindgen output, the phases and an empty page, on a free loopback port.
const types = {
  ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html",
};
const server = http.createServer((request, response) => {
  const name = path.basename(new URL(request.url, "http://x").pathname) || "index.html";
  const file = name === "phases.mjs" ? path.join(root, "tests/wasm/phases.mjs") : path.join(pkg, name);
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
  const result = await page.evaluate(async (size) => {
    const [glue, phases] = await Promise.all([import("/kubelab_web.js"), import("/phases.mjs")]);
    await glue.default();
    await glue.load_engine();
    return phases.timePhases(glue, size);
  }, size, { timeout: 0 });
  if (!printPhases(`engine (wasm32, chromium ${browser.version()})`, size, result)) {
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.close();
}
