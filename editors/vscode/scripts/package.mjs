// `npm run package`: the platform-specific .vsix with the zeno binary in
// bin/ (the extension starts it when zeno.path is empty).
//
// The binary is ZENO_BIN, else the repository's target/release/zeno
// (`cargo build --release` first). The target is this machine's platform
// (linux-x64, darwin-arm64, win32-x64, ...); ZENO_VSCE_TARGET overrides it
// when packaging a binary built for another platform.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(root, "../..");

function vsceTarget(platform, arch) {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[platform];
  const cpu = { x64: "x64", arm64: "arm64", arm: "armhf" }[arch];
  if (!os || !cpu) throw new Error(`no VS Code platform for ${platform}-${arch}; set ZENO_VSCE_TARGET`);
  return `${os}-${cpu}`;
}

const target = process.env.ZENO_VSCE_TARGET || vsceTarget(process.platform, process.arch);
const exe = target.startsWith("win32") ? "zeno.exe" : "zeno";
const binary = resolve(process.env.ZENO_BIN || join(repo, "target", "release", exe));
if (!existsSync(binary)) {
  console.error(`no zeno binary at ${binary}: run \`cargo build --release\` first, or set ZENO_BIN`);
  process.exit(1);
}
const bin = join(root, "bin");
rmSync(bin, { recursive: true, force: true });
mkdirSync(bin);
copyFileSync(binary, join(bin, exe));
chmodSync(join(bin, exe), 0o755);
const vsce = join(root, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
execFileSync(
  vsce,
  ["package", "--target", target, "--no-dependencies", "--skip-license", "--allow-missing-repository"],
  { cwd: root, stdio: "inherit" },
);
