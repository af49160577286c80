// Starts `zeno lsp` through vscode-jsonrpc, opens the buggy Fischer model and
// checks the protocol the extension relies on: the violation diagnostic on
// the check's name, `zeno/serverStatus`, and a `zeno/errorTrace` answer that
// parses and points at edges of the model, and the two pictures
// (`zeno/traceSvg`, `zeno/graphSvg`).
//
// ZENO_BIN selects the server; without it the protocol stand-in
// editors/test/fake-zeno is used.

import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as cp from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as rpc from "vscode-jsonrpc/node";
import { findChecks } from "../src/checks";
import { serverCommand } from "../src/settings";
import { parseSvgAnswer } from "../src/svgPage";
import { parseTrace } from "../src/trace";

const editors = path.join(__dirname, "..", "..", "..");
const server = process.env.ZENO_BIN || path.join(editors, "test", "fake-zeno");
const modelPath = path.join(editors, "..", "models", "fischer-buggy.zeno");

interface Diagnostic {
  message: string;
  severity?: number;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  relatedInformation?: { location: { uri: string; range: unknown } }[];
}

test("zeno lsp reports the violation of mutex and its trace", { timeout: 90_000 }, async () => {
  const text = fs.readFileSync(modelPath, "utf8");
  const uri = pathToFileURL(modelPath).toString();
  // Started as the extension starts it: the command line of serverCommand,
  // to which vscode-languageclient's stdio transport (the one client.ts
  // asks for) appends `--stdio`.
  const { command, args } = serverCommand((key) => (key === "path" ? server : undefined));
  const child = cp.spawn(command, [...args, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const conn = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  );
  try {
    let quiescentAfterOpen = false;
    let opened = false;
    const diagnostics = new Promise<Diagnostic[]>((resolve) => {
      conn.onNotification("textDocument/publishDiagnostics", (p: { uri: string; diagnostics: Diagnostic[] }) => {
        if (p.uri === uri && p.diagnostics.some((d) => d.message.startsWith("violated"))) resolve(p.diagnostics);
      });
    });
    const quiet = new Promise<void>((resolve) => {
      conn.onNotification("zeno/serverStatus", (p: { quiescent: boolean }) => {
        if (opened && p.quiescent) {
          quiescentAfterOpen = true;
          resolve();
        }
      });
    });
    conn.onRequest(() => null); // workspace/configuration, registerCapability, ...
    conn.listen();

    const init = await conn.sendRequest("initialize", {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      initializationOptions: { zeno: { search: "bfs" } },
    });
    assert.ok((init as { capabilities?: unknown }).capabilities, "initialize answers capabilities");
    await conn.sendNotification("initialized", {});
    opened = true;
    await conn.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "zeno", version: 1, text },
    });

    const diags = await diagnostics;
    await quiet;
    assert.ok(quiescentAfterOpen);

    const mutex = findChecks(text).find((c) => c.name === "mutex")!;
    const violation = diags.find((d) => d.message.startsWith("violated"))!;
    assert.equal(violation.severity, 1, "an Error");
    assert.deepEqual(violation.range, mutex.range, "on the check's name");
    const m = /^violated: trace of (\d+) steps, (\d+) states explored$/.exec(violation.message);
    assert.ok(m, `message: ${violation.message}`);
    const length = Number(m[1]);

    const trace = parseTrace(uri, await conn.sendRequest("zeno/errorTrace", { uri, check: "mutex" }));
    assert.ok(trace, "a trace for mutex");
    assert.equal(trace.steps.length, length, "as many steps as the message says");
    // The model's comment: the shortest counterexample has 6 transitions;
    // the search order (BFS) need not find the shortest, but needs at least 6.
    assert.ok(length >= 6, `trace of ${length} steps`);
    assert.equal(violation.relatedInformation?.length, length, "one related location per step");

    const lines = text.split("\n");
    for (const step of trace.steps) {
      assert.ok(step.edges.length > 0, `step ${step.index} has an edge`);
      for (const e of step.edges) {
        const line = lines[e.range.start.line] ?? "";
        const code = line.replace(/\/\/.*$/, "");
        assert.match(code, new RegExp(`\\b${e.source}\\s*->\\s*${e.target}\\b`), `edge ${e.source} -> ${e.target} at line ${e.range.start.line}`);
      }
    }
    // The last step puts a second process into cs.
    const last = trace.steps[trace.steps.length - 1];
    const inCs = last.state.locations.filter(([, loc]) => loc === "cs").map(([p]) => p);
    assert.deepEqual(inCs.sort(), ["Proc(1)", "Proc(2)"]);

    // The pictures: the timeline of mutex's trace has a lane for both
    // processes in cs; the automaton under a cursor in `Proc` is Proc's.
    const timeline = parseSvgAnswer(await conn.sendRequest("zeno/traceSvg", { uri, check: "mutex" }));
    assert.ok(timeline, "a timeline for mutex");
    for (const p of ["Proc(1)", "Proc(2)"]) assert.ok(timeline.svg.includes(p), `${p} in the timeline`);
    assert.equal(await conn.sendRequest("zeno/traceSvg", { uri, check: "no_such_check" }), null);
    const waitLine = lines.findIndex((l) => /^\s*location wait;/.test(l));
    const automaton = parseSvgAnswer(
      await conn.sendRequest("zeno/graphSvg", { uri, position: { line: waitLine, character: 4 } }),
    );
    assert.ok(automaton, "an automaton under the cursor");
    assert.equal(automaton.template, "Proc");
    assert.ok(automaton.svg.includes("Proc"), "the template's name is drawn");
    const outside = lines.findIndex((l) => l.startsWith("const int N"));
    assert.equal(await conn.sendRequest("zeno/graphSvg", { uri, position: { line: outside, character: 0 } }), null);

    await conn.sendRequest("shutdown");
    await conn.sendNotification("exit");
  } finally {
    conn.dispose();
    child.kill();
  }
});
