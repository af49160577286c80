// The platform package's server: used when zeno.path is empty, and the
// language client is started with it (a fake LanguageClient records how).
import "./mock-vscode";
import { test } from "node:test";
import * as assert from "node:assert/strict";
// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require("node:module");
import { bundledServer, serverCommand } from "../src/settings";

const started: { command: string; args: string[] }[] = [];
class FakeLanguageClient {
  initializeResult = undefined;
  constructor(_id: string, _name: string, server: { command: string; args: string[] }) {
    started.push({ command: server.command, args: server.args });
  }
  onNotification() {}
  async start() {}
  async stop() {}
}
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Loader };
const load = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  // The real module needs the real editor: a stand-in with what client.ts uses.
  if (request === "vscode-languageclient/node") {
    return {
      LanguageClient: FakeLanguageClient,
      TransportKind: { stdio: 0 },
      CloseAction: { DoNotRestart: 1, Restart: 2 },
      ErrorAction: { Continue: 1, Shutdown: 2 },
      ExecuteCommandRequest: { type: "workspace/executeCommand" },
      DidSaveTextDocumentNotification: { type: "textDocument/didSave" },
    };
  }
  return load.call(this, request, parent, isMain);
};

const getter = (values: Record<string, unknown>) => (key: string) => values[key];

test("the bundled binary is found in the extension's bin folder", () => {
  const there = new Set(["/ext/bin/zeno", "C:\\ext\\bin\\zeno.exe"]);
  const exists = (p: string) => there.has(p);
  assert.equal(bundledServer("/ext", "linux", exists), "/ext/bin/zeno");
  assert.equal(bundledServer("C:\\ext", "win32", exists), "C:\\ext\\bin\\zeno.exe");
  assert.equal(bundledServer("/other", "darwin", exists), undefined);
});

test("zeno.path wins over the bundled binary, which wins over PATH", () => {
  assert.deepEqual(serverCommand(getter({}), "/ext/bin/zeno"), { command: "/ext/bin/zeno", args: ["lsp"] });
  assert.deepEqual(serverCommand(getter({ path: "/opt/zeno" }), "/ext/bin/zeno"), {
    command: "/opt/zeno",
    args: ["lsp"],
  });
  assert.deepEqual(serverCommand(getter({}), undefined), { command: "zeno", args: ["lsp"] });
});

test("the client starts the bundled server when none is configured", async () => {
  // Loaded after the fake is in place.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ZenoClient } = require("../src/client") as typeof import("../src/client");
  const client = new ZenoClient(async () => undefined, "/ext/bin/zeno");
  await client.start();
  assert.deepEqual(started.at(-1), { command: "/ext/bin/zeno", args: ["lsp"] });
  const plain = new ZenoClient(async () => undefined);
  await plain.start();
  assert.deepEqual(started.at(-1), { command: "zeno", args: ["lsp"] });
});
