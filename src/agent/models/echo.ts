import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ScriptedModel } from './scripted.js';

function lastUserText(prompt: LanguageModelV3Prompt): string {
  const last = [...prompt].reverse().find((m) => m.role === 'user');
  if (last?.role !== 'user') return '';
  return last.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/**
 * The embedded default model: with no script and no provider configured, it answers every call
 * by saying what it received, so the agent and its hooks can be tried with nothing set up.
 */
export function echoModel(): LanguageModelV3 {
  const answer = (prompt: LanguageModelV3Prompt) =>
    new ScriptedModel([{ text: `(embedded model, no --model given) You said: ${lastUserText(prompt)}` }], 'embedded');
  return {
    specificationVersion: 'v3',
    provider: 'embedded',
    modelId: 'embedded',
    supportedUrls: {},
    doGenerate: (o) => answer(o.prompt).doGenerate(o),
    doStream: (o) => answer(o.prompt).doStream(o),
  };
}
