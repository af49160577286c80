// What a person sees of the extension in a real VS Code (code-server) in a
// real browser (Chromium): run by run.sh, which starts code-server with the
// .vsix installed and a workspace holding fischer-buggy.zeno, lamp.zeno,
// coffee.xml and bridge.xml with its query file bridge.q. The expected lines and verdicts come from the models'
// comments (worked out by hand), not from the server. Each step saves a
// screenshot to ZENO_E2E_SHOTS.
"use strict";

const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { createRequire } = require("node:module");

const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this through run.sh`);
  return v;
};
const { chromium } = createRequire(path.join(env("ZENO_E2E_MODULES"), "index.js"))("playwright-core");
const workspace = env("ZENO_E2E_WORKSPACE");
const shots = env("ZENO_E2E_SHOTS");

/** Bounded waits: the first verdict needs the server started and a check run. */
const SERVER = 90_000;
const UI = 20_000;

let browser;
let page;

/** The 1-based line of the first line of `file` (in the workspace) matching `re`. */
function lineOf(file, re) {
  const lines = fs.readFileSync(path.join(workspace, file), "utf8").split("\n");
  const i = lines.findIndex((l) => re.test(l));
  assert.ok(i >= 0, `${file}: no line matches ${re}`);
  return i + 1;
}

async function shot(name) {
  await page.waitForTimeout(300); // let the last paint land
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/** Runs a command from the command palette by its title. */
async function command(title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: UI });
  await input.fill(`>${title}`);
  // The row titled exactly so, not whichever the palette puts first; else
  // one whose title starts so ("View: Focus Problems (Errors, ...)").
  const quoted = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const titled = (re) =>
    page.locator(".quick-input-list .monaco-list-row", { has: page.locator(".label-name", { hasText: re }) }).first();
  const exact = titled(new RegExp(`^${quoted}$`));
  const prefix = titled(new RegExp(`^${quoted}`));
  await prefix.waitFor({ timeout: UI });
  await ((await exact.count()) > 0 ? exact : prefix).click();
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: UI });
}

/** Opens a workspace file with Quick Open and waits for its editor. */
async function open(file) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: UI });
  await input.fill(file);
  // Click the file's row: Enter would take the highlighted row, which is
  // the most recent editor until the list has been filtered (a race).
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: file }).first();
  await row.waitFor({ timeout: UI });
  await row.click();
  await page.locator(`.tab.active[aria-label^="${file}"]`).first().waitFor({ timeout: UI });
  // In the editor area: other widgets (a panel's input) are editors too, hidden ones.
  await page.locator(".part.editor .monaco-editor .view-lines").first().waitFor({ timeout: UI });
}

/** Hides the bottom panel (Problems, Test Results), making room for the editor. */
async function hidePanel() {
  if (await page.locator(".part.panel").isVisible()) await command("View: Hide Panel");
}

/** Moves the cursor to a line (Go to Line), which also scrolls it into view. */
async function goToLine(line) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: UI });
  await input.fill(`:${line}`);
  await input.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: UI });
  await expectCursorOn(line, "Go to Line");
}

/** The cursor's line, from the status bar ("Ln 12, Col 5"). */
async function cursorLine() {
  const text = await page.locator(".statusbar-item", { hasText: /^Ln \d+, Col \d+/ }).first().innerText();
  return Number(/Ln (\d+)/.exec(text)[1]);
}

async function expectCursorOn(line, what) {
  const deadline = Date.now() + UI;
  let now = await cursorLine();
  while (now !== line && Date.now() < deadline) {
    await page.waitForTimeout(100);
    now = await cursorLine();
  }
  assert.equal(now, line, `${what}: the cursor is on line ${now}, expected ${line}`);
}

/** The lens links over a check (`check NAME:`), found by the status lens's neighbours. */
function lens(check, title) {
  // Each lens line is one .codelens-decoration; the one over `check NAME`
  // sits right before that line, so find it through the view line order.
  return page.locator(`.codelens-decoration[data-zeno-check="${check}"] a`, { hasText: title });
}

/**
 * Marks each code-lens line with the check it stands over, read from the
 * editor's lines: a lens decoration is laid out just above its line.
 */
async function tagLenses() {
  await page.evaluate(() => {
    const lines = [...document.querySelectorAll(".monaco-editor .view-lines .view-line")].map((l) => ({
      top: l.getBoundingClientRect().top,
      text: l.textContent.replace(/\u00a0/g, " "),
    }));
    for (const d of document.querySelectorAll(".codelens-decoration")) {
      const bottom = d.getBoundingClientRect().bottom;
      const below = lines.filter((l) => l.top >= bottom - 2).sort((a, b) => a.top - b.top)[0];
      const m = below && /^\s*check\s+([A-Za-z_]\w*)\s*:/.exec(below.text);
      if (m) d.setAttribute("data-zeno-check", m[1]);
    }
  });
}

async function waitForLens(check, re, timeout = SERVER) {
  const deadline = Date.now() + timeout;
  for (;;) {
    await tagLenses();
    const text = await page
      .locator(`.codelens-decoration[data-zeno-check="${check}"]`)
      .first()
      .innerText({ timeout: 500 })
      .catch(() => "");
    if (re.test(text)) return text;
    if (Date.now() > deadline) assert.fail(`no code lens matching ${re} over check ${check} (it reads "${text}")`);
    await page.waitForTimeout(250);
  }
}

async function clickLens(check, title) {
  await tagLenses();
  await lens(check, title).first().click();
}

/** Text of the Problems panel (opened if needed). */
async function problems() {
  const panel = page.locator(".markers-panel");
  if (!(await panel.isVisible())) await command("View: Focus Problems");
  await panel.waitFor({ timeout: UI });
  return panel.innerText();
}

async function waitForProblems(predicate, what, timeout = SERVER) {
  const deadline = Date.now() + timeout;
  let text = "";
  while (Date.now() < deadline) {
    text = await problems();
    if (predicate(text)) return text;
    await page.waitForTimeout(500);
  }
  assert.fail(`${what}: the Problems panel reads:\n${text}`);
}

/** Waits until the Testing view shows each check with the given state ("passed", "failed"). */
async function expectTestStates(expected) {
  // Each row's label and the classes of its state icon.
  const states = () =>
    page.evaluate(() =>
      [...document.querySelectorAll(".test-explorer .monaco-list-row")].map((r) => ({
        label: r.querySelector(".label, .monaco-icon-label")?.textContent?.trim() ?? r.textContent,
        icon: [...r.querySelectorAll("[class*='codicon-testing-']")].map((e) => e.className).join(" "),
      })),
    );
  const shown = async () => {
    const rows = await states();
    return Object.entries(expected).every(([name, state]) =>
      rows.some((r) => r.label.startsWith(name) && r.icon.includes(`testing-${state}-icon`)),
    );
  };
  const until = Date.now() + SERVER;
  while (!(await shown()) && Date.now() < until) await page.waitForTimeout(250);
  assert.ok(await shown(), `the Testing view shows: ${JSON.stringify(await states())}`);
}

/** The frame of a webview whose document matches `selector` and `hasText`. */
async function webview(selector, hasText) {
  const deadline = Date.now() + UI;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = frame.locator(selector, hasText ? { hasText } : {});
      if ((await found.count().catch(() => 0)) > 0) return frame;
    }
    await page.waitForTimeout(250);
  }
  assert.fail(`no webview shows ${selector}${hasText ? ` with "${hasText}"` : ""}`);
}

before(async () => {
  browser = await chromium.launch({
    executablePath: env("ZENO_E2E_CHROMIUM"),
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
  page = await context.newPage();
  await page.goto(env("ZENO_E2E_URL"));
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  await page.locator(".explorer-folders-view .monaco-list-row", { hasText: "fischer-buggy.zeno" }).waitFor({ timeout: 60_000 });
});

after(async () => {
  await browser?.close();
});

const mutexLine = () => lineOf("fischer-buggy.zeno", /^check mutex:/);

// The steps build on each other (the server's first verdict above all):
// after a failure the rest are skipped, so a broken server fails fast.
let broken;
function step(name, fn) {
  test(name, async (t) => {
    if (broken) return t.skip(`"${broken}" failed`);
    try {
      await fn();
    } catch (e) {
      broken = name;
      await shot(`failed-${name.replace(/\W+/g, "-")}`).catch(() => {});
      throw e;
    }
  });
}

step("the violation of mutex is in the Problems panel", async () => {
  await open("fischer-buggy.zeno");
  // With zeno.search = bfs the trace is the shortest, 6 steps (the model's comment).
  const text = await waitForProblems((t) => /violated: trace of 6 steps/.test(t), "no violation of mutex");
  assert.match(text, /fischer-buggy\.zeno/);
  // Every step of the trace is related information of the diagnostic.
  assert.match(text, /step 6 of 6: Proc\(\d\) wait → cs/);
  await shot("problems");
  await hidePanel();
});

step("code lenses over the checks say their verdicts", async () => {
  await goToLine(mutexLine());
  await waitForLens("mutex", /violated — trace of 6 steps/);
  const mutex = await waitForLens("mutex", /Step through/, UI);
  assert.match(mutex, /Show trace/);
  // can_enter's witness: 3 steps (the model's comment); no_deadlock holds.
  assert.match(await waitForLens("can_enter", /holds — witness of 3 steps/, UI), /Show trace/);
  await waitForLens("no_deadlock", /holds/, UI);
  await shot("lenses");
});

step("Step through moves the cursor along the trace", async () => {
  const idleReq = lineOf("fischer-buggy.zeno", /^\s*idle -> req/);
  const waitCs = lineOf("fischer-buggy.zeno", /^\s*wait -> cs/);
  await clickLens("mutex", "Step through");
  // Every run starts with some idle -> req (the only edge enabled at first).
  await expectCursorOn(idleReq, "step 1 of mutex");
  await shot("step-1");
  for (let i = 2; i <= 6; i++) await page.keyboard.press("Alt+]");
  // The last step puts the second process into cs.
  await expectCursorOn(waitCs, "step 6 of mutex");
  await shot("step-6");
});

step("the zeno Trace view lists the steps", async () => {
  await command("View: Show Explorer");
  const header = page.locator(".pane-header", { hasText: /zeno Trace/i });
  await header.waitFor({ timeout: UI });
  if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
  const view = page.locator(".pane", { has: header });
  const rows = view.locator(".monaco-list-row");
  const deadline = Date.now() + UI;
  while ((await rows.count()) < 6 && Date.now() < deadline) await page.waitForTimeout(200);
  const labels = await rows.allInnerTexts();
  for (let i = 1; i <= 6; i++) {
    assert.ok(labels.some((l) => l.startsWith(`${i}. `)), `no step ${i} in the trace view: ${labels.join(" | ")}`);
  }
  assert.ok(labels.some((l) => /idle → req/.test(l)), labels.join(" | "));
  await shot("trace-view");
});

step("Show Timeline draws the trace", async () => {
  await command("zeno: Show Timeline");
  const frame = await webview("svg");
  assert.ok((await frame.locator("svg text").count()) > 0, "the timeline has no text");
  await page.locator(".tab", { hasText: "zeno timeline: mutex" }).waitFor({ timeout: UI });
  await shot("timeline");
});

step("Show Automaton draws the template under the cursor", async () => {
  await open("fischer-buggy.zeno");
  await goToLine(lineOf("fischer-buggy.zeno", /^\s*clock x;/));
  await command("zeno: Show Automaton");
  await page.locator(".tab", { hasText: "zeno automaton: Proc" }).waitFor({ timeout: UI });
  await webview("svg text", "wait");
  await shot("automaton");
});

step("the simulator panel takes a transition", async () => {
  await open("fischer-buggy.zeno");
  await command("zeno: Simulate");
  const frame = await webview("a.button", "idle -> req");
  const before = await frame.locator("body").innerText();
  assert.match(before, /Proc\(1\)\.idle|Proc\(1\): idle/);
  await frame.locator("a.button", { hasText: "Proc(1): idle -> req" }).first().click();
  const deadline = Date.now() + UI;
  let after = before;
  while (Date.now() < deadline) {
    const f = await webview("a.button");
    after = await f.locator("body").innerText().catch(() => before);
    if (/req -> wait/.test(after)) break;
    await page.waitForTimeout(250);
  }
  assert.match(after, /req -> wait/, `after taking idle -> req the simulator shows:\n${after}`);
  await shot("simulator");
});

step("the Testing view lists each check", async () => {
  await command("Testing: Focus on Test Explorer View");
  const tree = page.locator(".test-explorer .monaco-list");
  await tree.waitFor({ timeout: UI });
  const deadline = Date.now() + UI;
  let text = "";
  while (Date.now() < deadline) {
    // Expand everything so the checks under each file show.
    await page.locator(".test-explorer .monaco-tl-twistie.collapsed").first().click({ timeout: 500 }).catch(() => {});
    text = await tree.innerText();
    if (["mutex", "can_enter", "no_deadlock", "too_bright", "door_opens"].every((c) => text.includes(c))) break;
    await page.waitForTimeout(250);
  }
  for (const c of ["mutex", "can_enter", "no_deadlock"]) assert.ok(text.includes(c), `no ${c} in the Testing view:\n${text}`);
  // Running them: mutex fails, the other two pass (the model's comment).
  await command("Test: Run All Tests");
  await expectTestStates({ mutex: "failed", can_enter: "passed", no_deadlock: "passed" });
  await shot("testing");
});

step("each lens of lamp.zeno shows its own check's trace or witness", async () => {
  await command("View: Close All Editor Groups");
  await hidePanel();
  await open("lamp.zeno");
  // By hand (the model's comment): too_bright off -> low, low -> bright;
  // door_opens closed -> open.
  const offLow = lineOf("lamp.zeno", /^\s*off -> low/);
  const lowBright = lineOf("lamp.zeno", /^\s*low -> bright/);
  const closedOpen = lineOf("lamp.zeno", /^\s*closed -> open/);
  await goToLine(lineOf("lamp.zeno", /^check door_opens:/));
  await waitForLens("too_bright", /violated — trace of 2 steps/);
  await waitForLens("door_opens", /holds — witness of 1 steps?/, UI);
  const brightCheck = lineOf("lamp.zeno", /^check too_bright:/);
  const doorCheck = lineOf("lamp.zeno", /^check door_opens:/);
  // Before each click the cursor is on the other check: the lens, not the
  // cursor, says which check to trace.
  const click = async (check, title) => {
    await goToLine(check === "door_opens" ? brightCheck : doorCheck);
    await clickLens(check, title);
  };
  await click("door_opens", "Show trace");
  await expectCursorOn(closedOpen, "door_opens: Show trace");
  await click("too_bright", "Step through");
  await expectCursorOn(offLow, "too_bright: Step through");
  await click("too_bright", "Step through");
  await expectCursorOn(lowBright, "too_bright: Step through again");
  await click("door_opens", "Step through");
  await expectCursorOn(closedOpen, "door_opens: Step through");
  await click("too_bright", "Show trace");
  await expectCursorOn(offLow, "too_bright: Show trace");
  await shot("lamp-lenses");
});

step("Debug trace steps through mutex's counterexample in the debugger", async () => {
  await command("View: Close All Editor Groups");
  await hidePanel();
  await open("fischer-buggy.zeno");
  await goToLine(mutexLine());
  await waitForLens("mutex", /Debug trace/);
  await clickLens("mutex", "Debug trace");
  // The session stops at the initial state: every process in `idle`, the
  // top frame's line, in the Call Stack one thread per process.
  const idle = lineOf("fischer-buggy.zeno", /^\s*init location idle/);
  await expectCursorOn(idle, "the debugger's entry stop");
  const stack = page.locator(".debug-call-stack");
  await stack.locator(".monaco-list-row", { hasText: "Proc(3)" }).first().waitFor({ timeout: UI });
  const variables = page.locator(".debug-variables");
  await variables.locator(".monaco-list-row", { hasText: "(state)" }).first().waitFor({ timeout: UI });
  // Step Over (F10): one transition, some process idle -> req (the only
  // edge enabled at first), so the top frame moves to `location req`.
  await page.keyboard.press("F10");
  const req = lineOf("fischer-buggy.zeno", /^\s*location req/);
  await expectCursorOn(req, "after one step in the debugger");
  await variables.locator(".monaco-list-row", { hasText: /1 of 6, by Proc\(\d\): idle -> req/ })
    .first().waitFor({ timeout: UI });
  await stack.locator(".monaco-list-row", { hasText: "via idle -> req" }).first().waitFor({ timeout: UI });
  await shot("debugger");
  // Continue (F5) runs to the trace's end: the violation, shown as an
  // exception at the second process's `cs`.
  await page.keyboard.press("F5");
  const cs = lineOf("fischer-buggy.zeno", /^\s*location cs;/);
  await expectCursorOn(cs, "the end of mutex's trace");
  await page.locator(".zone-widget, .exception-widget", { hasText: "so `mutex` (A[] !(Proc(1).cs && Proc(2).cs)) is violated" }).first()
    .waitFor({ timeout: UI });
  // The clocks with their zone bounds; the violation as a watch expression
  // typed into the Debug Console (evaluated in the state).
  // Expanded unless it is already (VS Code may have expanded it itself).
  const clocks = variables.locator(".monaco-list-row", { hasText: "Clocks" }).first();
  if ((await clocks.getAttribute("aria-expanded")) !== "true") await clocks.click();
  await variables.locator(".monaco-list-row", { hasText: "Proc(3).x" }).first().waitFor({ timeout: UI });
  await page.locator(".repl-input-wrapper .monaco-editor").first().click();
  await page.keyboard.type("Proc(1).cs && Proc(2).cs");
  await page.keyboard.press("Enter");
  await page.locator(".repl .monaco-list-row", { hasText: /^true$/ }).first().waitFor({ timeout: UI });
  await shot("debugger-violation");
  await page.keyboard.press("Shift+F5");
  await stack.locator(".monaco-list-row", { hasText: "Proc(3)" }).first().waitFor({ state: "detached", timeout: UI });
  // Back to the Testing view, where the steps before left the side bar
  // (the next step reads the checks' states there).
  await command("Testing: Focus on Test Explorer View");
});

step("fixing the model by an edit turns mutex to holds", async () => {
  await command("View: Close All Editor Groups");
  await hidePanel();
  await open("fischer-buggy.zeno");
  await goToLine(lineOf("fischer-buggy.zeno", /^\s*wait -> cs/));
  // Find the buggy guard (the find selects it), close the find widget and
  // type the correct one over the selection.
  await page.keyboard.press("Control+F");
  const find = page.locator(".find-widget .find-part textarea, .find-widget .find-part input").first();
  await find.waitFor({ timeout: UI });
  await find.fill("x >= K && id == pid");
  await page.locator(".find-widget .matchesCount", { hasText: "1 of 1" }).waitFor({ timeout: UI });
  await find.press("Enter");
  await page.keyboard.press("Escape");
  await page.keyboard.type("x > K && id == pid");
  const fixed = lineOf("fischer-buggy.zeno", /^\s*wait -> cs/);
  // The editor paints the typed text a moment after the keys: read the line
  // until it shows them (bounded).
  const line = page.locator(".monaco-editor .view-line", { hasText: "wait -> cs" }).first();
  const deadline = Date.now() + UI;
  let text = await line.innerText();
  while (!/when x > K && id == pid;/.test(text.replace(/\u00a0/g, " ")) && Date.now() < deadline) {
    await page.waitForTimeout(100);
    text = await line.innerText();
  }
  assert.match(text.replace(/\u00a0/g, " "), /when x > K && id == pid;/, `line ${fixed} reads: ${text}`);
  await goToLine(mutexLine());
  await waitForLens("mutex", /✓ holds/);
  // Run again, the Testing view turns mutex to passed too.
  await command("Test: Run All Tests");
  await expectTestStates({ mutex: "passed", can_enter: "passed", no_deadlock: "passed" });
  await shot("fixed");
  await waitForProblems((t) => !/violated/.test(t), "mutex is still violated after the fix");
  await shot("fixed-problems");
});

step("an imported UPPAAL model gets its queries' verdicts", async () => {
  await open("coffee.xml");
  // coffee.xml's comments: `fails_user_may_think_forever` and `no` fail,
  // the other four hold (tests/it/import_case_studies.rs).
  const verdicts = (t) => ({
    hold: (t.match(/\bholds: /g) ?? []).length,
    fail: (t.match(/\b(violated|fails): /g) ?? []).length,
  });
  const text = await waitForProblems((t) => /coffee\.xml/.test(t) && verdicts(t).hold + verdicts(t).fail === 6,
    "not six verdicts for coffee.xml");
  assert.deepEqual(verdicts(text), { hold: 4, fail: 2 }, text);
  await shot("uppaal-xml");
});

/**
 * The diagnostics the Problems panel lists under `file`: each row's text
 * and its line ("[Ln 6, Col 1]").
 */
async function problemsOf(file) {
  await problems();
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll(".markers-panel .monaco-list-row")].map((r) => ({
      level: r.getAttribute("aria-level"),
      text: r.innerText.replace(/\s+/g, " "),
    })),
  );
  const found = [];
  let current = "";
  for (const r of rows) {
    if (r.level === "1") current = r.text;
    else if (current.startsWith(file)) {
      const m = /\[Ln (\d+), Col \d+\]/.exec(r.text);
      if (m) found.push({ line: Number(m[1]), text: r.text });
    }
  }
  return found;
}

async function waitForProblemsOf(file, predicate, what) {
  const deadline = Date.now() + SERVER;
  let found = [];
  while (Date.now() < deadline) {
    found = await problemsOf(file);
    if (predicate(found)) return found;
    await page.waitForTimeout(500);
  }
  assert.fail(`${what}: the Problems panel lists for ${file}:\n${found.map((f) => `${f.line}: ${f.text}`).join("\n")}`);
}

step("an imported UPPAAL model's automaton, and the verdicts of its query file", async () => {
  await command("View: Close All Editor Groups");
  await hidePanel();
  await open("bridge.xml");
  // The cursor inside the template Torch: its automaton, with its locations.
  await goToLine(lineOf("bridge.xml", /<name>Torch<\/name>/));
  await command("zeno: Show Automaton");
  await page.locator(".tab", { hasText: "zeno automaton: Torch" }).waitFor({ timeout: UI });
  await webview("svg text", "choose");
  await shot("uppaal-automaton");

  // bridge.q beside it: crossing in under 60 minutes is impossible (its
  // comment works it out; EXPECTED: line6 fails), so its line has an error.
  await command("View: Close All Editor Groups");
  await open("bridge.q");
  const faster = lineOf("bridge.q", /time < 60$/);
  await waitForProblemsOf(
    "bridge.q",
    (rows) => rows.some((r) => r.line === faster && /fails: no reachable state/.test(r.text)),
    `no failed verdict on line ${faster} of bridge.q`,
  );
  await shot("uppaal-query");

  // An edit in the editor is checked (the client serves .q files): with
  // `<=` it is the question of line 4, which holds (18 steps, EXPECTED).
  await goToLine(faster);
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type("=");
  // Its verdict where the editor shows it (the Problems panel lists line
  // 4's witness steps first, past its height): Go to Next Problem (F8)
  // from the line above opens the edited line's diagnostic.
  const deadline = Date.now() + SERVER;
  let shown = "";
  let line = 0;
  while (Date.now() < deadline) {
    await page.keyboard.press("Escape");
    await goToLine(faster - 1);
    await page.keyboard.press("F8");
    shown = await page.locator(".marker-widget").first().innerText({ timeout: 2000 }).catch(() => "");
    line = await cursorLine();
    if (line === faster && /holds: witness of \d+ steps/.test(shown)) break;
    await page.waitForTimeout(500);
  }
  assert.equal(line, faster, `F8 went to line ${line}, showing: ${shown}`);
  assert.match(shown, /holds: witness of \d+ steps/, `the edited line ${faster} of bridge.q`);
  await shot("uppaal-query-edited");
});
