// Hooks the adapter tests share: a policy on the weather tool, an audit context, a tool filter
// and a redaction of keys in the model's answer.
import type { HookEngine } from '../../src/engine/index.js';

export function registerWeatherPolicy(e: HookEngine): void {
  e.register({
    event: 'BeforeTool',
    name: 'policy',
    action: (input) => {
      const city = (input as { tool_input: { city: string } }).tool_input.city;
      if (city === 'Atlantis') return { decision: 'deny', reason: 'no such city' };
      if (city === 'paris') return { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { city: 'Paris' } } };
      return undefined;
    },
  });
  e.register({
    event: 'AfterTool',
    name: 'audit',
    action: () => ({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'audited' } }),
  });
  e.register({
    event: 'BeforeToolSelection',
    name: 'only-weather',
    action: () => ({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { allowedFunctionNames: ['weather'] } } }),
  });
  e.register({
    event: 'AfterModel',
    name: 'redact',
    action: (input) => {
      const text = (input as { llm_response: { text: string } }).llm_response.text;
      if (!text.includes('sk_')) return undefined;
      const parts = [text.replace(/sk_\w+/g, '[REDACTED]')];
      return { hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { candidates: [{ content: { role: 'model', parts } }] } } };
    },
  });
}
