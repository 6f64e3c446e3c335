#!/usr/bin/env node
// One hook for several events: BeforeTool refuses `rm -rf`, AfterModel redacts API keys,
// AfterTool tells the model the output was checked.
let raw = '';
process.stdin.on('data', (d) => (raw += d));
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const say = (o) => process.stdout.write(JSON.stringify(o));
  switch (input.hook_event_name) {
    case 'BeforeTool':
      if (/rm\s+-rf/.test(input.tool_input.command ?? '')) say({ decision: 'deny', reason: 'rm -rf is not allowed here' });
      break;
    case 'AfterTool':
      say({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'output checked by policy.mjs' } });
      break;
    case 'AfterModel': {
      const text = input.llm_response.candidates?.[0]?.content?.parts?.join('') ?? '';
      if (/sk-\w+/.test(text)) {
        const parts = [text.replace(/sk-\w+/g, '[REDACTED]')];
        say({ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { candidates: [{ content: { role: 'model', parts } }] } } });
      }
      break;
    }
  }
});
