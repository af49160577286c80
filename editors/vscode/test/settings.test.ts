import { test } from "node:test";
import * as assert from "node:assert/strict";
import { needsRestart, serverCommand, serverPayload, serverSettings } from "../src/settings";

const getter = (values: Record<string, unknown>) => (key: string) => values[key];

test("valid settings are passed under the key zeno", () => {
  const payload = serverPayload(
    getter({ search: "astar", heuristic: "hl", maxStates: 1000, timeoutSeconds: 2.5, checkOn: "save", debounceMs: 0 }),
  );
  assert.deepEqual(payload, {
    zeno: {
      search: "astar",
      heuristic: "hl",
      maxStates: 1000,
      timeoutSeconds: 2.5,
      checkOn: "save",
      debounceMs: 0,
    },
  });
});

test("every heuristic of the checker, the causal graph's included", () => {
  assert.deepEqual(serverPayload(getter({ heuristic: "hcg" })), { zeno: { heuristic: "hcg" } });
});

test("both subsumptions pass, another is reported", () => {
  assert.deepEqual(serverPayload(getter({ subsume: "alu" })), { zeno: { subsume: "alu" } });
  const { settings, problems } = serverSettings(getter({ subsume: "simulation" }));
  assert.deepEqual(settings, {});
  assert.deepEqual(problems, ['zeno.subsume: expected inclusion|alu, got "simulation"']);
});

test("nonZeno is a boolean", () => {
  assert.deepEqual(serverPayload(getter({ nonZeno: true })), { zeno: { nonZeno: true } });
  const { settings, problems } = serverSettings(getter({ nonZeno: "yes" }));
  assert.deepEqual(settings, {});
  assert.deepEqual(problems, ['zeno.nonZeno: expected true or false, got "yes"']);
});

test("symmetry is on or off, anything else is reported", () => {
  assert.deepEqual(serverPayload(getter({ symmetry: "off" })), { zeno: { symmetry: "off" } });
  const { settings, problems } = serverSettings(getter({ symmetry: true }));
  assert.deepEqual(settings, {});
  assert.deepEqual(problems, ["zeno.symmetry: expected on|off, got true"]);
});

test("unset settings are left to the server", () => {
  assert.deepEqual(serverPayload(getter({})), { zeno: {} });
});

test("0 means no limit, sent as null", () => {
  assert.deepEqual(serverPayload(getter({ maxStates: 0, timeoutSeconds: 0 })), {
    zeno: { maxStates: null, timeoutSeconds: null },
  });
});

test("invalid settings are dropped and reported", () => {
  const { settings, problems } = serverSettings(
    getter({ search: "best-first", heuristic: "hl", maxStates: 2.5, timeoutSeconds: -1, checkOn: "always", debounceMs: 1.5 }),
  );
  assert.deepEqual(settings, { heuristic: "hl" });
  assert.equal(problems.length, 5);
  assert.match(problems[0], /^zeno\.search: expected bfs\|dfs\|rdfs\|greedy\|astar, got "best-first"$/);
});

test("the server command", () => {
  assert.deepEqual(serverCommand(getter({})), { command: "zeno", args: ["lsp"] });
  assert.deepEqual(serverCommand(getter({ path: "  " })), { command: "zeno", args: ["lsp"] });
  assert.deepEqual(serverCommand(getter({ path: "/opt/zeno/bin/zeno" })), {
    command: "/opt/zeno/bin/zeno",
    args: ["lsp"],
  });
});

test("only a new binary path needs a restart", () => {
  assert.equal(needsRestart((s) => s === "zeno.path"), true);
  assert.equal(needsRestart((s) => s === "zeno.search"), false);
});
