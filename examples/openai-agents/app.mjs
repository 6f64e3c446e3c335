// An OpenAI Agents JS agent with the folder's hooks: the model wrapper and the tool wrapper.
// The model is a local stand-in so the example runs offline; use `new OpenAIChatCompletionsModel(…)`
// or a model name's Model instead.
import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';
import { createAgentsHooks } from 'hookline/openai-agents';

setTracingDisabled(true);

const call = (id, command) => ({
  type: 'function_call',
  callId: id,
  name: 'shell',
  arguments: JSON.stringify({ command }),
  status: 'completed',
});
const say = (text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
const answers = [[call('1', 'rm -rf /tmp/x')], [call('2', 'ls')], [say('Done. Your key is sk-abc123.')]];
const localModel = {
  async getResponse() {
    return { usage: new Usage(), output: answers.shift() ?? [say('no more answers')] };
  },
  async *getStreamedResponse(request) {
    const { output } = await this.getResponse(request);
    yield { type: 'response_done', response: { id: 'local', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output } };
  },
};

const shell = tool({
  name: 'shell',
  description: 'Runs a shell command',
  parameters: z.object({ command: z.string() }),
  execute: async ({ command }) => `(pretend) ran: ${command}`,
});

const hooks = createAgentsHooks({ cwd: import.meta.dirname });
const agent = new Agent({
  name: 'helper',
  model: hooks.model(localModel),
  tools: hooks.tools([shell]),
  inputGuardrails: [hooks.inputGuardrail],
});
const result = await run(agent, 'Clean up and list the folder.');
for (const item of result.newItems) if (item.type === 'tool_call_output_item') console.log('shell:', item.output);
console.log('answer:', result.finalOutput);
hooks.close();
