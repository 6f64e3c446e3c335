// `$GEMINI_*` expansion: hostile folder names and session ids are always one literal value and
// never run anything, in every quoting context a hook author is likely to write.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cmd, makeProject, runCli } from '../helpers.js';
import { expandCommand, shellQuote } from '../../src/run/expand.js';
import { runHook as runCommand } from './util.js';
import { engineFor, findNamed, fixture, q, readCapture, tmpDir } from './util.js';

const HOSTILE_DIR = `it's a "dir" $(touch PWNED) \`touch PWNED\` ;touch PWNED`;
const HOSTILE_SID = `s'1"; touch PWNED; $(touch PWNED) \`touch PWNED\` \\ & | > x`;
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };

function noPwned(...roots: string[]): void {
  for (const r of roots) assert.deepEqual(findNamed(r, 'PWNED'), [], `something ran under ${r}`);
  assert.equal(fs.existsSync(path.join(process.cwd(), 'PWNED')), false);
}

describe('expansion through the engine, hostile project folder and session id', () => {
  test('every form gives the exact value as one argument and runs nothing', async () => {
    const outs: Record<string, string> = {};
    const forms: Record<string, string> = {
      bare: '$GEMINI_PROJECT_DIR',
      dquoted: '"$GEMINI_PROJECT_DIR/x"',
      squoted: "'$GEMINI_PROJECT_DIR'",
      claude: '$CLAUDE_PROJECT_DIR',
      cwd: '$GEMINI_CWD',
      session: '$GEMINI_SESSION_ID',
      sessionDq: '"id=$GEMINI_SESSION_ID"',
      plans: '$GEMINI_PLANS_DIR',
      suffix: '$GEMINI_PROJECT_DIR_X',
      braced: '"${GEMINI_PROJECT_DIR}" $GEMINI_PROJECT_DIR',
      dirname: '"$(dirname "$GEMINI_PROJECT_DIR")"',
      backticks: '"`printf %s "$GEMINI_PROJECT_DIR"`"',
      ansi: "$'a\\'b' $GEMINI_PROJECT_DIR",
      escaped: '\\$GEMINI_PROJECT_DIR',
    };
    const hooks = Object.entries(forms).map(([name, form]) => {
      outs[name] = tmpDir();
      const env = name === 'braced' ? { GEMINI_PROJECT_DIR: '/from/hook/env' } : undefined;
      return cmd(`${fixture('run-capture.sh', q(outs[name]))} ${form}`, { name, timeout: 1500, ...(env ? { env } : {}) });
    });
    // Comments with apostrophes and heredocs must not run anything either.
    const heredocOut = tmpDir();
    hooks.push(
      cmd(`# it's a comment, don't parse me\n${fixture('run-capture.sh', q((outs.comment = tmpDir())))} $GEMINI_PROJECT_DIR`, {
        name: 'comment',
        timeout: 1500,
      }),
    );
    hooks.push(cmd(`cat > ${q(heredocOut + '/h')} <<EOF\n$GEMINI_PROJECT_DIR\nEOF`, { name: 'heredoc', timeout: 1500 }));

    const p = makeProject({ name: HOSTILE_DIR, project: { hooks: { BeforeAgent: [{ hooks }] } } });
    const cwd = path.join(p.dir, `sub 'q' $(touch PWNED)`);
    fs.mkdirSync(cwd);
    const engine = engineFor(p, { sessionId: HOSTILE_SID });
    const res = await engine.fire('BeforeAgent', { prompt: 'x' }, { cwd });
    for (const r of res.runs) assert.equal(r.success, true, `${r.name}: ${r.error} ${r.stderr}`);
    assert.equal(res.runs.length, Object.keys(forms).length + 2);

    const args = (name: string) => readCapture(outs[name]).args;
    assert.deepEqual(args('bare'), [p.dir]);
    assert.deepEqual(args('dquoted'), [p.dir + '/x']);
    assert.deepEqual(args('squoted'), [p.dir]);
    assert.deepEqual(args('claude'), [p.dir]);
    assert.deepEqual(args('cwd'), [cwd]);
    assert.deepEqual(args('session'), [HOSTILE_SID]);
    assert.deepEqual(args('sessionDq'), ['id=' + HOSTILE_SID]);
    assert.deepEqual(args('plans'), [engine.plansDir()]);
    assert.deepEqual(args('suffix'), [p.dir + '_X'], 'no word boundary: $GEMINI_PROJECT_DIR_X is <dir>_X');
    assert.deepEqual(args('braced'), [p.dir, p.dir], '${GEMINI_PROJECT_DIR} is substituted and quoted like $GEMINI_PROJECT_DIR');
    assert.deepEqual(args('dirname'), [path.dirname(p.dir)]);
    assert.deepEqual(args('backticks'), [p.dir]);
    assert.deepEqual(args('ansi'), ["a'b", p.dir]);
    assert.deepEqual(args('escaped'), ['$GEMINI_PROJECT_DIR'], 'an escaped $ is not expanded');
    assert.deepEqual(args('comment'), [p.dir]);
    assert.equal(readCapture(outs.cwd).cwd, fs.realpathSync(cwd));
    noPwned(path.dirname(p.dir), ...Object.values(outs), heredocOut);
  });

  test('the hookline CLI in a hostile folder: exact path, nothing run', async () => {
    const out = tmpDir();
    const hooks = [cmd(`${fixture('run-capture.sh', q(out))} $GEMINI_PROJECT_DIR "$GEMINI_SESSION_ID"`, { timeout: 1500 })];
    const p = makeProject({ name: HOSTILE_DIR, project: { hooks: { BeforeAgent: [{ hooks }] } } });
    const r = await runCli(['fire', 'BeforeAgent', '--session-id', 'sess-1.A_b', '--input', '-'], {
      cwd: p.dir,
      env: p.env,
      input: '{"prompt":"x"}',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readCapture(out).args, [p.dir, 'sess-1.A_b']);
    noPwned(path.dirname(p.dir), out);
  });

  test('the hookline CLI refuses a session id outside the safe alphabet, from the flag or the input', async () => {
    const out = tmpDir();
    const hooks = [cmd(`${fixture('run-capture.sh', q(out))} "$GEMINI_SESSION_ID"`, { timeout: 1500 })];
    const p = makeProject({ project: { hooks: { BeforeAgent: [{ hooks }] } } });
    for (const id of [HOSTILE_SID, 'a[$(touch PWNED)]', '../x', '-rf', 'x'.repeat(129), '']) {
      const flag = await runCli(['fire', 'BeforeAgent', '--session-id', id, '--input', '-'], {
        cwd: p.dir,
        env: p.env,
        input: '{"prompt":"x"}',
      });
      assert.notEqual(flag.code, 0, id);
      assert.match(flag.stderr, /--session-id .*(letters, digits|empty|at most 128)/);
      assert.equal(flag.stderr.trim().split('\n').length, 1, flag.stderr);
      const input = await runCli(['fire', 'BeforeAgent', '--input', '-'], {
        cwd: p.dir,
        env: p.env,
        input: JSON.stringify({ prompt: 'x', session_id: id }),
      });
      assert.notEqual(input.code, 0, id);
      assert.match(input.stderr, /input session_id .*(letters, digits|empty|at most 128)/);
    }
    assert.deepEqual(findNamed(out, 'args'), [], 'no hook ran');
    noPwned(p.dir, out);
  });
});

describe('expandCommand', () => {
  const nasty = [
    "it's",
    'a "b" c',
    '$(touch PWNED)',
    '`touch PWNED`',
    'x;touch PWNED',
    'back\\slash',
    'new\nline\ttab',
    '-n',
    '',
    '~/home',
    '*',
    '!!',
    'caf\u00e9 \u4e2d \ud83d\ude00',
    "'; touch PWNED; '",
    '"; touch PWNED; "',
  ];
  const templates: Array<[string, (v: string) => string[]]> = [
    ['$GEMINI_SESSION_ID', (v) => [v]],
    ['"$GEMINI_SESSION_ID"', (v) => [v]],
    ["'$GEMINI_SESSION_ID'", (v) => [v]],
    ['"pre $GEMINI_SESSION_ID post"', (v) => [`pre ${v} post`]],
    ["'pre $GEMINI_SESSION_ID post'", (v) => [`pre ${v} post`]],
    ['x$GEMINI_SESSION_ID/y', (v) => [`x${v}/y`]],
    ['"$(printf %s "$GEMINI_SESSION_ID")"', (v) => [v.replace(/\n+$/, '')]],
    ["$'[$GEMINI_SESSION_ID]'", (v) => [`[${v}]`]],
  ];

  test('every value lands literally in every quoting context, and nothing runs', async () => {
    const work = tmpDir();
    for (const v of nasty) {
      for (const [tpl, want] of templates) {
        const command = `printf '%s\\0' ${expandCommand(tpl, { projectDir: '/p', cwd: '/c', plansDir: '/pl', sessionId: v })}`;
        const r = await runCommand({ command, cwd: work, env: ENV, stdin: '', timeoutMs: 1500 });
        assert.equal(r.exitCode, 0, `${JSON.stringify(v)} in ${tpl}: ${r.stderr}`);
        assert.deepEqual(r.stdout.split('\0').slice(0, -1), want(v), `${JSON.stringify(v)} in ${tpl} -> ${command}`);
      }
    }
    noPwned(work);
  });

  test('text without variables is returned unchanged', () => {
    for (const c of ['echo hi', 'echo ${HOME} $HOME', 'echo \'$NOT_OURS\' "$GEMINI"', 'echo $GEMINI_PROJECT', 'echo ${GEMINI_PROJECT}']) {
      assert.equal(expandCommand(c, { projectDir: '/a b', cwd: '/c', plansDir: '/p', sessionId: 's' }), c);
    }
  });

  test('plain values are inserted as they are', () => {
    const out = expandCommand('node "$GEMINI_PROJECT_DIR/hook.js" $GEMINI_SESSION_ID', {
      projectDir: '/home/u/proj-1',
      cwd: '/c',
      plansDir: '/p',
      sessionId: 'abc-123',
    });
    assert.equal(out, 'node "/home/u/proj-1/hook.js" abc-123');
  });

  test('shellQuote keeps plain words and single-quotes the rest', () => {
    assert.equal(shellQuote('/a/b-c_d.e'), '/a/b-c_d.e');
    assert.equal(shellQuote("a b'c"), `'a b'\\''c'`);
    assert.equal(shellQuote(''), "''");
  });
});
