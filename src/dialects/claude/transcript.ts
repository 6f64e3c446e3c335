/**
 * The session as a Claude Code transcript, for Claude hooks' `transcript_path`: JSONL, one entry
 * a line, in Claude Code's schema — `type` `user` or `assistant`, `message` `{role, content}`
 * (a prompt's content is its text; an assistant entry holds one block, `text` or `tool_use
 * {id, name, input}`; a tool's result is a user entry with a `tool_result {tool_use_id, content,
 * is_error}` block), `uuid`, `parentUuid` (the entry before), `timestamp`, `sessionId`, `cwd`.
 * A history replaced by compression or a cleared context starts after a `system` entry with
 * `subtype: "compact_boundary"`, as in Claude Code.
 *
 * It is made from the agent's own transcript (src/agent/session.ts: a header line, then
 * `{type: "message", message}` and `{type: "reset", history}` lines) and kept beside it, in
 * `claude/<session id>.jsonl`, brought up to date before each Claude hook runs: only the lines
 * added since the last time are read.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { claudeToolInput, claudeToolName, claudeToolUseId } from './tools.js';

/** The agent's history messages, as its transcript stores them. */
type AgentMessage =
  | { role: 'user'; text: string }
  | { role: 'note'; text: string }
  | { role: 'model'; text: string; toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown> }> }
  | { role: 'tool'; results: Array<{ id: string; name: string; output: string; isError?: boolean }> };

type AgentRecord =
  | { type: 'message'; message: AgentMessage; timestamp?: string }
  | { type: 'reset'; history: AgentMessage[]; timestamp?: string };

/** Where the Claude transcript of an agent transcript is kept ('' when the agent keeps none). */
export function claudeTranscriptPath(agentTranscript: string, sessionId: string): string {
  if (!agentTranscript) return '';
  return path.join(path.dirname(agentTranscript), 'claude', `${sessionId.replace(/[^A-Za-z0-9_-]/g, '-')}.jsonl`);
}

export interface TranscriptContext {
  sessionId: string;
  cwd: string;
  /** The model's name, for assistant entries. */
  model: string;
}

/** Turns agent records into Claude transcript entries, chaining `parentUuid`. */
export class ClaudeEntries {
  private parent: string | null = null;
  /** The text of the last assistant text block written. */
  lastAssistantText: string | undefined;

  constructor(private readonly ctx: TranscriptContext) {}

  private entry(type: string, fields: Record<string, unknown>, timestamp: string): Record<string, unknown> {
    const uuid = randomUUID();
    const e = {
      parentUuid: this.parent,
      isSidechain: false,
      userType: 'external',
      cwd: this.ctx.cwd,
      sessionId: this.ctx.sessionId,
      type,
      ...fields,
      uuid,
      timestamp,
    };
    this.parent = uuid;
    return e;
  }

  private message(m: AgentMessage, timestamp: string): Array<Record<string, unknown>> {
    // A hook's message for the model is an attachment in Claude Code's transcript, not a turn.
    if (m.role === 'note') return [];
    if (m.role === 'user') return [this.entry('user', { message: { role: 'user', content: m.text } }, timestamp)];
    if (m.role === 'tool') {
      return m.results.map((r) =>
        this.entry(
          'user',
          {
            message: {
              role: 'user',
              content: [{ tool_use_id: claudeToolUseId(r.id), type: 'tool_result', content: r.output, is_error: r.isError === true }],
            },
          },
          timestamp,
        ),
      );
    }
    // One entry per content block, sharing the message id, as Claude Code writes a streamed answer.
    const id = `msg_${randomUUID().replace(/-/g, '')}`;
    const blocks: Array<Record<string, unknown>> = [];
    if (m.text || !m.toolCalls?.length) {
      blocks.push({ type: 'text', text: m.text });
      this.lastAssistantText = m.text;
    }
    for (const c of m.toolCalls ?? [])
      blocks.push({
        type: 'tool_use',
        id: claudeToolUseId(c.id),
        name: claudeToolName(c.name),
        input: claudeToolInput(c.name, c.args, this.ctx.cwd),
      });
    return blocks.map((block) =>
      this.entry(
        'assistant',
        {
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: this.ctx.model,
            content: [block],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 0 },
          },
        },
        timestamp,
      ),
    );
  }

  /** The entries for one record of the agent's transcript. */
  from(rec: AgentRecord, now: string): Array<Record<string, unknown>> {
    const timestamp = rec.timestamp ?? now;
    if (rec.type === 'message') return this.message(rec.message, timestamp);
    const logicalParentUuid = this.parent;
    this.parent = null;
    const boundary = this.entry(
      'system',
      {
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        isMeta: false,
        level: 'info',
        logicalParentUuid,
        compactMetadata: { trigger: 'auto' },
      },
      timestamp,
    );
    return [boundary, ...rec.history.flatMap((m) => this.message(m, timestamp))];
  }
}

function isRecord(v: unknown): v is AgentRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as { type?: unknown; message?: unknown; history?: unknown };
  return (r.type === 'message' && !!r.message && typeof r.message === 'object') || (r.type === 'reset' && Array.isArray(r.history));
}

/**
 * Keeps one Claude transcript in step with one agent transcript. The first `sync` in a process
 * writes it whole (a resumed session gets all of its history); later ones append what the agent
 * added since.
 */
export class ClaudeTranscript {
  private offset = 0;
  private started = false;
  private entries: ClaudeEntries;
  readonly path: string;

  readonly sessionId: string;

  constructor(
    readonly agentTranscript: string,
    ctx: TranscriptContext,
  ) {
    this.sessionId = ctx.sessionId;
    this.path = claudeTranscriptPath(agentTranscript, ctx.sessionId);
    this.entries = new ClaudeEntries(ctx);
  }

  /** The text of the session's last answer, as far as synced (Claude's `last_assistant_message`). */
  get lastAssistantText(): string | undefined {
    return this.entries.lastAssistantText;
  }

  /** Reads what the agent added to its transcript and appends it here. Returns this transcript's path. */
  sync(): string {
    if (!this.path) return '';
    const first = !this.started;
    this.started = true;
    let added = '';
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.agentTranscript, 'r');
      const size = fs.fstatSync(fd).size;
      if (size > this.offset) {
        const buf = Buffer.alloc(size - this.offset);
        const n = fs.readSync(fd, buf, 0, buf.length, this.offset);
        // Only whole lines: the agent writes each line at once, but a read may race a write.
        const end = buf.subarray(0, n).lastIndexOf(0x0a) + 1;
        added = buf.subarray(0, end).toString('utf8');
        this.offset += end;
      }
    } catch {
      // No agent transcript (yet): the Claude one is empty.
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    const now = new Date().toISOString();
    const lines: string[] = [];
    for (const line of added.split('\n')) {
      if (!line) continue;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        continue;
      }
      if (isRecord(rec)) for (const e of this.entries.from(rec, now)) lines.push(JSON.stringify(e));
    }
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    if (first) {
      fs.mkdirSync(path.dirname(this.path), { recursive: true, mode: 0o700 });
      fs.writeFileSync(this.path, text, { mode: 0o600 });
    } else if (text) fs.appendFileSync(this.path, text);
    return this.path;
  }
}
