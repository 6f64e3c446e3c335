#!/usr/bin/env node
// AfterTool audit: appends one line per tool call to .gemini/audit.log, adds nothing to the turn.
import fs from 'node:fs';
import path from 'node:path';
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const event = JSON.parse(raw);
const line = `${event.timestamp} ${event.tool_name} ${JSON.stringify(event.tool_input)}\n`;
fs.appendFileSync(path.join(process.env.GEMINI_PROJECT_DIR, '.gemini', 'audit.log'), line);
process.stdout.write(JSON.stringify({ hookSpecificOutput: { additionalContext: 'audited' } }));
