#!/usr/bin/env bash
# The demo: the reference agent on a scripted model, with four hooks doing their work.
# It runs in a throwaway home, so your own ~/.gemini is never touched.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hookline="node $here/../../dist/cli/main.js"
export GEMINI_CLI_HOME="$(mktemp -d)"
trap 'rm -rf "$GEMINI_CLI_HOME"' EXIT

$hookline trust "$here" >/dev/null
prompt="Tidy up the build folder and tell me about the config."
echo "\$ hookline agent --approval-mode yolo --display-hooks -p \"$prompt\""
echo
$hookline agent --cwd "$here" --model "scripted:$here/script.jsonl" --approval-mode yolo --display-hooks -p "$prompt"
