/**
 * The agent's hook points, folded over the registered adapters (src/dialects/adapter.ts) in
 * order: the first deny, block or stop ends a point; rewrites chain; contexts and messages add
 * up. The loop calls these and never names a hook system.
 */
import type {
  Adapter,
  Advisory,
  HandOffDoneEffect,
  HandOffDonePoint,
  HandOffEffect,
  HandOffPoint,
  HandOffTarget,
  ModelChunkPoint,
  ModelRequestPoint,
  ModelResponsePoint,
  InstructionsPoint,
  NotificationPoint,
  PermissionDeniedPoint,
  PermissionEffect,
  PermissionPoint,
  PromptEffect,
  PromptPoint,
  ToolBatchEffect,
  ToolBatchPoint,
  ToolOutcomePoint,
  ToolPoint,
  TurnFailedPoint,
  ToolSelectionPoint,
  TurnEndPoint,
  TurnFinishedPoint,
} from '../dialects/adapter.js';
import type {
  AfterAgentEffect,
  AfterModelEffect,
  AfterToolEffect,
  BeforeModelEffect,
  BeforeToolEffect,
  SessionStartEffect,
  ToolSelection,
  Note,
} from '../apply/index.js';

const joined = (parts: Array<string | undefined>, sep = '\n') => {
  const kept = parts.filter((p): p is string => Boolean(p));
  return kept.length ? kept.join(sep) : undefined;
};

/** `{notes}` when there are some. */
const withNotes = (notes: Note[]) => (notes.length ? { notes } : {});

type Fn<K extends keyof Adapter> = NonNullable<Adapter[K]>;

export class Points {
  constructor(readonly adapters: readonly Adapter[]) {}

  private each<K extends keyof Adapter>(point: K): Array<Fn<K>> {
    return this.adapters.flatMap((a) => (a[point] ? [(a[point] as (...args: never[]) => unknown).bind(a) as Fn<K>] : []));
  }

  async sessionStart(p: Parameters<Fn<'sessionStart'>>[0]): Promise<SessionStartEffect> {
    const contexts: Array<string | undefined> = [];
    const messages: Array<string | undefined> = [];
    const notes: Note[] = [];
    const lead: string[] = [];
    let stop: string | undefined;
    for (const f of this.each('sessionStart')) {
      const e = await f(p);
      contexts.push(e.context);
      messages.push(e.systemMessage);
      notes.push(...(e.notes ?? []));
      lead.push(...(e.lead ?? []));
      stop ??= e.stop;
    }
    return {
      context: joined(contexts),
      systemMessage: joined(messages),
      ...withNotes(notes),
      ...(lead.length ? { lead } : {}),
      ...(stop !== undefined ? { stop } : {}),
    };
  }

  private async advisory<K extends 'sessionEnd' | 'notification'>(point: K, p: Parameters<Fn<K>>[0]): Promise<Advisory> {
    const messages: Array<string | undefined> = [];
    for (const f of this.each(point)) messages.push((await (f as (x: typeof p) => Promise<Advisory>)(p)).systemMessage);
    return { systemMessage: joined(messages) };
  }

  sessionEnd(p: Parameters<Fn<'sessionEnd'>>[0]): Promise<Advisory> {
    return this.advisory('sessionEnd', p);
  }

  /** The first block keeps the history as it is. */
  async compress(p: Parameters<Fn<'compress'>>[0]): Promise<Advisory & { block?: string }> {
    const messages: Array<string | undefined> = [];
    for (const f of this.each('compress')) {
      const e = await f(p);
      messages.push(e.systemMessage);
      if (e.block !== undefined) return { block: e.block, systemMessage: joined(messages) };
    }
    return { systemMessage: joined(messages) };
  }

  async compressed(p: Parameters<Fn<'compressed'>>[0]): Promise<Advisory & { context?: string; notes?: Note[] }> {
    const contexts: Array<string | undefined> = [];
    const messages: Array<string | undefined> = [];
    const notes: Note[] = [];
    for (const f of this.each('compressed')) {
      const e = await f(p);
      contexts.push(e.context);
      messages.push(e.systemMessage);
      notes.push(...(e.notes ?? []));
    }
    const context = joined(contexts);
    return { systemMessage: joined(messages), ...(context ? { context } : {}), ...withNotes(notes) };
  }

  /** The first deny or stop answers the prompt; otherwise an allow from any (arguments chain); otherwise the user is asked. */
  async permissionRequest(p: PermissionPoint): Promise<PermissionEffect> {
    let args: Record<string, unknown> | undefined;
    let allowed = false;
    const messages: Array<string | undefined> = [];
    for (const f of this.each('permissionRequest')) {
      const e = await f({ ...p, args: args ?? p.args });
      messages.push(e.systemMessage);
      if (e.action === 'deny' || e.action === 'stop') return { ...e, systemMessage: joined(messages) };
      if (e.action === 'allow') {
        allowed = true;
        if (e.args) args = e.args;
      }
    }
    const systemMessage = joined(messages);
    return allowed ? { action: 'allow', ...(args ? { args } : {}), systemMessage } : { action: 'ask', systemMessage };
  }

  /** Whether, with nobody to ask, only the tools that need no approval are offered: every hook system's agent does so. */
  approvedToolsOnly(): boolean {
    return this.adapters.length > 0 && this.adapters.every((a) => a.approvedToolsOnly === true);
  }

  async permissionDenied(p: PermissionDeniedPoint): Promise<Advisory & { retry: boolean }> {
    let retry = false;
    const messages: Array<string | undefined> = [];
    for (const f of this.each('permissionDenied')) {
      const e = await f(p);
      messages.push(e.systemMessage);
      retry ||= e.retry === true;
    }
    return { retry, systemMessage: joined(messages) };
  }

  /** Contexts add up; the first stop ends the point. */
  async toolBatch(p: ToolBatchPoint): Promise<ToolBatchEffect> {
    const contexts: Array<string | undefined> = [];
    const messages: Array<string | undefined> = [];
    const notes: Note[] = [];
    for (const f of this.each('toolBatch')) {
      const e = await f(p);
      contexts.push(e.context);
      messages.push(e.systemMessage);
      notes.push(...(e.notes ?? []));
      if (e.stop !== undefined) return { context: joined(contexts), stop: e.stop, systemMessage: joined(messages), ...withNotes(notes) };
    }
    return { context: joined(contexts), systemMessage: joined(messages), ...withNotes(notes) };
  }

  async turnFailed(p: TurnFailedPoint): Promise<void> {
    for (const f of this.each('turnFailed')) await f(p);
  }

  async instructionsLoaded(p: InstructionsPoint): Promise<void> {
    for (const f of this.each('instructionsLoaded')) await f(p);
  }

  /** The settings files each adapter loaded, with the adapter that owns them. */
  configFiles(): Array<{ file: string; source: string; adapter: Adapter }> {
    return this.adapters.flatMap((a) => (a.configFiles?.() ?? []).map((f) => ({ ...f, adapter: a })));
  }

  notification(p: NotificationPoint): Promise<Advisory> {
    return this.advisory('notification', p);
  }

  /** Returns the final prompt and the context blocks and parts the model reads after it. */
  async prompt(p: PromptPoint): Promise<PromptEffect & { blocks: string[]; parts: string[] }> {
    let prompt = p.prompt;
    const blocks: string[] = [];
    const parts: string[] = [];
    const notes: Note[] = [];
    const messages: Array<string | undefined> = [];
    for (const f of this.each('prompt')) {
      const e = await f({ ...p, prompt });
      messages.push(e.systemMessage);
      if (e.action !== 'proceed') return { ...e, systemMessage: joined(messages), blocks, parts };
      if (e.prompt !== undefined) prompt = e.prompt;
      blocks.push(...(e.blocks ?? []));
      parts.push(...(e.parts ?? []));
      notes.push(...(e.notes ?? []));
    }
    return { action: 'proceed', prompt, blocks, parts, ...withNotes(notes), systemMessage: joined(messages) };
  }

  async modelRequest(p: ModelRequestPoint): Promise<BeforeModelEffect> {
    let request = p.request;
    const messages: Array<string | undefined> = [];
    for (const f of this.each('modelRequest')) {
      const e = await f({ ...p, request });
      messages.push(e.systemMessage);
      if (e.action !== 'call') return { ...e, systemMessage: joined(messages) };
      request = e.request;
    }
    return { action: 'call', request, systemMessage: joined(messages) };
  }

  /** The most restrictive selection wins: NONE over ANY over AUTO; allowed tools intersect. */
  async toolSelection(p: ToolSelectionPoint): Promise<ToolSelection & Advisory> {
    let allowed = [...p.tools];
    let mode: ToolSelection['mode'] = 'AUTO';
    const messages: Array<string | undefined> = [];
    for (const f of this.each('toolSelection')) {
      const e = await f({ ...p, tools: allowed });
      messages.push(e.systemMessage);
      allowed = allowed.filter((t) => e.allowed.includes(t));
      if (e.mode === 'NONE' || (e.mode === 'ANY' && mode === 'AUTO')) mode = e.mode;
    }
    return { mode, allowed: mode === 'NONE' ? [] : allowed, systemMessage: joined(messages) };
  }

  async modelChunk(p: ModelChunkPoint): Promise<AfterModelEffect> {
    let response = p.response;
    let replaced = false;
    const messages: Array<string | undefined> = [];
    for (const f of this.each('modelChunk')) {
      const e = await f({ ...p, response });
      messages.push(e.systemMessage);
      if (e.action === 'deny' || e.action === 'stop') return { ...e, systemMessage: joined(messages) };
      if (e.action === 'replace') {
        response = e.response;
        replaced = true;
      }
    }
    return { action: replaced ? 'replace' : 'keep', response, systemMessage: joined(messages) };
  }

  async modelResponse(p: ModelResponsePoint): Promise<string | undefined> {
    for (const f of this.each('modelResponse')) {
      const e = await f(p);
      if (e.block !== undefined) return e.block;
    }
    return undefined;
  }

  async beforeTool(p: ToolPoint): Promise<BeforeToolEffect> {
    let args = p.args;
    let inputModified = false;
    let ask = false;
    const messages: Array<string | undefined> = [];
    const contexts: Array<string | undefined> = [];
    const notes: Note[] = [];
    const refusals: Array<string | undefined> = [];
    for (const f of this.each('beforeTool')) {
      const e = await f({ ...p, args });
      messages.push(e.systemMessage);
      if (e.action === 'deny' || e.action === 'stop') return { ...e, systemMessage: joined(messages) };
      args = e.args;
      inputModified ||= e.inputModified;
      ask ||= e.action === 'ask';
      if (e.action === 'ask') refusals.push(e.refusal);
      contexts.push(e.context);
      notes.push(...(e.notes ?? []));
    }
    const context = joined(contexts);
    const common = { args, inputModified, ...(context ? { context } : {}), ...withNotes(notes), systemMessage: joined(messages) };
    if (!ask) return { action: 'run', ...common };
    const refusal = joined(refusals);
    return { action: 'ask', ...common, ...(refusal ? { refusal } : {}) };
  }

  async afterTool(p: ToolOutcomePoint): Promise<AfterToolEffect> {
    let llmContent = p.llmContent;
    let tail: { name: string; args: Record<string, unknown> } | undefined;
    const messages: Array<string | undefined> = [];
    const notes: Note[] = [];
    for (const f of this.each('afterTool')) {
      const e = await f({ ...p, llmContent });
      messages.push(e.systemMessage);
      if (e.action !== 'stop') notes.push(...(e.notes ?? []));
      if (e.action !== 'keep') return { ...e, ...(e.action === 'replace' ? withNotes(notes) : {}), systemMessage: joined(messages) };
      llmContent = e.llmContent;
      tail ??= e.tail;
    }
    return { action: 'keep', llmContent, ...(tail ? { tail } : {}), ...withNotes(notes), systemMessage: joined(messages) };
  }

  /** The first adapter that does not accept the answer decides; a context clear from any counts. */
  async turnEnd(p: TurnEndPoint): Promise<AfterAgentEffect> {
    let clearContext = false;
    const messages: Array<string | undefined> = [];
    for (const f of this.each('turnEnd')) {
      const e = await f(p);
      messages.push(e.systemMessage);
      clearContext ||= e.clearContext;
      if (e.action !== 'accept') return { ...e, clearContext, systemMessage: joined(messages) };
    }
    return { action: 'accept', clearContext, systemMessage: joined(messages) };
  }

  async turnFinished(p: TurnFinishedPoint): Promise<void> {
    for (const f of this.each('turnFinished')) await f(p);
  }

  async handOff(p: HandOffPoint): Promise<HandOffEffect | undefined> {
    let prompt = p.ask.prompt;
    let transcript = p.ask.transcript;
    const contexts: string[] = [];
    const fns = this.each('handOff');
    if (!fns.length) return undefined;
    for (const f of fns) {
      const e = await f({ ...p, ask: { ...p.ask, prompt, ...(transcript !== undefined ? { transcript } : {}) } });
      if (e.action === 'deny') return e;
      prompt = e.prompt;
      transcript = e.transcript;
      contexts.push(...e.contexts);
    }
    return { action: 'send', prompt, ...(transcript !== undefined ? { transcript } : {}), contexts };
  }

  async handOffDone(p: HandOffDonePoint): Promise<(HandOffDoneEffect & { ran: boolean }) | undefined> {
    const fns = this.each('handOffDone');
    if (!fns.length) return undefined;
    let answer: string | undefined;
    const contexts: string[] = [];
    for (const f of fns) {
      const e = await f({ ...p, answer: answer ?? p.answer });
      if (e.answer !== undefined) answer = e.answer;
      contexts.push(...e.contexts);
    }
    return { ...(answer !== undefined ? { answer } : {}), contexts, ran: true };
  }

  /** Agents reachable by hand-off, from every adapter that has some. */
  agents(): Record<string, HandOffTarget> {
    return Object.assign({}, ...this.adapters.map((a) => a.agents?.() ?? {}));
  }

  /** The variables the adapters set for shell commands, later ones over earlier ones. */
  toolEnv(): Record<string, string> {
    return Object.assign({}, ...this.each('toolEnv').map((f) => f()));
  }

  banner(): string {
    return this.adapters.map((a) => a.banner?.() ?? '').join('');
  }

  /** Lets the adapters' background work end before `close()`. */
  async settle(): Promise<void> {
    await Promise.all(this.adapters.map((a) => a.settle?.()));
  }

  close(): void {
    for (const a of this.adapters) a.close?.();
  }
}
