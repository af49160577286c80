// The trace debugger in VS Code: `zeno dap` (the same binary as the
// language server) as the debugger of type `zeno`, F5 on a model, and a
// "Debug trace" code lens over each check with a trace.

import * as vscode from "vscode";
import { DEBUG_TYPE, debuggableChecks, resolveConfig, simulationConfig, traceConfig } from "./debugConfig";
import { findChecks } from "./checks";
import { isModelLanguage } from "./languages";

export class TraceDebugger implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];

  /** `binary()`: the zeno binary the language server runs. */
  constructor(binary: () => string) {
    this.disposables.push(
      vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
        createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable(binary(), ["dap"]),
      }),
      vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
        resolveDebugConfiguration: (_folder, config) => {
          const active = vscode.window.activeTextEditor?.document;
          const file = active && isModelLanguage(active.languageId) ? active.uri.fsPath : undefined;
          const resolved = resolveConfig(config, file);
          if (!resolved) {
            void vscode.window.showErrorMessage("zeno: open a model to debug (or set \"program\" in launch.json)");
          }
          // undefined cancels the launch.
          return resolved as vscode.DebugConfiguration | undefined;
        },
      }),
      vscode.languages.registerCodeLensProvider({ language: "zeno" }, {
        onDidChangeCodeLenses: this.changed.event,
        provideCodeLenses: (doc) => this.lenses(doc),
      }),
      vscode.languages.onDidChangeDiagnostics(() => this.changed.fire()),
      vscode.commands.registerCommand("zeno.debugTrace", (uri?: string, check?: string) => this.debugTrace(uri, check)),
      vscode.commands.registerCommand("zeno.debugSimulation", () => this.debugSimulation()),
    );
  }

  private lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const diagnostics = vscode.languages.getDiagnostics(doc.uri).map((d) => ({
      message: d.message,
      severity: d.severity + 1,
      range: d.range,
      code: typeof d.code === "object" ? d.code.value : d.code,
    }));
    return debuggableChecks(doc.getText(), diagnostics).map(
      (c) =>
        new vscode.CodeLens(
          new vscode.Range(c.range.start.line, c.range.start.character, c.range.end.line, c.range.end.character),
          { title: "Debug trace", command: "zeno.debugTrace", arguments: [doc.uri.toString(), c.name] },
        ),
    );
  }

  /** Debugs `check`'s trace in `uri` (by default: the active model, a check picked). */
  async debugTrace(uri?: string, check?: string): Promise<boolean> {
    const doc = uri
      ? await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))
      : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showErrorMessage("zeno: open a model to debug a check's trace");
      return false;
    }
    // zeno text names its checks; an imported model's are asked for by
    // name or index (its queries' names come from the import).
    const names = doc.languageId === "zeno" ? findChecks(doc.getText()).map((c) => c.name) : [];
    const name =
      check ??
      (names.length > 0
        ? await vscode.window.showQuickPick(names, { placeHolder: "The check whose trace to debug" })
        : await vscode.window.showInputBox({ prompt: "The check whose trace to debug (its name, or its index from 0)" }));
    if (!name) return false;
    const search = vscode.workspace.getConfiguration("zeno").get<string>("search");
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    const byIndex = /^\d+$/.test(name) && !names.includes(name);
    const config = traceConfig(doc.uri.fsPath, name, search);
    if (byIndex) config.check = Number(name);
    return vscode.debug.startDebugging(folder, config);
  }

  async debugSimulation(): Promise<boolean> {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showErrorMessage("zeno: open a model to simulate");
      return false;
    }
    return vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(doc.uri), simulationConfig(doc.uri.fsPath));
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
