#!/usr/bin/env node
// The real-agent suite's hook: records what it received (stdin, environment) and answers as its
// spec file says. `node hook.cjs SPEC`; SPEC is JSON: {label, log, replies: [{out, err, exit,
// sleepMs}]}; the Nth call uses replies[N] (the last one once they run out). `out` is printed as
// is when it is a string, as JSON otherwise.
'use strict';
const fs = require('node:fs');

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const raw = Buffer.concat(chunks).toString('utf8');
  let input;
  try {
    input = JSON.parse(raw);
  } catch {
    input = { unparsed: raw };
  }
  const count = `${spec.log}.${spec.label}.count`;
  let n = 0;
  try {
    n = Number(fs.readFileSync(count, 'utf8')) || 0;
  } catch {}
  fs.writeFileSync(count, String(n + 1));
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (/^(CLAUDE|GEMINI|CODEX|COPILOT|HOOKLINE|PLUGIN)/.test(k)) env[k] = v;
  const record = {
    label: spec.label,
    call: n,
    at: Date.now(),
    input,
    env,
    names: Object.keys(process.env).sort(),
    argv: process.argv.slice(3),
  };
  fs.appendFileSync(spec.log, `${JSON.stringify(record)}\n`);
  const replies = spec.replies?.length ? spec.replies : [{}];
  const reply = replies[Math.min(n, replies.length - 1)];
  const finish = () => {
    if (reply.out !== undefined) process.stdout.write(typeof reply.out === 'string' ? reply.out : JSON.stringify(reply.out));
    if (reply.err) process.stderr.write(reply.err);
    process.exitCode = reply.exit ?? 0;
  };
  if (reply.sleepMs) setTimeout(finish, reply.sleepMs);
  else finish();
});
