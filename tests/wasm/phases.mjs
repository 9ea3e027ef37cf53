// The engine benchmark's scenario and phases, shared by the Node run (tests/wasm/bench.mjs) and
// the browser run (tests/e2e/engine-bench.mjs, which serves this file to the page): the phases
// `cargo bench -p kubelab-core --bench engine` times natively. The core has no clock, so the
// caller times each call, and building and freeing the lab stay outside the figures.

// Scale 1 = 5,000 nodes and 1,500 Deployments x 100 replicas; 10 = a tenth.
export function scenario(scale) {
  return { nodes: Math.floor(5000 / scale), deployments: Math.floor(1500 / scale), replicas: 100 };
}

// Runs the scenario on `glue` (the wasm-bindgen module, simulator loaded): cluster setup, apply ->
// all Running, the quiet hour. Works in Node and in a page (only `performance.now()` is used).
export function timePhases(glue, { nodes, deployments, replicas }) {
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
}

// Prints the native bench's lines under `label`; false when not every pod got Running.
export function printPhases(label, { nodes, deployments, replicas }, { setup, report, seconds, timers, idle }) {
  const pad = (text) => text.padStart(10);
  console.log(`${label}: ${nodes} nodes, ${deployments} deployments x ${replicas} replicas`);
  console.log(`  cluster setup:              ${pad(setup.toFixed(1))} ms`);
  console.log(`  apply -> all Running:       ${pad(seconds.toFixed(2))} s wall (${report.virtualSeconds} s virtual)`);
  console.log(`  pods to Running per second: ${pad(String(Math.round(report.running / seconds)))}`);
  console.log(`  quiet hour:                 ${pad(idle.toFixed(2))} ms wall, ${timers} timers fired`);
  if (report.running !== deployments * replicas) {
    console.error(`${label}: only ${report.running} of ${deployments * replicas} pods Running`);
    return false;
  }
  return true;
}
