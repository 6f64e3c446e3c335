import { z } from 'zod';
import { defineTool, type AgentTool } from './types.js';

/** The hand-off tool: ask another configured agent a question (the loop runs the hand-off). */
export function askAgentTool(names: readonly string[]): AgentTool {
  return defineTool({
    name: 'ask_agent',
    description: `Asks another agent a question and returns its answer. Agents: ${names.join(', ')}. Set withContext to send this conversation along.`,
    parameters: z.object({
      agent: z.string().describe(`One of: ${names.join(', ')}`),
      prompt: z.string().describe('The question for the other agent.'),
      withContext: z.boolean().optional().describe('Send the conversation so far with the question.'),
    }),
    kind: 'execute',
    title: (a) => `AskAgent ${a.agent}`,
    // The loop runs hand-offs itself (it needs the agent); reaching this means no agent could.
    run: async (a) => ({
      llmContent: `ask_agent: no agent "${a.agent}"`,
      returnDisplay: 'no such agent',
      error: { message: `no agent "${a.agent}"`, type: 'invalid_tool_params' },
    }),
  });
}
