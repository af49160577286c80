// The simulator panel: simulate a model by hand through the server's
// `zeno/simulate` request. The request is stateless: the panel keeps the
// steps taken and sends them every time; the server replays them on the
// current model and answers the state and the enabled transitions, each
// with the step that takes it. Firing appends that step, Back drops the
// last, Reset sends none. The page runs no scripts: its buttons are
// command links (`command:zeno.simulate.fire?[n]`), and the enabled edges
// are highlighted in the editor. In concrete mode the run is also drawn as a
// timeline (the server's picture of `zeno trace`), growing with each step.

import * as vscode from "vscode";
import { isModelLanguage } from "./languages";
import { CSP, inlineSvg } from "./svgPage";

/** Sends a request to the server (null when there is no server). */
export type Request = (method: string, params: unknown) => Promise<unknown>;

export interface NamedValue {
  name: string;
  value: string;
}

export interface SimEdge {
  process: string;
  source: string;
  target: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

export interface SimTransition {
  label: string;
  edges: SimEdge[];
  now: boolean;
  windows: string[];
  step?: unknown;
  error?: string;
}

export interface SimResult {
  steps: unknown[];
  error?: string;
  state: {
    locations: NamedValue[];
    variables: NamedValue[];
    clocks: NamedValue[];
    zone: string[];
    /** Where the current locations are declared. */
    locationRanges?: SimEdge["range"][];
    delays?: string;
    error?: string;
  };
  transitions: SimTransition[];
  /** Concrete mode: the run so far as an SVG timeline. */
  timeline?: string;
}

/** A `zeno/simulate` answer, or undefined for null or junk. */
export function parseSimResult(answer: unknown): SimResult | undefined {
  if (!answer || typeof answer !== "object") return undefined;
  const r = answer as Partial<SimResult>;
  if (!Array.isArray(r.steps) || !Array.isArray(r.transitions) || !r.state) return undefined;
  return r as SimResult;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** A link that runs an extension command with JSON arguments. */
export function commandLink(command: string, args: unknown[], text: string): string {
  const query = encodeURIComponent(JSON.stringify(args));
  return `<a class="button" href="command:${command}?${query}">${escapeHtml(text)}</a>`;
}

/** One line per step taken, the growing history of the run. */
function stepLabel(step: unknown, index: number): string {
  const s = step as { kind?: string; delay?: string; label?: string };
  return s.kind === "delay" ? `${index}. delay ${s.delay}` : `${index}. ${s.label ?? "transition"}`;
}

/** The whole page for one answer (and the labels of the steps taken). */
export function simulatorHtml(mode: string, r: SimResult, history: string[]): string {
  const rows = (list: NamedValue[]) =>
    list.map((v) => `<tr><td>${escapeHtml(v.name)}</td><td>${escapeHtml(v.value)}</td></tr>`).join("\n");
  const transitions = r.transitions
    .map((t, i) => {
      const windows = t.windows.length ? ` <span class="note">delay in ${escapeHtml(t.windows.join(" or "))}</span>` : "";
      const error = t.error ? ` <span class="error">fails: ${escapeHtml(t.error)}</span>` : "";
      const button = t.step
        ? commandLink("zeno.simulate.fire", [i + 1], `${i + 1}. ${t.label}`)
        : `<span class="disabled">${i + 1}. ${escapeHtml(t.label)}</span>`;
      return `<li>${button}${windows}${error}</li>`;
    })
    .join("\n");
  const zone = r.state.zone.length ? `<h3>Zone</h3><p>${r.state.zone.map(escapeHtml).join("<br>")}</p>` : "";
  const clocks = r.state.clocks.length ? `<h3>Clocks</h3><table>${rows(r.state.clocks)}</table>` : "";
  const delays = r.state.delays ? `<p class="note">delays allowed: ${escapeHtml(r.state.delays)}</p>` : "";
  const error = [r.error, r.state.error]
    .filter((e): e is string => typeof e === "string")
    .map((e) => `<p class="error">${escapeHtml(e)}</p>`)
    .join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>zeno simulator</title>
<style>
  body { font-family: sans-serif; padding: 8px; }
  .button { display: inline-block; padding: 2px 8px; margin: 2px; border: 1px solid #888; border-radius: 3px; text-decoration: none; }
  .disabled { color: #888; }
  .note { color: #666; }
  .error { color: #b00; }
  .timeline { background: #fff; overflow-x: auto; }
  svg { max-width: none; height: auto; }
  td { padding: 0 8px 0 0; }
</style>
</head>
<body>
<p>${commandLink("zeno.simulate.back", [], "Back")} ${commandLink("zeno.simulate.reset", [], "Reset")} ${
    mode === "concrete" ? commandLink("zeno.simulate.delay", [], "Delay…") : ""
  } <span class="note">${escapeHtml(mode)} mode, ${r.steps.length} steps</span></p>
${error}
<h3>Enabled transitions</h3>
${r.transitions.length ? `<ol class="transitions">${transitions}</ol>` : "<p>no transition is enabled</p>"}
<h3>Locations</h3><table>${rows(r.state.locations)}</table>
${r.state.variables.length ? `<h3>Variables</h3><table>${rows(r.state.variables)}</table>` : ""}
${clocks}${zone}${delays}
${r.timeline && r.timeline.includes("<svg") ? `<h3>Timeline</h3>\n<div class="timeline">${inlineSvg(r.timeline)}</div>` : ""}
<h3>Steps taken</h3>
${history.length ? `<ol class="history">${history.map((h) => `<li>${escapeHtml(h)}</li>`).join("")}</ol>` : "<p>none yet</p>"}
</body>
</html>`;
}

/** The simulation of one document in one panel. */
export class Simulator implements vscode.Disposable {
  private uri: string | undefined;
  private mode = "concrete";
  private steps: unknown[] = [];
  /** The label of each step taken, for the history. */
  private labels: string[] = [];
  private result: SimResult | undefined;
  private panel: vscode.WebviewPanel | undefined;
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.findMatchHighlightBackground"),
  });
  private readonly here = vscode.window.createTextEditorDecorationType({
    borderWidth: "1px",
    borderStyle: "solid",
    borderColor: new vscode.ThemeColor("editor.findMatchBorder"),
  });

  constructor(private readonly request: Request) {}

  /** The steps sent with the next request (for tests). */
  get currentSteps(): unknown[] {
    return this.steps;
  }

  get currentResult(): SimResult | undefined {
    return this.result;
  }

  /** Starts simulating the active zeno editor's model. */
  async start(mode: "concrete" | "symbolic" = "concrete"): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isModelLanguage(editor.document.languageId)) {
      void vscode.window.showInformationMessage(
        "zeno: open a model (.zeno, UPPAAL .xml or .xta, TChecker .tck) to simulate it",
      );
      return;
    }
    this.uri = editor.document.uri.toString();
    this.mode = mode;
    await this.run([], []);
  }

  /** Starts from a check's trace, cut after step `pos` (1-based; 0: the start). */
  async fromTrace(uri: string, check: string, pos: number): Promise<void> {
    this.uri = uri;
    const answer = parseSimResult(await this.request("zeno/simulate", { uri, mode: this.mode, trace: check }));
    if (!answer) return this.say(`no trace of ${check} to simulate`);
    // Keep the steps up to the pos-th transition (with the delays before it).
    const steps: unknown[] = [];
    const labels: string[] = [];
    let fired = 0;
    for (const s of answer.steps) {
      if (fired >= pos) break;
      const kind = (s as { kind?: string }).kind;
      if (kind === "fire") fired++;
      steps.push(s);
      labels.push(kind === "delay" ? "" : `step ${fired} of ${check}`);
    }
    await this.run(steps, labels);
  }

  async fire(n: number): Promise<void> {
    const t = this.result?.transitions[n - 1];
    if (!t) return this.say(`there is no transition ${n}`);
    if (!t.step) return this.say(`${t.label} cannot be taken now: ${t.error ?? `delay in ${t.windows.join(" or ")}`}`);
    await this.run([...this.steps, t.step], [...this.labels, t.label]);
  }

  async back(): Promise<void> {
    if (this.steps.length === 0) return this.say("already at the initial state");
    await this.run(this.steps.slice(0, -1), this.labels.slice(0, -1));
  }

  async reset(): Promise<void> {
    await this.run([], []);
  }

  async delay(d?: string): Promise<void> {
    const value =
      d ?? (await (vscode.window as { showInputBox?: (o: unknown) => Thenable<string | undefined> }).showInputBox?.({
        prompt: "Delay (a rational: 2, 3/2)",
      }));
    if (!value) return;
    await this.run([...this.steps, { kind: "delay", delay: value.trim() }], [...this.labels, ""]);
  }

  private say(message: string): void {
    void vscode.window.showInformationMessage(`zeno: ${message}`);
  }

  /** Sends the steps; the server's answer becomes the state shown. */
  private async run(steps: unknown[], labels: string[]): Promise<void> {
    if (!this.uri) return this.say("no simulation: run zeno: Simulate first");
    // The timeline picture grows with the run (concrete clock values only).
    const timeline = this.mode === "concrete";
    const answer = parseSimResult(await this.request("zeno/simulate", { uri: this.uri, mode: this.mode, steps, timeline }));
    if (!answer) return this.say("the model has errors, or no server is running");
    // The server replays what still applies; a step that does not is
    // reported and dropped with those after it.
    if (answer.error) this.say(answer.error);
    this.steps = answer.steps;
    this.labels = labels.slice(0, answer.steps.length);
    this.result = answer;
    this.show();
  }

  private show(): void {
    const r = this.result!;
    const history = this.steps.map((s, i) =>
      stepLabel({ ...(s as object), label: this.labels[i] || undefined }, i + 1),
    );
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        "zeno.simulator",
        "zeno Simulator",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false, enableCommandUris: true, localResourceRoots: [] } as vscode.WebviewOptions,
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.webview.html = simulatorHtml(this.mode, r, history);
    // The edges that can be taken and the current locations, highlighted
    // in the model.
    const toRange = (x: SimEdge["range"]) =>
      new vscode.Range(x.start.line, x.start.character, x.end.line, x.end.character);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== this.uri) continue;
      editor.setDecorations(this.highlight, r.transitions.flatMap((t) => t.edges.map((e) => toRange(e.range))));
      editor.setDecorations(this.here, (r.state.locationRanges ?? []).map(toRange));
    }
  }

  dispose(): void {
    this.panel?.dispose();
    this.highlight.dispose();
    this.here.dispose();
  }
}
