#!/usr/bin/env bash
# SpatialAgent bash hook: $COMMAND is the shell command about to run (set in the environment).
if printf '%s' "$COMMAND" | grep -qE '^(rm -rf|sudo|chmod 777)'; then
  echo '{"decision": "block", "reason": "Dangerous command"}'
fi
exit 0
