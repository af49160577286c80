import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkOutcome, findChecks, verdictStatus } from "../src/checks";
import { parseTrace } from "../src/trace";

const r = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

test("findChecks on the Fischer model", () => {
  // Test files run from out/test; the model is at the repository root.
  const model = path.join(__dirname, "..", "..", "..", "..", "models", "fischer-buggy.zeno");
  const checks = findChecks(fs.readFileSync(model, "utf8"));
  // `check mutex:` etc. are the last three lines; the header comment's
  // "expect mutex: ..." lines are not checks.
  assert.deepEqual(
    checks.map((c) => c.name),
    ["mutex", "can_enter", "no_deadlock"],
  );
  assert.deepEqual(checks[0].range, r(47, 6, 11));
  assert.deepEqual(checks[2].range, r(49, 6, 17));
});

test("findChecks skips comments and finds indented checks", () => {
  const text = "/* check a: A[] true; */\n// check b: A[] true;\n  check   c :E<> true; check d: A[] x;";
  const checks = findChecks(text);
  assert.deepEqual(checks.map((c) => c.name), ["c", "d"]);
  assert.deepEqual(checks[0].range, r(2, 10, 11));
  assert.deepEqual(checks[1].range, r(2, 29, 30));
});

test("verdict words", () => {
  assert.equal(verdictStatus("holds"), "passed");
  assert.equal(verdictStatus("violated"), "failed");
  assert.equal(verdictStatus("fails"), "failed");
  assert.equal(verdictStatus("model error: index out of range"), "errored");
  assert.equal(verdictStatus("unknown (state limit)"), "skipped");
  assert.equal(verdictStatus("?"), undefined);
});

test("outcome from the diagnostics when there is no trace", () => {
  const check = { name: "mutex", range: r(47, 6, 11) };
  const violated = { message: "violated: trace of 6 steps, 120 states explored", severity: 1, range: r(47, 6, 11) };
  const elsewhere = { message: "violated: trace of 2 steps", severity: 1, range: r(48, 6, 15) };
  assert.deepEqual(checkOutcome(check, null, [violated, elsewhere]), { status: "failed", message: violated.message });
  assert.deepEqual(checkOutcome(check, null, [elsewhere]), { status: "passed", message: "holds" });
  const limit = { message: "unknown: state limit reached", severity: 2, range: r(47, 6, 11) };
  assert.equal(checkOutcome(check, null, [limit]).status, "skipped");
  const broken = { message: "index out of range", severity: 1, range: r(47, 0, 40) };
  assert.equal(checkOutcome(check, null, [broken]).status, "errored");
  const holds = { message: "holds: 120 states explored", severity: 3, range: r(47, 6, 11) };
  assert.deepEqual(checkOutcome(check, null, [holds]), { status: "passed", message: holds.message });
  const noWitness = { message: "fails: no reachable state satisfies it", severity: 1, range: r(47, 6, 11) };
  assert.equal(checkOutcome(check, null, [noWitness]).status, "failed");
  const modelError = { message: "model error: id = 4 out of range", severity: 1, range: r(47, 6, 11) };
  assert.equal(checkOutcome(check, null, [modelError]).status, "errored");
});

test("a verdict kept from before the last edit is not the check's outcome", () => {
  const check = { name: "mutex", range: r(47, 6, 11) };
  const stale = {
    message: "violated: trace of 6 steps, 120 states explored (not re-checked: the model has errors)",
    severity: 1,
    range: r(47, 6, 11),
    code: "stale-check",
  };
  assert.equal(checkOutcome(check, null, [stale]).status, "passed");
  const broken = { message: "index out of range", severity: 1, range: r(47, 0, 40) };
  assert.equal(checkOutcome(check, null, [stale, broken]).status, "errored");
});

test("the trace's verdict wins: a witness of E<> passes", () => {
  const check = { name: "can_enter", range: r(48, 6, 15) };
  const witness = parseTrace("u", { check: "can_enter", verdict: "holds", steps: [{ edges: [] }] });
  assert.deepEqual(checkOutcome(check, witness, []), { status: "passed", message: "holds: trace of 1 steps" });
});
