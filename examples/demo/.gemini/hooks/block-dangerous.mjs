#!/usr/bin/env node
// BeforeTool: denies dangerous shell commands; the model reads the reason as the tool's error.
import { readEvent } from './read-event.mjs';
const event = await readEvent();
const command = String(event.tool_input?.command ?? '');
const rules = [
  [/\bsudo\b/, 'privilege escalation'],
  [/\brm\s+-[a-z]*r[a-z]*f\b|\brm\s+-[a-z]*f[a-z]*r\b/, 'recursive forced delete'],
  [/\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, 'piping a download into a shell'],
];
const hit = rules.find(([re]) => re.test(command));
process.stdout.write(
  JSON.stringify(hit ? { decision: 'deny', reason: `${hit[1]} is not allowed here (${command})` } : { decision: 'allow' }),
);
