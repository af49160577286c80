// Trace stepping through the editor API, with a mocked `vscode` module.
import { state, FakeEditor } from "./mock-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { TraceUi, traceTarget } from "../src/traceUi";
import { response } from "./fixtures";

const URI = "file:///models/fischer-buggy.zeno";

function setup(answer: unknown = response) {
  const asked: [string, string][] = [];
  const ui = new TraceUi(async (uri, check) => {
    asked.push([uri, check]);
    return answer;
  });
  state.editor = new FakeEditor({
    uri: { toString: () => URI },
    languageId: "zeno",
    getText: () => "\n".repeat(20) + "check mutex: A[] !(P(1).cs && P(2).cs);\n",
  });
  state.messages = [];
  return { ui, asked };
}

const at = (e: FakeEditor | undefined) => e && [e.selection.active.line, e.selection.active.character];

test("next moves the cursor to each step's first edge and highlights all its edges", async () => {
  const { ui, asked } = setup();
  await ui.next([URI, "mutex"]);
  assert.deepEqual(asked, [[URI, "mutex"]]);
  assert.deepEqual(at(state.editor), [10, 4]);
  assert.equal(state.editor!.decorations.length, 1);
  const answer = (await ui.next([URI, "mutex"])) as { location: { range: unknown }; state: unknown };
  assert.deepEqual(at(state.editor), [11, 4]);
  // Both edges of the synchronisation are highlighted.
  assert.deepEqual(
    state.editor!.decorations.map((r) => [r.start.line, r.end.character]),
    [
      [11, 30],
      [10, 40],
    ],
  );
  assert.deepEqual(answer.location.range, { start: { line: 11, character: 4 }, end: { line: 11, character: 30 } });
  assert.equal(asked.length, 1, "the trace is fetched once, then stepped locally");
  await ui.prev();
  assert.deepEqual(at(state.editor), [10, 4]);
});

test("without arguments, the check at the cursor is traced", async () => {
  const { ui, asked } = setup();
  await ui.next();
  assert.deepEqual(asked, [[URI, "mutex"]]);
  assert.deepEqual(at(state.editor), [10, 4]);
});

test("show reloads the trace and goes to the first step", async () => {
  const { ui, asked } = setup();
  await ui.next([URI, "mutex"]);
  await ui.next([URI, "mutex"]);
  await ui.show([URI, "mutex"]);
  assert.equal(asked.length, 2);
  assert.deepEqual(at(state.editor), [10, 4]);
});

test("clicking a step in the tree jumps to its edge", async () => {
  const { ui } = setup();
  await ui.load(URI, "mutex");
  const item = ui.tree.getTreeItem(ui.tree.getChildren()[2]) as { command: { command: string; arguments: unknown[] } };
  assert.equal(item.command.command, "zeno.goToStep");
  const [uri, check, pos] = item.command.arguments as [string, string, number];
  await ui.goTo(uri, check, pos);
  assert.deepEqual(at(state.editor), [13, 4]);
});

test("no trace: a message, no movement", async () => {
  const { ui } = setup(null);
  const before = state.editor!.selection;
  assert.equal(await ui.next([URI, "mutex"]), undefined);
  assert.equal(state.editor!.selection, before);
  assert.match(state.messages.join("\n"), /no trace for check "mutex"/);
});

test("editing the document drops its trace", async () => {
  const { ui, asked } = setup();
  await ui.next([URI, "mutex"]);
  for (const l of state.changeListeners) l({ document: state.editor!.document, contentChanges: [{}] });
  await ui.next([URI, "mutex"]);
  assert.equal(asked.length, 2, "fetched again after the edit");
  assert.deepEqual(at(state.editor), [10, 4], "and started from the first step");
});

test("a code lens's argument { uri, check } traces that check, not the one at the cursor", async () => {
  // The server's lenses send `arguments: [{ uri, check }]` (crates/lsp/src/lenses.rs).
  const { asked } = setup();
  // The server answers with the check asked for.
  const ui = new TraceUi(async (uri, check) => {
    asked.push([uri, check]);
    return { ...response, check };
  });
  await ui.next([{ uri: URI, check: "reach" }]);
  assert.deepEqual(asked, [[URI, "reach"]]);
  assert.deepEqual(at(state.editor), [10, 4]);
  await ui.show([{ uri: URI, check: "mutex" }]);
  assert.deepEqual(asked, [
    [URI, "reach"],
    [URI, "mutex"],
  ]);
  // Stepping the first check again goes on from where it was.
  await ui.next([{ uri: URI, check: "reach" }]);
  assert.deepEqual(at(state.editor), [11, 4]);
  assert.equal(asked.length, 2);
});

test("traceTarget reads both argument shapes and nothing else", () => {
  assert.deepEqual(traceTarget([URI, "mutex"]), { uri: URI, check: "mutex" });
  assert.deepEqual(traceTarget([{ uri: URI, check: "mutex" }]), { uri: URI, check: "mutex" });
  assert.equal(traceTarget([{ uri: URI }]), undefined);
  assert.equal(traceTarget([null]), undefined);
  assert.equal(traceTarget([]), undefined);
});

test("stepping in an imported model points to the debugger instead of asking the server", async () => {
  const { ui, asked } = setup();
  state.editor = new FakeEditor({
    uri: { toString: () => "file:///models/bridge.xml" },
    languageId: "xml",
    getText: () => "<nta></nta>",
  });
  assert.equal(await ui.next([]), undefined);
  assert.deepEqual(asked, []);
  assert.match(state.messages.at(-1) ?? "", /works on zeno text.*Debug Trace of a Check/);
});
