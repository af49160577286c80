// `npm run package`: the platform-specific .vsix with the zeno binary in
// bin/ (the extension starts it when zeno.path is empty).
//
// The binary is ZENO_BIN, else the repository's target/release/zeno
// (`cargo build --release` first). The target is this machine's platform
// (linux-x64, darwin-arm64, win32-x64, ...); ZENO_VSCE_TARGET overrides it
// when packaging a binary built for another platform.
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync } from "node:fs";
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
strip(join(bin, exe));
const vsce = join(root, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
execFileSync(
  vsce,
  ["package", "--target", target, "--no-dependencies", "--skip-license", "--allow-missing-repository"],
  { cwd: root, stdio: "inherit" },
);

/** Whether `file` starts as a native executable of this machine does
 * (ELF on Linux, Mach-O on macOS); not a stand-in script. */
function native(file) {
  const head = Buffer.alloc(4);
  const fd = openSync(file, "r");
  const n = readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  if (n < 4) return false;
  if (process.platform === "linux") return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  if (process.platform === "darwin") return [0xfeedfacf, 0xcffaedfe].includes(head.readUInt32BE(0));
  return false;
}

/** Strips the packaged binary's symbols and line tables (the release
 * profile keeps line tables for profiling: 62 MB, 9.6 MB stripped). Only a
 * native binary for this machine is stripped; a stand-in script or a binary
 * built for another platform (ZENO_VSCE_TARGET) is packaged as it is, and
 * says so. */
function strip(file) {
  if (process.env.ZENO_VSCE_TARGET || !native(file)) {
    console.log(`${file}: packaged as it is (a stand-in script, or a binary for another platform)`);
    return;
  }
  const before = statSync(file).size;
  const args = process.platform === "darwin" ? ["-x", file] : ["--strip-all", file];
  try {
    execFileSync("strip", args, { stdio: "inherit" });
  } catch (e) {
    console.error(`cannot strip ${file} (${e.message}): install binutils, or package it unstripped with ZENO_VSCE_TARGET set`);
    process.exit(1);
  }
  console.log(`stripped ${file}: ${before} -> ${statSync(file).size} bytes`);
}
