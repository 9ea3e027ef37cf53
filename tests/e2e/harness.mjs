// What the browser end-to-end tests share: where things are, the check that the server
// binary, the bundle, chromium and playwright-core are there (with how to get each), and
// starting `kubelab serve` on a free loopback port over a throwaway SQLite database (so a test
// run never writes kubelab.db into the repository).

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const server = path.join(root, "target/debug/kubelab");
export const bundle = path.join(root, "target/web-bundle");
export const artifacts = path.join(root, "target/e2e-artifacts");
export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

// Exits with a hint when something the test needs is missing; resolves with playwright's
// chromium. `needServer` is false when testing a server that is already running.
export async function prerequisites(label, needServer = true) {
  for (const [file, hint] of [
    [needServer ? server : chromiumPath, "build it with: cargo test --workspace --no-run"],
    [path.join(bundle, "pkg/kubelab_web_bg.wasm"), "build it with: scripts/build-web.sh"],
    [chromiumPath, "install it with scripts/setup.sh (apt-get install chromium)"],
  ]) {
    if (!fs.existsSync(file)) {
      console.error(`${label}: ${file} is missing; ${hint}`);
      process.exit(1);
    }
  }
  try {
    return (await import("playwright-core")).chromium;
  } catch {
    console.error(`${label}: playwright-core is missing; run scripts/setup.sh`);
    process.exit(1);
  }
}

// Starts `kubelab serve` over a database in `dataDir`; resolves with the child and its base URL.
export function startServer(dataDir) {
  const database = `sqlite://${path.join(dataDir, "kubelab.db")}`;
  const child = spawn(server, ["serve", "--addr", "127.0.0.1:0", "--static", bundle, "--database", database], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`kubelab serve did not start: ${seen}`)), 15_000);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = /http:\/\/(127\.0\.0\.1:\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: `http://${match[1]}` });
      }
    });
    child.stderr.on("data", (chunk) => (seen += chunk));
    child.on("exit", (code) => reject(new Error(`kubelab serve exited (${code}): ${seen}`)));
  });
}

// Launches headless chromium with the flags both tests need (no sandbox as root, no GPU, no
// background traffic that would make timings noisy).
export function launchBrowser(chromium) {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

// Intervals between `count` animation frames (the first dropped), sorted ascending; `during`
// runs meanwhile (a drag, hovering), so the frames measured are the ones it causes.
export async function sampleFrames(page, count, during = async () => {}) {
  const sample = page.evaluate((n) => new Promise((resolve) => {
    const times = [];
    let last = performance.now();
    const tick = (now) => {
      times.push(now - last);
      last = now;
      if (times.length < n) requestAnimationFrame(tick); else resolve(times.slice(1).sort((a, b) => a - b));
    };
    requestAnimationFrame(tick);
  }), count);
  await during();
  return sample;
}
