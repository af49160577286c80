// Starting, configuring and restarting the language server.

import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  DidSaveTextDocumentNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { DOCUMENT_SELECTOR } from "./languages";
import { needsRestart, serverCommand, serverPayload, serverSettings } from "./settings";
import { CrashPolicy, Quiescence } from "./status";

/** Server commands whose effect the client shows itself (from the trace model). */
export const TRACE_COMMANDS = ["zeno.trace.next", "zeno.trace.prev", "zeno.trace.show"] as const;

const getter = () => {
  const config = vscode.workspace.getConfiguration("zeno");
  return (key: string) => config.get(key);
};

export class ZenoClient implements vscode.Disposable {
  client: LanguageClient | undefined;
  readonly quiescence = new Quiescence();
  readonly output = vscode.window.createOutputChannel("zeno");
  private crashPolicy = new CrashPolicy();
  private disposables: vscode.Disposable[] = [];

  constructor(
    /** Called instead of the server for zeno.trace.* (code lenses use them). */
    private readonly traceCommand: (command: string, args: unknown[]) => Promise<unknown>,
    /** The server bundled in a platform package, used when zeno.path is empty. */
    private readonly bundled?: string,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (needsRestart((s) => e.affectsConfiguration(s))) {
          void this.restart();
        } else if (e.affectsConfiguration("zeno")) {
          this.reportSettingProblems();
          void this.client?.sendNotification("workspace/didChangeConfiguration", {
            settings: serverPayload(getter()),
          });
        }
      }),
    );
  }

  private reportSettingProblems(): void {
    for (const p of serverSettings(getter()).problems) {
      void vscode.window.showWarningMessage(`zeno: ignoring invalid setting ${p}`);
    }
  }

  async start(): Promise<void> {
    const { command, args } = serverCommand(getter(), this.bundled);
    const serverOptions: ServerOptions = { command, args, transport: TransportKind.stdio };
    const clientOptions: LanguageClientOptions = {
      // UPPAAL and TChecker models and UPPAAL query files too: the server
      // imports and checks them (and ignores XML files that are not UPPAAL
      // models).
      documentSelector: [...DOCUMENT_SELECTOR],
      initializationOptions: serverPayload(getter()),
      outputChannel: this.output,
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          const { restart, message } = this.crashPolicy.crashed(Date.now());
          this.quiescence.update(true);
          return {
            action: restart ? CloseAction.Restart : CloseAction.DoNotRestart,
            message,
          };
        },
      },
      middleware: {
        executeCommand: async (cmd, cmdArgs, next) =>
          (TRACE_COMMANDS as readonly string[]).includes(cmd)
            ? this.traceCommand(cmd, cmdArgs)
            : next(cmd, cmdArgs),
      },
    };
    const client = new LanguageClient("zeno", "zeno language server", serverOptions, clientOptions);
    this.client = client;
    client.onNotification("zeno/serverStatus", (p: { quiescent?: unknown }) =>
      this.quiescence.update(p?.quiescent === true),
    );
    this.reportSettingProblems();
    try {
      await client.start();
    } catch (e) {
      this.client = undefined;
      const why = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(
        `zeno: could not start "${command} ${args.join(" ")}" (${why}). ` +
          `Install zeno or set zeno.path to the zeno binary.`,
      );
    }
  }

  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.crashPolicy = new CrashPolicy();
    if (old) await old.stop().catch(() => undefined);
    await this.start();
  }

  /** Commands the server offers through workspace/executeCommand. */
  serverCommands(): string[] {
    return this.client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  }

  /** `zeno/errorTrace` for one check; null when there is no trace (or no server). */
  async errorTrace(uri: string, check: string): Promise<unknown> {
    if (!this.client) return null;
    return this.client.sendRequest("zeno/errorTrace", { uri, check });
  }

  /** A custom request (`zeno/traceSvg`, `zeno/graphSvg`); null without a server. */
  async request(method: string, params: unknown): Promise<unknown> {
    if (!this.client) return null;
    return this.client.sendRequest(method, params);
  }

  /**
   * Asks the server to check a document again: through the `zeno.check`
   * command when the server offers it, else by announcing a save (which
   * triggers checking in both check-on modes).
   */
  async recheck(doc: vscode.TextDocument): Promise<void> {
    if (!this.client) return;
    const uri = doc.uri.toString();
    if (this.serverCommands().includes("zeno.check")) {
      await this.client.sendRequest(ExecuteCommandRequest.type, {
        command: "zeno.check",
        arguments: [uri],
      });
    } else {
      await this.client.sendNotification(DidSaveTextDocumentNotification.type, {
        textDocument: { uri },
        text: doc.getText(),
      });
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    void this.client?.stop();
    this.output.dispose();
  }
}
