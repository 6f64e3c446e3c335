// Arithmetic contexts: bash decodes `$'…'` there and evaluates array subscripts, so a value
// such as `a[$(touch MARKER)]` would run however it is quoted. Only whole numbers go in; any
// other value stops the hook with a clear error. Every context is tried through a real bash.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cmd, makeProject } from '../helpers.js';
import { expandCommand, ExpansionError } from '../../src/run/expand.js';
import { expandClaudeCommand, fireClaude } from '../../src/dialects/claude/run.js';
import { parseClaudeSettings } from '../../src/dialects/claude/config.js';
import { runSaBashHook } from '../../src/dialects/spatialagent/run.js';
import { expandShell } from '../../src/dialects/spatialagent/variables.js';
import { engineFor, findNamed, tmpDir } from './util.js';

const ARITH_FORMS: Record<string, string> = {
  dollarParens: 'echo $(( $V ))',
  dollarParensQuoted: 'echo "$(( $V + 1 ))"',
  dollarBracket: 'echo $[ $V ]',
  doubleParens: '(( $V )) || true',
  forLoop: 'for (( i=$V; i<1; i++ )); do :; done',
  let: 'let "x=$V"',
  letAfterCommand: 'true; let "x = $V"',
  declareInteger: 'declare -i n; declare -i n=$V',
  localInteger: 'f() { local -i n=$V; }; f',
  subscriptAssign: 'declare -a arr; arr[$V]=1',
  subscriptRead: 'declare -a arr; echo ${arr[$V]}',
  subscriptReadQuoted: 'declare -a arr; echo "${arr[$V]}"',
  offset: 'x=abc; echo ${x:$V}',
  length: 'x=abc; echo ${x:0:$V}',
  condEq: '[[ $V -eq 1 ]] || true',
  condGt: '[[ 1 -gt "$V" ]] || true',
  nested: 'echo $(( 1 + $(( $V )) ))',
};

/** Each form with `$V` replaced by a variable name of the dialect. */
function forms(variable: string): Array<[string, string]> {
  return Object.entries(ARITH_FORMS).map(([name, form]) => [name, form.replaceAll('$V', variable)]);
}

function bash(command: string, cwd: string): void {
  spawnSync('bash', ['-c', command], { cwd, stdio: 'ignore' });
}

describe('every arithmetic context refuses a value that is not a whole number', () => {
  test('the value really runs in each context when substituted naively (the test is meaningful)', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$V')) {
      const marker = path.join(dir, `naive-${name}`);
      spawnSync('bash', ['-c', form], { cwd: dir, stdio: 'ignore', env: { ...process.env, V: `a[$(touch ${marker})]` } });
      assert.ok(fs.existsSync(marker), `${name}: bash did not evaluate the subscript, so this form proves nothing`);
    }
  });

  test('expandCommand throws ExpansionError and nothing runs; a whole number is substituted', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$GEMINI_SESSION_ID')) {
      const marker = path.join(dir, `m-${name}`);
      const values = { projectDir: dir, cwd: dir, plansDir: dir, sessionId: `a[$(touch ${marker})]` };
      assert.throws(
        () => expandCommand(form, values),
        (e: unknown) => e instanceof ExpansionError && /\$GEMINI_SESSION_ID is used in a shell arithmetic context/.test(e.message),
        name,
      );
      const ok = expandCommand(form, { ...values, sessionId: '3' });
      assert.ok(!ok.includes('$GEMINI_SESSION_ID'), name);
      bash(ok, dir);
      assert.equal(fs.existsSync(marker), false, name);
    }
  });

  test('the same value outside arithmetic is one literal word and runs nothing', () => {
    const dir = tmpDir();
    const marker = path.join(dir, 'outside');
    const sessionId = `a[$(touch ${marker})]`;
    const out = path.join(dir, 'out');
    const safe = [
      'echo $GEMINI_SESSION_ID',
      'echo "$GEMINI_SESSION_ID"',
      'echo ${x:-$GEMINI_SESSION_ID}',
      ': $(( 1 )); echo $GEMINI_SESSION_ID',
      'let y=1; echo $GEMINI_SESSION_ID',
      '[[ -n $GEMINI_SESSION_ID ]] && echo $GEMINI_SESSION_ID',
      'declare -r r=$GEMINI_SESSION_ID; echo $r',
    ];
    for (const form of safe) {
      const text = expandCommand(`${form} > ${out}`, { projectDir: dir, cwd: dir, plansDir: dir, sessionId });
      bash(text, dir);
      assert.equal(fs.readFileSync(out, 'utf8'), `${sessionId}\n`, form);
    }
    assert.equal(fs.existsSync(marker), false);
  });

  test('through the engine: the hook does not run and its error says why', async () => {
    const dir = tmpDir();
    const hooks = forms('$GEMINI_SESSION_ID').map(([name, form]) => cmd(form, { name, timeout: 5000 }));
    const p = makeProject({ project: { hooks: { BeforeAgent: [{ hooks }] } } });
    const marker = path.join(dir, 'engine');
    const res = await engineFor(p, { sessionId: `a[$(touch ${marker})]` }).fire('BeforeAgent', { prompt: 'x' });
    assert.equal(res.runs.length, hooks.length);
    for (const r of res.runs) {
      assert.equal(r.success, false, r.name);
      assert.match(r.error ?? '', /BeforeAgent hook .* arithmetic context .* the hook did not run/, r.name);
    }
    assert.equal(fs.existsSync(marker), false);
  });

  test('Claude Code: $CLAUDE_PROJECT_DIR from a hostile folder name', async () => {
    const parent = tmpDir();
    // Claude Code hooks run in the project folder: the marker would land there or in its parent.
    const projectDir = path.join(parent, 'a[$(touch PWNED)]');
    fs.mkdirSync(projectDir);
    for (const [name, form] of forms('$CLAUDE_PROJECT_DIR')) {
      assert.throws(() => expandClaudeCommand(form, projectDir), ExpansionError, name);
    }
    const settings = { hooks: { Stop: [{ hooks: forms('${CLAUDE_PROJECT_DIR}').map(([, command]) => ({ type: 'command', command })) }] } };
    const parsed = parseClaudeSettings(JSON.stringify(settings), path.join(projectDir, '.claude/settings.json'), 'project');
    const res = await fireClaude(
      { files: [], hooks: parsed.hooks, problems: [] },
      'Stop',
      {},
      { projectDir, env: { PATH: process.env.PATH ?? '' } },
    );
    assert.equal(res.runs.length, Object.keys(ARITH_FORMS).length);
    for (const r of res.runs) assert.match(r.error ?? '', /arithmetic context/, r.command);
    assert.deepEqual(findNamed(parent, 'PWNED'), []);
  });

  test('SpatialAgent: a context variable (tool input) in arithmetic', async () => {
    const dir = tmpDir();
    const marker = path.join(dir, 'sa');
    const context = { CODE: `a[$(touch ${marker})]`, STEP: 2 };
    for (const [name, form] of forms('$CODE')) {
      assert.throws(() => expandShell(form, context), ExpansionError, name);
      const outcome = await runSaBashHook(
        { event: 'PreAct', path: 'hooks.PreAct[0]', type: 'bash', command: form, timeoutSeconds: 5 } as never,
        context,
        { cwd: dir },
      );
      assert.equal(outcome.success, false, name);
      assert.match(outcome.error ?? '', /\$CODE is used in a shell arithmetic context/, name);
    }
    // A number (STEP) is substituted and the arithmetic works.
    assert.equal(expandShell('echo $(( $STEP + 1 ))', context), 'echo $(( 2 + 1 ))');
    assert.equal(fs.existsSync(marker), false);
  });
});
