// Same seed + same commands => byte-identical output and trace, native and wasm32 alike.
//
// For every tests/wasm/scenarios/*.sim and each seed, runs the scenario twice:
//   native: target/debug/kubelab sim --seed N --trace FILE SCENARIO  (output on stdout, trace in FILE)
//   wasm:   sim_run(N, script) from target/web-bundle/pkg/kubelab_web.js  -> {"output", "trace"}
// and requires both the output and the JSONL trace to match byte for byte. Prints the sha256 of
// each trace and a PASS/FAIL line per run; exits 1 on any mismatch.
//
// Needs: target/debug/kubelab (cargo test --workspace --no-run builds it) and the web bundle (scripts/build-web.sh).
// Usage: node tests/wasm/determinism.mjs [scenario.sim ...]

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBundle } from "./bundle.mjs";

const SEEDS = [1n, 42n];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const nativeBinary = path.join(root, "target/debug/kubelab");
const glueModule = path.join(root, "target/web-bundle/pkg/kubelab_web.js");
const wasmModule = path.join(root, "target/web-bundle/pkg/kubelab_web_bg.wasm");
const scenarioDir = path.join(root, "tests/wasm/scenarios");

function requireFile(file, hint) {
  if (!fs.existsSync(file)) {
    console.error(`determinism: ${path.relative(root, file)} is missing; ${hint}`);
    process.exit(1);
  }
}

function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

// The first line on which two texts differ, for a readable failure message.
function firstDifference(expected, actual) {
  const expectedLines = expected.split("\n");
  const actualLines = actual.split("\n");
  const count = Math.max(expectedLines.length, actualLines.length);
  for (let index = 0; index < count; index += 1) {
    if (expectedLines[index] !== actualLines[index]) {
      return (
        `    line ${index + 1}:\n` +
        `      native: ${JSON.stringify(expectedLines[index] ?? "<end>")}\n` +
        `      wasm:   ${JSON.stringify(actualLines[index] ?? "<end>")}`
      );
    }
  }
  return "    (texts differ only in encoding)";
}

function runNative(scenarioPath, seed, traceFile) {
  const result = spawnSync(
    nativeBinary,
    ["sim", "--seed", seed.toString(), "--trace", traceFile, scenarioPath],
    { maxBuffer: 256 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  if (result.signal || result.status === 101) {
    const how = result.signal ? `signal ${result.signal}` : "a panic (exit 101)";
    throw new Error(`native run died with ${how}:\n${result.stderr.toString()}`);
  }
  if (result.status !== 0) {
    console.log(`  note: native exit status ${result.status}; stderr: ${result.stderr.toString().trim()}`);
  }
  const trace = fs.existsSync(traceFile) ? fs.readFileSync(traceFile) : Buffer.alloc(0);
  return { output: result.stdout, trace };
}

function runWasm(simRun, script, seed) {
  const reply = JSON.parse(simRun(seed, script));
  if (typeof reply.output !== "string" || typeof reply.trace !== "string") {
    throw new Error('sim_run did not return {"output": string, "trace": string}');
  }
  return { output: Buffer.from(reply.output, "utf8"), trace: Buffer.from(reply.trace, "utf8") };
}

// Compares one (scenario, seed) run; returns true when output and trace match byte for byte.
function compare(label, native, wasm) {
  const traceHash = { native: sha256(native.trace), wasm: sha256(wasm.trace) };
  console.log(`  trace sha256 native ${traceHash.native}`);
  console.log(`  trace sha256 wasm   ${traceHash.wasm}`);
  let same = true;
  if (!native.output.equals(wasm.output)) {
    same = false;
    console.log(`FAIL ${label}: output differs`);
    console.log(firstDifference(native.output.toString("utf8"), wasm.output.toString("utf8")));
  }
  if (!native.trace.equals(wasm.trace)) {
    same = false;
    console.log(`FAIL ${label}: trace differs`);
    console.log(firstDifference(native.trace.toString("utf8"), wasm.trace.toString("utf8")));
  }
  if (same) {
    const lines = native.trace.toString("utf8").split("\n").filter((line) => line.length > 0).length;
    console.log(`PASS ${label} (${native.output.length} output bytes, ${lines} trace lines)`);
  }
  return same;
}

async function loadWasm() {
  const glue = await loadBundle(path.dirname(glueModule));
  if (typeof glue.sim_run !== "function") {
    throw new Error(`${path.relative(root, glueModule)} does not export sim_run`);
  }
  return glue.sim_run;
}

async function main() {
  requireFile(nativeBinary, "build it with: cargo build -p kubelab-server --bin kubelab");
  requireFile(glueModule, "build it with: scripts/build-web.sh");
  requireFile(wasmModule, "build it with: scripts/build-web.sh");

  const scenarios = process.argv.length > 2
    ? process.argv.slice(2).map((file) => path.resolve(file))
    : fs.readdirSync(scenarioDir)
      .filter((name) => name.endsWith(".sim"))
      .sort()
      .map((name) => path.join(scenarioDir, name));
  if (scenarios.length === 0) {
    console.error(`determinism: no *.sim scenarios in ${path.relative(root, scenarioDir)}`);
    process.exit(1);
  }

  const simRun = await loadWasm();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kubelab-determinism-"));
  let failures = 0;
  try {
    for (const scenarioPath of scenarios) {
      const script = fs.readFileSync(scenarioPath, "utf8");
      for (const seed of SEEDS) {
        const label = `${path.relative(root, scenarioPath)} seed ${seed}`;
        console.log(`${label}`);
        try {
          const traceFile = path.join(scratch, `${path.basename(scenarioPath, ".sim")}-${seed}.jsonl`);
          const native = runNative(scenarioPath, seed, traceFile);
          const wasm = runWasm(simRun, script, seed);
          if (!compare(label, native, wasm)) failures += 1;
        } catch (error) {
          failures += 1;
          console.log(`FAIL ${label}: ${error.stack ?? error}`);
        }
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  const runs = scenarios.length * SEEDS.length;
  if (failures > 0) {
    console.log(`determinism: ${failures} of ${runs} runs differ between native and wasm32`);
    process.exit(1);
  }
  console.log(`determinism: all ${runs} runs identical between native and wasm32`);
}

await main();
