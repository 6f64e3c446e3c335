#!/usr/bin/env python3
# Benchmark hook in Python: one-shot by default, persistent when HOOKLINE_PERSISTENT=1.
import json, os, sys

def handle(event):
    if "rm -rf" in str(event.get("tool_input", {}).get("command", "")):
        return {"decision": "deny", "reason": "no"}
    return {"decision": "allow"}

if os.environ.get("HOOKLINE_PERSISTENT") == "1":
    print(json.dumps({"hookline": "ready", "concurrent": False}), flush=True)
    for line in sys.stdin:
        if line.strip():
            req = json.loads(line)
            print(json.dumps({"id": req["id"], "output": handle(req["input"])}), flush=True)
else:
    print(json.dumps(handle(json.load(sys.stdin))))
