// Server pictures as webview pages, without the editor API (so the protocol
// test can use it too): checking an answer, and the page around an SVG.

/** The `svg` (and `template`) of a picture answer, or undefined for null or junk. */
export function parseSvgAnswer(answer: unknown): { svg: string; template?: string } | undefined {
  if (!answer || typeof answer !== "object") return undefined;
  const { svg, template } = answer as { svg?: unknown; template?: unknown };
  if (typeof svg !== "string" || !svg.includes("<svg")) return undefined;
  return { svg, template: typeof template === "string" ? template : undefined };
}

/** The SVG element alone: an XML declaration or DOCTYPE is not allowed inline in HTML. */
export function inlineSvg(svg: string): string {
  const start = svg.indexOf("<svg");
  return start < 0 ? "" : svg.slice(start);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** The policy of every picture page: no scripts, nothing loaded from anywhere. */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'";

/** A whole page showing an SVG, or a message when there is none. */
export function pictureHtml(title: string, svg: string | undefined, message: string): string {
  const body = svg ? inlineSvg(svg) : `<p class="message">${escapeHtml(message)}</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${escapeHtml(title)}</title>
<style>
  body { background: #fff; color: #222; margin: 0; padding: 8px; }
  svg { max-width: none; height: auto; }
  .message { font-family: sans-serif; color: #555; }
</style>
</head>
<body>
${body}
</body>
</html>`;
}
