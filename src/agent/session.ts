import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { projectSlug, userGeminiDir, type Env } from '../config/paths.js';
import type { Message } from './history.js';

/** Where a project's session transcripts live, as in Gemini CLI. */
export function chatsDir(projectDir: string, env: Env = process.env): string {
  return path.join(userGeminiDir(env), 'tmp', projectSlug(projectDir), 'chats');
}

interface Header {
  type: 'session';
  sessionId: string;
  projectDir: string;
  startTime: string;
}

/**
 * A session: its id and its transcript, a JSONL file (`transcript_path` for hooks) holding a
 * header line and then one line per message, appended as the conversation goes.
 */
export class Session {
  /** When the model last answered (ms since the epoch), if it has. */
  lastAnswerAt: number | undefined;

  private constructor(
    readonly id: string,
    readonly transcriptPath: string,
    readonly history: Message[],
  ) {}

  static create(projectDir: string, env: Env = process.env): Session {
    const id = randomUUID();
    const stamp = new Date().toISOString().slice(0, 16).replace(/:/g, '-');
    const dir = chatsDir(projectDir, env);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `session-${stamp}-${id.slice(0, 8)}.jsonl`);
    const header: Header = { type: 'session', sessionId: id, projectDir, startTime: new Date().toISOString() };
    fs.writeFileSync(file, JSON.stringify(header) + '\n');
    return new Session(id, file, []);
  }

  /** Opens a saved session: `latest`, a session id (or its start), or a transcript path. */
  static resume(projectDir: string, which: string, env: Env = process.env): Session {
    const dir = chatsDir(projectDir, env);
    let file: string | undefined;
    if (which.endsWith('.jsonl') && fs.existsSync(which)) file = which;
    else {
      let names: string[] = [];
      try {
        names = fs.readdirSync(dir).filter((n) => n.startsWith('session-') && n.endsWith('.jsonl'));
      } catch {
        // no sessions yet
      }
      const withTime = names.map((n) => ({ n, t: fs.statSync(path.join(dir, n)).mtimeMs })).sort((a, b) => b.t - a.t);
      const pick =
        which === 'latest' ? withTime[0] : withTime.find(({ n }) => Session.headerOf(path.join(dir, n))?.sessionId.startsWith(which));
      if (pick) file = path.join(dir, pick.n);
    }
    if (!file)
      throw new Error(
        which === 'latest' ? `no saved session for ${projectDir} to resume` : `no saved session "${which}" for ${projectDir}`,
      );
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const header = JSON.parse(lines[0]) as Header;
    const history: Message[] = [];
    let lastAnswerAt: number | undefined;
    for (const l of lines.slice(1)) {
      const rec = JSON.parse(l) as { type: string; message?: Message; history?: Message[]; timestamp?: string };
      if (rec.type === 'message' && rec.message) {
        history.push(rec.message);
        if (rec.message.role === 'model' && rec.timestamp) lastAnswerAt = Date.parse(rec.timestamp) || lastAnswerAt;
      } else if (rec.type === 'reset') history.splice(0, history.length, ...(rec.history ?? []));
    }
    const s = new Session(header.sessionId, file, history);
    s.lastAnswerAt = lastAnswerAt;
    return s;
  }

  private static headerOf(file: string): Header | undefined {
    try {
      const first = fs.readFileSync(file, 'utf8').split('\n', 1)[0];
      return JSON.parse(first) as Header;
    } catch {
      return undefined;
    }
  }

  push(...messages: Message[]): void {
    this.history.push(...messages);
    if (messages.some((m) => m.role === 'model')) this.lastAnswerAt = Date.now();
    const timestamp = new Date().toISOString();
    fs.appendFileSync(
      this.transcriptPath,
      messages.map((message) => JSON.stringify({ type: 'message', message, timestamp })).join('\n') + '\n',
    );
  }

  /** Replaces the history (compression, clearContext); recorded so a resume sees the same. */
  reset(history: Message[]): void {
    this.history.splice(0, this.history.length, ...history);
    fs.appendFileSync(this.transcriptPath, JSON.stringify({ type: 'reset', history, timestamp: new Date().toISOString() }) + '\n');
  }
}
