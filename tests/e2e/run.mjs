// Browser end-to-end test of the web app: serves target/web-bundle with `kubelab serve` on
// loopback, drives /usr/bin/chromium (headless, through playwright-core) through the catalogue,
// lesson 1's terminal, task, prediction and cluster view, and saves a screenshot per step under
// target/e2e-artifacts/. Exits non-zero with a message naming the failed step.
//
// Needs: target/debug/kubelab (cargo test --workspace --no-run builds it), the bundle (scripts/build-web.sh),
// chromium and playwright-core (scripts/setup.sh). Usage: node tests/e2e/run.mjs
// (E2E_BASE_URL=http://127.0.0.1:PORT tests a server that is already running instead.)

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { artifacts, launchBrowser, prerequisites, root, sampleFrames, startServer } from "./harness.mjs";

const TIMEOUT_MS = 20_000;

function fail(message) {
  console.error(`e2e: FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

const externalBase = process.env.E2E_BASE_URL;
const chromium = await prerequisites("e2e", !externalBase);

const steps = [];
let shot = 0;
async function step(name, body, page) {
  const start = Date.now();
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: path.join(artifacts, `failed-${name}.png`), fullPage: true }).catch(() => {});
    fail(`step "${name}": ${error.message.split("\n")[0]}`);
  }
  shot += 1;
  await page.screenshot({ path: path.join(artifacts, `${String(shot).padStart(2, "0")}-${name}.png`), fullPage: true });
  steps.push(`  ok  ${name} (${Date.now() - start} ms)`);
  console.log(steps.at(-1));
}

const terminalText = (page) => page.locator("#terminal-output").innerText();

async function type(page, command) {
  const input = page.locator("#terminal-input");
  await input.fill(command);
  await input.press("Enter");
  await page.waitForFunction(
    (c) => document.getElementById("terminal-output").textContent.includes(`$ ${c}\n`),
    command,
    { timeout: TIMEOUT_MS },
  );
}

async function expectText(page, needle) {
  await page.waitForFunction(
    (n) => document.getElementById("terminal-output").textContent.includes(n),
    needle,
    { timeout: TIMEOUT_MS },
  ).catch(async () => fail(`terminal never showed ${JSON.stringify(needle)}; it shows:\n${await terminalText(page)}`));
}

fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });
const lessonCount = fs.readdirSync(path.join(root, "lessons")).filter((f) => f.endsWith(".yaml")).length;

const dataDir = externalBase ? null : fs.mkdtempSync(path.join(os.tmpdir(), "kubelab-e2e-"));
const { child, base } = externalBase ? { child: null, base: externalBase } : await startServer(dataDir);
const browser = await launchBrowser(chromium);
const started = Date.now();
const pageErrors = [];
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.setDefaultTimeout(TIMEOUT_MS);
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  page.on("console", (message) => message.type() === "error" && pageErrors.push(message.text()));

  await step("catalogue", async () => {
    await page.goto(`${base}/#/`);
    await page.locator(".lesson-card").nth(lessonCount - 1).waitFor();
    const cards = await page.locator(".lesson-card").count();
    if (cards !== lessonCount) fail(`${cards} lesson cards, expected ${lessonCount}`);
    if ((await page.locator(".error-panel").count()) > 0) fail("the catalogue shows an error panel");
  }, page);

  await step("lesson-1", async () => {
    await page.locator(".lesson-card a").first().click();
    await page.waitForURL(/#\/lesson\/apply-to-running$/);
    await page.locator("#step-heading", { hasText: "Why an orchestrator?" }).waitFor();
    await page.locator(".node").nth(2).waitFor();
  }, page);

  await step("get-nodes-button-and-get-pods", async () => {
    await page.locator("button.command", { hasText: "kubectl get nodes" }).click();
    await expectText(page, "node-1          Ready");
    await type(page, "kubectl get pods");
    await expectText(page, "No resources found in default namespace.");
  }, page);

  await step("task-turns-green", async () => {
    await page.getByRole("button", { name: "Next →" }).click();
    await page.getByRole("button", { name: "Next →" }).click();
    await page.locator("#step-heading", { hasText: "Record an intention" }).waitFor();
    if ((await page.locator(".check.passed").count()) !== 0) fail("a check passed before the task was done");
    await page.locator(".hint-button").click();
    await page.locator(".hints li").first().waitFor();
    await type(page, "kubectl apply -f hello.yaml");
    await expectText(page, "deployment.apps/hello created");
    await page.waitForFunction(() => document.querySelectorAll(".check.passed").length === document.querySelectorAll(".check").length);
    await page.locator(".task-status", { hasText: "Task complete" }).waitFor();
  }, page);

  await step("pods-table", async () => {
    await type(page, "sleep 30s");
    await type(page, "kubectl get pods");
    const text = await terminalText(page);
    const table = text.slice(text.lastIndexOf("$ kubectl get pods"));
    if (!/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/.test(table)) fail(`no pods table:\n${table}`);
    if ((table.match(/hello-\S+\s+1\/1\s+Running/g) || []).length !== 3) fail(`not 3 Running pods:\n${table}`);
    await page.waitForFunction(() => document.querySelectorAll(".pod.ready").length === 3);
  }, page);

  await step("completion-and-history", async () => {
    const input = page.locator("#terminal-input");
    await input.fill("kubectl get deploym");
    await input.press("Tab");
    const completed = await input.inputValue();
    if (!completed.startsWith("kubectl get deployment")) fail(`Tab completed to ${JSON.stringify(completed)}`);
    await input.fill("");
    await input.press("ArrowUp");
    if ((await input.inputValue()) !== "kubectl get pods") fail(`↑ recalled ${JSON.stringify(await input.inputValue())}`);
    await input.fill("");
  }, page);

  await step("prediction", async () => {
    await page.getByRole("button", { name: "Next →" }).click();
    await page.locator("#step-heading", { hasText: "Follow the baton" }).waitFor();
    await page.locator(".prediction input[type=radio]").first().check();
    await page.getByRole("button", { name: "Run it and see" }).click();
    await page.locator(".prediction-verdict").waitFor();
  }, page);

  await step("node-failure-heals", async () => {
    const before = await page.locator('.node[data-node="node-2"] .pod').evaluateAll((pods) => pods.map((p) => p.dataset.pod));
    if (before.length === 0) fail("no pod ran on node-2");
    await type(page, "lab node power-off node-2");
    await type(page, "sleep 6m");
    await page.locator('.node.not-ready[data-node="node-2"]').waitFor();
    await page.waitForFunction(
      (gone) => {
        const ready = [...document.querySelectorAll('.node:not([data-node="node-2"]) .pod.ready')];
        return ready.length === 3 && ready.every((p) => !gone.includes(p.dataset.pod));
      },
      before,
    ).catch(() => fail("the pods of node-2 were not replaced by 3 ready pods elsewhere"));
    await type(page, "kubectl get pods -o wide");
  }, page);

  await step("progress-in-catalogue", async () => {
    await page.locator(".site-header a", { hasText: "Lessons" }).click();
    await page.locator(".lesson-card").first().waitFor();
    const progress = await page.locator(".lesson-card").first().locator(".progress-text").innerText();
    const done = Number(/^(\d+) of/.exec(progress)?.[1] ?? 0);
    if (done < 3) fail(`lesson 1 shows "${progress}", expected at least 3 steps done`);
  }, page);

  await step("sandbox-and-about", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator("h1", { hasText: "Sandbox" }).waitFor();
    await type(page, "kubectl get nodes");
    await expectText(page, "node-3          Ready");
    // The lab's budgets refuse what would freeze the tab, and the lab goes on.
    await type(page, "sleep 1000000h");
    await expectText(page, "error: sleep 1000000h exceeds this lab's limit of 24h");
    await type(page, "kubectl create deployment hello --image=hello:v1");
    await type(page, "kubectl scale deploy hello --replicas=100000");
    await expectText(page, "replicas 100000 exceeds this lab's limit of 5000");
    await type(page, "kubectl get deploy hello -o jsonpath={.spec.replicas}");
    await expectText(page, "$ kubectl get deploy hello -o jsonpath={.spec.replicas}\n1");
    await page.goto(`${base}/#/about`);
    await page.locator("h1", { hasText: "About kubelab" }).waitFor();
  }, page);

  // A sized sandbox: the form's choice in the address, the cluster on a canvas, the scenario
  // run between frames, a typed command queued behind it, a cell named on hover.
  await step("sandbox-of-500-nodes-on-a-canvas", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator("#sandbox-nodes").selectOption("500");
    await page.locator("#sandbox-scenario").selectOption("few");
    await page.locator("#sandbox-start").click();
    await page.locator(".node-canvas").waitFor();
    await type(page, "kubectl get deployments");
    await page.waitForFunction(() => document.querySelector(".clock-progress")?.textContent === "", null, { timeout: 60_000 });
    await expectText(page, "web     6/6");
    const summary = await page.locator(".node-canvas-summary").innerText();
    if (summary !== "501 nodes, 11 pods (+1009 in kube-system)") fail(`the canvas summary says "${summary}"`);
    if (!page.url().includes("nodes=500&scenario=few")) fail(`the address does not carry the choice: ${page.url()}`);
    const box = await page.locator(".node-canvas").boundingBox();
    await page.mouse.move(box.x + 4, box.y + 4);
    await page.locator(".node-canvas-pointed", { hasText: /^control-plane: Ready, \d+ pods/ }).waitFor();
  }, page);

  // The manifest editor: edit, apply through the terminal's path, errors on their line.
  const editor = page.locator(".editor-input");
  await step("editor-applies-an-edited-manifest", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator(".node").nth(2).waitFor();
    const example = await editor.inputValue();
    if (!example.includes("kind: Deployment")) fail(`the sandbox editor starts with ${JSON.stringify(example)}`);
    await editor.fill(example.replace("name: web", "name: edited").replace("replicas: 3", "replicas: 2"));
    await page.locator(".editor-highlight .y-key", { hasText: "replicas" }).waitFor();
    await page.locator(".manifest-editor button", { hasText: "Apply" }).click();
    await expectText(page, "deployment.apps/edited created");
    await expectText(page, "$ kubectl apply -f - <<EOF");
    await page.locator(".editor-ok", { hasText: "deployment.apps/edited created" }).waitFor();
    await type(page, "sleep 30s");
    await page.waitForFunction(() => document.querySelectorAll('.pod.ready[data-pod^="edited-"]').length === 2);
  }, page);

  await step("editor-marks-the-error-line", async () => {
    const text = await editor.inputValue();
    await editor.fill(text.replace("replicas: 2", "replica: 2"));
    // Ctrl+Enter applies from the keyboard; the unknown field is marked on line 6.
    await editor.press("Control+Enter");
    await page.locator(".yaml-error-line", { hasText: "replica: 2" }).waitFor();
    await page.locator(".yaml-error-note", { hasText: 'unknown field "spec.replica"' }).waitFor();
    const marked = await page.locator(".editor-highlight").evaluate((pre) =>
      pre.innerHTML.split("\n").findIndex((line) => line.includes("yaml-error-line")) + 1);
    if (marked !== 6) fail(`the error marks line ${marked}, expected 6`);
    await editor.fill("apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\n  labels: app: x\n");
    await page.locator(".manifest-editor button", { hasText: "Apply" }).click();
    await page.locator(".yaml-error-line", { hasText: "labels: app: x" }).waitFor();
    await page.locator(".yaml-error-note", { hasText: "yaml: line 5" }).waitFor();
    await page.locator(".editor-error", { hasText: "error parsing" }).waitFor();
  }, page);

  await step("editor-tab-indents", async () => {
    await editor.fill("a:\n");
    await editor.press("End");
    await editor.press("Control+End");
    await editor.press("Tab");
    if ((await editor.inputValue()) !== "a:\n  ") fail(`Tab gave ${JSON.stringify(await editor.inputValue())}`);
    await editor.press("Escape");
    await editor.press("Tab");
    if (await editor.evaluate((e) => document.activeElement === e)) fail("Esc then Tab did not leave the editor");
  }, page);

  await step("quiz-graded", async () => {
    await page.goto(`${base}/#/lesson/apply-to-running`);
    await page.locator("#step-heading").waitFor();
    const next = page.getByRole("button", { name: "Next →" });
    while (await next.isEnabled()) await next.click();
    await page.locator(".quiz-question").first().waitFor();
    const first = page.locator(".quiz-question").first();
    await first.locator("input[type=radio]").first().check();
    await first.getByRole("button", { name: "Check answer" }).click();
    await first.locator(".quiz-verdict.right", { hasText: "Right" }).waitFor();
    await page.locator(".quiz-score", { hasText: "1 of" }).waitFor();
    const second = page.locator(".quiz-question").nth(1);
    await second.locator("input[type=radio]").first().check();
    await second.getByRole("button", { name: "Check answer" }).click();
    await second.locator(".quiz-verdict").waitFor();
    await page.reload();
    while (await next.isEnabled()) await next.click();
    await page.locator(".quiz-question").first().locator(".quiz-verdict.right").waitFor();
  }, page);

  // A task is done by the learner's own move: the clock making its checks true is not enough.
  await step("the-clock-does-not-complete-a-task", async () => {
    await page.goto(`${base}/#/lesson/pods-are-cattle`);
    await page.locator("#step-heading").waitFor();
    const next = page.getByRole("button", { name: "Next →" });
    while (await next.isEnabled()) await next.click();
    await page.locator("#step-heading", { hasText: "Change the number, not the pods" }).waitFor();
    await type(page, "kubectl scale deployment hello --replicas=5");
    await page.locator(".clock-speed", { hasText: "60×" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".task .check.passed").length === document.querySelectorAll(".task .check").length,
      null, { timeout: TIMEOUT_MS }).catch(() => fail("the scaled pods never turned Ready with the clock running"));
    await page.locator(".clock-pause").click();
    if ((await page.locator(".task-status", { hasText: "Task complete" }).count()) !== 0) fail("the clock completed the task");
    await type(page, "kubectl get pods");
    await page.locator(".task-status", { hasText: "Task complete" }).waitFor();
  }, page);

  // The lifecycle chart, opened from the lab for the rolling-update lesson's Deployment: the
  // relay reads in its bars, a v2 pod Ready before any v1 pod starts Terminating.
  await step("lifecycle-chart-shows-the-relay", async () => {
    await page.goto(`${base}/#/lesson/rolling-updates`);
    await page.locator("#step-heading").waitFor();
    await page.locator(".lifecycle-select option", { hasText: "deployment hello" }).waitFor({ state: "attached" });
    await page.locator(".lifecycle-select").selectOption("default/hello");
    const chart = page.locator(".lifecycle-picker figure.lifecycle");
    await chart.locator("g.lane").nth(2).waitFor();
    await type(page, "kubectl set image deployment/hello hello=hello:v2");
    await type(page, "sleep 2m");
    await chart.locator('g.lane[data-image="hello:v2"]').nth(2).waitFor();
    const order = await chart.evaluate((figure) => {
      const at = (rect) => [Number(rect.dataset.from), Number(rect.dataset.seq)];
      const earliest = (rects) => rects.map(at).sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
      const v2Ready = earliest([...figure.querySelectorAll('g.lane[data-image="hello:v2"] rect.ready')]);
      const v1Terminating = earliest([...figure.querySelectorAll('g.lane[data-image="hello:v1"] rect.bar[data-state="Terminating"]')]);
      return { v2Ready, v1Terminating };
    });
    if (!order.v2Ready || !order.v1Terminating) fail(`the chart lacks a v2 Ready bar or a v1 Terminating bar: ${JSON.stringify(order)}`);
    const [a, b] = [order.v2Ready, order.v1Terminating];
    if (!(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]))) fail(`a v1 pod was Terminating before any v2 pod was Ready: ${JSON.stringify(order)}`);
    // Keyboard: a lane takes focus and says what it shows.
    await chart.locator("g.lane").first().focus();
    const label = await page.evaluate(() => document.activeElement.getAttribute("aria-label"));
    if (!/^hello-\S+ \(hello:v[12]\): /.test(label || "")) fail(`a focused lane says ${JSON.stringify(label)}`);
    await chart.locator("summary", { hasText: "The chart as a table" }).click();
    await chart.locator("table tbody tr").nth(5).waitFor();
    await chart.screenshot({ path: path.join(artifacts, "lifecycle-chart.png") });
  }, page);

  // The graceful-shutdown lesson through the terminal: traffic under a rolling update drops
  // requests, and the traffic panel plots them by second and version; then the task's fix (a
  // preStop hook, a fresh run) rolls out with none dropped and the task completes.
  await step("traffic-panel-shows-the-shutdown-race", async () => {
    await page.goto(`${base}/#/lesson/graceful-shutdown`);
    await page.locator("#step-heading").waitFor();
    const panel = page.locator(".traffic-panel");
    await panel.locator('.service-link[data-service="hello"] .endpoint.ready').nth(2).waitFor();
    await type(page, "lab traffic start svc/hello --rps 100");
    await type(page, "sleep 3s");
    await type(page, "kubectl set image deployment/hello hello=hello:v2");
    await type(page, "kubectl rollout status deployment/hello");
    await type(page, "sleep 5s");
    const chart = panel.locator("figure.traffic-chart");
    await chart.waitFor();
    const before = await chart.evaluate((f) => ({ ok: Number(f.dataset.ok), failed: Number(f.dataset.failed), red: f.querySelectorAll("rect.failed").length }));
    if (!(before.ok > 1000 && before.failed > 0 && before.red > 0)) fail(`the panel should show a rollout that dropped requests: ${JSON.stringify(before)}`);
    const legend = await chart.locator(".traffic-legend").innerText();
    if (!legend.includes("v1") || !legend.includes("v2")) fail(`the legend lists ${JSON.stringify(legend)}`);
    await panel.screenshot({ path: path.join(artifacts, "traffic-panel-race.png") });
    await type(page, `kubectl patch deployment hello -p '{"spec":{"template":{"spec":{"containers":[{"name":"hello","lifecycle":{"preStop":{"sleep":{"seconds":5}}}}]}}}}'`);
    await type(page, "kubectl rollout status deployment/hello");
    await type(page, "sleep 5s");
    await panel.locator("button.traffic-start").click();
    await expectText(page, "traffic: 100 requests per second to svc/hello");
    await type(page, "kubectl set image deployment/hello hello=hello:v1");
    await type(page, "kubectl rollout status deployment/hello");
    await type(page, "sleep 10s");
    await page.waitForFunction(() => {
      const f = document.querySelector(".traffic-panel figure.traffic-chart");
      return f && Number(f.dataset.ok) > 1000 && Number(f.dataset.failed) === 0;
    }, null, { timeout: TIMEOUT_MS }).catch(async () => fail(`the second run should drop nothing: ${await chart.getAttribute("data-failed")} failed`));
    await panel.screenshot({ path: path.join(artifacts, "traffic-panel-fixed.png") });
  }, page);

  // The autoscaling lesson's lab: once hello has a CPU request and an autoscaler, load makes
  // the chart's desired replicas rise, each decision listed with its formula filled in.
  await step("autoscaling-chart-follows-the-load", async () => {
    await page.goto(`${base}/#/lesson/autoscaling`);
    await page.locator("#step-heading").waitFor();
    await type(page, `kubectl patch deployment hello -p '{"spec":{"template":{"spec":{"containers":[{"name":"hello","resources":{"requests":{"cpu":"100m"}}}]}}}}'`);
    await type(page, "kubectl rollout status deployment/hello");
    await type(page, "kubectl autoscale deployment hello --cpu-percent=50 --min=3 --max=10");
    await type(page, "sleep 20s");
    const chart = page.locator(".autoscaling-panel figure.autoscaling-chart");
    await chart.waitFor();
    const before = Number(await chart.getAttribute("data-desired"));
    if (before !== 3) fail(`before the load the autoscaler should want 3 replicas, the chart says ${before}`);
    await type(page, "lab load deploy/hello --rps 300");
    await type(page, "sleep 1m");
    await page.waitForFunction(() => {
      const f = document.querySelector(".autoscaling-panel figure.autoscaling-chart");
      return f && Number(f.dataset.peakDesired) > 3 && Number(f.dataset.current) > 3;
    }, null, { timeout: TIMEOUT_MS }).catch(async () => fail(`the chart's replicas did not rise: ${await chart.evaluate((f) => JSON.stringify(f.dataset))}`));
    const decisions = await chart.locator(".autoscaling-decisions").innerText();
    if (!/ceil\(3 × \d+% \/ 50%\)/.test(decisions)) fail(`the decisions should show the formula for 3 replicas: ${decisions}`);
    await chart.screenshot({ path: path.join(artifacts, "autoscaling-chart.png") });
  }, page);

  // The configuration lesson's first task: hello reads its greeting from a ConfigMap and its
  // password from a Secret; the checks turn green once the rollout has run and the answer
  // carries the ConfigMap's greeting.
  await step("config-lesson-greets-from-a-config-map", async () => {
    await page.goto(`${base}/#/lesson/config-and-secrets`);
    await page.locator("#step-heading", { hasText: "Config is an object of its own" }).waitFor();
    await type(page, "kubectl exec client -- wget -qO- http://hello");
    await expectText(page, "hi from hello-");
    if ((await page.locator(".check.passed").count()) === await page.locator(".check").count()) fail("the task was done on arrival");
    await page.locator("button.command", { hasText: "kubectl apply -f config.yaml" }).click();
    await expectText(page, "secret/hello-secret created");
    await type(page, `kubectl patch deployment hello -p '{"spec":{"template":{"spec":{"containers":[{"name":"hello","envFrom":[{"configMapRef":{"name":"hello-config"}}],"env":[{"name":"DB_PASSWORD","valueFrom":{"secretKeyRef":{"name":"hello-secret","key":"DB_PASSWORD"}}}]}]}}}}'`);
    await type(page, "kubectl rollout status deployment/hello");
    await page.waitForFunction(() => document.querySelectorAll(".check.passed").length === document.querySelectorAll(".check").length)
      .catch(() => fail("the task's checks did not all pass after the rollout"));
    await type(page, "kubectl exec client -- wget -qO- http://hello");
    await expectText(page, "hola from hello-");
    await type(page, "kubectl describe pods -l app=hello");
    await expectText(page, "<set to the key 'DB_PASSWORD' in secret 'hello-secret'>");
  }, page);

  // The pod doctor challenge: seed 1 draws billing (a request no node holds), auth (a readiness
  // probe on a closed port) and web (a mistyped image); `kubelab lessons challenge 1` shows them.
  await step("challenge-healed-and-scored", async () => {
    await page.goto(`${base}/#/challenge/1`);
    const titles = await page.locator(".patient h2").allInnerTexts();
    if (titles.join(" | ") !== "Patient 1: billing | Patient 2: auth | Patient 3: web") fail(`seed 1 drew ${titles.join(" | ")}`);
    await page.locator(".patient .hint-button").first().click();
    await page.locator(".challenge-hints", { hasText: "1" }).waitFor();
    await type(page, "kubectl delete pods -l app=web");
    await type(page, "sleep 30s");
    if ((await page.locator(".patient .task.complete").count()) !== 0) fail("deleting a pod healed a patient");
    await type(page, "kubectl set image deployment/web web=hello:v1");
    await type(page, `kubectl patch deployment billing -p '{"spec":{"template":{"spec":{"containers":[{"name":"billing","resources":{"requests":{"cpu":"250m"}}}]}}}}'`);
    await type(page, `kubectl patch deployment auth -p '{"spec":{"template":{"spec":{"containers":[{"name":"auth","readinessProbe":{"httpGet":{"port":8080}}}]}}}}'`);
    await type(page, "sleep 30s");
    await page.locator(".challenge-healed", { hasText: "3 of 3" }).waitFor();
    const score = await page.locator(".challenge-score").innerText();
    if (!/All healed in \d+:\d\d \+ 1:00 for hints: score \d+:\d\d\. The cluster lived 2:\d\d/.test(score)) fail(`the score reads ${JSON.stringify(score)}`);
  }, page);

  // The browser lab: drag and drop, node menus, the clock, the timeline and permalinks.
  const podsByNode = (p) => p.locator(".node").evaluateAll((nodes) =>
    nodes.map((n) => `${n.dataset.node}: ${[...n.querySelectorAll(".pod")].map((c) => c.dataset.pod).sort().join(" ")}`).join("\n"));
  const pendingPod = (prefix) => page.locator(`.unscheduled .pod[data-pod^="${prefix}-"]`).first();

  // GPUs: a server from the palette joins the cluster; on the MIG board a profile dropped where
  // the geometry forbids is refused with the rule, and one dropped where it fits becomes a slice
  // the device plugin publishes.
  await step("gpu-node-from-the-palette-and-mig-drops", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator(".node").nth(2).waitFor();
    await page.locator('.machine[data-machine="1"]').dragTo(page.locator(".cluster .nodes"));
    await page.locator('.node[data-node="a100-1"]').waitFor();
    await expectText(page, "$ lab node add a100-1 --gpu A100-SXM4-40GBx8");
    const board = page.locator('.gpu-node[data-node="a100-1"]');
    const gpu0 = board.locator('.gpu[data-gpu="0"]');
    await board.locator('.allocatable[data-allocatable="nvidia.com/gpu: 8"]').waitFor();
    await gpu0.locator(".mig-toggle").click();
    await board.locator('.allocatable[data-allocatable="nvidia.com/gpu: 7"]').waitFor();
    await board.locator('.mig-profile[data-profile="3g.20gb"]').dragTo(gpu0.locator('.slot[data-slot="2"]'));
    await page.locator(".mig-board .drop-outcome.refused", { hasText: "3g.20gb may start only at memory slice 0 or 4, not 2" }).waitFor();
    if ((await gpu0.locator(".instance").count()) !== 0) fail("a refused drop made a GPU instance");
    await board.locator('.mig-profile[data-profile="3g.20gb"]').dragTo(gpu0.locator('.slot[data-slot="4"]'));
    await gpu0.locator('.instance[data-gi="2"]').waitFor();
    await expectText(page, "$ lab node exec a100-1 -- nvidia-smi mig -i 0 -cgi 3g.20gb:4 -C");
    await board.locator('.allocatable[data-allocatable="nvidia.com/gpu: 7, nvidia.com/mig-3g.20gb: 1"]').waitFor();
    await board.locator('.mig-profile[data-profile="4g.20gb"]').dragTo(gpu0.locator('.slot[data-slot="0"]'));
    await board.locator('.allocatable[data-allocatable="nvidia.com/gpu: 7, nvidia.com/mig-3g.20gb: 1, nvidia.com/mig-4g.20gb: 1"]').waitFor();
    await board.locator('.mig-profile[data-profile="1g.5gb"]').dragTo(gpu0.locator('.slot[data-slot="6"]'));
    await page.locator(".mig-board .drop-outcome.refused", { hasText: "overlaps GPU instance 2 (3g.20gb at 4:4)" }).waitFor();
    await page.locator(".mig-board").screenshot({ path: path.join(artifacts, "mig-board.png") });
    // The steps after this one expect the sandbox's three nodes.
    await type(page, "lab node remove a100-1");
    await page.locator(".mig-board").waitFor({ state: "detached" });
  }, page);

  // Nodes sit in one lane per zone: a node dragged by its grip onto another lane is relabelled
  // into that zone, and onto the bin it leaves the cluster, each as the typed command.
  await step("drag-a-node-to-another-zone-and-to-the-bin", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator(".node").nth(2).waitFor();
    await page.locator('.machine[data-machine="0"]').dragTo(page.locator(".cluster .nodes"));
    const added = page.locator('.zone-lane[data-zone="no zone"] .node[data-node="node-4"]');
    await added.waitFor();
    await added.locator(".node-grip").dragTo(page.locator('.zone-lane[data-zone="zone-b"] .zone-name'));
    await expectText(page, "$ kubectl label node node-4 topology.kubernetes.io/zone=zone-b --overwrite");
    await page.locator('.zone-lane[data-zone="zone-b"] .node[data-node="node-4"]').waitFor();
    // The control-plane node stays in the zoneless lane; node-4 has left it.
    await page.locator('.zone-lane[data-zone="no zone"] .node[data-node="node-4"]').waitFor({ state: "detached" });
    await page.locator(".cluster .nodes").screenshot({ path: path.join(artifacts, "zone-lanes.png") });
    // The zoneless lane (the control plane) pushes the bin down: both must be on screen.
    await page.locator(".bin").scrollIntoViewIfNeeded();
    await page.locator('.node[data-node="node-4"] .node-grip').dragTo(page.locator(".bin"));
    await expectText(page, "$ lab node remove node-4");
    await page.locator('.node[data-node="node-4"]').waitFor({ state: "detached" });
  }, page);

  await step("drag-refused-by-the-scheduler", async () => {
    await page.goto(`${base}/#/sandbox`);
    await page.locator(".node").nth(2).waitFor();
    for (const [name, spec] of [["picky", '{"nodeSelector":{"disk":"ssd"}}'], ["manual", '{"schedulerName":"by-hand"}']]) {
      await type(page, `kubectl create deployment ${name} --image=nginx --replicas=0`);
      await type(page, `kubectl patch deployment ${name} -p '{"spec":{"template":{"spec":${spec}}}}'`);
      await type(page, `kubectl scale deployment ${name} --replicas=1`);
    }
    await type(page, "sleep 10s");
    await pendingPod("picky").dragTo(page.locator('.node[data-node="node-1"]'));
    await page.locator(".drop-outcome.refused", { hasText: "didn't match Pod's node affinity/selector" }).waitFor();
    await expectText(page, "$ lab pod bind picky-");
    await pendingPod("picky").waitFor();
  }, page);

  await step("inspector-says-why", async () => {
    await pendingPod("picky").click();
    await page.locator(".inspector-why li", { hasText: "refused by NodeAffinity: node(s) didn't match Pod's node affinity/selector" }).first().waitFor();
    await page.locator(".inspector-why li", { hasText: "0/4 nodes are available" }).waitFor();
    await page.locator(".inspector-describe", { hasText: "FailedScheduling" }).waitFor();
  }, page);

  await step("keyboard-bind", async () => {
    await page.locator(".inspector-close").click();
    await page.waitForFunction(() => !document.querySelector(".inspector"));
    const chip = pendingPod("manual");
    const name = await chip.getAttribute("data-pod");
    await chip.focus();
    await page.keyboard.press("Enter");
    // Nodes in name order: control-plane, node-1, node-2.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.locator('.node.drop-aim[data-node="node-2"]').waitFor();
    await page.keyboard.press("Enter");
    await page.locator(`.node[data-node="node-2"] .pod[data-pod="${name}"]`).waitFor();
    await page.locator("#lab-announcer", { hasText: `pod/${name} bound to node-2` }).waitFor();
  }, page);

  await step("step-one-event", async () => {
    const before = await page.locator(".clock-time").innerText();
    await page.locator(".clock-step").click();
    await page.waitForFunction((b) => document.querySelector(".clock-time").innerText !== b, before);
    await expectText(page, "$ sleep ");
    await page.locator(".event-feed li").first().waitFor();
  }, page);

  await step("reconcile-panel", async () => {
    await type(page, "kubectl scale deployment picky --replicas=2");
    await page.locator(".reconcile summary").click();
    for (const actor of ["deployment-controller ScalingReplicaSet", "replicaset-controller SuccessfulCreate", "default-scheduler FailedScheduling"]) {
      await page.locator(".reconcile-actors li", { hasText: actor }).waitFor();
    }
    await page.locator(".reconcile-writes", { hasText: "Pod: 1 added" }).waitFor();
  }, page);

  // The API server's gates: a pod refused by Pod Security shows red at its admission plugin,
  // after authentication and authorization passed, with storage never reached.
  await step("request-path-shows-the-refusing-gate", async () => {
    await type(page, "kubectl create namespace locked");
    await type(page, "kubectl label namespace locked pod-security.kubernetes.io/enforce=restricted");
    await type(page, "kubectl run plain -n locked --image=nginx");
    await expectText(page, 'pods "plain" is forbidden: violates PodSecurity "restricted:latest"');
    await page.locator(".request-path summary").click();
    await page.locator(".gate-chain .gate.passed", { hasText: "authorization" }).waitFor();
    await page.locator(".gate-chain .gate.refused", { hasText: "PodSecurity (validating)" }).waitFor();
    await page.locator(".gate-chain .gate.not-reached", { hasText: "storage" }).waitFor();
    await page.locator(".gate-refusal", { hasText: "Refused at PodSecurity (validating)" }).waitFor();
    await page.locator(".request-path").scrollIntoViewIfNeeded();
  }, page);

  await step("power-off-via-menu-at-60x", async () => {
    await type(page, "kubectl create deployment web --image=hello:v1 --replicas=3");
    await page.getByRole("button", { name: "Advance time by 1m" }).click();
    await page.waitForFunction(() => document.querySelectorAll('.pod.ready[data-pod^="web-"]').length === 3);
    const before = await page.locator('.node[data-node="node-2"] .pod[data-pod^="web-"]').evaluateAll((p) => p.map((c) => c.dataset.pod));
    await page.locator('.node[data-node="node-2"] .node-menu summary').click();
    await page.locator('.node[data-node="node-2"] .node-menu button', { hasText: "Power off" }).click();
    await expectText(page, "node/node-2 powered off");
    await page.locator(".clock-speed", { hasText: "60×" }).click();
    await page.locator('.node.not-ready[data-node="node-2"]').waitFor();
    await page.waitForFunction((gone) => {
      const ready = [...document.querySelectorAll('.node:not([data-node="node-2"]) .pod.ready[data-pod^="web-"]')];
      return ready.length === 3 && ready.every((p) => !gone.includes(p.dataset.pod));
    }, before, { timeout: 30_000 }).catch(() => fail(`node-2's pods ${before} were not replaced at 60×`));
    await page.locator(".clock-pause").click();
    await page.locator(".timeline-list li.clock").first().waitFor();
  }, page);

  let present;
  await step("scrub-back-and-forward", async () => {
    present = await podsByNode(page);
    const entries = await page.locator(".timeline-list li").count();
    await page.locator("#timeline-scrubber").fill(String(entries - 3));
    await page.locator(".timeline-status.scrubbed", { hasText: "read-only" }).waitFor();
    await page.locator('.node[data-node="node-2"]:not(.not-ready)').waitFor();
    if ((await podsByNode(page)) === present) fail("the cluster view did not change when scrubbed back");
    await type(page, "kubectl get nodes");
    await expectText(page, "node-2          Ready");
    await type(page, "kubectl delete deployment web");
    await expectText(page, "read-only");
    await page.getByRole("button", { name: "Back to now" }).click();
    await page.waitForFunction(() => !document.querySelector(".timeline-status.scrubbed"));
    if ((await podsByNode(page)) !== present) fail("back to now did not restore the cluster");
  }, page);

  await step("permalink-replays-the-same-cluster", async () => {
    await page.getByRole("button", { name: "Copy link" }).click();
    const link = await page.locator("#permalink").inputValue();
    if (!/#\/sandbox\?log=[A-Za-z0-9_-]+$/.test(link)) fail(`odd link ${link}`);
    const other = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    other.on("pageerror", (error) => pageErrors.push(String(error)));
    await other.goto(link);
    await other.locator(".lab-notice", { hasText: "Opened a shared lab" }).waitFor();
    await other.locator(".node").nth(2).waitFor();
    const opened = await podsByNode(other);
    await other.screenshot({ path: path.join(artifacts, "permalink-opened.png"), fullPage: true });
    if (opened !== present) fail(`the permalink shows\n${opened}\ninstead of\n${present}`);
    await other.goto(`${base}/#/sandbox?log=not*a*lab`);
    await other.locator(".lab-notice", { hasText: "could not be opened" }).waitFor();
    await other.close();
  }, page);

  await step("fork-from-the-past", async () => {
    await page.locator("#timeline-scrubber").fill("2");
    await page.locator(".timeline-status.scrubbed").waitFor();
    await page.getByRole("button", { name: "Fork from here" }).click();
    await page.locator(".timeline-status", { hasText: "Live: 2 entries" }).waitFor();
    await type(page, "kubectl get deployments");
    await expectText(page, "picky");
  }, page);

  await step("keyboard-drag-to-the-bin-while-the-clock-runs", async () => {
    await type(page, "kubectl create deployment solo --image=hello:v1 --replicas=1");
    await type(page, "sleep 30s");
    await page.locator(".clock-speed", { hasText: "10×" }).click();
    const chip = page.locator('.pod[data-pod^="solo-"]').first();
    const name = await chip.getAttribute("data-pod");
    await chip.focus();
    await page.keyboard.press("Enter");
    await page.waitForTimeout(600);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.locator(".bin.drop-aim").waitFor();
    await page.waitForTimeout(600);
    await page.keyboard.press("Enter");
    await expectText(page, `$ kubectl delete pod ${name}`);
    await page.locator(".clock-pause").click();
  }, page);

  await step("frame-times-with-300-pods", async () => {
    await type(page, "kubectl create deployment many --image=hello:v1 --replicas=300");
    await type(page, "sleep 1m");
    await page.waitForFunction(() => document.querySelectorAll(".pod").length >= 300);
    const chip = page.locator('.pod[data-pod^="many-"]').first();
    const box = await chip.boundingBox();
    const times = await sampleFrames(page, 90, async () => {
      await page.mouse.move(box.x + 5, box.y + 5);
      await page.mouse.down();
      for (let i = 0; i < 40; i += 1) await page.mouse.move(box.x + 5 + i * 8, box.y + 5 + i * 3);
      await page.mouse.up();
    });
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const clockBefore = await page.locator(".clock-time").innerText();
    await page.locator(".clock-speed", { hasText: "10×" }).click();
    const running = await sampleFrames(page, 90);
    await page.locator(".clock-pause").click();
    const clockAfter = await page.locator(".clock-time").innerText();
    if (clockAfter === clockBefore) fail(`the clock did not move at 10x (${clockBefore})`);
    const runningMean = running.reduce((a, b) => a + b, 0) / running.length;
    console.log(`      frames with the clock at 10x over 300 pods (${clockBefore} → ${clockAfter}): mean ${runningMean.toFixed(1)} ms, max ${running.at(-1).toFixed(1)} ms`);
    const scrubTo = async (position) => {
      const started = Date.now();
      await page.locator("#timeline-scrubber").fill(String(position));
      await page.locator(".timeline-status.scrubbed", { hasText: `after ${position} of` }).waitFor();
      return Date.now() - started;
    };
    const entries = Number(await page.locator("#timeline-scrubber").getAttribute("max"));
    const scrubMs = `${await scrubTo(1)} ms to entry 1, ${await scrubTo(entries - 1)} ms to entry ${entries - 1}`;
    await page.getByRole("button", { name: "Back to now" }).click();
    console.log(`      frames while dragging over ${await page.locator(".pod").count()} pods: mean ${mean.toFixed(1)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(1)} ms, max ${times.at(-1).toFixed(1)} ms; scrub back ${scrubMs}`);
  }, page);

  // Leaving a lab while its clock runs, right after a tick redrew it and before the next frame:
  // what that redraw scheduled (an animation frame, the next tick) must die with the page, not
  // reach its disposed signals and stop the simulator.
  await step("leaving-a-running-lab-crashes-nothing", async () => {
    const errorsBefore = pageErrors.length;
    const crashed = async () => {
      if ((await page.locator("#crash-panel").count()) === 0) return;
      fail(`the app crashed: ${(await page.locator("#crash-report").inputValue()).replace(/\n/g, " | ")}`);
    };
    const labs = ["#/sandbox", "#/lesson/apply-to-running"];
    const away = [["#/", page.locator(".lesson-card").first()], ["#/about", page.locator("h1", { hasText: "About kubelab" })]];
    await page.goto(`${base}/#/`);
    for (let round = 0; round < 6; round += 1) {
      const lab = labs[round % labs.length];
      const [hash, landed] = away[round % away.length];
      await page.evaluate((to) => { location.hash = to; }, lab);
      await page.locator(".node").nth(2).waitFor();
      await page.locator(".clock-speed", { hasText: "60×" }).click();
      const left = await page.evaluate((to) => new Promise((resolve) => {
        const clock = document.querySelector(".clock-time");
        let timer;
        const observer = new MutationObserver(() => {
          observer.disconnect();
          clearTimeout(timer);
          location.hash = to;
          resolve(true);
        });
        observer.observe(clock, { characterData: true, childList: true, subtree: true });
        timer = setTimeout(() => { observer.disconnect(); resolve(false); }, 5_000);
      }), hash);
      if (!left) fail(`the clock of ${lab} did not tick at 60×`);
      await landed.waitFor();
      // Two frames later whatever the left page had asked for has run (or was cancelled).
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await crashed();
    }
    await page.waitForTimeout(2_000);
    await crashed();
    const late = pageErrors.slice(errorsBefore).filter((e) => /disposed|unreachable/i.test(e));
    if (late.length > 0) fail(`leaving a running lab logged: ${late.join(" | ").replace(/\n/g, " ")}`);
  }, page);

  if (pageErrors.length > 0) fail(`the page logged errors:\n  ${pageErrors.join("\n  ")}`);

  // Last, on a page of its own: a bug in the core kills the wasm instance.
  const crashed = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  crashed.setDefaultTimeout(TIMEOUT_MS);
  await step("a-crash-shows-a-report", async () => {
    await crashed.goto(`${base}/#/sandbox`);
    await type(crashed, "kubectl create deployment web --image=hello:v1 --replicas=2");
    await expectText(crashed, "deployment.apps/web created");
    const thrown = await crashed.evaluate(async () => {
      const app = await import("./pkg/kubelab_web.js");
      try {
        app.simulate_crash();
        return null;
      } catch (error) {
        return String(error);
      }
    });
    if (!thrown) fail("simulate_crash returned instead of stopping the simulator");
    await crashed.locator("#crash-panel").waitFor();
    const report = await crashed.locator("#crash-report").inputValue();
    for (const needle of ["lesson: sandbox", "seed: 1", "panic: ", "a simulated bug in the core", "  kubectl create deployment web --image=hello:v1 --replicas=2"]) {
      if (!report.includes(needle)) fail(`the crash report lacks ${JSON.stringify(needle)}:\n${report}`);
    }
    await crashed.locator("#crash-report").focus();
  }, crashed);
  console.log(`e2e: ${steps.length} steps passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(root, artifacts)}/`);
} catch (error) {
  if (!process.exitCode) {
    console.error(`e2e: FAIL: ${error.message}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close().catch(() => {});
  child?.kill("SIGTERM");
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
