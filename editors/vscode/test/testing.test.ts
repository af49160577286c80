// The checks of an open model as test items, and a run against a fake client,
// with a mocked `vscode` module.
import { state, Range, FakeTestItem, TestMessage } from "./mock-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { ChecksAsTests } from "../src/testing";
import type { ZenoClient } from "../src/client";
import { Quiescence } from "../src/status";
import { response } from "./fixtures";

const URI = "file:///models/m.zeno";
const TEXT = [
  "template P() { init location a; }", // 0
  "system P;", // 1
  "check mutex: A[] !(P(1).cs && P(2).cs);", // 2
  "check live: E<> P(1).cs;", // 3
  "check safe: A[] !deadlock;", // 4
  "check slow: E<> P(1).cs;", // 5
].join("\n");

function fakeClient() {
  const calls: string[] = [];
  const quiescence = new Quiescence();
  const client = {
    client: {},
    quiescence,
    async recheck(doc: { uri: { toString(): string } }) {
      calls.push(`recheck ${doc.uri.toString()}`);
      // The server gets busy, publishes its results, then is quiescent.
      quiescence.update(false);
      state.diagnostics.set(URI, [
        { message: "violated: trace of 3 steps, 10 states explored", severity: 0, range: new Range(2, 6, 2, 11) },
        { message: "holds: 4 states explored", severity: 2, range: new Range(4, 6, 4, 10) },
        { message: "unknown: limit reached (states), 5 states explored", severity: 2, range: new Range(5, 6, 5, 10) },
      ]);
      setTimeout(() => quiescence.update(true), 5);
    },
    async errorTrace(_uri: string, check: string) {
      calls.push(`errorTrace ${check}`);
      if (check === "mutex") return response;
      if (check === "live") return { ...response, check: "live", verdict: "holds" };
      return null;
    },
  };
  return { client: client as unknown as ZenoClient, calls };
}

function setup() {
  state.documents = [{ uri: { toString: () => URI }, languageId: "zeno", getText: () => TEXT }];
  state.diagnostics.clear();
  const { client, calls } = fakeClient();
  const tests = new ChecksAsTests(client);
  const controller = state.controller!;
  return { tests, controller, calls };
}

test("every check of an open model is a test item under its file", () => {
  const { controller } = setup();
  const file = controller.items.get(URI)!;
  assert.ok(file);
  const checks = [...file.children.map.values()];
  assert.deepEqual(
    checks.map((c) => c.label),
    ["mutex", "live", "safe", "slow"],
  );
  assert.deepEqual(
    [checks[0].range!.start.line, checks[0].range!.start.character, checks[0].range!.end.character],
    [2, 6, 11],
  );
});

test("running a model re-checks it once and reports each check", async () => {
  const { controller, calls } = setup();
  await controller.runHandler!({ include: undefined, exclude: [] }, { isCancellationRequested: false });
  assert.deepEqual(calls.filter((c) => c.startsWith("recheck")), [`recheck ${URI}`]);
  const results = controller.events.filter((e) => ["passed", "failed", "errored", "skipped"].includes(e[0]));
  assert.deepEqual(
    results.map((e) => [e[0], e[1]]),
    [
      ["failed", "mutex"],
      ["passed", "live"],
      ["passed", "safe"],
      ["skipped", "slow"],
    ],
  );
  const failed = results[0][2] as TestMessage;
  assert.match(failed.message, /^violated: trace of 3 steps/);
  assert.match(failed.message, /\nstep 2: delay 3\/2, P\(1\): req → wait/, "the trace is in the message");
  assert.equal(typeof results[0][3], "number", "a duration");
  assert.deepEqual(controller.events[controller.events.length - 1], ["end", ""]);
});

test("running one check runs only that check", async () => {
  const { controller, calls } = setup();
  const safe = controller.items.get(URI)!.children.get(`${URI}#safe`) as FakeTestItem;
  await controller.runHandler!({ include: [safe], exclude: [] }, { isCancellationRequested: false });
  assert.equal(calls.filter((c) => c.startsWith("recheck")).length, 1);
  const results = controller.events.filter((e) => ["passed", "failed", "errored", "skipped"].includes(e[0]));
  assert.deepEqual(results.map((e) => [e[0], e[1]]), [["passed", "safe"]]);
});
