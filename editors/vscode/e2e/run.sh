#!/bin/sh
# The VS Code extension in a real VS Code in a real browser: code-server
# (VS Code 1.100) with the platform package installed, opened in Debian's
# Chromium driven by playwright-core; e2e.test.cjs says what it checks.
#
#   editors/vscode/e2e/run.sh [ZENO_BINARY [NODE_TEST_ARGS...]]
#
# ZENO_BINARY (default target/release/zeno) goes into the .vsix that
# `npm run package` builds. Needs Node 20, npm, `chromium`, `rg` (Debian's
# ripgrep) and what code-server's native modules build with (libkrb5-dev, a
# C++ compiler, python3); .ci/run installs them. code-server and
# playwright-core, pinned by package-lock.json here, are installed once into
# $XDG_CACHE_HOME/zeno-vscode-e2e/KEY (KEY: a hash of the lockfile) and
# reused. NODE_TEST_ARGS go to `node --test` (`--test-name-pattern=lamp`
# runs only the steps that match). Screenshots go to target/e2e/. Every wait is bounded; code-server
# and everything it started are stopped at the end.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
vscode=$(dirname "$here")
repo=$(cd "$vscode/../.." && pwd)
zeno=${1:-$repo/target/release/zeno}
[ $# -gt 0 ] && shift
case "$zeno" in /*) ;; *) zeno=$(pwd)/$zeno ;; esac

say() { printf 'e2e: %s\n' "$*"; }
die() { printf 'e2e: FAILED: %s\n' "$*" >&2; exit 1; }

[ -x "$zeno" ] || die "no zeno binary at $zeno (cargo build --release, or pass one)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" = 20 ] || die "code-server 4.100 needs Node 20, this is Node $node_major"
chromium=$(command -v chromium) || die "chromium is not installed (apt-get install chromium)"
rg=$(command -v rg) || die "rg is not installed (apt-get install ripgrep)"

# code-server and playwright-core, installed once per lockfile.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/zeno-vscode-e2e
key=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
modules=$cache/$key
if [ ! -f "$modules/.installed" ]; then
  say "installing code-server and playwright-core into $modules (once)"
  rm -rf "$modules"
  # @vscode/ripgrep's install script downloads a prebuilt rg; it takes one
  # from $TMPDIR/vscode-ripgrep-cache-VERSION/ instead (lib/download.js of
  # @vscode/ripgrep 1.15.11, the version code-server 4.100.3's
  # lib/vscode/npm-shrinkwrap.json pins; asset name from lib/postinstall.js).
  rgcache=$modules/tmp/vscode-ripgrep-cache-1.15.11
  mkdir -p "$rgcache" "$modules/rg"
  cp "$rg" "$modules/rg/rg"
  tar czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$modules/rg" rg
  cp "$here/package.json" "$here/package-lock.json" "$modules/"
  if ! (cd "$modules" && TMPDIR=$modules/tmp npm_config_unsafe_perm=true npm_config_yes=true \
    timeout 1200 npm ci --no-audit --no-fund) >"$modules/install.log" 2>&1; then
    tail -40 "$modules/install.log" >&2
    die "npm ci of code-server failed (the whole log: $modules/install.log)"
  fi
  rgver=$(node -p "require('$modules/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/package.json').version")
  [ "$rgver" = 1.15.11 ] || die "code-server brought @vscode/ripgrep $rgver, not 1.15.11: update the cache name above"
  touch "$modules/.installed"
fi
codeserver=$modules/node_modules/.bin/code-server

say "packaging the extension with $zeno"
(
  cd "$vscode"
  npm ci --no-audit --no-fund >/dev/null 2>&1 || npm ci --no-audit --no-fund
  npm run --silent compile
  rm -f zeno-*.vsix
  ZENO_BIN=$zeno npm run --silent package >/dev/null
) || die "building the .vsix failed"
vsix=$(ls "$vscode"/zeno-*-*.vsix)

work=$(mktemp -d)
server=""
stop() {
  if [ -n "$server" ]; then
    # code-server runs in its own session: end it, its extension host and
    # the language servers together (`kill -SIG -PGID`: dash's kill takes
    # no `--`).
    kill -TERM "-$server" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 "-$server" 2>/dev/null || break
      sleep 0.5
    done
    kill -KILL "-$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM

data=$work/data
ext=$work/extensions
mkdir -p "$data/User"
cat >"$data/User/settings.json" <<'EOF'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.colorTheme": "Default Light Modern",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.commandCenter.enabled": false,
  "window.restoreWindows": "none",
  "files.hotExit": "off",
  "editor.minimap.enabled": false,
  "zeno.search": "bfs"
}
EOF
timeout 120 "$codeserver" --user-data-dir "$data" --extensions-dir "$ext" \
  --install-extension "$vsix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; die "code-server --install-extension $vsix failed"; }

ws=$work/workspace
mkdir -p "$ws"
cp "$repo/models/fischer-buggy.zeno" "$repo/editors/test/models/lamp.zeno" "$ws/"
cp "$repo/tests/data/import/case/coffee.xml" "$ws/"
# A UPPAAL model with its query file beside it (tests/data/uppaal/bridge/EXPECTED).
cp "$repo/tests/data/uppaal/bridge/bridge.xml" "$repo/tests/data/uppaal/bridge/bridge.q" "$ws/"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
setsid "$codeserver" --auth none --bind-addr "127.0.0.1:$port" --disable-workspace-trust \
  --disable-telemetry --disable-update-check --user-data-dir "$data" --extensions-dir "$ext" \
  "$ws" >"$work/code-server.log" 2>&1 &
server=$!
up=""
for _ in $(seq 1 120); do
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz"; then up=1; break; fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
[ -n "$up" ] || { cat "$work/code-server.log" >&2; die "code-server did not answer on port $port within 60 s"; }
say "code-server on 127.0.0.1:$port"

shots=$repo/target/e2e
rm -rf "$shots"
mkdir -p "$shots"
status=0
ZENO_E2E_URL="http://127.0.0.1:$port/?folder=$ws" ZENO_E2E_WORKSPACE=$ws ZENO_E2E_SHOTS=$shots \
  ZENO_E2E_MODULES=$modules/node_modules ZENO_E2E_CHROMIUM=$chromium \
  timeout 360 node --test --test-concurrency=1 "$@" "$here/e2e.test.cjs" || status=$?
if [ "$status" -ne 0 ]; then
  # What the extension and its server said: the first place to look.
  for log in $(find "$data/logs" -name '*zeno*' -type f 2>/dev/null); do
    printf '\n--- %s (last 40 lines)\n' "${log#"$data/"}" >&2
    tail -40 "$log" >&2
  done
  die "the browser test failed (screenshots in target/e2e/)"
fi
say "passed (screenshots in target/e2e/)"
