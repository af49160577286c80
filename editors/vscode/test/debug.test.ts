// The trace debugger's launch configurations and its "Debug trace" lenses.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { debuggableChecks, resolveConfig, traceConfig } from "../src/debugConfig";

const MODEL = "check mutex: A[] !(P.a && Q.a);\ncheck live: E<> P.b;\ncheck safe: A[] true;\n";
const at = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

test("a lens on each check whose verdict has a trace or a witness", () => {
  const diagnostics = [
    { message: "violated: trace of 6 steps, 40 states explored", severity: 1, range: at(0, 6, 11) },
    { message: "holds: witness of 3 steps, 9 states explored", severity: 3, range: at(1, 6, 10) },
    { message: "holds: 12 states explored", severity: 3, range: at(2, 6, 10) },
  ];
  assert.deepEqual(
    debuggableChecks(MODEL, diagnostics).map((c) => c.name),
    ["mutex", "live"],
  );
  // A verdict kept from before the last edit is not one of this text.
  const stale = [{ ...diagnostics[0], code: "stale-check" }];
  assert.deepEqual(debuggableChecks(MODEL, stale), []);
});

test("a check's session carries the search order of the lens's verdict", () => {
  assert.deepEqual(traceConfig("/m/a.zeno", "mutex", "bfs"), {
    type: "zeno",
    request: "launch",
    name: "Debug trace of mutex",
    program: "/m/a.zeno",
    check: "mutex",
    search: "bfs",
  });
});

test("F5 without launch.json simulates the active model", () => {
  assert.deepEqual(resolveConfig({}, "/m/a.zeno"), {
    type: "zeno",
    request: "launch",
    name: "Simulate",
    program: "/m/a.zeno",
  });
  assert.equal(resolveConfig({}, undefined), undefined);
  // A launch.json entry keeps its own program and check.
  const own = resolveConfig({ type: "zeno", request: "launch", name: "x", program: "/m/b.xml", check: 0 }, "/m/a.zeno");
  assert.equal(own?.program, "/m/b.xml");
  assert.equal(own?.check, 0);
});
