#!/usr/bin/env node
// AfterModel: replaces API keys in each streamed chunk of the model's answer with [REDACTED].
import { readEvent } from './read-event.mjs';
const event = await readEvent();
const parts = event.llm_response?.candidates?.[0]?.content?.parts ?? [];
const secret = /\b(sk|pk|rk)[-_](live|test|demo)[-_][A-Za-z0-9]{8,}\b/g;
const text = parts.join('');
if (!secret.test(text)) process.exit(0);
const redacted = text.replace(secret, '[REDACTED]');
process.stdout.write(
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'AfterModel',
      llm_response: { candidates: [{ content: { role: 'model', parts: [redacted] }, finishReason: 'STOP' }] },
    },
  }),
);
