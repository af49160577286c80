// A small stand-in for the `vscode` module: enough of the API for the
// extension's UI classes to run under the node test runner. Importing this
// file makes `require("vscode")` return the mock.

// eslint-disable-next-line @typescript-eslint/no-require-imports
import Module = require("node:module");

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: number, b: number, c: number, d: number) {
    this.start = new Position(a, b);
    this.end = new Position(c, d);
  }
}

export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor.line, anchor.character, active.line, active.character);
  }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => undefined };
  };
  fire(e: T) {
    this.listeners.forEach((l) => l(e));
  }
}

export class TreeItem {
  description?: string;
  command?: unknown;
  contextValue?: string;
  constructor(
    readonly label: string,
    readonly collapsibleState: number,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

/** An editor that records what the extension does to it. */
export class FakeEditor {
  // A new editor's cursor is on line 20.
  selection: Selection = new Selection(new Position(20, 0), new Position(20, 0));
  revealed: Range | undefined;
  decorations: Range[] = [];
  /** The ranges of every decoration type, by type. */
  readonly decorationsByType = new Map<unknown, Range[]>();
  constructor(readonly document: { uri: { toString(): string }; languageId: string; getText(): string }) {}
  revealRange(r: Range) {
    this.revealed = r;
  }
  setDecorations(type: unknown, ranges: Range[]) {
    this.decorations = ranges;
    this.decorationsByType.set(type, ranges);
  }
}

/** A webview panel that records the pages it was given. */
export class FakePanel {
  readonly pages: string[] = [];
  disposed = false;
  revealed = 0;
  private onDispose: (() => void)[] = [];
  readonly webview = {
    cspSource: "vscode-webview:",
    set html(h: string) {
      this.owner.pages.push(h);
    },
    get html() {
      return this.owner.pages[this.owner.pages.length - 1] ?? "";
    },
    owner: this as FakePanel,
  };
  constructor(
    readonly viewType: string,
    public title: string,
    readonly options: { enableScripts?: boolean; localResourceRoots?: unknown[] },
  ) {}
  onDidDispose(l: () => void) {
    this.onDispose.push(l);
    return { dispose() {} };
  }
  reveal() {
    this.revealed++;
  }
  dispose() {
    this.disposed = true;
    this.onDispose.forEach((l) => l());
  }
}

export const state = {
  panels: [] as FakePanel[],
  editor: undefined as FakeEditor | undefined,
  messages: [] as string[],
  changeListeners: [] as ((e: unknown) => void)[],
  documents: [] as FakeEditor["document"][],
  diagnostics: new Map<string, { message: string; severity: number; range: Range }[]>(),
  controller: undefined as FakeTestController | undefined,
};

/** Test items, as a map with the methods the extension uses. */
export class FakeItemCollection {
  readonly map = new Map<string, FakeTestItem>();
  constructor(private readonly owner?: FakeTestItem) {}
  get size() {
    return this.map.size;
  }
  get(id: string) {
    return this.map.get(id);
  }
  add(item: FakeTestItem) {
    item.parent = this.owner;
    this.map.set(item.id, item);
  }
  delete(id: string) {
    this.map.delete(id);
  }
  replace(items: FakeTestItem[]) {
    this.map.clear();
    items.forEach((i) => this.add(i));
  }
  forEach(f: (i: FakeTestItem) => void) {
    this.map.forEach((i) => f(i));
  }
}

export class FakeTestItem {
  parent: FakeTestItem | undefined;
  range: Range | undefined;
  readonly children: FakeItemCollection = new FakeItemCollection(this);
  constructor(
    readonly id: string,
    readonly label: string,
    readonly uri: { toString(): string } | undefined,
  ) {}
}

/** What a test run reported, in order. */
export type RunEvent = [string, string, ...unknown[]];

export class FakeTestController {
  readonly items = new FakeItemCollection();
  refreshHandler: unknown;
  runHandler: ((req: unknown, token: unknown) => Promise<void>) | undefined;
  readonly events: RunEvent[] = [];
  createTestItem(id: string, label: string, uri?: { toString(): string }) {
    return new FakeTestItem(id, label, uri);
  }
  createRunProfile(_label: string, _kind: number, handler: (req: unknown, token: unknown) => Promise<void>) {
    this.runHandler = handler;
    return {};
  }
  createTestRun() {
    const ev = this.events;
    return {
      started: (i: FakeTestItem) => ev.push(["started", i.label]),
      passed: (i: FakeTestItem, d?: number) => ev.push(["passed", i.label, d]),
      failed: (i: FakeTestItem, m: TestMessage, d?: number) => ev.push(["failed", i.label, m, d]),
      errored: (i: FakeTestItem, m: TestMessage, d?: number) => ev.push(["errored", i.label, m, d]),
      skipped: (i: FakeTestItem) => ev.push(["skipped", i.label]),
      appendOutput: (o: string) => ev.push(["output", o]),
      end: () => ev.push(["end", ""]),
    };
  }
  dispose() {}
}

export class TestMessage {
  location: unknown;
  constructor(readonly message: string) {}
}

export class Location {
  constructor(
    readonly uri: unknown,
    readonly range: Range,
  ) {}
}

const uri = (s: string) => ({ toString: () => s, fsPath: s });

export const vscode = {
  Position,
  Range,
  Selection,
  EventEmitter,
  TreeItem,
  ThemeColor,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  OverviewRulerLane: { Center: 2 },
  ViewColumn: { Active: -1, Beside: -2 },
  TextEditorRevealType: { InCenterIfOutsideViewport: 2 },
  Uri: { parse: uri },
  window: {
    get activeTextEditor() {
      return state.editor;
    },
    get visibleTextEditors() {
      return state.editor ? [state.editor] : [];
    },
    createWebviewPanel: (viewType: string, title: string, _column: unknown, options: FakePanel["options"]) => {
      const panel = new FakePanel(viewType, title, options);
      state.panels.push(panel);
      return panel;
    },
    createTreeView: () => ({ visible: false, description: undefined, reveal: async () => undefined, dispose() {} }),
    createTextEditorDecorationType: () => ({ dispose() {} }),
    createOutputChannel: () => ({ appendLine() {}, dispose() {} }),
    showErrorMessage: async (m: string) => {
      state.messages.push(m);
    },
    showWarningMessage: async (m: string) => {
      state.messages.push(m);
    },
    showInformationMessage: async (m: string) => {
      state.messages.push(m);
    },
    setStatusBarMessage: (m: string) => {
      state.messages.push(m);
      return { dispose() {} };
    },
    showTextDocument: async (doc: FakeEditor["document"]) => {
      if (!state.editor || state.editor.document !== doc) state.editor = new FakeEditor(doc);
      return state.editor;
    },
  },
  TestMessage,
  Location,
  TestRunProfileKind: { Run: 1 },
  tests: {
    createTestController: () => (state.controller = new FakeTestController()),
  },
  languages: {
    getDiagnostics: (u: { toString(): string }) => state.diagnostics.get(u.toString()) ?? [],
  },
  workspace: {
    get textDocuments() {
      return state.documents;
    },
    onDidOpenTextDocument: () => ({ dispose() {} }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
    onDidCloseTextDocument: () => ({ dispose() {} }),
    asRelativePath: (u: { toString(): string }) => u.toString().replace(/^.*\//, ""),
    getConfiguration: () => ({ get: () => undefined }),
    openTextDocument: async (u: { toString(): string }) =>
      state.documents.find((d) => d.uri.toString() === u.toString()) ??
      (state.editor?.document.uri.toString() === u.toString()
        ? state.editor.document
        : { uri: u, languageId: "zeno", getText: () => "" }),
    onDidChangeTextDocument: (l: (e: unknown) => void) => {
      state.changeListeners.push(l);
      return { dispose() {} };
    },
  },
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const mod = Module as unknown as { _load: Loader };
const load = mod._load;
mod._load = function (request: string, parent: unknown, isMain: boolean) {
  return request === "vscode" ? vscode : load.call(this, request, parent, isMain);
};
