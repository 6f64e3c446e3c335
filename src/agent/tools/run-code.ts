import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ErrorType, errMsg, fail, oneLine } from './common.js';
import { runInGroup } from './exec.js';
import { DEFAULT_TIMEOUT_MS, report } from './shell.js';
import { defineTool } from './types.js';
import { shellQuote } from '../../run/expand.js';

const RUNNERS = { python: ['python3', '.py'], javascript: ['node', '.mjs'], bash: ['bash', '.sh'] } as const;

const parameters = z.object({
  language: z.enum(['python', 'javascript', 'bash']).describe('The language of the code.'),
  code: z.string().describe('The program to run, as a whole file.'),
});

/**
 * Runs a snippet of code as a program (SpatialAgent's code execution; PreAct and PostAct wrap it).
 * The code goes into a private temp file run by its interpreter: it is never pasted into a
 * shell command line.
 */
export const runCode = defineTool({
  name: 'run_code',
  description: 'Runs a Python, JavaScript (Node) or bash program in the workspace and returns its output, like run_shell_command.',
  parameters,
  kind: 'execute',
  title: (a) => oneLine(`RunCode ${a.language}: ${a.code.split('\n')[0]}`),
  async run(a, ctx) {
    if (!a.code.trim()) return fail(ErrorType.invalidParams, 'Code cannot be empty.');
    const [interpreter, ext] = RUNNERS[a.language];
    const file = path.join(os.tmpdir(), `hookline-code-${randomUUID()}${ext}`);
    try {
      fs.writeFileSync(file, a.code, { mode: 0o600, flag: 'wx' });
      const timeoutMs = ctx.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      return report(await runInGroup(`${interpreter} ${shellQuote(file)}`, ctx.cwd, ctx.env, ctx.signal, timeoutMs), timeoutMs);
    } catch (err) {
      return fail(ErrorType.shellError, errMsg(err), `Code failed: ${errMsg(err)}`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  },
});
