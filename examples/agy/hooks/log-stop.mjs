#!/usr/bin/env node
// Stop: append how each turn ended to .agents/turns.log.
import fs from 'node:fs';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const { conversationId, terminationReason } = JSON.parse(text);
fs.appendFileSync('.agents/turns.log', `${conversationId} ${terminationReason}\n`);
