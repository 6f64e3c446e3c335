/**
 * `hookline agent --shadow` for the hook systems other than Gemini settings (whose engine runs
 * its hooks in shadow mode itself): the adapter's hooks run and are traced, what they would have
 * stopped is said as "would have …", and the loop gets the effect of no hook at all.
 */
import type { Adapter, AdapterIO } from '../dialects/adapter.js';

const firstLine = (s: string | undefined): string => (s ? `: ${s.split('\n')[0]}` : '');

export function shadowAdapter(a: Adapter, io: AdapterIO): Adapter {
  const would = (what: string) => io.notice(`👻 shadow: ${a.name} hooks would have ${what} (not enforced)`);
  const s: Adapter = { ...a, name: a.name };
  // Methods are called on the adapter they belong to.
  if (a.prompt)
    s.prompt = async (p) => {
      const e = await a.prompt!.call(a, p);
      if (e.action === 'block') would(`blocked the prompt${firstLine(e.reason)}`);
      if (e.action === 'stop') would(`stopped the turn before the model${firstLine(e.reason)}`);
      return { action: 'proceed' };
    };
  if (a.modelRequest)
    s.modelRequest = async (p) => {
      const e = await a.modelRequest!.call(a, p);
      if (e.action !== 'call') would(`${e.action === 'stop' ? 'stopped the agent at' : 'blocked'} the model call${firstLine(e.reason)}`);
      return { action: 'call', request: p.request };
    };
  if (a.toolSelection)
    s.toolSelection = async (p) => {
      const e = await a.toolSelection!.call(a, p);
      const dropped = p.tools.filter((t) => !e.allowed.includes(t));
      if (e.mode === 'NONE' || dropped.length) would(`withheld tools from the model: ${e.mode === 'NONE' ? 'all' : dropped.join(', ')}`);
      return { mode: 'AUTO', allowed: [...p.tools] };
    };
  if (a.modelChunk)
    s.modelChunk = async (p) => {
      const e = await a.modelChunk!.call(a, p);
      if (e.action === 'deny' || e.action === 'stop')
        would(`${e.action === 'stop' ? 'stopped the agent at' : 'discarded'} the model's answer${firstLine(e.reason)}`);
      return { action: 'keep', response: p.response };
    };
  if (a.modelResponse)
    s.modelResponse = async (p) => {
      const e = await a.modelResponse!.call(a, p);
      if (e.block) would(`blocked the turn after the model's answer${firstLine(e.block)}`);
      return {};
    };
  if (a.beforeTool)
    s.beforeTool = async (p) => {
      const e = await a.beforeTool!.call(a, p);
      if (e.action === 'deny') would(`denied \`${p.name}\`${firstLine(e.message)}`);
      if (e.action === 'stop') would(`stopped the agent at \`${p.name}\`${firstLine(e.message)}`);
      if (e.action === 'ask') would(`asked the user before \`${p.name}\``);
      return { action: 'run', args: p.args, inputModified: false };
    };
  if (a.afterTool)
    s.afterTool = async (p) => {
      const e = await a.afterTool!.call(a, p);
      if (e.action === 'stop') would(`stopped the agent after \`${p.name}\`${firstLine(e.message)}`);
      if (e.action === 'replace') would(`replaced what the model reads from \`${p.name}\``);
      return { action: 'keep', llmContent: p.llmContent };
    };
  if (a.turnEnd)
    s.turnEnd = async (p) => {
      const e = await a.turnEnd!.call(a, p);
      if (e.action === 'retry') would(`sent the answer back for another try${firstLine(e.prompt)}`);
      if (e.action === 'stop') would(`stopped the agent at the end of the turn${firstLine(e.reason)}`);
      return { action: 'accept', clearContext: false };
    };
  if (a.handOff)
    s.handOff = async (p) => {
      const e = await a.handOff!.call(a, p);
      if (e.action === 'deny') would(`denied the hand-off to ${p.ask.agent}${firstLine(e.reason)}`);
      return {
        action: 'send',
        prompt: p.ask.prompt,
        ...(p.ask.transcript !== undefined ? { transcript: p.ask.transcript } : {}),
        contexts: [],
      };
    };
  if (a.handOffDone)
    s.handOffDone = async (p) => {
      await a.handOffDone!.call(a, p);
      return { contexts: [] };
    };
  return s;
}
