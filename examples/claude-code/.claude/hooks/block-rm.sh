#!/usr/bin/env bash
# Claude Code PreToolUse hook on Bash: exit 2 blocks the call, stderr is the reason.
input=$(cat)
if printf '%s' "$input" | grep -qE '"command" *: *"[^"]*rm -rf'; then
  echo "rm -rf is not allowed here" >&2
  exit 2
fi
exit 0
