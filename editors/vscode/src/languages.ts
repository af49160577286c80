// The languages the client attaches the server to, in one place: the
// documentSelector, the pictures, the simulator, trace stepping and the
// debugger all read them from here.

/**
 * Models the server checks: zeno text, and the formats it imports (UPPAAL
 * `.xml` and `.xta`, TChecker `.tck`). An `.xml` file that is no UPPAAL
 * model is left alone by the server (its requests answer nothing).
 */
export const MODEL_LANGUAGES: readonly string[] = ["zeno", "uppaal-xta", "tchecker", "xml"];

/**
 * UPPAAL query files (`*.q`): the server checks their queries on the model
 * beside them (`NAME.xml`, else `NAME.xta`) and puts each verdict on its line.
 */
export const QUERY_LANGUAGE = "uppaal-query";

/** Whether a document of this language is a model the server checks. */
export const isModelLanguage = (languageId: string): boolean => MODEL_LANGUAGES.includes(languageId);

/**
 * The client's documentSelector: every model language and query files. XML
 * and query files only on disk: the server decides an XML file by its
 * `<nta>` element and finds a query file's model beside it.
 */
export const DOCUMENT_SELECTOR: readonly { language: string; scheme?: string }[] = [
  ...MODEL_LANGUAGES.map((language) => (language === "xml" ? { language, scheme: "file" } : { language })),
  { language: QUERY_LANGUAGE, scheme: "file" },
];
