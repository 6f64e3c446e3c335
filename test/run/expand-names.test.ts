// Where bash reads a value as a variable name it evaluates a subscript in it, and where it reads
// it as code it runs it: `a[$(touch MARKER)]` given as a SpatialAgent query (a tool input) must
// not run in `[[ -v $X ]]`, `printf -v`, `declare`, `read`, `unset`, `${!X}`, an array's keys,
// `eval` or `sh -c "…"`. Each form is first shown to run through a real bash when left to it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ExpansionError, expandCommand } from '../../src/run/expand.js';
import { expandShell } from '../../src/dialects/spatialagent/variables.js';
import { tmpDir } from './util.js';

const NAME_FORMS: Record<string, string> = {
  condV: '[[ -v $V ]] || true',
  condVQuoted: '[[ -n x && -v "$V" ]] || true',
  testV: 'test -v "$V" || true',
  bracketV: '[ -v "$V" ] || true',
  printfV: 'printf -v "$V" %s x',
  nameref: 'declare -n r=$V; : "$r"',
  read: 'read "$V" <<< x || true',
  unset: 'a=(1); unset "$V"',
  compoundKey: 'a=([$V]=1)',
  indirect: 'echo "${!V}"',
  eval: 'eval ": $V"',
  shC: 'bash -c ": $V"',
  // However the shell is wrapped or started, and wherever in its code the value lands.
  shCTimeout: 'timeout 5 bash -c ": $V"',
  shCNorc: 'bash --norc -c ": $V"',
  shCPipefail: 'bash -o pipefail -c ": $V"',
  shCEnv: 'env FOO=1 sh -c ": $V"',
  shCXargs: 'echo x | xargs sh -c ": $V"',
  shCFind: 'find . -maxdepth 0 -exec sh -c ": $V" \\;',
  shCAfterSemicolon: 'bash -c "true; : $V"',
  evalLater: 'true && eval ": $V"',
};

const forms = (name: string) =>
  Object.entries(NAME_FORMS).map(([k, f]) => [k, f.replaceAll('$V', name).replaceAll('{!V}', `{!${name.slice(1)}}`)] as const);

describe('a value read as a name or as code is not substituted unless it is a plain word', () => {
  test('each form really runs the value when bash expands it itself (the test is meaningful)', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$V')) {
      // A marker named without a `/`: some builtins refuse a name with one before evaluating it.
      spawnSync('bash', ['-c', form], { cwd: dir, stdio: 'ignore', env: { ...process.env, V: `a[$(touch naive-${name})]` } });
      assert.ok(fs.existsSync(path.join(dir, `naive-${name}`)), `${name}: bash did not run it, so this form proves nothing`);
    }
  });

  test('SpatialAgent: a query used there stops the hook with a reason; nothing runs; a plain word still goes in', () => {
    const dir = tmpDir();
    for (const [name, form] of forms('$QUERY')) {
      const marker = path.join(dir, `sa-${name}`);
      assert.throws(
        () => expandShell(form, { QUERY: `a[$(touch ${marker})]` }),
        (e: unknown) =>
          e instanceof ExpansionError && /QUERY.* is used (where the shell reads it as|in a shell arithmetic context)/.test(e.message),
        name,
      );
      assert.equal(fs.existsSync(marker), false, name);
      if (name !== 'compoundKey') assert.ok(!expandShell(form, { QUERY: 'plain_word' }).includes('$QUERY'), name);
    }
  });

  test('another interpreter given code (python3 -c, node -e, perl -e): a value other than a plain word stops the hook', () => {
    const dir = tmpDir();
    const marker = path.join(dir, 'py');
    const value = `x'); import os; os.system('touch ${marker}'); print('`;
    for (const form of [`python3 -c "print('$QUERY')"`, `node -e "console.log('$QUERY')"`, `timeout 5 perl -e "print '$QUERY'"`]) {
      assert.throws(() => expandShell(form, { QUERY: value }), ExpansionError, form);
      assert.ok(!expandShell(form, { QUERY: 'plain_word' }).includes('$QUERY'), form);
    }
    assert.equal(fs.existsSync(marker), false);
  });

  test('a project folder whose name holds shell code, wrapped in an inner shell: not substituted, the hook does not run', () => {
    const dir = tmpDir();
    const projectDir = path.join(dir, 'a$(touch pwned)b');
    const values = { projectDir, cwd: projectDir, plansDir: projectDir, sessionId: 's' };
    for (const form of ['timeout 5 bash -c "cd $GEMINI_PROJECT_DIR; echo {}"', 'bash -o pipefail -c "cd ${CLAUDE_PROJECT_DIR} && ls"']) {
      assert.throws(() => expandCommand(form, values), ExpansionError, form);
    }
    // As a plain argument it is one literal word, whatever it holds.
    const text = expandCommand('printf %s "$GEMINI_PROJECT_DIR" $GEMINI_PROJECT_DIR', values);
    const r = spawnSync('bash', ['-c', text], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.stdout, `${projectDir}${projectDir}`);
    assert.equal(fs.existsSync(path.join(dir, 'pwned')), false);
  });

  test('text handed to a shell or an interpreter some other way ($SHELL -c, many options, --eval=, a pipe or a here-document into one): a value that can form code is not substituted', () => {
    const dir = tmpDir();
    const marker = path.join(dir, 'M');
    const values = [`${dir}/p;touch ${marker};#`, `${dir}/p$(touch ${marker})`, `${dir}/p'; touch ${marker}; echo '`];
    const forms = [
      '$SHELL -c "cd $GEMINI_PROJECT_DIR"',
      '${SHELL:-/bin/sh} -c "cd $GEMINI_PROJECT_DIR"',
      'bash --noprofile --norc -o errexit -o nounset -o pipefail -O extglob -c "cd $GEMINI_PROJECT_DIR"',
      `node --eval="console.log('$GEMINI_PROJECT_DIR')"`,
      'echo "cd $GEMINI_PROJECT_DIR" | bash',
      'bash <<< "cd $GEMINI_PROJECT_DIR"',
      'source <(echo "cd $GEMINI_PROJECT_DIR")',
      // A single-quoted value after an unrelated `sh -c`, in a here-document a shell runs.
      "sh -c 'true' || true\nbash <<EOF\necho 'project: $GEMINI_PROJECT_DIR'\nEOF",
      'script -qc "cd $GEMINI_PROJECT_DIR" /dev/null',
    ];
    for (const form of forms)
      for (const projectDir of values) {
        let text: string;
        try {
          text = expandCommand(form, { projectDir, cwd: projectDir, plansDir: projectDir, sessionId: 's' });
        } catch (e) {
          assert.ok(e instanceof ExpansionError, form);
          continue;
        }
        spawnSync('bash', ['-c', text], {
          cwd: dir,
          stdio: 'ignore',
          timeout: 10_000,
          env: { ...process.env, SHELL: '/bin/bash', GEMINI_PROJECT_DIR: projectDir },
        });
        assert.equal(fs.existsSync(marker), false, `${form} with ${projectDir}`);
      }
  });

  test('no false alarm: a value given as an argument, beside code or after it, is data', () => {
    const values = { projectDir: '/Users/me/My Projects (copy)/app', cwd: '/', plansDir: '/', sessionId: 's' };
    for (const form of [
      `sh -c 'cd "$1" && ls' sh "$CLAUDE_PROJECT_DIR"`,
      `python3 -c 'import sys; print(sys.argv[1])' "$CLAUDE_PROJECT_DIR"`,
      `perl -ne 'print if /TODO/' "$CLAUDE_PROJECT_DIR/NOTES"`,
      `bash -c 'echo start'; "$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh"`,
      `echo "running eval" && "$CLAUDE_PROJECT_DIR"/hooks/x.sh`,
      `node "$CLAUDE_PROJECT_DIR/lint.js" -c "$CLAUDE_PROJECT_DIR/.lintrc"`,
      `bash "$CLAUDE_PROJECT_DIR/.claude/hooks/run.sh" -c "$CLAUDE_PROJECT_DIR/cfg"`,
      `git -C "$CLAUDE_PROJECT_DIR" diff --stat`,
      `cd . && "$CLAUDE_PROJECT_DIR/x.sh"`,
    ])
      assert.doesNotThrow(() => expandCommand(form, values), form);
  });

  test("no false alarm: a path with a space as data, a declaration’s value, sh -c '…' left to the inner shell", () => {
    const dir = tmpDir();
    const out = path.join(dir, 'out');
    const value = 'a b [$(touch x)] "quoted"';
    for (const form of [
      'echo "$QUERY"',
      'export MSG="$QUERY"; echo "$MSG"',
      'local_msg=$QUERY; echo "$local_msg"',
      'grep -v "$QUERY" /dev/null; echo "$QUERY"',
    ]) {
      const text = expandShell(`${form} > '${out}'`, { QUERY: value });
      spawnSync('bash', ['-c', text], { cwd: dir, stdio: 'ignore' });
      assert.equal(fs.readFileSync(out, 'utf8'), `${value}\n`, form);
    }
    for (const shell of ['bash -c', 'timeout 5 bash --norc -c']) {
      const inner = expandShell(`${shell} 'echo "$QUERY" > ${out}'`, { QUERY: value });
      assert.ok(inner.includes('$QUERY'), 'left to the inner shell');
      spawnSync('bash', ['-c', inner], { cwd: dir, stdio: 'ignore', env: { ...process.env, QUERY: value } });
      assert.equal(fs.readFileSync(out, 'utf8'), `${value}\n`);
      assert.equal(fs.existsSync(path.join(dir, 'x')), false);
    }
    // A project path with spaces, given to a plain command: one word, no refusal.
    const spaced = expandCommand('printf "[%s]" "$GEMINI_PROJECT_DIR"/hooks', {
      projectDir: '/My Projects/app',
      cwd: '/',
      plansDir: '/',
      sessionId: 's',
    });
    assert.equal(spawnSync('bash', ['-c', spaced], { encoding: 'utf8' }).stdout, '[/My Projects/app/hooks]');
  });
});
