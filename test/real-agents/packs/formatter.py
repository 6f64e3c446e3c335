#!/usr/bin/env python3
# A formatter after edits, in the style of the published ones: turns tabs into two spaces in the
# written file and tells the model what it changed.
import json, sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path")
if not path:
    sys.exit(0)
with open(path) as f:
    text = f.read()
fixed = text.replace("\t", "  ")
if fixed != text:
    with open(path, "w") as f:
        f.write(fixed)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": f"HK-formatted {path.rsplit('/', 1)[-1]}"}}))
