// Entry point: starts the language server and wires up trace stepping,
// the checks in the Testing view, the pictures (timeline, automaton) and
// the trace debugger (`zeno dap`).

import { existsSync } from "node:fs";
import * as vscode from "vscode";
import { TRACE_COMMANDS, ZenoClient } from "./client";
import { TraceDebugger } from "./debug";
import { bundledServer, serverCommand } from "./settings";
import { Pictures } from "./pictures";
import { Simulator } from "./simulator";
import { ChecksAsTests } from "./testing";
import { TraceUi } from "./traceUi";

let zeno: ZenoClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  let ui: TraceUi | undefined;
  // The server's zeno.trace.* commands (from code lenses) are answered from
  // the client's trace model, so every view agrees.
  const traceCommand = async (command: string, args: unknown[]) => {
    if (!ui) return undefined;
    if (command === "zeno.trace.next") return ui.next(args);
    if (command === "zeno.trace.prev") return ui.prev(args);
    return ui.show(args);
  };
  // A platform package carries its own server; zeno.path still wins.
  const bundled = bundledServer(context.extensionPath, process.platform, existsSync);
  zeno = new ZenoClient(traceCommand, bundled);
  ui = new TraceUi((uri, check) => zeno!.errorTrace(uri, check));
  const tests = new ChecksAsTests(zeno);
  const pictures = new Pictures((method, params) => zeno!.request(method, params));
  const simulator = new Simulator((method, params) => zeno!.request(method, params));
  // The trace debugger runs `zeno dap` from the same binary.
  const debuggerUi = new TraceDebugger(() => {
    const config = vscode.workspace.getConfiguration("zeno");
    return serverCommand((key) => config.get(key), bundled).command;
  });
  context.subscriptions.push(
    zeno,
    debuggerUi,
    ui,
    tests,
    pictures,
    zeno.quiescence.onQuiescent(() => void pictures.refresh()),
    vscode.commands.registerCommand("zeno.showTimeline", (...args: unknown[]) => ui!.timeline(args, pictures)),
    vscode.commands.registerCommand("zeno.showAutomaton", () => pictures.showAutomaton()),
    vscode.commands.registerCommand("zeno.nextStep", (...args: unknown[]) => ui!.next(args)),
    vscode.commands.registerCommand("zeno.previousStep", (...args: unknown[]) => ui!.prev(args)),
    vscode.commands.registerCommand("zeno.showTrace", (...args: unknown[]) => ui!.show(args)),
    vscode.commands.registerCommand("zeno.goToStep", (uri: string, check: string, pos: number) =>
      ui!.goTo(uri, check, pos),
    ),
    vscode.commands.registerCommand("zeno.restartServer", () => zeno!.restart()),
    simulator,
    vscode.commands.registerCommand("zeno.simulate", () => simulator.start("concrete")),
    vscode.commands.registerCommand("zeno.simulateSymbolic", () => simulator.start("symbolic")),
    vscode.commands.registerCommand("zeno.simulate.fire", (n: number) => simulator.fire(Number(n))),
    vscode.commands.registerCommand("zeno.simulate.back", () => simulator.back()),
    vscode.commands.registerCommand("zeno.simulate.reset", () => simulator.reset()),
    vscode.commands.registerCommand("zeno.simulate.delay", () => simulator.delay()),
    // From the zeno Trace view: a step node, or (uri, check, step).
    vscode.commands.registerCommand("zeno.simulateFromStep", (...args: unknown[]) => {
      const at =
        typeof args[0] === "string"
          ? (args as [string, string, number])
          : ui!.tree.stepOf(args[0] as Parameters<typeof ui.tree.stepOf>[0]);
      if (at) return simulator.fromTrace(...at);
      return undefined;
    }),
  );
  await zeno.start();
  // A server that does not advertise the trace commands still gets working
  // code lenses: the client provides them.
  const offered = zeno.serverCommands();
  for (const command of TRACE_COMMANDS) {
    if (!offered.includes(command)) {
      context.subscriptions.push(
        vscode.commands.registerCommand(command, (...args: unknown[]) => traceCommand(command, args)),
      );
    }
  }
}

export async function deactivate(): Promise<void> {
  await zeno?.client?.stop();
}
