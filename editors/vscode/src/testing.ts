// The checks of every open model in the Testing view: one test item per
// `check`; running one asks the server to check the model again, waits until
// the server is quiescent, then reads each check's verdict.

import * as vscode from "vscode";
import { checkOutcome, findChecks } from "./checks";
import type { ZenoClient } from "./client";
import { parseTrace, stepSummary } from "./trace";

const isModel = (doc: vscode.TextDocument) => doc.languageId === "zeno";

export class ChecksAsTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController("zeno", "zeno checks");
  private disposables: vscode.Disposable[] = [this.controller];

  constructor(private readonly zeno: ZenoClient) {
    this.controller.createRunProfile(
      "Check",
      vscode.TestRunProfileKind.Run,
      (req, token) => this.run(req, token),
      true,
    );
    this.controller.refreshHandler = async () => {
      vscode.workspace.textDocuments.forEach((d) => this.sync(d));
    };
    vscode.workspace.textDocuments.forEach((d) => this.sync(d));
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.sync(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.sync(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.controller.items.delete(d.uri.toString())),
    );
  }

  /** Makes the document's test items match its `check` declarations. */
  private sync(doc: vscode.TextDocument): void {
    if (!isModel(doc)) return;
    const id = doc.uri.toString();
    let file = this.controller.items.get(id);
    if (!file) {
      file = this.controller.createTestItem(id, vscode.workspace.asRelativePath(doc.uri), doc.uri);
      this.controller.items.add(file);
    }
    const items = findChecks(doc.getText()).map((c) => {
      const item = this.controller.createTestItem(`${id}#${c.name}`, c.name, doc.uri);
      item.range = new vscode.Range(
        c.range.start.line,
        c.range.start.character,
        c.range.end.line,
        c.range.end.character,
      );
      return item;
    });
    file.children.replace(items);
  }

  private async run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.controller.createTestRun(request);
    // Group the requested checks by model: one re-check per model.
    const byFile = new Map<vscode.TestItem, vscode.TestItem[]>();
    const roots: vscode.TestItem[] = [];
    if (request.include) roots.push(...request.include);
    else this.controller.items.forEach((i) => roots.push(i));
    for (const item of roots) {
      const file = item.parent ?? item;
      const checks = item.parent ? [item] : [];
      if (!item.parent) item.children.forEach((c) => checks.push(c));
      const excluded = new Set(request.exclude ?? []);
      byFile.set(file, [...(byFile.get(file) ?? []), ...checks.filter((c) => !excluded.has(c))]);
    }
    for (const [file, checks] of byFile) {
      if (token.isCancellationRequested || !file.uri) break;
      checks.forEach((c) => run.started(c));
      const started = Date.now();
      const doc = await vscode.workspace.openTextDocument(file.uri);
      const mark = this.zeno.quiescence.mark();
      let done = false;
      if (this.zeno.client) {
        await this.zeno.recheck(doc);
        // The server's own time limit plus a margin; ten minutes without one.
        const limit = vscode.workspace.getConfiguration("zeno").get<number>("timeoutSeconds") ?? 0;
        const waitMs = limit > 0 ? (limit + 30) * 1000 : 600_000;
        done = await this.zeno.quiescence.waitSince(mark, waitMs, 1500);
      }
      const duration = Date.now() - started;
      const diagnostics = vscode.languages.getDiagnostics(file.uri).map((d) => ({
        message: d.message,
        severity: d.severity + 1, // vscode counts from 0, LSP from 1
        range: { start: d.range.start, end: d.range.end },
        code: typeof d.code === "object" ? d.code.value : d.code,
      }));
      for (const item of checks) {
        if (!done) {
          const why = this.zeno.client
            ? "zeno: the server did not finish checking in time"
            : "zeno: the language server is not running";
          run.errored(item, new vscode.TestMessage(why), duration);
          continue;
        }
        const decl = findChecks(doc.getText()).find((c) => `${file.id}#${c.name}` === item.id);
        if (!decl) {
          run.skipped(item);
          continue;
        }
        const trace = parseTrace(file.id, await this.zeno.errorTrace(file.id, decl.name).catch(() => null));
        const outcome = checkOutcome(decl, trace, diagnostics);
        const lines = trace ? trace.steps.map(stepSummary) : [];
        const message = new vscode.TestMessage([outcome.message, ...lines].join("\n"));
        if (item.uri && item.range) message.location = new vscode.Location(item.uri, item.range);
        switch (outcome.status) {
          case "passed":
            run.passed(item, duration);
            break;
          case "failed":
            run.failed(item, message, duration);
            break;
          case "errored":
            run.errored(item, message, duration);
            break;
          case "skipped":
            run.appendOutput(`${decl.name}: ${outcome.message}\r\n`);
            run.skipped(item);
            break;
        }
      }
    }
    run.end();
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
