#!/usr/bin/env bash
# Fires the quickstart's hooks with `hookline fire`, in a throwaway home so your own
# ~/.gemini (trusted folders, settings) is never touched.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
hookline="node $here/../../dist/cli/main.js"
export GEMINI_CLI_HOME="$(mktemp -d)"
trap 'rm -rf "$GEMINI_CLI_HOME"' EXIT

echo "== hookline list"
$hookline list --cwd "$here"
echo
echo "== hookline trust (workspace hooks run only in a trusted folder)"
$hookline trust "$here"
echo
echo "== BeforeTool: rm -rf /"
$hookline fire BeforeTool --cwd "$here" --input "$here/dangerous-command.json"
echo
echo "== BeforeTool: ls -la"
$hookline fire BeforeTool --cwd "$here" --input "$here/safe-command.json"
echo
echo "== AfterTool: ls -la ran"
echo '{"tool_name":"run_shell_command","tool_input":{"command":"ls -la"},"tool_response":{"llmContent":"total 0","returnDisplay":"total 0"}}' \
  | $hookline fire AfterTool --cwd "$here" --input -
