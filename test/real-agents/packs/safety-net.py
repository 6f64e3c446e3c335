#!/usr/bin/env python3
# A safety net in the style of the published ones: refuses destructive shell commands with exit 2.
import json, re, sys

data = json.load(sys.stdin)
if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
for pattern, why in [
    (r"\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*[rR]|-r\s+-f|-f\s+-r)\b", "HK-safety: recursive force delete"),
    (r"\bgit\s+push\s+.*--force\b", "HK-safety: force push"),
    (r">\s*/dev/sd", "HK-safety: raw disk write"),
]:
    if re.search(pattern, command):
        print(f"Blocked: {why} in '{command}'", file=sys.stderr)
        sys.exit(2)
sys.exit(0)
