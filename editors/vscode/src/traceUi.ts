// Trace stepping in the editor: moves the cursor to a step's edge,
// highlights it, and shows the steps in a tree. Every view reads the trace
// store, which is filled only from `zeno/errorTrace`.

import * as vscode from "vscode";
import { findChecks } from "./checks";
import { isModelLanguage } from "./languages";
import {
  parseTrace,
  Range,
  stepSummary,
  Trace,
  TraceCursor,
  TraceNode,
  TraceStore,
  traceTree,
} from "./trace";

export type FetchTrace = (uri: string, check: string) => Promise<unknown>;

/**
 * The check a command names: `(uri, check)` as the extension's own commands
 * pass them, or one `{ uri, check }` object as the server's code lenses send
 * their arguments (`zeno.trace.*`); undefined when the arguments name none.
 */
export function traceTarget(args: unknown[]): { uri: string; check: string } | undefined {
  const [first, second] = args;
  if (typeof first === "string" && typeof second === "string") return { uri: first, check: second };
  if (typeof first === "object" && first !== null) {
    const { uri, check } = first as { uri?: unknown; check?: unknown };
    if (typeof uri === "string" && typeof check === "string") return { uri, check };
  }
  return undefined;
}

function toRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export class TraceTreeProvider implements vscode.TreeDataProvider<TraceNode> {
  private changed = new vscode.EventEmitter<TraceNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: TraceNode[] = [];
  private parents = new Map<TraceNode, TraceNode>();
  trace: Trace | undefined;

  show(trace: Trace | undefined): void {
    this.trace = trace;
    this.roots = trace ? traceTree(trace) : [];
    this.parents.clear();
    const walk = (n: TraceNode) =>
      n.children.forEach((c) => {
        this.parents.set(c, n);
        walk(c);
      });
    this.roots.forEach(walk);
    this.changed.fire(undefined);
  }

  getTreeItem(node: TraceNode): vscode.TreeItem {
    const item = new vscode.TreeItem(
      node.label,
      node.children.length === 0
        ? vscode.TreeItemCollapsibleState.None
        : node.stepPosition !== undefined
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.Expanded,
    );
    item.description = node.description;
    if (node.stepPosition !== undefined && this.trace) {
      item.command = {
        command: "zeno.goToStep",
        title: "Go to step",
        arguments: [this.trace.uri, this.trace.check, node.stepPosition],
      };
      item.contextValue = "zenoTraceStep";
    }
    return item;
  }

  /** `[uri, check, step]` of a step node (for "simulate from here"). */
  stepOf(node: TraceNode | undefined): [string, string, number] | undefined {
    if (!node || node.stepPosition === undefined || !this.trace) return undefined;
    return [this.trace.uri, this.trace.check, node.stepPosition];
  }

  getChildren(node?: TraceNode): TraceNode[] {
    return node ? node.children : this.roots;
  }

  getParent(node: TraceNode): TraceNode | undefined {
    return this.parents.get(node);
  }
}

export class TraceUi implements vscode.Disposable {
  readonly store = new TraceStore();
  readonly tree = new TraceTreeProvider();
  private readonly view: vscode.TreeView<TraceNode>;
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.rangeHighlightBackground"),
    borderColor: new vscode.ThemeColor("editorInfo.foreground"),
    borderStyle: "solid",
    borderWidth: "1px",
    overviewRulerColor: new vscode.ThemeColor("editorInfo.foreground"),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private disposables: vscode.Disposable[] = [];

  constructor(private readonly fetch: FetchTrace) {
    this.view = vscode.window.createTreeView("zeno.trace", { treeDataProvider: this.tree });
    this.disposables.push(
      this.view,
      this.highlight,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        const uri = e.document.uri.toString();
        this.store.invalidate(uri);
        if (this.tree.trace?.uri === uri) this.clear();
      }),
    );
  }

  private clear(): void {
    this.tree.show(undefined);
    this.view.description = undefined;
    for (const editor of vscode.window.visibleTextEditors) editor.setDecorations(this.highlight, []);
  }

  /** Asks the server for the trace of a check and makes it the active one. */
  async load(uri: string, check: string): Promise<TraceCursor | undefined> {
    const trace = parseTrace(uri, await this.fetch(uri, check));
    if (!trace || trace.steps.length === 0) {
      void vscode.window.showInformationMessage(`zeno: no trace for check "${check}".`);
      return undefined;
    }
    const cursor = this.store.set(trace);
    this.tree.show(trace);
    this.view.description = `${check}: ${trace.verdict}`;
    return cursor;
  }

  /** The check to step through when none is given: the active trace, else the check at the cursor. */
  private async resolve(args: unknown[]): Promise<TraceCursor | undefined> {
    const named = traceTarget(args);
    if (named) return this.store.activate(named.uri, named.check) ?? this.load(named.uri, named.check);
    if (this.store.active) return this.store.active;
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isModelLanguage(editor.document.languageId)) return undefined;
    if (editor.document.languageId !== "zeno") {
      // The server keeps an imported model's traces in its zeno
      // translation: the debugger steps through them in this file.
      void vscode.window.showInformationMessage(
        "zeno: trace stepping works on zeno text; step through an imported model's trace with zeno: Debug Trace of a Check",
      );
      return undefined;
    }
    const checks = findChecks(editor.document.getText());
    const line = editor.selection.active.line;
    const here = [...checks].reverse().find((c) => c.range.start.line <= line) ?? checks[0];
    if (!here) return undefined;
    return this.load(editor.document.uri.toString(), here.name);
  }

  /** Shows a step: cursor on its first edge, every edge of the step highlighted. */
  async reveal(cursor: TraceCursor): Promise<{ uri: string; range: Range } | undefined> {
    const step = cursor.current;
    if (!step) return undefined;
    const uri = vscode.Uri.parse(cursor.trace.uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc, { preserveFocus: false });
    const ranges = step.edges.map((e) => toRange(e.range));
    if (ranges.length > 0) {
      editor.selection = new vscode.Selection(ranges[0].start, ranges[0].start);
      editor.revealRange(ranges[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    editor.setDecorations(this.highlight, ranges);
    vscode.window.setStatusBarMessage(`zeno ${cursor.trace.check}: ${stepSummary(step)}`, 10000);
    const node = this.tree.getChildren()[cursor.position];
    if (node && this.view.visible) void this.view.reveal(node, { select: true, focus: false });
    return step.edges[0] ? { uri: cursor.trace.uri, range: step.edges[0].range } : undefined;
  }

  async next(args: unknown[] = []): Promise<unknown> {
    const cursor = await this.resolve(args);
    if (!cursor) return undefined;
    if (cursor.atEnd()) void vscode.window.setStatusBarMessage("zeno: last step of the trace", 3000);
    cursor.next();
    return this.answer(cursor, await this.reveal(cursor));
  }

  async prev(args: unknown[] = []): Promise<unknown> {
    const cursor = await this.resolve(args);
    if (!cursor) return undefined;
    cursor.prev();
    return this.answer(cursor, await this.reveal(cursor));
  }

  /** Loads a trace afresh (the server may have re-checked) and shows its first step. */
  async show(args: unknown[] = []): Promise<unknown> {
    const named = traceTarget(args);
    const cursor = named ? await this.load(named.uri, named.check) : await this.resolve(args);
    if (!cursor) return undefined;
    cursor.goTo(0);
    return this.answer(cursor, await this.reveal(cursor));
  }

  async goTo(uri: string, check: string, position: number): Promise<void> {
    const cursor = this.store.activate(uri, check) ?? (await this.load(uri, check));
    if (!cursor) return;
    cursor.goTo(position);
    await this.reveal(cursor);
  }

  /**
   * "Show timeline": the picture of the trace shown in the view, else of the
   * check given or at the cursor.
   */
  async timeline(args: unknown[], pictures: { showTimeline(uri: string, check: string): Promise<void> }): Promise<void> {
    const named = traceTarget(args);
    if (named) return pictures.showTimeline(named.uri, named.check);
    const trace = this.tree.trace ?? (await this.resolve(args))?.trace;
    if (!trace) {
      void vscode.window.showInformationMessage("zeno: no trace to draw; show a check's trace first.");
      return;
    }
    return pictures.showTimeline(trace.uri, trace.check);
  }

  /** What the zeno.trace.* commands return: the step's location and state. */
  private answer(cursor: TraceCursor, location: { uri: string; range: Range } | undefined) {
    return cursor.current ? { location, state: cursor.current.state } : undefined;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
