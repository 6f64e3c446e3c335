import readline from 'node:readline';
import { summary } from '../dialects/list.js';
import type { Agent } from './loop.js';
import { mmAskAnswerLabel, mmAskDeniedCommandError } from '../dialects/mm/effects.js';
import { visible } from '../config/display.js';
import { reviewLines } from '../trust/review.js';

const HELP =
  'commands: /hooks [list | enable <name> | disable <name>], /clear, /compress [instructions] (or /compact), /ask <agent> <question>, /ask-<agent>, /ask-with-context-<agent>, /quit or /exit';

/** `/compress [instructions]` (Claude Code's `/compact` too): the instructions for the summary, or undefined for another line. */
export function compressCommand(line: string): { instructions?: string } | undefined {
  const m = /^\/(?:compress|compact)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return undefined;
  const instructions = m[1]?.trim();
  return instructions ? { instructions } : {};
}

/** The interactive session: one prompt a line, slash commands, approvals asked on the terminal. */
export async function interactive(
  agent: Agent,
  io: { out: NodeJS.WritableStream; input: NodeJS.ReadableStream; confirmRef?: ConfirmRef },
): Promise<void> {
  const rl = readline.createInterface({ input: io.input, output: io.out, terminal: Boolean((io.input as NodeJS.ReadStream).isTTY) });
  // Approvals are asked on this same readline: a second one on stdin would race it for the answer.
  // Ctrl-C while a question is asked answers it "no" at once (and cancels the turn), so the next
  // line typed is not taken as the answer.
  let asking: (() => void) | undefined;
  if (io.confirmRef) {
    io.confirmRef.fn = (q) =>
      new Promise((resolve) => {
        const ac = new AbortController();
        asking = () => {
          ac.abort();
          resolve(false);
        };
        rl.question(`${q} [y/N] `, { signal: ac.signal }, (a) => {
          asking = undefined;
          resolve(/^y(es)?$/i.test(a.trim()));
        });
      });
  }
  const write = (s: string) => io.out.write(s);
  const lines = rl[Symbol.asyncIterator]();
  // Ctrl-C cancels the running turn (its hooks, the model call, the tool); at the prompt it ends
  // the session.
  let current: AbortController | undefined;
  const onInterrupt = () => {
    if (asking) {
      asking();
      asking = undefined;
    }
    if (current) {
      current.abort();
      write('\n^C\n');
    } else rl.close();
  };
  rl.on('SIGINT', onInterrupt);
  process.on('SIGINT', onInterrupt);
  write(`hookline agent · session ${agent.session.id} · ${summary(agent.hooks?.list() ?? [])}${agent.points.banner()}\n${HELP}\n`);
  let reason: 'exit' | 'prompt_input_exit' = 'prompt_input_exit';
  for (;;) {
    write('> ');
    const next = await lines.next();
    if (next.done) break;
    const line = next.value.trim();
    if (!line) continue;
    if (line === '/quit' || line === '/exit') {
      reason = 'exit';
      break;
    }
    if (line === '/clear') {
      await agent.clear();
      write('conversation cleared\n');
    } else if (compressCommand(line)) {
      await agent.compress('manual', compressCommand(line)!.instructions);
    } else if (line.startsWith('/ask')) {
      await askCommand(agent, line, write);
    } else if (line.startsWith('/hooks')) {
      hooksCommand(agent, line.slice('/hooks'.length).trim(), write);
    } else if (line.startsWith('/')) {
      write(`unknown command ${line.split(/\s/)[0]}; ${HELP}\n`);
    } else {
      current = new AbortController();
      await agent.turn(line, current.signal);
      current = undefined;
      write('\n');
    }
  }
  rl.close();
  process.off('SIGINT', onInterrupt);
  await agent.end(reason);
}

/** `/ask <agent> <q>`, `/ask-<agent> <q>`, `/ask-with-context-<agent> <q>`. */
async function askCommand(agent: Agent, line: string, write: (s: string) => void): Promise<void> {
  const m = /^\/ask(?:-with-context-(\S+)|-(\S+))?\s*([\s\S]*)$/.exec(line);
  let name = m?.[1] ?? m?.[2];
  let question = (m?.[3] ?? '').trim();
  if (!name) [name, question] = [question.split(/\s+/)[0], question.split(/\s+/).slice(1).join(' ')];
  if (!name || !question) {
    write('usage: /ask <agent> <question> | /ask-<agent> <question> | /ask-with-context-<agent> <question>\n');
    return;
  }
  const r = await agent.ask(name, question, Boolean(m?.[1]), 'command');
  if (r.status === 'denied') write(`${mmAskDeniedCommandError(r.reason)}\n`);
  else if (r.status === 'error') write(`ask failed: ${r.output}\n`);
  else {
    // The exchange joins the asking agent's history: the question as sent, the answer it reads.
    agent.session.push({ role: 'user', text: r.message ?? question }, { role: 'model', text: `${mmAskAnswerLabel(name)}\n${r.output}` });
    write('\n');
  }
}

function hooksCommand(agent: Agent, args: string, write: (s: string) => void): void {
  const [sub, ...rest] = args.split(/\s+/);
  const name = rest.join(' ');
  const hooks = agent.hooks;
  if (!hooks) return write('no hooks to manage in this session\n');
  if (!sub || sub === 'list' || sub === 'panel') {
    const all = hooks.list();
    for (const h of all) {
      write(
        `  ${h.event}${h.matcher ? ` (${visible(h.matcher)})` : ''} · ${visible(h.name)} · ${h.source} · ${h.enabled ? 'enabled' : 'disabled'}${h.trusted ? '' : ' · untrusted'}\n`,
      );
      for (const l of reviewLines({ details: h.details ?? [], reads: h.reads ?? [] })) write(`      ${visible(l)}\n`);
    }
    write(`${summary(all)}\n`);
    return;
  }
  if ((sub === 'enable' || sub === 'disable') && name) {
    try {
      write(`${hooks.setEnabled(name, sub === 'enable')}\n`);
    } catch (err) {
      // A settings file that cannot be read or written (read-only, locked, too large): one line.
      write(`${(err as Error).message}\n`);
    }
    return;
  }
  write(`usage: /hooks [list | enable <name> | disable <name>]\n`);
}

/** Where the interactive session puts its way of asking the user, once it has one. */
export interface ConfirmRef {
  fn?: (question: string) => Promise<boolean>;
}

/** Asks a yes/no question on the terminal. */
export function terminalConfirm(input: NodeJS.ReadStream, output: NodeJS.WritableStream): (q: string) => Promise<boolean> {
  return (question) =>
    new Promise((resolve) => {
      const rl = readline.createInterface({ input, output, terminal: true });
      // Ctrl-C answers "no" at once and interrupts the run as it would outside the question.
      rl.once('SIGINT', () => {
        rl.close();
        output.write('^C\n');
        resolve(false);
        process.emit('SIGINT');
      });
      rl.question(`${question} [y/N] `, (a) => {
        rl.close();
        resolve(/^y(es)?$/i.test(a.trim()));
      });
    });
}
