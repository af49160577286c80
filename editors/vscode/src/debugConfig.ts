// The trace debugger's launch configurations and which checks get a
// "Debug trace" lens. Pure, so it is tested without an editor; debug.ts
// wires it into VS Code.

import { findChecks, type DiagnosticLike, STALE_CHECK } from "./checks";
import type { Range } from "./trace";

/** The debugger type `zeno dap` serves (package.json "debuggers"). */
export const DEBUG_TYPE = "zeno";

/** The launch arguments `zeno dap` reads (docs/cli.md, "zeno dap"). */
export interface LaunchConfig {
  type: string;
  request: "launch";
  name: string;
  /** The model file. */
  program: string;
  /** A check's name or index: debug its trace. Absent: a simulation. */
  check?: string | number;
  /** The checker's search order (the zeno.search setting). */
  search?: string;
  seed?: number;
  maxSteps?: number;
}

/** The session that debugs `check`'s trace in `program`. */
export function traceConfig(program: string, check: string, search?: string): LaunchConfig {
  const config: LaunchConfig = {
    type: DEBUG_TYPE,
    request: "launch",
    name: `Debug trace of ${check}`,
    program,
    check,
  };
  if (search) config.search = search;
  return config;
}

/** A simulation of `program` from its initial state. */
export function simulationConfig(program: string): LaunchConfig {
  return { type: DEBUG_TYPE, request: "launch", name: "Simulate", program };
}

/**
 * Fills in what F5 without a launch.json leaves out: the model in the
 * active editor (a simulation). Undefined when there is no model to debug.
 */
export function resolveConfig(
  config: { type?: string; request?: string; name?: string; program?: unknown; [key: string]: unknown },
  activeFile: string | undefined,
): LaunchConfig | undefined {
  if (!config.type && !config.request && !config.name) {
    return activeFile ? simulationConfig(activeFile) : undefined;
  }
  const program = typeof config.program === "string" && config.program !== "" ? config.program : activeFile;
  if (!program) return undefined;
  return { ...config, type: DEBUG_TYPE, request: "launch", name: config.name ?? "zeno", program } as LaunchConfig;
}

/**
 * The checks of a zeno text that have a trace to debug: those whose
 * verdict on the name says "violated: trace of …" or "holds: witness of …".
 */
export function debuggableChecks(text: string, diagnostics: DiagnosticLike[]): { name: string; range: Range }[] {
  const overlaps = (a: Range, b: Range) =>
    !(a.end.line < b.start.line || (a.end.line === b.start.line && a.end.character < b.start.character)) &&
    !(b.end.line < a.start.line || (b.end.line === a.start.line && b.end.character < a.start.character));
  return findChecks(text).filter((c) =>
    diagnostics.some(
      (d) =>
        d.code !== STALE_CHECK &&
        overlaps(d.range, c.range) &&
        /^(violated: trace of|holds: witness of)/.test(d.message),
    ),
  );
}
