import { test } from "node:test";
import * as assert from "node:assert/strict";
import {
  parseTrace,
  stateText,
  stepSummary,
  stepTitle,
  TraceCursor,
  TraceStore,
  traceTree,
} from "../src/trace";
import { r, response } from "./fixtures";

test("parseTrace reads the documented shape", () => {
  const t = parseTrace("file:///m.zeno", response);
  assert.ok(t);
  assert.equal(t.uri, "file:///m.zeno");
  assert.equal(t.check, "mutex");
  assert.equal(t.verdict, "violated");
  assert.equal(t.steps.length, 3);
  assert.equal(t.steps[1].delay, "3/2");
  assert.equal(t.steps[1].edges.length, 2);
  assert.deepEqual(t.steps[1].edges[0].range, r(11, 4, 30));
  assert.deepEqual(t.steps[1].state.locations, [["P(1)", "wait"], ["P(2)", "req"]]);
  // Numbers become text, so every view prints them the same way.
  assert.deepEqual(t.steps[1].state.variables, [["id", "1"]]);
});

test("parseTrace: no trace and malformed parts", () => {
  assert.equal(parseTrace("u", null), null);
  assert.equal(parseTrace("u", { check: "x" }), null);
  const t = parseTrace("u", {
    check: "c",
    verdict: "violated",
    steps: [
      { delay: 2, edges: [{ process: "P", source: "a", target: "b" }, { range: r(1, 0, 1) }] },
      "junk",
    ],
  });
  assert.ok(t);
  // The non-object step is dropped; the edge without a range too.
  assert.equal(t.steps.length, 1);
  assert.equal(t.steps[0].index, 1);
  assert.equal(t.steps[0].delay, "2");
  assert.equal(t.steps[0].edges.length, 1);
  assert.deepEqual(t.steps[0].state, { locations: [], variables: [], clocks: [] });
});

test("parseTrace also reads states as name/value lists under `after`", () => {
  const t = parseTrace("u", {
    check: "mutex",
    verdict: "violated",
    initial: { locations: [], variables: [], clocks: [] },
    steps: [
      {
        delay: "1/2",
        edges: [{ process: "P(1)", source: "a", target: "b", range: r(3, 0, 9), selects: [] }],
        after: {
          locations: [{ name: "P(1)", value: "b" }],
          variables: [{ name: "id", value: "1" }, { value: "nameless" }],
          clocks: [{ name: "P(1).x", value: "1/2" }],
        },
      },
    ],
    end: { kind: "goal", delay: "0" },
  })!;
  assert.equal(t.steps[0].index, 1, "index defaults to the position");
  assert.deepEqual(t.steps[0].state, {
    locations: [["P(1)", "b"]],
    variables: [["id", "1"]],
    clocks: [["P(1).x", "1/2"]],
  });
});

test("step texts", () => {
  const t = parseTrace("u", response)!;
  assert.equal(stepTitle(t.steps[1]), "P(1): req → wait | P(2): idle → req");
  assert.equal(stateText(t.steps[2].state), "P(1)=cs P(2)=req id=1 P(1).x=2");
  assert.equal(stepSummary(t.steps[0]), "step 1: P(1): idle → req; P(1)=req P(2)=idle id=0 P(1).x=0");
  assert.match(stepSummary(t.steps[1]), /^step 2: delay 3\/2, /);
});

test("the cursor moves through the steps and stops at both ends", () => {
  const c = new TraceCursor(parseTrace("u", response)!);
  assert.equal(c.position, -1);
  assert.equal(c.current, undefined);
  assert.equal(c.next()?.index, 1);
  assert.equal(c.next()?.index, 2);
  assert.equal(c.next()?.index, 3);
  assert.ok(c.atEnd());
  assert.equal(c.next()?.index, 3, "next on the last step stays there");
  assert.equal(c.prev()?.index, 2);
  assert.equal(c.prev()?.index, 1);
  assert.equal(c.prev()?.index, 1, "prev on the first step stays there");
  assert.equal(c.goTo(99)?.index, 3);
});

test("prev on a fresh cursor shows the first step", () => {
  const c = new TraceCursor(parseTrace("u", response)!);
  assert.equal(c.prev()?.index, 1);
});

test("the store keeps one trace per check and forgets edited documents", () => {
  const store = new TraceStore();
  const a = parseTrace("file:///a.zeno", response)!;
  const b = parseTrace("file:///b.zeno", { ...response, check: "other" })!;
  store.set(a).next();
  store.set(b);
  assert.equal(store.active?.trace.uri, "file:///b.zeno");
  assert.equal(store.activate("file:///a.zeno", "mutex")?.position, 0, "position kept");
  assert.equal(store.active?.trace.uri, "file:///a.zeno");
  store.invalidate("file:///a.zeno");
  assert.equal(store.get("file:///a.zeno", "mutex"), undefined);
  assert.equal(store.active, undefined);
  assert.ok(store.get("file:///b.zeno", "other"));
});

test("the tree lists steps with delay and state", () => {
  const tree = traceTree(parseTrace("u", response)!);
  assert.equal(tree.length, 3);
  assert.equal(tree[1].label, "2. P(1): req → wait | P(2): idle → req");
  assert.equal(tree[1].description, "delay 3/2");
  assert.equal(tree[0].description, "", "no delay text when no time passes");
  assert.equal(tree[2].stepPosition, 2);
  const groups = tree[1].children.map((n) => n.label);
  assert.deepEqual(groups, ["delay", "locations", "variables", "clocks"]);
  const clocks = tree[1].children[3].children.map((n) => [n.label, n.description]);
  assert.deepEqual(clocks, [["P(1).x", "3/2"]]);
});

test("a lasso: the cycle is marked and next wraps round it", () => {
  // Three steps; the state after step 1 comes back after step 3, so
  // steps 2 and 3 are the cycle.
  const t = parseTrace("u", { ...response, end: { kind: "loop", delay: "0", start: 1 } })!;
  assert.equal(t.loopStart, 1);
  const c = new TraceCursor(t);
  assert.deepEqual(
    [c.next()?.index, c.next()?.index, c.next()?.index, c.next()?.index, c.next()?.index],
    [1, 2, 3, 2, 3],
  );
  const marks = traceTree(t).map((n) => n.description ?? "");
  assert.ok(!marks[0].includes("cycle"), marks[0]);
  assert.match(marks[1], /^↻ cycle starts/);
  assert.match(marks[2], /^↻ cycle/);
  // Any other end, or a start out of range, is no lasso.
  assert.equal(parseTrace("u", { ...response, end: { kind: "deadlock" } })!.loopStart, undefined);
  assert.equal(parseTrace("u", { ...response, end: { kind: "loop", start: 3 } })!.loopStart, undefined);
});
