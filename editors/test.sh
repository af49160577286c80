#!/bin/sh
# Everything CI runs for the editor integrations.
#
#   editors/test.sh [ZENO_BINARY]
#
# Builds and tests the VS Code extension (npm ci, type check, unit tests with
# a mocked vscode module, protocol test, grammar tests, .vsix package). The
# protocol test and the Neovim headless test run against ZENO_BINARY when it
# is given (`zeno lsp`), else against the protocol stand-in test/fake-zeno.
# The Neovim test is skipped when `nvim` is not installed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
zeno=""
if [ $# -ge 1 ]; then
  case "$1" in
    /*) zeno=$1 ;;
    *) zeno=$(pwd)/$1 ;;
  esac
fi
server=${zeno:-$here/test/fake-zeno}

step() { printf '\n== %s\n' "$*"; }

cd "$here/vscode"
step "npm ci"
npm ci --no-audit --no-fund
step "compile (type check, bundle)"
npm run compile
step "lint (strict unused checks)"
npm run lint
step "unit and protocol tests (server: $server)"
ZENO_BIN=$server npm test
step "grammar tests"
npm run test:grammar
step "package .vsix (with $server as its bundled server)"
rm -f zeno-*.vsix
ZENO_BIN=$server npm run package
# The platform package carries the server, executable, in extension/bin.
python3 - zeno-*-*.vsix <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
entry = next((i for i in z.infolist() if i.filename == "extension/bin/zeno"), None)
if entry is None or not (entry.external_attr >> 16) & 0o111:
    sys.exit(f"{sys.argv[1]}: no executable extension/bin/zeno")
manifest = z.read("extension.vsixmanifest").decode()
if 'TargetPlatform="' not in manifest:
    sys.exit(f"{sys.argv[1]}: no target platform in the manifest")
print(f"{sys.argv[1]}: extension/bin/zeno ({entry.file_size} bytes), platform-specific")
PY

if command -v nvim >/dev/null 2>&1; then
  step "Neovim headless test (server: $server)"
  "$here/nvim/test/run.sh" "$server"
else
  step "Neovim headless test skipped: nvim not installed"
fi
step "editors: all passed"
