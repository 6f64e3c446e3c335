#!/usr/bin/env node
// BeforeTool guard: reads the event on stdin, denies dangerous shell commands, allows the rest.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const event = JSON.parse(raw);
const command = String(event.tool_input?.command ?? '');
const rules = [
  [/\brm\s+-[a-z]*r[a-z]*f|\brm\s+-[a-z]*f[a-z]*r/, 'recursive forced delete'],
  [/\bsudo\b/, 'privilege escalation'],
  [/\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, 'piping a download into a shell'],
  [/>\s*\/dev\/(sd|nvme)/, 'writing to a block device'],
];
const hit = rules.find(([re]) => re.test(command));
const out = hit
  ? { decision: 'deny', reason: `Blocked ${hit[1]}: ${command}`, systemMessage: `🛡️ block-dangerous refused: ${command}` }
  : { decision: 'allow' };
process.stdout.write(JSON.stringify(out));
