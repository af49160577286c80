// Maps the `zeno.*` settings of the editor to what the language server reads
// (under the key `zeno`, both in initializationOptions and in
// workspace/didChangeConfiguration). Pure: it takes a getter, so it is tested
// without an editor.

// The search orders, heuristics and subsumptions of `zeno check --search` /
// `--heuristic` / `--subsume` / `--reduce` (a test in the zeno repository keeps these and
// package.json equal to the checker's lists).
export const SEARCH_ORDERS = ["bfs", "dfs", "rdfs", "greedy", "astar"] as const;
export const HEURISTICS = ["zero", "dl", "du", "hl", "hu", "hcg", "pdb"] as const;
export const SUBSUME = ["inclusion", "alu"] as const;
export const SYMMETRY = ["on", "off"] as const;
export const REDUCE = ["none", "por"] as const;
export const CHECK_ON = ["change", "save"] as const;

export interface ServerSettings {
  search?: (typeof SEARCH_ORDERS)[number];
  heuristic?: (typeof HEURISTICS)[number];
  subsume?: (typeof SUBSUME)[number];
  symmetry?: (typeof SYMMETRY)[number];
  reduce?: (typeof REDUCE)[number];
  /** null: no limit. */
  maxStates?: number | null;
  /** null: no limit. */
  timeoutSeconds?: number | null;
  checkOn?: (typeof CHECK_ON)[number];
  debounceMs?: number;
  /** Threads of a breadth-first, greedy or A* check, at least 1. */
  threads?: number;
  /** Liveness checks count only runs whose time diverges (`--non-zeno`). */
  nonZeno?: boolean;
  /** A size as `zeno --memory` reads it; unset: the default budget. */
  memory?: string;
}

/** Reads one setting below `zeno.`; returns undefined when unset. */
export type SettingGetter = (key: string) => unknown;

function oneOf<T extends string>(allowed: readonly T[], value: unknown): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

/** A non-negative integer, or undefined (so the server keeps its default). */
function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * A limit: a positive value, or null for "no limit" (the setting's 0, sent
 * as null so that the server also drops a limit set earlier); undefined when
 * invalid.
 */
function limit(isValid: (v: number) => boolean) {
  return (value: unknown): number | null | undefined => {
    if (value === 0) return null;
    return typeof value === "number" && Number.isFinite(value) && value > 0 && isValid(value)
      ? value
      : undefined;
  };
}

/**
 * The settings object sent to the server. Values the server would reject
 * (unknown search orders, negative limits, ...) are left out, so the server
 * falls back to its defaults instead of failing; `problems` says which.
 */
export function serverSettings(get: SettingGetter): { settings: ServerSettings; problems: string[] } {
  const settings: ServerSettings = {};
  const problems: string[] = [];
  const take = <K extends keyof ServerSettings>(
    key: K,
    parse: (v: unknown) => ServerSettings[K] | undefined,
    expected: string,
  ) => {
    const raw = get(key);
    if (raw === undefined || raw === null) return;
    const value = parse(raw);
    if (value === undefined) {
      problems.push(`zeno.${key}: expected ${expected}, got ${JSON.stringify(raw)}`);
    } else {
      settings[key] = value;
    }
  };
  take("search", (v) => oneOf(SEARCH_ORDERS, v), SEARCH_ORDERS.join("|"));
  take("heuristic", (v) => oneOf(HEURISTICS, v), HEURISTICS.join("|"));
  take("subsume", (v) => oneOf(SUBSUME, v), SUBSUME.join("|"));
  take("symmetry", (v) => oneOf(SYMMETRY, v), SYMMETRY.join("|"));
  take("reduce", (v) => oneOf(REDUCE, v), REDUCE.join("|"));
  take("maxStates", limit(Number.isInteger), "a non-negative integer");
  take("timeoutSeconds", limit(() => true), "a non-negative number");
  take("checkOn", (v) => oneOf(CHECK_ON, v), CHECK_ON.join("|"));
  take("debounceMs", count, "a non-negative integer");
  take("threads", (v) => (count(v) ?? 0) >= 1 ? (v as number) : undefined, "a positive integer");
  take("nonZeno", (v) => (typeof v === "boolean" ? v : undefined), "true or false");
  // An empty size is the default budget: sent as unset.
  const memory = get("memory");
  if (memory !== "") {
    take("memory", (v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined), "a size such as 512M or 2G");
  }
  return { settings, problems };
}

/** The payload for initializationOptions and didChangeConfiguration (the
 * server reads these keys as they are, `timeoutSeconds` included). */
export function serverPayload(get: SettingGetter): { zeno: ServerSettings } {
  return { zeno: serverSettings(get).settings };
}

/**
 * The command that starts the server: `zeno.path` if set, else the binary
 * bundled in a platform package (`bundled`), else `zeno` on PATH.
 */
export function serverCommand(get: SettingGetter, bundled?: string): { command: string; args: string[] } {
  const path = get("path");
  const configured = typeof path === "string" && path.trim() !== "" ? path.trim() : undefined;
  return { command: configured ?? bundled ?? "zeno", args: ["lsp"] };
}

/**
 * Where a platform package carries its server: `bin/zeno` (`bin/zeno.exe`
 * on Windows) in the extension's folder; undefined when it is not there
 * (a package built without a binary).
 */
export function bundledServer(
  extensionPath: string,
  platform: string,
  exists: (path: string) => boolean,
): string | undefined {
  const sep = platform === "win32" ? "\\" : "/";
  const path = [extensionPath, "bin", platform === "win32" ? "zeno.exe" : "zeno"].join(sep);
  return exists(path) ? path : undefined;
}

/** Whether a configuration change affects the server process itself (needs a restart). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects("zeno.path");
}
