#!/usr/bin/env node
// PreToolUse on run_command: deny `rm -rf`, ask before `git push`, allow the rest.
let text = '';
for await (const chunk of process.stdin) text += chunk;
const { toolCall } = JSON.parse(text);
const command = String(toolCall?.args?.CommandLine ?? '');
if (/\brm\s+-rf\b/.test(command)) console.log(JSON.stringify({ decision: 'deny', reason: `blocked: ${command}` }));
else if (/\bgit\s+push\b/.test(command)) console.log(JSON.stringify({ decision: 'ask', reason: 'confirm the push' }));
else console.log(JSON.stringify({ decision: 'allow' }));
