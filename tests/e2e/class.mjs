// Browser end-to-end test of classes: starts `kubelab serve` on loopback with a throwaway
// SQLite database, then drives two /usr/bin/chromium contexts (headless, playwright-core):
// an instructor signs up, creates a class and opens its live dashboard; a learner joins with
// the join code and completes a task in lesson 1; the dashboard shows it without a reload; the
// instructor pushes `lab node power-off node-2` and the learner's lab runs it (transcript line,
// then node-2 NotReady once time passes); the instructor replays the learner's lab read-only;
// the learner resumes at their step after a reload and on a second device (resume code); the
// instructor hosts a live lab, a learner watches it, and the instructor's own kubectl (the
// kubeconfig the lab's page offers) scales a Deployment that both pages then draw.
// Screenshots per step go to target/e2e-artifacts/class-*.png. Exits non-zero naming the
// failed step.
//
// Needs: target/debug/kubelab (cargo test --workspace --no-run builds it), the bundle (scripts/build-web.sh),
// chromium and playwright-core (scripts/setup.sh). Usage: node tests/e2e/class.mjs

import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { artifacts, launchBrowser, prerequisites, root, startServer } from "./harness.mjs";

const TIMEOUT_MS = 20_000;
const FAULT = "lab node power-off node-2";

function fail(message) {
  console.error(`class e2e: FAIL: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

const chromium = await prerequisites("class e2e");

const steps = [];
let shot = 0;
// Runs one step; screenshots every page given (instructor, learner) after it, or on failure.
async function step(name, body, pages) {
  const start = Date.now();
  const snap = async (prefix) => {
    for (const [who, page] of Object.entries(pages)) {
      await page.screenshot({ path: path.join(artifacts, `${prefix}-${who}.png`), fullPage: true }).catch(() => {});
    }
  };
  try {
    await body();
  } catch (error) {
    await snap(`class-failed-${name}`);
    fail(`step "${name}": ${error.message.split("\n")[0]}`);
  }
  shot += 1;
  await snap(`class-${String(shot).padStart(2, "0")}-${name}`);
  steps.push(`  ok  ${name} (${Date.now() - start} ms)`);
  console.log(steps.at(-1));
}

// Both pages draw the same pods.
async function sameCluster(one, other) {
  const pods = async (page) => (await page.locator("li[data-pod]").allInnerTexts()).join("|");
  const [mine, theirs] = [await pods(one), await pods(other)];
  if (mine !== theirs) fail(`the two browsers show different clusters:\n  ${mine}\n  ${theirs}`);
}

async function type(page, command) {
  const input = page.locator("#terminal-input");
  await input.fill(command);
  await input.press("Enter");
  await page.waitForFunction(
    (c) => document.getElementById("terminal-output").textContent.includes(`$ ${c}`),
    command,
    { timeout: TIMEOUT_MS },
  );
}

async function expectTerminal(page, needle, what) {
  await page.waitForFunction(
    (n) => document.getElementById("terminal-output")?.textContent.includes(n),
    needle,
    { timeout: TIMEOUT_MS },
  ).catch(async () => {
    const text = await page.locator("#terminal-output").innerText().catch(() => "(no terminal)");
    fail(`${what}: the terminal never showed ${JSON.stringify(needle)}; it shows:\n${text}`);
  });
}

// Fails with the page's form error, if it shows one, instead of a bare timeout.
async function orFormError(page, promise, what) {
  try {
    await promise;
  } catch (error) {
    const shown = await page.locator(".form-error").allInnerTexts().catch(() => []);
    fail(`${what}: ${shown.filter(Boolean).join("; ") || error.message.split("\n")[0]}`);
  }
}

// Only this test's screenshots are replaced; run.mjs's stay beside them.
fs.mkdirSync(artifacts, { recursive: true });
for (const file of fs.readdirSync(artifacts)) {
  if (file.startsWith("class-")) fs.rmSync(path.join(artifacts, file));
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kubelab-class-e2e-"));

const { child, base } = await startServer(dataDir);
let agent = null;
const browser = await launchBrowser(chromium);
const started = Date.now();
const pageErrors = [];

async function openPage(who) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT_MS);
  page.on("pageerror", (error) => pageErrors.push(`${who}: ${error}`));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(`${who}: ${message.text()} (${message.location().url})`);
  });
  return page;
}

try {
  const teacher = await openPage("instructor");
  const learner = await openPage("learner");
  const both = { instructor: teacher, learner };
  let joinCode = "";

  await step("instructor-signs-up", async () => {
    await teacher.goto(`${base}/#/teach`);
    await teacher.locator("#sign-up-name").fill("Ada Lovelace");
    await teacher.locator("#sign-up-email").fill("ada@example.org");
    await teacher.locator("#sign-up-password").fill("correct horse battery");
    await teacher.getByRole("button", { name: "Create account" }).click();
    await orFormError(teacher, teacher.locator(".signed-in", { hasText: "Signed in as Ada Lovelace" }).waitFor(), "sign up");
    await teacher.locator(".signed-in-as", { hasText: "Ada Lovelace" }).waitFor();
  }, { instructor: teacher });

  await step("instructor-creates-a-class", async () => {
    await teacher.locator("#class-name").fill("Cluster 101");
    await teacher.getByRole("button", { name: "Create class" }).click();
    await orFormError(teacher, teacher.locator("#new-join-code").waitFor(), "create class");
    joinCode = (await teacher.locator("#new-join-code").innerText()).trim();
    if (!joinCode) fail("the new class shows no join code");
    await teacher.locator(".class-item", { hasText: "Cluster 101" }).waitFor();
    await teacher.getByRole("link", { name: "Open its dashboard" }).click();
    await teacher.locator(".link-state", { hasText: "Live" }).waitFor();
    await teacher.locator(".no-learners").waitFor();
  }, { instructor: teacher });

  await step("learner-joins", async () => {
    await learner.goto(`${base}/#/join`);
    await learner.locator("#join-code").fill(joinCode);
    await learner.locator("#display-name").fill("Grace");
    await learner.getByRole("button", { name: "Join" }).click();
    await orFormError(learner, learner.locator("#resume-code").waitFor(), "join");
    if (!(await learner.locator("#resume-code").innerText()).trim()) fail("no resume code shown");
    await learner.locator(".signed-in-as", { hasText: "Grace · Cluster 101" }).waitFor();
  }, both);

  await step("dashboard-shows-the-learner", async () => {
    await teacher.locator('tr.learner', { hasText: "Grace" }).waitFor()
      .catch(() => fail("the dashboard never listed Grace without a reload"));
  }, both);

  await step("instructor-locks-and-opens-joins", async () => {
    await teacher.locator("#join-lock", { hasText: "Lock joins" }).click();
    await teacher.locator(".link-state", { hasText: "locked" }).waitFor()
      .catch(() => fail("the dashboard does not say joins are locked"));
    const late = await openPage("late learner");
    await late.goto(`${base}/#/join`);
    // The app settles first (who is signed in, the server's features): a form it redraws
    // afterwards would lose what was typed.
    await late.waitForLoadState("networkidle");
    await late.locator("#join-code").fill(joinCode);
    await late.locator("#display-name").fill("Late");
    if ((await late.locator("#join-code").inputValue()) !== joinCode) fail("the join form lost the code typed into it");
    await late.getByRole("button", { name: "Join" }).click();
    await orFormError(late, late.getByText("locked joins").waitFor(), "a join to a locked class was not refused with its reason")
      .catch(async (error) => {
        await late.screenshot({ path: path.join(artifacts, "class-failed-late-learner.png"), fullPage: true }).catch(() => {});
        throw error;
      });
    await late.close();
    // The browser logs the refused request itself; that one is expected here.
    const expected = (e) => e.startsWith("late learner:") && e.includes("403");
    pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !expected(e)));
    await teacher.locator("#join-lock", { hasText: "Open joins again" }).click();
    await teacher.locator("#join-lock", { hasText: "Lock joins" }).waitFor();
  }, { instructor: teacher });

  await step("learner-completes-a-task", async () => {
    await learner.getByRole("link", { name: "Start the first lesson" }).click();
    await learner.locator("#step-heading", { hasText: "Why an orchestrator?" }).waitFor();
    await learner.getByRole("button", { name: "Next →" }).click();
    await learner.getByRole("button", { name: "Next →" }).click();
    await learner.locator("#step-heading", { hasText: "Record an intention" }).waitFor();
    await learner.locator(".hint-button").click();
    await type(learner, "kubectl apply -f hello.yaml");
    await learner.locator(".task-status", { hasText: "Task complete" }).waitFor();
  }, both);

  await step("dashboard-updates-live", async () => {
    const row = teacher.locator('tr.learner', { hasText: "Grace" });
    await teacher.waitForFunction(() => {
      const row = [...document.querySelectorAll("tr.learner")].find((r) => r.textContent.includes("Grace"));
      return row && row.querySelector(".tasks-passed").textContent.trim() === "1"
        && row.querySelector(".hints").textContent.trim() === "1";
    }).catch(async () => fail(`the dashboard row never showed 1 task and 1 hint; it shows: ${await row.innerText()}`));
    const place = await row.locator(".place").innerText();
    if (!place.includes("step 3")) fail(`the dashboard shows Grace at "${place}", expected step 3`);
  }, both);

  await step("instructor-pushes-a-fault", async () => {
    await teacher.locator("#fault-command").fill(FAULT);
    await teacher.getByRole("button", { name: "Push to every connected learner" }).click();
    await orFormError(teacher, teacher.locator(".fault-status", { hasText: "to 1 learner" }).waitFor(), "push fault");
    await expectTerminal(learner, `$ ${FAULT}   # from your instructor, Ada Lovelace`, "the learner's lab");
    await learner.locator(".instructor-notice", { hasText: FAULT }).waitFor();
  }, both);

  await step("learner-node-goes-not-ready", async () => {
    await type(learner, "sleep 1m");
    await learner.locator('.node.not-ready[data-node="node-2"]').waitFor()
      .catch(() => fail("node-2 never showed NotReady in the learner's cluster view"));
  }, both);

  await step("instructor-replays-the-lab", async () => {
    // The lab is saved a second after the last command.
    await teacher.waitForTimeout(1500);
    await teacher.locator('tr.learner', { hasText: "Grace" }).getByRole("link", { name: /Replay/ }).click();
    await expectTerminal(teacher, "$ kubectl apply -f hello.yaml", "the replay");
    await expectTerminal(teacher, `$ ${FAULT}`, "the replay");
    await teacher.locator('.node.not-ready[data-node="node-2"]').waitFor()
      .catch(() => fail("node-2 is not NotReady in the replay"));
    if ((await teacher.locator("#terminal-input").count()) !== 0) fail("the replay has a prompt; it must be read-only");
  }, both);

  await step("learner-resumes-after-a-reload", async () => {
    await learner.goto(`${base}/#/`);
    await learner.reload();
    await learner.waitForURL(/#\/lesson\/apply-to-running$/).catch(() => fail("the catalogue did not send Grace back to lesson 1"));
    await learner.locator("#step-heading", { hasText: "Record an intention" }).waitFor()
      .catch(() => fail("lesson 1 did not reopen at step 3"));
  }, { learner });

  await step("learner-resumes-on-another-device", async () => {
    const resumeCode = await (async () => {
      await learner.goto(`${base}/#/join`);
      // Shown once at join; after a reload the learner makes a new one.
      await learner.locator("#new-resume-code").click();
      return (await learner.locator("#resume-code").innerText()).trim();
    })();
    const tablet = await openPage("second device");
    await tablet.goto(`${base}/#/join`);
    await tablet.locator("#resume-code-input").fill(resumeCode);
    await tablet.getByRole("button", { name: "Resume" }).click();
    await orFormError(tablet, tablet.locator(".signed-in-as", { hasText: "Grace · Cluster 101" }).waitFor(), "resume");
    await tablet.getByRole("link", { name: "Continue where you left off" }).click();
    await tablet.locator("#step-heading", { hasText: "Record an intention" }).waitFor()
      .catch(() => fail("the second device did not open lesson 1 at step 3"));
    await tablet.screenshot({ path: path.join(artifacts, "class-second-device.png"), fullPage: true });
  }, { learner });

  await step("challenge-score-on-the-dashboard", async () => {
    const classId = /#\/teach\/class\/([^/]+)/.exec(teacher.url())?.[1];
    if (!classId) fail(`no class id in the instructor's URL ${teacher.url()}`);
    // Seed 1 draws billing, auth and web (run.mjs heals them the same way).
    await learner.goto(`${base}/#/challenge/1`);
    await learner.locator(".patient h2").first().waitFor();
    await type(learner, "kubectl set image deployment/web web=hello:v1");
    await type(learner, `kubectl patch deployment billing -p '{"spec":{"template":{"spec":{"containers":[{"name":"billing","resources":{"requests":{"cpu":"250m"}}}]}}}}'`);
    await type(learner, `kubectl patch deployment auth -p '{"spec":{"template":{"spec":{"containers":[{"name":"auth","readinessProbe":{"httpGet":{"port":8080}}}]}}}}'`);
    await type(learner, "sleep 30s");
    await learner.locator(".challenge-score").waitFor();
    await teacher.goto(`${base}/#/teach/class/${classId}`);
    const cell = teacher.locator("tr.learner", { hasText: "Grace" }).locator("td.challenge");
    await teacher.waitForFunction(() => {
      const row = [...document.querySelectorAll("tr.learner")].find((r) => r.textContent.includes("Grace"));
      return row && /no hints; cluster 1:40; seed 1\)$/.test(row.querySelector("td.challenge").textContent.trim());
    }).catch(async () => fail(`the dashboard's challenge cell shows ${JSON.stringify(await cell.innerText())}`));
  }, both);

  await step("a-learner-cannot-open-the-dashboard", async () => {
    const classId = /#\/teach\/class\/([^/]+)/.exec(teacher.url())?.[1];
    if (!classId) fail(`no class id in the instructor's URL ${teacher.url()}`);
    await learner.goto(`${base}/#/teach/class/${classId}`);
    const panel = learner.locator(".error-panel");
    await panel.waitFor().catch(() => fail("a learner opening the dashboard saw no refusal"));
    const text = await panel.innerText();
    if (!/instructor/i.test(text)) fail(`the refusal does not show the server's detail: ${text}`);
    // The browser logs the refused request itself; that one is expected here.
    const expected = (e) => e.startsWith("learner:") && e.includes("403") && e.includes(`/api/classes/${classId}/dashboard`);
    pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !expected(e)));
  }, { learner });

  await step("instructor-hosts-a-live-lab", async () => {
    await teacher.goto(`${base}/#/teach`);
    await teacher.locator("#host-lab-lesson").waitFor();
    await teacher.getByRole("button", { name: "Start the lab" }).click();
    await teacher.waitForURL(/#\/labs\/[0-9a-f]+$/).catch(() => fail("starting a hosted lab did not open its page"));
    await teacher.locator("#hosted-lab-input").waitFor().catch(() => fail("the lab's instructor has no prompt"));
    await teacher.fill("#hosted-lab-input", "kubectl create deployment web --image=nginx --replicas=3");
    await teacher.press("#hosted-lab-input", "Enter");
    await teacher.getByRole("button", { name: "+1m" }).click();
    const pods = teacher.locator("li[data-pod^='web-']");
    await pods.nth(2).waitFor().catch(() => fail("the instructor's lab shows no web pods after a minute"));
  }, { teacher });

  await step("learner-watches-the-live-lab", async () => {
    await learner.goto(teacher.url());
    await learner.locator("li[data-pod^='web-']").nth(2).waitFor()
      .catch(() => fail("the learner watching the lab does not see its three pods"));
    if (await learner.locator("#hosted-lab-input").count()) fail("a learner watching a hosted lab got a prompt");
    await teacher.fill("#hosted-lab-input", "lab node power-off node-1");
    await teacher.press("#hosted-lab-input", "Enter");
    await learner.locator("#terminal-output", { hasText: "node/node-1 powered off" }).waitFor()
      .catch(() => fail("the learner did not see the instructor's next command"));
    await sameCluster(teacher, learner);
  }, { teacher, learner });

  await step("real-kubectl-changes-the-live-lab", async () => {
    const kubectl = path.join(root, "target/oracle/kubectl-1.36/bin/kubectl");
    if (!fs.existsSync(kubectl)) {
      console.log("  (skipped: kubectl 1.36 is not installed; make setup installs it)");
      return;
    }
    await teacher.getByRole("button", { name: "Use your own kubectl" }).click();
    const link = teacher.getByRole("link", { name: "Download the kubeconfig" });
    await link.waitFor().catch(() => fail("the lab offers no kubeconfig"));
    const href = await link.getAttribute("href");
    const config = path.join(dataDir, "teacher.kubeconfig");
    fs.writeFileSync(config, Buffer.from(href.split(",")[1], "base64"));
    const scaled = execFileSync(kubectl, ["--kubeconfig", config, "scale", "deployment", "web", "--replicas=5"],
      { env: { ...process.env, HOME: dataDir } }).toString();
    if (scaled !== "deployment.apps/web scaled\n") fail(`kubectl scale printed ${JSON.stringify(scaled)}`);
    for (const [who, page] of Object.entries({ teacher, learner })) {
      await page.locator("li[data-pod^='web-']").nth(4).waitFor()
        .catch(() => fail(`the ${who}'s page does not draw the five pods kubectl asked for`));
    }
    await learner.locator("#terminal-output", { hasText: "deployments.apps/web/scale -n default" }).waitFor()
      .catch(() => fail("the transcript does not say what kubectl did"));
    await sameCluster(teacher, learner);
  }, { teacher, learner });

  await step("a-real-machine-joins-the-live-lab", async () => {
    const agentBinary = path.join(root, "target/debug/kubelab-agent");
    const guest = path.join(root, "target/guests/workload.wasm");
    if (!fs.existsSync(agentBinary) || !fs.existsSync(guest)) {
      console.log("  (skipped: kubelab-agent or its guest is not built; make test builds them)");
      return;
    }
    if (await learner.getByRole("region", { name: "Real machines" }).count()) fail("a learner is offered to add machines");
    const panel = teacher.getByRole("region", { name: "Real machines" });
    await panel.getByText("No real machine has joined this lab.").waitFor()
      .catch(() => fail("the instructor's page lists no real machines"));
    await panel.getByRole("button", { name: "Add a real machine" }).click();
    const command = panel.locator(".join-command code");
    await command.waitFor().catch(() => fail("adding a machine shows no join command"));
    const words = (await command.textContent()).trim().split(/\s+/);
    if (words[0] !== "kubelab-agent") fail(`the join command is ${JSON.stringify(words.join(" "))}`);
    const ca = await panel.getByRole("link", { name: "the lab's CA" }).getAttribute("href");
    fs.writeFileSync(path.join(dataDir, "kubelab-ca.crt"), Buffer.from(ca.split(",")[1], "base64"));
    // The page's command, as an instructor would paste it on a machine, plus where this
    // machine's pods listen (loopback: no namespaces here).
    agent = spawn(agentBinary, [...words.slice(1), "--name", "e2e-machine", "--guest", guest, "--address", "127.0.0.1",
      "--kubelet-port", "0", "--pod-network", "none", "--pod-cidr", "127.99.0.0/24"],
      { cwd: dataDir, stdio: ["ignore", "ignore", "inherit"] });
    await panel.locator("tr", { hasText: "e2e-machine" }).filter({ hasText: "Ready (KubeletReady)" }).waitFor({ timeout: 30_000 })
      .catch(() => fail("the machine that joined is not listed Ready"));
    await panel.getByText(/CPU used on real machines: [0-9.]+ of 3600 CPU-seconds/).waitFor()
      .catch(() => fail("the panel shows no CPU quota meter"));
    await panel.getByLabel("Quota (CPU-seconds)").fill("120");
    await panel.getByRole("button", { name: "Set quota" }).click();
    await panel.getByText(/of 120 CPU-seconds/).waitFor({ timeout: 10_000 })
      .catch(() => fail("setting the CPU quota to 120 s does not show on the meter"));
    for (const [who, page] of Object.entries({ teacher, learner })) {
      await page.locator("[data-node='e2e-machine']").first().waitFor()
        .catch(() => fail(`the ${who}'s page does not draw the machine's node`));
    }
    await sameCluster(teacher, learner);
  }, { teacher, learner });

  if (pageErrors.length > 0) fail(`the pages logged errors:\n  ${pageErrors.join("\n  ")}`);
  console.log(`class e2e: ${steps.length} steps passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${path.relative(root, artifacts)}/class-*.png`);
} catch (error) {
  if (!process.exitCode) {
    console.error(`class e2e: FAIL: ${error.message}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close().catch(() => {});
  agent?.kill("SIGKILL");
  child.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
