#!/usr/bin/env node
// BeforeTool for MCP tools: no deletes. (Print nothing else: with an empty stdout, Gemini CLI's
// rules read stderr as the hook's message.)
let raw = '';
process.stdin.on('data', (d) => (raw += d));
process.stdin.on('end', () => {
  const { mcp_context } = JSON.parse(raw);
  if (mcp_context.tool_name.startsWith('delete_'))
    process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'notes are never deleted through an agent' }));
});
