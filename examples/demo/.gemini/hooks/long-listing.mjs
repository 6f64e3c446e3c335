#!/usr/bin/env node
// BeforeTool: rewrites a bare `ls` into `ls -la` before it runs (hookSpecificOutput.tool_input).
import { readEvent } from './read-event.mjs';
const event = await readEvent();
const command = String(event.tool_input?.command ?? '').trim();
const out = command === 'ls' ? { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'ls -la' } } } : {};
process.stdout.write(JSON.stringify(out));
