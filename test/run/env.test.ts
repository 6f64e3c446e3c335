// The environment a command hook sees: secrets removed by default, the GEMINI_* variables added,
// the hook's own `env` on top; only user (or system) settings may loosen redaction.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, makeProject, type ProjectOptions } from '../helpers.js';
import { sanitizeEnv } from '../../src/run/env.js';
import { engineFor, fixture, q, readCapture, tmpDir } from './util.js';

const GH_TOKEN = 'ghp_' + 'A1b2C3d4E5'.repeat(3) + 'f6G7h8';
const SECRETS = {
  FOO_TOKEN: 'plain-value-1',
  MY_API_KEY: 'plain-value-2',
  CLIENT_SECRET: 'plain-value-3',
  DATABASE_URL: 'postgres://db.internal/app',
  INNOCENT_GH: GH_TOKEN,
  INNOCENT_AWS: 'AKIAIOSFODNN7EXAMPLE',
  INNOCENT_URL: 'https://alice:hunter2@example.com/repo.git',
};
const HARMLESS = { HARMLESS_VAR: 'hello', GEMINI_CLI_TEST_FLAG: 'on', GEMINI_CLI_IDE_AUTH_TOKEN: 'ide-secret', GEMINI_CLI_API_KEY: 'k' };

/** Fires BeforeAgent in a project whose capture hook sits in project settings; returns what it saw. */
async function hookEnv(
  opts: {
    user?: unknown;
    projectExtra?: Record<string, unknown>;
    hookEnv?: Record<string, string>;
    env?: Record<string, string>;
    sessionId?: string;
  } = {},
) {
  const out = tmpDir();
  const hook = cmd(fixture('run-capture.sh', q(out)), { timeout: 1500, ...(opts.hookEnv ? { env: opts.hookEnv } : {}) });
  const po: ProjectOptions = { project: { ...opts.projectExtra, hooks: { BeforeAgent: [{ hooks: [hook] }] } } };
  if (opts.user !== undefined) po.user = opts.user;
  const p = makeProject(po);
  const engine = engineFor(p, { env: { ...SECRETS, ...HARMLESS, ...opts.env }, sessionId: opts.sessionId });
  const res = await engine.fire('BeforeAgent', { prompt: 'p' });
  assert.equal(res.runs.length, 1);
  assert.equal(res.runs[0].success, true, res.runs[0].error);
  return { env: readCapture(out).env, p, engine };
}

function assertNoSecrets(env: Record<string, string>, except: string[] = []): void {
  for (const k of Object.keys(SECRETS)) {
    if (except.includes(k)) continue;
    assert.equal(env[k], undefined, `${k} leaked to the hook`);
  }
  const all = Object.values(env).join('\n');
  for (const [k, v] of Object.entries(SECRETS)) if (!except.includes(k)) assert.ok(!all.includes(v), `value of ${k} leaked`);
}

describe('hook environment', () => {
  test('default: secrets removed, essentials and GEMINI_* present', async () => {
    const { env, p, engine } = await hookEnv({ sessionId: 'sess-123' });
    assertNoSecrets(env);
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.HOME, p.env.HOME);
    assert.equal(env.HARMLESS_VAR, 'hello');
    assert.equal(env.GEMINI_CLI_TEST_FLAG, 'on');
    assert.equal(env.GEMINI_CLI_IDE_AUTH_TOKEN, undefined, 'a name that says TOKEN is removed whatever its prefix');
    assert.equal(env.GEMINI_CLI_API_KEY, undefined);
    assert.equal(env.GEMINI_CLI_HOME, p.home);
    assert.equal(env.GEMINI_PROJECT_DIR, p.dir);
    assert.equal(env.CLAUDE_PROJECT_DIR, p.dir);
    assert.equal(env.GEMINI_CWD, p.dir);
    assert.equal(env.GEMINI_SESSION_ID, 'sess-123');
    assert.equal(env.GEMINI_PLANS_DIR, engine.plansDir());
    assert.ok(env.GEMINI_PLANS_DIR.includes('sess-123'));
  });

  test("an event's own environment (a server's client): its hooks start from it, secrets removed as from the engine's", async () => {
    const out = tmpDir();
    const p = makeProject({ user: { hooks: { BeforeAgent: [{ hooks: [cmd(fixture('run-capture.sh', q(out)), { timeout: 1500 })] }] } } });
    const engine = engineFor(p, { env: { HARMLESS_VAR: 'the engine' } });
    const own = { ...p.env, ...SECRETS, HARMLESS_VAR: 'the event', ONLY_THIS_EVENT: 'yes' };
    const res = await engine.fire('BeforeAgent', { prompt: 'p' }, { env: own });
    assert.equal(res.runs[0]?.success, true, res.runs[0]?.error);
    const env = readCapture(out).env;
    assert.equal(env.HARMLESS_VAR, 'the event');
    assert.equal(env.ONLY_THIS_EVENT, 'yes');
    assertNoSecrets(env);
    assert.equal(env.GEMINI_PROJECT_DIR, p.dir);
    await engine.fire('BeforeAgent', { prompt: 'p' });
    assert.equal(readCapture(out).env.HARMLESS_VAR, 'the engine', "without one, the engine's");
  });

  test("the hook's own env wins and can pass a secret explicitly", async () => {
    const { env } = await hookEnv({ hookEnv: { MY_API_KEY: 'given-on-purpose', GEMINI_SESSION_ID: 'overridden' }, sessionId: 'real' });
    assert.equal(env.MY_API_KEY, 'given-on-purpose');
    assert.equal(env.GEMINI_SESSION_ID, 'overridden');
    assertNoSecrets(env, ['MY_API_KEY']);
  });

  test('user settings: allowed lets one named variable through, no more', async () => {
    const { env } = await hookEnv({ user: { security: { environmentVariableRedaction: { allowed: ['MY_API_KEY'] } } } });
    assert.equal(env.MY_API_KEY, 'plain-value-2');
    assertNoSecrets(env, ['MY_API_KEY']);
  });

  test('user settings: allowed and blocked names are matched case-insensitively; allowed passes a token-looking value', async () => {
    const { env } = await hookEnv({
      user: { security: { environmentVariableRedaction: { allowed: ['my_api_key', 'Innocent_Gh'], blocked: ['harmless_var'] } } },
    });
    assert.equal(env.MY_API_KEY, 'plain-value-2');
    assert.equal(env.INNOCENT_GH, GH_TOKEN, 'the user asked for it by name');
    assert.equal(env.HARMLESS_VAR, undefined);
    assertNoSecrets(env, ['MY_API_KEY', 'INNOCENT_GH']);
  });

  test('a GEMINI_CLI_* name does not keep a token-looking value', async () => {
    const { env } = await hookEnv({ env: { GEMINI_CLI_SOMETHING: GH_TOKEN } });
    assert.equal(env.GEMINI_CLI_SOMETHING, undefined);
    assert.equal(env.GEMINI_CLI_TEST_FLAG, 'on');
  });

  test('a GEMINI_CLI_* name that says TOKEN or KEY reaches a hook only when the user allowed it', async () => {
    const { env } = await hookEnv({ user: { security: { environmentVariableRedaction: { allowed: ['GEMINI_CLI_IDE_AUTH_TOKEN'] } } } });
    assert.equal(env.GEMINI_CLI_IDE_AUTH_TOKEN, 'ide-secret');
    assert.equal(env.GEMINI_CLI_API_KEY, undefined);
  });

  test('user settings: blocked removes a harmless variable', async () => {
    const { env } = await hookEnv({ user: { security: { environmentVariableRedaction: { blocked: ['HARMLESS_VAR'] } } } });
    assert.equal(env.HARMLESS_VAR, undefined);
    assert.equal(env.PATH, process.env.PATH);
  });

  test('user settings: enabled false passes everything through', async () => {
    const { env } = await hookEnv({ user: { security: { environmentVariableRedaction: { enabled: false } } } });
    for (const [k, v] of Object.entries(SECRETS)) assert.equal(env[k], v, k);
  });

  test('project settings cannot turn redaction off nor allow a secret', async () => {
    const { env } = await hookEnv({
      projectExtra: { security: { environmentVariableRedaction: { enabled: false, allowed: ['MY_API_KEY', 'FOO_TOKEN'] } } },
    });
    assertNoSecrets(env);
  });

  test('project settings may still block more', async () => {
    const { env } = await hookEnv({ projectExtra: { security: { environmentVariableRedaction: { blocked: ['HARMLESS_VAR'] } } } });
    assert.equal(env.HARMLESS_VAR, undefined);
  });

  test('strict mode (GITHUB_SHA set) keeps only the safe basics', async () => {
    const { env } = await hookEnv({ env: { GITHUB_SHA: 'abc123' } });
    assertNoSecrets(env);
    assert.equal(env.HARMLESS_VAR, undefined);
    assert.equal(env.PATH, process.env.PATH);
    assert.equal(env.GEMINI_CLI_TEST_FLAG, 'on');
    assert.ok(env.GEMINI_PROJECT_DIR);
  });
});

describe('sanitizeEnv', () => {
  const on = { enabled: true, allowed: [], blocked: [] };

  test('secret-looking values are removed whatever the name; a name the user allowed is kept', () => {
    const out = sanitizeEnv(
      { A: GH_TOKEN, B: 'sk_live_' + 'a'.repeat(24), C: 'xoxb-123-abc', D: '-----BEGIN PRIVATE KEY-----', E: 'fine' },
      { ...on, allowed: ['a'] },
    );
    assert.deepEqual(out, { A: GH_TOKEN, E: 'fine' });
  });

  test('names are matched case-insensitively', () => {
    const out = sanitizeEnv({ my_token: 'x', Path: '/bin', db_password: 'y', other: 'z' }, on);
    assert.deepEqual(out, { Path: '/bin', other: 'z' });
  });

  test('GIT_CONFIG_COUNT/KEY_n/VALUE_n/PARAMETERS are removed (they can carry an auth header), other GIT_CONFIG_* kept, undefined values dropped', () => {
    const out = sanitizeEnv(
      {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.extraHeader',
        GIT_CONFIG_VALUE_0: 'Authorization: Basic eDp5',
        GIT_CONFIG_PARAMETERS: "'user.name'='x'",
        GIT_CONFIG_GLOBAL: '/home/u/.gitconfig',
        UNDEF: undefined,
      },
      on,
    );
    assert.deepEqual(out, { GIT_CONFIG_GLOBAL: '/home/u/.gitconfig' });
  });
});
