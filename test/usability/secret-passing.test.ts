// Handing a hook a secret: by reference in its `env`, or by name in the redaction allow-list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, makeProject, runCli } from '../helpers.js';

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const SHOW = `printf '{"systemMessage":"%s|%s|%s"}' "$HANDED" "\${GITHUB_TOKEN:-absent}" "$LITERAL"`;

test("a hook env value naming $GITHUB_TOKEN gets it from Hookline's environment, for that hook only; $$ is a $", async () => {
  const p = makeProject({
    user: {
      hooks: {
        BeforeTool: [
          {
            hooks: [cmd(SHOW, { name: 'handed', env: { HANDED: '$GITHUB_TOKEN', LITERAL: 'a$$b ${HOME}' } }), cmd(SHOW, { name: 'other' })],
          },
        ],
      },
    },
  });
  const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
    env: { ...p.env, GITHUB_TOKEN: TOKEN, HOME: '/home/someone' },
    input: '{"tool_name":"glob","tool_input":{}}',
  });
  assert.equal(r.code, 0, r.stderr);
  const messages = r.json().runs.map((x: { name: string; output: { systemMessage: string } }) => [x.name, x.output.systemMessage]);
  assert.deepEqual(messages, [
    ['handed', `${TOKEN}|absent|a$b /home/someone`],
    // The token looks like a token: removed from every hook's environment unless handed over.
    ['other', '|absent|'],
  ]);
});

test('a name in environmentVariableRedaction.allowed reaches hooks even when its value looks like a token (any case)', async () => {
  const p = makeProject({
    user: {
      security: { environmentVariableRedaction: { allowed: ['github_token'] } },
      hooks: { BeforeTool: [{ hooks: [cmd(SHOW, { name: 'allowed' })] }] },
    },
  });
  const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
    env: { ...p.env, GITHUB_TOKEN: TOKEN },
    input: '{"tool_name":"glob","tool_input":{}}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json().runs[0].output.systemMessage, `|${TOKEN}|`);
});

test('${GEMINI_PROJECT_DIR} in braces is substituted and quoted: a folder with a space still runs the hook', async () => {
  const p = makeProject({
    name: 'my project',
    user: { hooks: { BeforeTool: [{ hooks: [cmd('cat >/dev/null; ${GEMINI_PROJECT_DIR}/.gemini/hooks/ok.sh', { name: 'braced' })] }] } },
  });
  const fs = await import('node:fs');
  const path = await import('node:path');
  fs.mkdirSync(path.join(p.dir, '.gemini', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(p.dir, '.gemini', 'hooks', 'ok.sh'), '#!/bin/sh\necho \'{"decision":"allow","systemMessage":"ran"}\'\n', {
    mode: 0o755,
  });
  const r = await runCli(['fire', 'BeforeTool', '--cwd', p.dir, '--input', '-'], {
    env: p.env,
    input: '{"tool_name":"glob","tool_input":{}}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json().runs[0].exitCode, 0, r.json().runs[0].stderr);
  assert.equal(r.json().output.systemMessage, 'ran');
});
