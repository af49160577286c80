// The trace model. Every trace view (step navigation, the tree, the Testing
// messages) is built from the answer to the `zeno/errorTrace` request, parsed
// here. `parseTrace` is the one adapter between the server's JSON and the
// client: if the server's shape changes, only this function changes.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TraceEdge {
  process: string;
  source: string;
  target: string;
  range: Range;
}

export interface TraceState {
  locations: [string, string][];
  variables: [string, string][];
  clocks: [string, string][];
}

export interface TraceStep {
  index: number;
  delay: string;
  edges: TraceEdge[];
  state: TraceState;
}

export interface Trace {
  uri: string;
  check: string;
  verdict: string;
  steps: TraceStep[];
  /**
   * A lasso (liveness checks): after the last step the run is back at the
   * state after step `loopStart` (0: the initial state), and steps
   * `loopStart + 1 ..` repeat for ever. Undefined for a trace without a cycle.
   */
  loopStart?: number;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown, fallback = ""): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return fallback;
}

function position(v: unknown): Position | undefined {
  if (!isObject(v)) return undefined;
  const { line, character } = v;
  if (typeof line !== "number" || typeof character !== "number") return undefined;
  if (line < 0 || character < 0) return undefined;
  return { line, character };
}

function range(v: unknown): Range | undefined {
  if (!isObject(v)) return undefined;
  const start = position(v.start);
  const end = position(v.end);
  return start && end ? { start, end } : undefined;
}

/**
 * Name/value pairs, in the server's order, from an object (`{"id": 1}`) or
 * from a list of `{ "name", "value" }` entries (both shapes are in use).
 */
function pairs(v: unknown): [string, string][] {
  if (Array.isArray(v)) {
    return v
      .filter(isObject)
      .filter((e) => typeof e.name === "string")
      .map((e) => [e.name as string, str(e.value, JSON.stringify(e.value))]);
  }
  if (!isObject(v)) return [];
  return Object.entries(v).map(([k, x]) => [k, str(x, JSON.stringify(x))]);
}

function edge(v: unknown): TraceEdge | undefined {
  if (!isObject(v)) return undefined;
  const r = range(v.range);
  if (!r) return undefined;
  return { process: str(v.process), source: str(v.source), target: str(v.target), range: r };
}

/** Delays are rationals written "3/2"; a number is accepted too. */
function delay(v: unknown): string {
  return str(v, "0") || "0";
}

/**
 * Parses a `zeno/errorTrace` response. Returns null for "no trace" (a null
 * response or one that is not a trace); malformed edges are dropped rather
 * than failing the whole trace.
 */
export function parseTrace(uri: string, raw: unknown): Trace | null {
  if (!isObject(raw) || !Array.isArray(raw.steps)) return null;
  const steps: TraceStep[] = raw.steps.filter(isObject).map((s, i) => {
    // The state after the step: `state`, or `after` in the server's own naming.
    const state = isObject(s.state) ? s.state : isObject(s.after) ? s.after : {};
    return {
      index: typeof s.index === "number" ? s.index : i + 1,
      delay: delay(s.delay),
      edges: Array.isArray(s.edges)
        ? s.edges.map(edge).filter((e): e is TraceEdge => e !== undefined)
        : [],
      state: {
        locations: pairs(state.locations),
        variables: pairs(state.variables),
        clocks: pairs(state.clocks),
      },
    };
  });
  // The server's `end` is `{ "kind": "loop", "start": N }` for a lasso.
  const end = isObject(raw.end) ? raw.end : {};
  const start = end.kind === "loop" ? end.start : undefined;
  const loopStart =
    typeof start === "number" && Number.isInteger(start) && start >= 0 && start < steps.length
      ? start
      : undefined;
  return { uri, check: str(raw.check), verdict: str(raw.verdict), steps, loopStart };
}

/** Whether the step at `pos` (0-based) belongs to the cycle of a lasso. */
export function inCycle(trace: Trace, pos: number): boolean {
  return trace.loopStart !== undefined && pos >= trace.loopStart && pos < trace.steps.length;
}

/** "Proc(1): wait → cs", with every edge of a synchronisation joined by " | ". */
export function stepTitle(step: TraceStep): string {
  if (step.edges.length === 0) return "(no edge)";
  return step.edges.map((e) => `${e.process}: ${e.source} → ${e.target}`).join(" | ");
}

/** "delay 3/2" (omitted when no time passes). */
export function delayText(step: TraceStep): string {
  return step.delay === "0" ? "" : `delay ${step.delay}`;
}

/** One line of text for the state after a step: `Proc(1)=cs id=1 Proc(1).x=2`. */
export function stateText(state: TraceState): string {
  return [...state.locations, ...state.variables, ...state.clocks]
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

/** A one-line summary of a step, used in quickfix-like lists and messages. */
export function stepSummary(step: TraceStep): string {
  const d = delayText(step);
  return `step ${step.index}: ${d ? d + ", " : ""}${stepTitle(step)}; ${stateText(step.state)}`;
}

/**
 * A position in a trace. -1 is the initial state (before the first step);
 * moving stops at both ends instead of wrapping, so repeated "next" presses
 * stay on the last step; except that "next" on the last step of a lasso
 * goes round its cycle again, to the cycle's first step.
 */
export class TraceCursor {
  private pos = -1;

  constructor(readonly trace: Trace) {}

  get position(): number {
    return this.pos;
  }

  get current(): TraceStep | undefined {
    return this.trace.steps[this.pos];
  }

  /** Moves to `index` (clamped); returns the step there, if any. */
  goTo(index: number): TraceStep | undefined {
    const last = this.trace.steps.length - 1;
    this.pos = Math.max(-1, Math.min(index, last));
    return this.current;
  }

  next(): TraceStep | undefined {
    const start = this.trace.loopStart;
    if (start !== undefined && this.atEnd()) return this.goTo(start);
    return this.goTo(this.pos + 1);
  }

  /** Moves back, but never before the first step once a step was shown. */
  prev(): TraceStep | undefined {
    return this.goTo(Math.max(0, this.pos - 1));
  }

  atEnd(): boolean {
    return this.pos === this.trace.steps.length - 1;
  }
}

/** The traces known to the client, one per (document, check). */
export class TraceStore {
  private cursors = new Map<string, TraceCursor>();
  private activeKey: string | undefined;

  static key(uri: string, check: string): string {
    return `${uri}#${check}`;
  }

  /** Stores a trace (replacing an older one and its position); makes it active. */
  set(trace: Trace): TraceCursor {
    const key = TraceStore.key(trace.uri, trace.check);
    const cursor = new TraceCursor(trace);
    this.cursors.set(key, cursor);
    this.activeKey = key;
    return cursor;
  }

  get(uri: string, check: string): TraceCursor | undefined {
    return this.cursors.get(TraceStore.key(uri, check));
  }

  /** Makes a stored trace the target of next/previous. */
  activate(uri: string, check: string): TraceCursor | undefined {
    const cursor = this.get(uri, check);
    if (cursor) this.activeKey = TraceStore.key(uri, check);
    return cursor;
  }

  get active(): TraceCursor | undefined {
    return this.activeKey === undefined ? undefined : this.cursors.get(this.activeKey);
  }

  /** Drops every trace of a document (its text changed, so ranges are stale). */
  invalidate(uri: string): void {
    for (const [key, cursor] of this.cursors) {
      if (cursor.trace.uri === uri) this.cursors.delete(key);
    }
    if (this.activeKey !== undefined && !this.cursors.has(this.activeKey)) {
      this.activeKey = undefined;
    }
  }
}

/** A node of the trace tree view: steps at the top, their state below. */
export interface TraceNode {
  label: string;
  description?: string;
  /** Set on step nodes: clicking one jumps to that step. */
  stepPosition?: number;
  children: TraceNode[];
}

function group(label: string, entries: [string, string][]): TraceNode[] {
  if (entries.length === 0) return [];
  return [
    {
      label,
      children: entries.map(([k, v]) => ({ label: k, description: v, children: [] })),
    },
  ];
}

/** A step's description with the lasso's cycle marked: "↻ cycle, delay 1". */
function cycleMark(trace: Trace, pos: number, text: string): string {
  if (!inCycle(trace, pos)) return text;
  const mark = pos === trace.loopStart ? "↻ cycle starts" : "↻ cycle";
  return text ? `${mark}, ${text}` : mark;
}

/** The tree shown for a trace: one node per step with delay and state below it. */
export function traceTree(trace: Trace): TraceNode[] {
  return trace.steps.map((step, pos) => ({
    label: `${step.index}. ${stepTitle(step)}`,
    description: cycleMark(trace, pos, delayText(step)),
    stepPosition: pos,
    children: [
      { label: "delay", description: step.delay, children: [] },
      ...group("locations", step.state.locations),
      ...group("variables", step.state.variables),
      ...group("clocks", step.state.clocks),
    ],
  }));
}
