// Pictures from the server in webview panels: the timeline of the current
// trace (`zeno/traceSvg`) and the automata of the template under the cursor
// (`zeno/graphSvg`). The SVG is inlined in a page whose content security
// policy allows no scripts and no remote content; panels are redrawn when the
// server has new results (quiescent) or the model changes.

import * as vscode from "vscode";
import { isModelLanguage } from "./languages";
import { parseSvgAnswer, pictureHtml } from "./svgPage";

export { CSP, inlineSvg, parseSvgAnswer, pictureHtml } from "./svgPage";

/** Sends a request to the server (null when there is no server). */
export type Request = (method: string, params: unknown) => Promise<unknown>;

/** One open picture: how to fetch it again, and its panel. */
interface Picture {
  /** The document it belongs to. */
  uri: string;
  panel: vscode.WebviewPanel;
  /** Fetches and draws; resolves when the panel is updated. */
  draw: () => Promise<void>;
}

export class Pictures implements vscode.Disposable {
  private timeline: Picture | undefined;
  private automaton: Picture | undefined;
  private disposables: vscode.Disposable[] = [];
  private pending: NodeJS.Timeout | undefined;

  constructor(
    private readonly request: Request,
    /** Milliseconds to wait after an edit before redrawing the automaton. */
    private readonly editDelayMs = 400,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        const uri = e.document.uri.toString();
        if (this.automaton?.uri !== uri) return;
        if (this.pending) clearTimeout(this.pending);
        this.pending = setTimeout(() => void this.automaton?.draw(), this.editDelayMs);
      }),
    );
  }

  private panel(kind: "timeline" | "automaton", title: string): vscode.WebviewPanel {
    const existing = kind === "timeline" ? this.timeline : this.automaton;
    if (existing) {
      existing.panel.title = title;
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      `zeno.${kind}`,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, localResourceRoots: [] },
    );
    panel.onDidDispose(() => {
      if (kind === "timeline" && this.timeline?.panel === panel) this.timeline = undefined;
      if (kind === "automaton" && this.automaton?.panel === panel) this.automaton = undefined;
    });
    return panel;
  }

  /** Opens (or reuses) the timeline panel for a check's current trace. */
  async showTimeline(uri: string, check: string): Promise<void> {
    const title = `zeno timeline: ${check}`;
    const panel = this.panel("timeline", title);
    const draw = async () => {
      const answer = parseSvgAnswer(await this.request("zeno/traceSvg", { uri, check }).catch(() => null));
      panel.webview.html = pictureHtml(title, answer?.svg, `No trace for check "${check}".`);
    };
    this.timeline = { uri, panel, draw };
    await draw();
  }

  /** Opens (or reuses) the automaton panel for the template under the cursor. */
  async showAutomaton(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isModelLanguage(editor.document.languageId)) {
      void vscode.window.showInformationMessage(
        "zeno: open a model (.zeno, UPPAAL .xml or .xta, TChecker .tck) to show an automaton.",
      );
      return;
    }
    const uri = editor.document.uri.toString();
    const { line, character } = editor.selection.active;
    const position = { line, character };
    const panel = this.panel("automaton", "zeno automaton");
    const draw = async () => {
      const answer = parseSvgAnswer(
        await this.request("zeno/graphSvg", { uri, position }).catch(() => null),
      );
      const title = answer?.template ? `zeno automaton: ${answer.template}` : "zeno automaton";
      panel.title = title;
      panel.webview.html = pictureHtml(title, answer?.svg, "The cursor is not inside a template.");
    };
    this.automaton = { uri, panel, draw };
    await draw();
  }

  /** The server has new results: redraw every open picture. */
  async refresh(): Promise<void> {
    await Promise.all([this.timeline?.draw(), this.automaton?.draw()]);
  }

  dispose(): void {
    if (this.pending) clearTimeout(this.pending);
    this.timeline?.panel.dispose();
    this.automaton?.panel.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
