// Bundles the extension and its one runtime dependency into dist/extension.js.
import { build } from "esbuild";

const production = process.argv.includes("--production");
await build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "dist/extension.js",
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node18",
  minify: production,
  sourcemap: !production,
  logLevel: "warning",
});
