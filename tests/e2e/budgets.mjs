// Performance budgets of the web app, reported (not asserted): the first-load transfer (gzip),
// time to interactive from localhost, frame times with ~300 pods on screen, and a 5,000-node
// sandbox with the "big" scenario (150,000 pods): the time to build it, the longest gap between
// animation frames while it builds, and frame times while hovering and scrolling its canvas.
// Exits non-zero only when a step cannot run.
//
// Needs what run.mjs needs: target/debug/kubelab, the bundle (scripts/build-web.sh), chromium and
// playwright-core. Usage: node tests/e2e/budgets.mjs  (BUDGET_NODES=500 for a quicker big run;
// BUDGET_BIG_MINUTES=N to stop waiting for the big build sooner, reporting how far it got)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { artifacts, bundle, launchBrowser, prerequisites, sampleFrames, startServer } from "./harness.mjs";

const bigNodes = Number(process.env.BUDGET_NODES || 5000);
const BIG_TIMEOUT_MS = Number(process.env.BUDGET_BIG_MINUTES || 20) * 60_000;

const ms = (value) => `${value.toFixed(1)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;

function frameLine(times) {
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return `mean ${ms(mean)}, p95 ${ms(times[Math.floor(times.length * 0.95)])}, max ${ms(times.at(-1))}`;
}

// Records the longest gap between animation frames from now on, in window.__longestGap.
const watchGaps = (page) => page.evaluate(() => {
  window.__longestGap = 0;
  let last = performance.now();
  const tick = (now) => {
    window.__longestGap = Math.max(window.__longestGap, now - last);
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});

// The simulator's chunk (split off by scripts/build-web.sh): fetched after the first paint.
const simulatorFile = (file) => /(^|\/)(split_[^/]*\.wasm|chunk_[^/]*\.wasm|__wasm_split\.js)$/.test(file);

async function firstLoad(page, base) {
  const fetched = new Set();
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.origin === base && /\.(wasm|js|css)$/.test(url.pathname)) fetched.add(url.pathname);
  });
  await page.goto(`${base}/#/`);
  await page.locator(".lesson-card").first().waitFor();
  const catalogue = await page.evaluate(() => performance.now());
  await page.locator(".lesson-card a").first().click();
  await page.locator("#step-heading").waitFor();
  await page.locator("#terminal-input").waitFor();
  const interactive = await page.evaluate(() => performance.now());
  const sizes = { wasm: 0, js: 0, css: 0, simulator: 0 };
  for (const file of fetched) {
    const gzip = zlib.gzipSync(fs.readFileSync(path.join(bundle, file)), { level: 9 }).length;
    sizes[simulatorFile(file) ? "simulator" : path.extname(file).slice(1)] += gzip;
  }
  const total = sizes.wasm + sizes.js + sizes.css;
  console.log(`first load (gzip -9): ${kb(total)} = wasm ${kb(sizes.wasm)} + JS ${kb(sizes.js)} + CSS ${kb(sizes.css)}`);
  console.log(`the simulator's chunk, fetched after the first paint (gzip -9): ${kb(sizes.simulator)}`);
  console.log(`catalogue shown (navigation → lesson cards): ${ms(catalogue)}`);
  console.log(`time to interactive (navigation → catalogue → a click answered, lab ready): ${ms(interactive)}`);
}

async function typeLine(page, command) {
  await page.locator("#terminal-input").fill(command);
  await page.locator("#terminal-input").press("Enter");
}

async function threeHundredPods(page, base) {
  await page.goto(`${base}/?small#/sandbox`);
  await typeLine(page, "kubectl create deployment many --image=hello:v1 --replicas=300");
  await typeLine(page, "sleep 1m");
  await page.waitForFunction(() => document.querySelectorAll(".pod.ready").length >= 300, null, { timeout: 60_000 });
  await page.locator(".clock-speed", { hasText: "10×" }).click();
  console.log(`frames with 300 pods, clock at 10×: ${frameLine(await sampleFrames(page, 120))}`);
  await page.locator(".clock-pause").click();
}

async function bigSandbox(page, base) {
  const started = Date.now();
  await page.goto(`${base}/?big#/sandbox?nodes=${bigNodes}&scenario=big`);
  await page.locator(".node-canvas").waitFor();
  await watchGaps(page);
  const built = await page.waitForFunction(
    () => document.querySelector(".clock-progress")?.textContent === "" && document.getElementById("terminal-output").textContent.includes("$ sleep 30s"),
    null,
    { timeout: BIG_TIMEOUT_MS, polling: 500 },
  ).then(() => true, () => false);
  const buildS = (Date.now() - started) / 1000;
  const longest = await page.evaluate(() => window.__longestGap);
  const summary = await page.locator(".node-canvas-summary").innerText();
  const progress = await page.locator(".clock-progress").innerText();
  const outcome = built ? `built in ${buildS.toFixed(1)} s` : `not built after ${buildS.toFixed(0)} s (${progress})`;
  console.log(`big sandbox (${summary}): ${outcome}; longest gap between frames ${ms(longest)}`);
  fs.mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "budget-big-sandbox.png") });
  const box = await page.locator(".node-canvas").boundingBox();
  const hover = async () => {
    for (let i = 0; i < 60; i += 1) await page.mouse.move(box.x + (i * 13) % box.width, box.y + (i * 7) % box.height);
  };
  console.log(`frames hovering the canvas: ${frameLine(await sampleFrames(page, 90, hover))}`);
  const scroll = async () => {
    for (let i = 0; i < 30; i += 1) await page.mouse.wheel(0, i % 2 ? -120 : 120);
  };
  console.log(`frames scrolling over the canvas: ${frameLine(await sampleFrames(page, 90, scroll))}`);
  console.log(`hovered: ${await page.locator(".node-canvas-pointed").innerText()}`);
}

const chromium = await prerequisites("budgets");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kubelab-budgets-"));
const { child, base } = await startServer(dataDir);
const browser = await launchBrowser(chromium);
try {
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  page.setDefaultTimeout(60_000);
  await firstLoad(page, base);
  await threeHundredPods(page, base);
  await bigSandbox(page, base);
} catch (error) {
  console.error(`budgets: FAIL: ${error.message.split("\n")[0]}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  child.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
