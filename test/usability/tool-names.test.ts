// The tool names validation knows (src/events/tools.ts) are the agent's own tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinTools, TOOL_ALIASES } from '../../src/agent/tools/index.js';
import { askAgentTool } from '../../src/agent/tools/ask-agent.js';
import { AGENT_TOOL_NAMES, KNOWN_TOOL_NAMES } from '../../src/events/tools.js';

test('every tool of the agent, and every alias, is a known tool name', () => {
  const agent = [...builtinTools(), askAgentTool(['x'])].map((t) => t.name);
  assert.deepEqual([...AGENT_TOOL_NAMES].sort(), [...agent].sort());
  for (const alias of Object.keys(TOOL_ALIASES)) assert.ok(KNOWN_TOOL_NAMES.includes(alias), alias);
});
