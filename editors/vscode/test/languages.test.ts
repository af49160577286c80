// The languages the client serves, against what package.json contributes:
// one list, so that a model language is never served in one place and
// forgotten in another.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { DOCUMENT_SELECTOR, MODEL_LANGUAGES, QUERY_LANGUAGE, isModelLanguage } from "../src/languages";

// out/test/ when compiled: package.json is two folders up.
const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));

test("the documentSelector serves every model language and query files", () => {
  const served = DOCUMENT_SELECTOR.map((s) => s.language);
  assert.deepEqual(served, ["zeno", "uppaal-xta", "tchecker", "xml", "uppaal-query"]);
  // XML files and query files only on disk (the server reads the model beside a query file).
  assert.deepEqual(DOCUMENT_SELECTOR.find((s) => s.language === "xml"), { language: "xml", scheme: "file" });
  assert.deepEqual(DOCUMENT_SELECTOR.find((s) => s.language === QUERY_LANGUAGE), { language: QUERY_LANGUAGE, scheme: "file" });
  assert.ok(isModelLanguage("xml") && isModelLanguage("tchecker"));
  assert.ok(!isModelLanguage(QUERY_LANGUAGE) && !isModelLanguage("plaintext"));
});

test("package.json contributes each language, activates on it, and .q is a query file", () => {
  const contributed = new Map<string, string[]>(
    manifest.contributes.languages.map((l: { id: string; extensions?: string[] }) => [l.id, l.extensions ?? []]),
  );
  // xml is VS Code's own language.
  for (const language of [...MODEL_LANGUAGES.filter((l) => l !== "xml"), QUERY_LANGUAGE]) {
    assert.ok(contributed.has(language), `${language} is not contributed`);
  }
  assert.deepEqual(contributed.get(QUERY_LANGUAGE), [".q"]);
  for (const s of DOCUMENT_SELECTOR) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${s.language}`), `no activation on ${s.language}`);
  }
});

test("the model commands' when-clauses name exactly the model languages", () => {
  const clauses: string[] = [
    ...manifest.contributes.menus.commandPalette,
    ...manifest.contributes.menus["editor/context"],
  ]
    .filter((m: { command: string }) =>
      ["zeno.showAutomaton", "zeno.simulate", "zeno.simulateSymbolic", "zeno.debugTrace", "zeno.debugSimulation"].includes(
        m.command,
      ),
    )
    .map((m: { when: string }) => m.when);
  assert.equal(clauses.length, 7);
  for (const when of clauses) {
    const m = /^editorLangId =~ \/\^\(([a-z|-]+)\)\$\/$/.exec(when);
    assert.ok(m, `not a list of languages: ${when}`);
    assert.deepEqual(m[1].split("|"), [...MODEL_LANGUAGES], when);
  }
});
