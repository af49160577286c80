import { test } from "node:test";
import * as assert from "node:assert/strict";
import { CrashPolicy, Quiescence } from "../src/status";

test("waits for the next quiescent notification", async () => {
  const q = new Quiescence();
  const mark = q.mark();
  const waiting = q.waitSince(mark, 10_000, 10_000);
  q.update(false);
  q.update(true);
  assert.equal(await waiting, true);
});

test("a quiescent notification before the mark does not count", async () => {
  const q = new Quiescence();
  q.update(true);
  const mark = q.mark();
  q.update(false);
  // Busy and nothing new: the wait times out (short limits, no real delay).
  assert.equal(await q.waitSince(mark, 20, 10_000), false);
});

test("already quiescent and silent: done after the grace period", async () => {
  const q = new Quiescence();
  assert.equal(await q.waitSince(q.mark(), 10_000, 10), true);
});

test("a finished check between request and wait is seen", async () => {
  const q = new Quiescence();
  const mark = q.mark();
  q.update(false);
  q.update(true);
  assert.equal(await q.waitSince(mark, 10_000, 10_000), true);
});

test("crashes restart until the limit within the window", () => {
  const p = new CrashPolicy(2, 1000);
  assert.equal(p.crashed(0).restart, true);
  assert.equal(p.crashed(10).restart, true);
  const third = p.crashed(20);
  assert.equal(third.restart, false);
  assert.match(third.message, /crashed 3 times/);
  assert.match(third.message, /zeno\.path/);
  // Old crashes leave the window.
  assert.equal(p.crashed(5000).restart, true);
});
