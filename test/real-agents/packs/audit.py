#!/usr/bin/env python3
# An instruction audit in the style of the published ones: reminds the model of the project's rules
# when a prompt mentions deploying, and blocks prompts that carry a secret.
import json, re, sys

data = json.load(sys.stdin)
prompt = data.get("prompt", "")
if re.search(r"sk-[A-Za-z0-9]{8,}", prompt):
    print(json.dumps({"decision": "block", "reason": "HK-audit: the prompt holds an API key; remove it"}))
    sys.exit(0)
if "deploy" in prompt:
    print("HK-audit: deploys go through CI only")
