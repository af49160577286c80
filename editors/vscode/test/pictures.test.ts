// The picture panels through the editor API, with a mocked `vscode` module.
import { state, FakeEditor, FakePanel } from "./mock-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { CSP, inlineSvg, parseSvgAnswer, pictureHtml, Pictures } from "../src/pictures";
import { Quiescence } from "../src/status";
import { TraceUi } from "../src/traceUi";
import { response } from "./fixtures";

const URI = "file:///models/fischer-buggy.zeno";
const SVG = (label: string) => `<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"><text>${label}</text></svg>`;

/** A server stand-in answering every picture request with the next label. */
function server(answers: Record<string, unknown[]>) {
  const asked: [string, unknown][] = [];
  const request = async (method: string, params: unknown) => {
    asked.push([method, params]);
    const queue = answers[method] ?? [];
    return queue.length > 1 ? queue.shift() : queue[0];
  };
  return { asked, request };
}

function reset() {
  state.panels = [];
  state.messages = [];
  state.changeListeners = [];
}

const last = (p: FakePanel) => p.pages[p.pages.length - 1];

test("answers are checked and the SVG is inlined without its prolog", () => {
  assert.equal(parseSvgAnswer(null), undefined);
  assert.equal(parseSvgAnswer({ svg: 3 }), undefined);
  assert.equal(parseSvgAnswer({ svg: "not a picture" }), undefined);
  assert.deepEqual(parseSvgAnswer({ svg: "<svg/>", template: "Proc" }), { svg: "<svg/>", template: "Proc" });
  assert.equal(inlineSvg(SVG("a")), '<svg xmlns="http://www.w3.org/2000/svg"><text>a</text></svg>');
  const page = pictureHtml("t", undefined, "No <trace>");
  assert.ok(page.includes("No &lt;trace&gt;"), page);
  assert.ok(!page.includes("<script"), "no scripts");
  assert.ok(CSP.includes("default-src 'none'") && !CSP.includes("script-src"), CSP);
});

test("the timeline panel shows the trace's SVG and is redrawn on new results", async () => {
  reset();
  const { asked, request } = server({ "zeno/traceSvg": [{ svg: SVG("first") }, { svg: SVG("second") }] });
  const pictures = new Pictures(request);
  const q = new Quiescence();
  q.onQuiescent(() => void pictures.refresh());
  await pictures.showTimeline(URI, "mutex");
  assert.deepEqual(asked, [["zeno/traceSvg", { uri: URI, check: "mutex" }]]);
  assert.equal(state.panels.length, 1);
  const panel = state.panels[0];
  assert.equal(panel.options.enableScripts, false);
  assert.deepEqual(panel.options.localResourceRoots, []);
  assert.ok(last(panel).includes("<text>first</text>"), last(panel));
  assert.ok(last(panel).includes(`content="${CSP}"`), "the page carries the CSP");
  assert.ok(!last(panel).includes("<?xml"), "no XML prolog inside HTML");

  q.update(false); // busy: nothing to redraw yet
  assert.equal(asked.length, 1);
  q.update(true);
  await new Promise((r) => setImmediate(r));
  assert.equal(asked.length, 2);
  assert.ok(last(panel).includes("<text>second</text>"), last(panel));

  // Showing it again reuses the panel; a closed panel is not redrawn.
  await pictures.showTimeline(URI, "mutex");
  assert.equal(state.panels.length, 1);
  panel.dispose();
  const before = asked.length;
  await pictures.refresh();
  assert.equal(asked.length, before);
});

test("a check without a trace gets a message, not a broken page", async () => {
  reset();
  const { request } = server({ "zeno/traceSvg": [null] });
  await new Pictures(request).showTimeline(URI, "no_deadlock");
  const page = last(state.panels[0]);
  assert.ok(page.includes("No trace for check &quot;no_deadlock&quot;."), page);
  assert.ok(!page.includes("<svg"), page);
});

test("Show Automaton sends the cursor position and titles the panel by template", async () => {
  reset();
  state.editor = new FakeEditor({ uri: { toString: () => URI }, languageId: "zeno", getText: () => "" });
  const { asked, request } = server({
    "zeno/graphSvg": [{ svg: SVG("Proc(1)"), template: "Proc" }, null],
  });
  const pictures = new Pictures(request, 0);
  await pictures.showAutomaton();
  // The mock editor's cursor is on line 20, column 0.
  assert.deepEqual(asked, [["zeno/graphSvg", { uri: URI, position: { line: 20, character: 0 } }]]);
  const panel = state.panels[0];
  assert.equal(panel.title, "zeno automaton: Proc");
  assert.ok(last(panel).includes("<text>Proc(1)</text>"), last(panel));

  // An edit of the model redraws it (here the template is gone: a message).
  for (const l of state.changeListeners) l({ document: { uri: { toString: () => URI } }, contentChanges: [{}] });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(asked.length, 2);
  assert.ok(last(panel).includes("not inside a template"), last(panel));
  // An edit of another document does not.
  for (const l of state.changeListeners) l({ document: { uri: { toString: () => "file:///other.zeno" } }, contentChanges: [{}] });
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(asked.length, 2);
  pictures.dispose();
});

test("Show Automaton outside a model asks for one", async () => {
  reset();
  state.editor = new FakeEditor({ uri: { toString: () => "file:///a.txt" }, languageId: "plaintext", getText: () => "" });
  const { asked, request } = server({});
  await new Pictures(request).showAutomaton();
  assert.equal(asked.length, 0);
  assert.equal(state.panels.length, 0);
  assert.ok(state.messages.some((m) => m.includes("open a model")), state.messages.join());
});

test("Show Automaton on an imported UPPAAL or TChecker model asks the server", async () => {
  for (const [languageId, uri] of [
    ["xml", "file:///models/bridge.xml"],
    ["uppaal-xta", "file:///models/press.xta"],
    ["tchecker", "file:///models/ad94.tck"],
  ]) {
    reset();
    state.editor = new FakeEditor({ uri: { toString: () => uri }, languageId, getText: () => "" });
    const { asked, request } = server({ "zeno/graphSvg": [{ svg: SVG("Torch"), template: "Torch" }] });
    const pictures = new Pictures(request, 0);
    await pictures.showAutomaton();
    assert.deepEqual(asked, [["zeno/graphSvg", { uri, position: { line: 20, character: 0 } }]], languageId);
    assert.equal(state.panels[0].title, "zeno automaton: Torch", languageId);
    pictures.dispose();
  }
});

test("Show Timeline from the trace view draws the trace shown there", async () => {
  reset();
  const ui = new TraceUi(async () => response);
  await ui.load(URI, "mutex");
  const shown: [string, string][] = [];
  await ui.timeline([], { showTimeline: async (uri, check) => void shown.push([uri, check]) });
  assert.deepEqual(shown, [[URI, "mutex"]]);
  // Explicit arguments win.
  await ui.timeline([URI, "other"], { showTimeline: async (uri, check) => void shown.push([uri, check]) });
  assert.deepEqual(shown[1], [URI, "other"]);
});
