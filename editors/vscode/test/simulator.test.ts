// The simulator panel with the mocked `vscode` module and a stand-in
// server: the steps it sends, the page (command links, no scripts), the
// highlights, and the messages for what cannot be done.
import { FakeEditor, state } from "./mock-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Simulator, commandLink, parseSimResult } from "../src/simulator";

const URI = "file:///m.zeno";
const edge = (line: number, source: string, target: string) => ({
  process: "P",
  source,
  target,
  range: { start: { line, character: 4 }, end: { line, character: 20 } },
});
const FIRE_A = { kind: "fire", edges: [[0, 0]], piece: 0 };

/** A server for a model where `a -> b` is enabled now and `a -> c` after 2. */
function server() {
  const calls: { method: string; params: any }[] = [];
  const request = async (method: string, params: any) => {
    calls.push({ method, params });
    if (params.trace) return { steps: [{ kind: "delay", delay: "1" }, FIRE_A, FIRE_A], state: empty(), transitions: [] };
    const steps = params.steps as any[];
    // A delay of 3 is refused: the replay stops before it.
    const ok = steps.findIndex((s) => s.kind === "delay" && s.delay === "3");
    const applied = ok < 0 ? steps : steps.slice(0, ok);
    return {
      steps: applied,
      error: ok < 0 ? undefined : `step ${ok + 1} no longer applies: the invariants forbid a delay of 3`,
      state: {
        ...empty(),
        locations: [{ name: "P", value: applied.length ? "b" : "a" }],
        locationRanges: [edge(applied.length ? 2 : 1, "", "").range],
      },
      timeline: params.timeline ? `<?xml version="1.0"?><svg>${applied.length} steps</svg>` : undefined,
      transitions: applied.length
        ? []
        : [
            { label: "P: a -> b", edges: [edge(3, "a", "b")], now: true, windows: ["[0, ∞)"], step: FIRE_A },
            { label: "P: a -> c", edges: [edge(4, "a", "c")], now: false, windows: ["[2, ∞)"] },
          ],
    };
  };
  return { calls, request };
}

function empty() {
  return { locations: [], variables: [{ name: "id", value: "0" }], clocks: [{ name: "P.x", value: "0" }], zone: [], delays: "[0, ∞)" };
}

test("answers are checked before use", () => {
  assert.equal(parseSimResult(null), undefined);
  assert.equal(parseSimResult({ steps: [] }), undefined);
  assert.ok(parseSimResult({ steps: [], transitions: [], state: empty() }));
  assert.equal(
    commandLink("zeno.simulate.fire", [2], "2. a <b>"),
    '<a class="button" href="command:zeno.simulate.fire?%5B2%5D">2. a &lt;b&gt;</a>',
  );
});

test("start, fire, back, a refused delay and a trace prefix", async () => {
  state.panels.length = 0;
  state.messages.length = 0;
  state.editor = undefined;
  const { calls, request } = server();
  const sim = new Simulator(request);
  await sim.start();
  assert.deepEqual(state.messages, ["zeno: open a model (.zeno, UPPAAL .xml or .xta, TChecker .tck) to simulate it"]);
  assert.equal(calls.length, 0);

  state.editor = new FakeEditor({ uri: { toString: () => URI }, languageId: "zeno", getText: () => "" });
  await sim.start();
  assert.deepEqual(calls.at(-1), { method: "zeno/simulate", params: { uri: URI, mode: "concrete", steps: [], timeline: true } });
  const panel = state.panels.at(-1)!;
  assert.equal(panel.options.enableScripts, false);
  assert.equal((panel.options as { enableCommandUris?: boolean }).enableCommandUris, true);
  const page = panel.webview.html;
  assert.ok(page.includes('href="command:zeno.simulate.fire?%5B1%5D">1. P: a -&gt; b</a>'), page);
  // a -> c needs a delay first: shown, not a button.
  assert.ok(page.includes('<span class="disabled">2. P: a -&gt; c</span> <span class="note">delay in [2, ∞)</span>'), page);
  assert.ok(!page.includes("<script"), page);
  assert.ok(page.includes('<div class="timeline"><svg>0 steps</svg></div>'), page);
  const highlighted = [...state.editor.decorationsByType.values()].map((rs) => rs.map((r) => r.start.line));
  assert.deepEqual(highlighted, [[3, 4], [1]], "both enabled edges, and the location `a`");

  await sim.fire(2);
  assert.equal(state.messages.at(-1), "zeno: P: a -> c cannot be taken now: delay in [2, ∞)");
  await sim.fire(7);
  assert.equal(state.messages.at(-1), "zeno: there is no transition 7");
  await sim.fire(1);
  assert.deepEqual(calls.at(-1)!.params.steps, [FIRE_A]);
  assert.deepEqual(sim.currentSteps, [FIRE_A]);
  assert.ok(panel.webview.html.includes("<li>1. P: a -&gt; b</li>"), panel.webview.html);
  assert.ok(panel.webview.html.includes("<svg>1 steps</svg>"), "the timeline grows");
  assert.equal(state.panels.length, 1, "one panel, redrawn");

  await sim.back();
  assert.deepEqual(calls.at(-1)!.params.steps, []);
  await sim.back();
  assert.equal(state.messages.at(-1), "zeno: already at the initial state");

  await sim.delay("3");
  assert.deepEqual(calls.at(-1)!.params.steps, [{ kind: "delay", delay: "3" }]);
  assert.equal(state.messages.at(-1), "zeno: step 1 no longer applies: the invariants forbid a delay of 3");
  assert.deepEqual(sim.currentSteps, [], "the refused delay is not kept");

  // Simulate from step 1 of a trace: its delay and first transition.
  await sim.fromTrace(URI, "mutex", 1);
  assert.deepEqual(calls.at(-2)!.params, { uri: URI, mode: "concrete", trace: "mutex" });
  assert.deepEqual(calls.at(-1)!.params.steps, [{ kind: "delay", delay: "1" }, FIRE_A]);
});

test("an imported UPPAAL model is simulated too; a plain-text editor is not", async () => {
  state.panels.length = 0;
  state.messages.length = 0;
  const { calls, request } = server();
  const sim = new Simulator(request);
  state.editor = new FakeEditor({ uri: { toString: () => "file:///a.txt" }, languageId: "plaintext", getText: () => "" });
  await sim.start();
  assert.equal(calls.length, 0);
  assert.match(state.messages.at(-1) ?? "", /open a model/);
  const xml = "file:///models/bridge.xml";
  state.editor = new FakeEditor({ uri: { toString: () => xml }, languageId: "xml", getText: () => "" });
  await sim.start("symbolic");
  assert.deepEqual(calls.at(-1), { method: "zeno/simulate", params: { uri: xml, mode: "symbolic", steps: [], timeline: false } });
  sim.dispose();
});
