// A LangChain JS agent with the folder's hooks: one middleware. The model is LangChain's own
// fake chat model so the example runs offline; use any chat model (`new ChatOpenAI(…)`) instead.
import { AIMessage, HumanMessage, createAgent, tool } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
import { z } from 'zod';
import { createLangChainHooks } from 'hookline/langchain';

const model = fakeModel()
  .respondWithTools([{ name: 'shell', args: { command: 'rm -rf /tmp/x' }, id: '1' }])
  .respondWithTools([{ name: 'shell', args: { command: 'ls' }, id: '2' }])
  .respond(new AIMessage('Done. Your key is sk-abc123.'));

const shell = tool(async ({ command }) => `(pretend) ran: ${command}`, {
  name: 'shell',
  description: 'Runs a shell command',
  schema: z.object({ command: z.string() }),
});

const hooks = createLangChainHooks({ cwd: import.meta.dirname });
const agent = createAgent({ model, tools: [shell], middleware: [hooks.middleware()] });
const result = await agent.invoke({ messages: [new HumanMessage('Clean up and list the folder.')] });
for (const m of result.messages) if (m.getType() === 'tool') console.log('shell:', m.content);
console.log('answer:', result.messages.at(-1).content);
hooks.close();
