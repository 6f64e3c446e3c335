#!/usr/bin/env node
// Benchmark hook as many are written: CommonJS, no SDK, reads the event and answers.
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const event = JSON.parse(input);
  const command = String(event.tool_input?.command ?? '');
  process.stdout.write(JSON.stringify(command.includes('rm -rf') ? { decision: 'deny', reason: 'no' } : { decision: 'allow' }));
});
