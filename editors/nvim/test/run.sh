#!/bin/sh
# Headless Neovim test of the zeno plugin against a language server.
#
#   editors/nvim/test/run.sh ZENO_BINARY
#
# Opens a copy of models/fischer-buggy.zeno, waits (at most 60 s) for the
# violation diagnostic, runs :ZenoTraceNext and checks that the cursor is on
# the first step's edge as given by zeno/errorTrace; then :ZenoTraceNext,
# :ZenoTracePrev and :ZenoTrace; then a simulation (:ZenoSimulate,
# :ZenoSimFire, :ZenoSimBack, a refused :ZenoSimDelay; skipped against the
# stand-in server). Then, against the real server only, the code lenses of
# editors/test/models/lamp.zeno (one violated, one holding check: each lens
# shows its own check's trace or witness) and the default key mappings
# (test/lenses.lua), and the trace debugger: `zeno dap` as the adapter that
# require('zeno.dap') registers with nvim-dap, driven by a small DAP client
# (test/dap.lua); and a UPPAAL model with its query file beside it
# (tests/data/uppaal/bridge: each query's verdict on its line of the .q
# buffer, the simulator on the XML buffer; test/query_file.lua). Exits
# non-zero on failure. Runs the trace model's unit
# tests (test/trace_spec.lua) first.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 ZENO_BINARY" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
plugin=$(dirname "$here")
repo=$(cd "$plugin/../.." && pwd)
case "$1" in
  /*) zeno=$1 ;;
  *) zeno=$(pwd)/$1 ;;
esac
[ -x "$zeno" ] || { echo "not executable: $zeno" >&2; exit 2; }

# The trace model on its own first (no server involved).
timeout 60 nvim --headless -u NONE -i NONE -n --cmd "set rtp^=$plugin" \
  -c "luafile $here/trace_spec.lua"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$repo/models/fischer-buggy.zeno" "$work/fischer-buggy.zeno"

ZENO_BIN=$zeno ZENO_MODEL=$work/fischer-buggy.zeno ZENO_PLUGIN=$plugin \
  timeout 120 nvim --headless -u NONE -i NONE -n \
  --cmd "set rtp^=$plugin" \
  -c "luafile $here/headless.lua"

if [ "$(basename "$zeno")" = fake-zeno ]; then
  echo "lens and mapping test skipped: the stand-in server has no hover, definition, references, rename or formatting"
else
  cp "$repo/editors/test/models/lamp.zeno" "$work/lamp.zeno"
  ZENO_BIN=$zeno ZENO_MODEL=$work/lamp.zeno \
    timeout 120 nvim --headless -u NONE -i NONE -n \
    --cmd "set rtp^=$plugin" \
    -c "luafile $here/lenses.lua"
  ZENO_BIN=$zeno ZENO_MODEL=$work/fischer-buggy.zeno \
    timeout 60 nvim --headless -u NONE -i NONE -n \
    --cmd "set rtp^=$plugin" \
    -c "luafile $here/dap.lua"
  cp "$repo/tests/data/uppaal/bridge/bridge.xml" "$repo/tests/data/uppaal/bridge/bridge.q" "$work/"
  ZENO_BIN=$zeno ZENO_MODEL=$work/bridge.xml \
    timeout 90 nvim --headless -u NONE -i NONE -n \
    --cmd "set rtp^=$plugin" \
    -c "luafile $here/query_file.lua"
fi
