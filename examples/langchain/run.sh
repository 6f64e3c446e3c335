#!/usr/bin/env bash
# Runs app.mjs with this folder's hooks, in a throwaway home so your own ~/.gemini is untouched.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export GEMINI_CLI_HOME="$(mktemp -d)"
trap 'rm -rf "$GEMINI_CLI_HOME"' EXIT
node "$here/../../dist/cli/main.js" trust "$here" >/dev/null
node "$here/app.mjs"
