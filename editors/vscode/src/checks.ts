// The checks of a model as test items, and how a check's result is read from
// what the server publishes. Pure, so it is tested without an editor.

import type { Range, Trace } from "./trace";

export interface CheckDecl {
  name: string;
  /** The range of the check's name. */
  range: Range;
}

/**
 * Finds `check NAME:` declarations. Comments are blanked first (keeping
 * offsets), so a commented-out check is not a test item.
 */
export function findChecks(text: string): CheckDecl[] {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  const code = text.replace(/\/\*[\s\S]*?(\*\/|$)/g, blank).replace(/\/\/[^\n]*/g, blank);
  const lines = code.split("\n");
  const found: CheckDecl[] = [];
  const re = /\bcheck\s+([A-Za-z_][A-Za-z0-9_]*)\s*:/g;
  // Line starts, to turn offsets into positions.
  const starts: number[] = [0];
  for (const l of lines) starts.push(starts[starts.length - 1] + l.length + 1);
  const at = (offset: number) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
    return { line, character: offset - starts[line] };
  };
  for (const m of code.matchAll(re)) {
    const nameStart = (m.index ?? 0) + m[0].indexOf(m[1], 5);
    found.push({ name: m[1], range: { start: at(nameStart), end: at(nameStart + m[1].length) } });
  }
  return found;
}

export interface DiagnosticLike {
  message: string;
  /** 1 = error, as in LSP. */
  severity?: number;
  range: Range;
  code?: string | number;
}

/**
 * The code of a verdict the server keeps showing from before the last edit
 * (marked "re-checking…" or "not re-checked"): not a verdict of the text.
 */
export const STALE_CHECK = "stale-check";

export type Outcome =
  | { status: "passed"; message: string }
  | { status: "failed"; message: string }
  | { status: "errored"; message: string }
  | { status: "skipped"; message: string };

function overlaps(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** Reads a verdict string; the server's wording may vary ("fails", "violated", ...). */
export function verdictStatus(verdict: string): Outcome["status"] | undefined {
  const v = verdict.toLowerCase();
  if (/^(holds|satisfied|pass(ed)?|ok)\b/.test(v)) return "passed";
  if (/(fail|violat)/.test(v)) return "failed";
  if (/error/.test(v)) return "errored";
  if (/(unknown|limit|timeout|cancel)/.test(v)) return "skipped";
  return undefined;
}

/**
 * The outcome of one check: the trace's verdict when the server gives one,
 * else the diagnostics on the check's name, read by their first words
 * ("violated: ...", "holds: ...", "unknown: ..."). An error there that says
 * nothing known is a model error; no diagnostic at all means the check holds
 * (servers may report only violations).
 */
export function checkOutcome(
  check: CheckDecl,
  trace: Trace | null,
  diagnostics: DiagnosticLike[],
): Outcome {
  const own = diagnostics.filter((d) => d.code !== STALE_CHECK && overlaps(d.range, check.range));
  const error = own.find((d) => (d.severity ?? 1) === 1);
  const fromVerdict = trace ? verdictStatus(trace.verdict) : undefined;
  if (fromVerdict) {
    const message =
      (error ?? own[0])?.message ?? `${trace!.verdict}: trace of ${trace!.steps.length} steps`;
    return { status: fromVerdict, message } as Outcome;
  }
  for (const d of error ? [error, ...own] : own) {
    const status = verdictStatus(d.message);
    if (status) return { status, message: d.message } as Outcome;
  }
  if (error) return { status: "errored", message: error.message };
  return { status: "passed", message: own[0]?.message ?? "holds" };
}
