// An AI SDK 6 app with the folder's hooks: two lines (the middleware and the tool wrapper).
// The model is a local stand-in so the example runs offline; use any provider's model instead.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createHooks } from 'hookline/ai-sdk';

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const answers = [
  {
    content: [{ type: 'tool-call', toolCallId: '1', toolName: 'shell', input: '{"command":"rm -rf /tmp/x"}' }],
    finishReason: { unified: 'tool-calls' },
  },
  {
    content: [{ type: 'tool-call', toolCallId: '2', toolName: 'shell', input: '{"command":"ls"}' }],
    finishReason: { unified: 'tool-calls' },
  },
  { content: [{ type: 'text', text: 'Done. Your key is sk-abc123.' }], finishReason: { unified: 'stop' } },
].map((a) => ({ ...a, usage, warnings: [] }));
const model = new MockLanguageModelV3({ modelId: 'local-stub', doGenerate: answers });

const shell = tool({
  description: 'Runs a shell command',
  inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }),
  execute: async ({ command }) => `(pretend) ran: ${command}`,
});

const hooks = createHooks({ cwd: import.meta.dirname });
const result = await generateText({
  model: wrapLanguageModel({ model, middleware: hooks.middleware() }),
  tools: hooks.tools({ shell }),
  stopWhen: stepCountIs(5),
  prompt: 'Clean up and list the folder.',
});
for (const step of result.steps)
  for (const r of step.content)
    if (r.type === 'tool-result' || r.type === 'tool-error') console.log(`${r.toolName}:`, r.output ?? String(r.error));
console.log('answer:', result.text);
hooks.close();
