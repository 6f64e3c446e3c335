// A hook command the shell could not start gets the real cause and a fix that works: a script
// with Windows line endings or a missing interpreter is not "no such file", and an absolute path
// is never told to start with the project folder.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startFailure } from '../../src/engine/advice.js';
import { checkCommand } from '../../src/run/which.js';
import { tmpDir } from '../dialects/util.js';

function script(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

const failure = (command: string, projectVar?: string) => {
  const r = spawnSync('bash', ['-c', command], { encoding: 'utf8' });
  return startFailure(command, r.status, r.stderr, projectVar);
};

describe('why a hook command did not start', () => {
  test('Windows line endings and a missing #! interpreter: said as such, with the fix; doctor’s check says it before any event', () => {
    const dir = tmpDir();
    const crlf = script(dir, 'crlf.sh', '#!/bin/bash\r\necho {}\r\n');
    const py4 = script(dir, 'py4.sh', '#!/usr/bin/python4-none\nprint(1)\n');
    assert.equal(
      failure(crlf),
      `${crlf}: has Windows line endings, so its #! line names "/bin/bash\\r", which does not exist (exit 127) — convert it: sed -i 's/\\r$//' ${crlf}`,
    );
    assert.equal(
      failure(py4),
      `${py4}: its #! line names /usr/bin/python4-none, which does not exist (exit 127) — install it, or change the #! line`,
    );
    assert.match(checkCommand(crlf, { cwd: dir, vars: process.env }).problems.join('\n'), /has Windows line endings/);
    assert.match(checkCommand(py4, { cwd: dir, vars: process.env }).problems.join('\n'), /#! line names \/usr\/bin\/python4-none/);
    assert.deepEqual(checkCommand(script(dir, 'ok.sh', '#!/bin/sh\necho {}\n'), { cwd: dir, vars: process.env }).problems, []);
  });

  test('a missing file: an absolute path is checked as it is; a relative one is written from the project folder, named as the dialect names it', () => {
    assert.equal(failure('/opt/nope/guard.sh'), '/opt/nope/guard.sh: no such file (exit 127) — check the path');
    assert.match(failure('hooks/x.sh') ?? '', /write it as "\$GEMINI_PROJECT_DIR\/hooks\/x\.sh"$/);
    assert.match(failure('./hooks/x.sh', '$CLAUDE_PROJECT_DIR') ?? '', /write it as "\$CLAUDE_PROJECT_DIR\/hooks\/x\.sh"$/);
    assert.equal(failure('no-such-command-here'), 'no-such-command-here: command not found (exit 127) — install it, or give its full path');
  });

  test('a FIFO named in a hook’s own complaint is never opened (no hang)', () => {
    const dir = tmpDir();
    const fifo = path.join(dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const said = startFailure('x', 127, `bash: line 1: ${fifo}: cannot execute: required file not found`);
    assert.equal(said, `${fifo}: the interpreter its #! line names cannot be found (exit 127) — check the #! line`);
  });
});
