#!/usr/bin/env python3
# A command logger in the style of the published ones: one JSON line per tool call, in the project.
import json, os, sys

data = json.load(sys.stdin)
line = {"tool": data.get("tool_name"), "input": data.get("tool_input"), "session": bool(data.get("session_id"))}
with open(os.path.join(os.environ.get("CLAUDE_PROJECT_DIR", "."), ".tool-log.jsonl"), "a") as f:
    f.write(json.dumps(line) + "\n")
