// A settings file that is there but cannot be read (a link to nothing, a link loop) is said, not
// taken for an absent file: the user's guard hooks in it would otherwise vanish without a word.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { loadClaudeSettingsFile } from '../../src/dialects/claude/config.js';

function home(): { base: string; env: NodeJS.ProcessEnv; gemini: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'hookline-unreach-'));
  const gemini = path.join(base, 'home', '.gemini');
  fs.mkdirSync(gemini, { recursive: true });
  fs.mkdirSync(path.join(base, 'project'));
  const env = { ...process.env, GEMINI_CLI_HOME: path.join(base, 'home'), GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(base, 'none.json') };
  return { base, env, gemini };
}

describe('settings files that cannot be reached', () => {
  test('Gemini settings: a link to nothing and a link loop are errors naming the file; a missing file is not', () => {
    const h = home();
    const user = path.join(h.gemini, 'settings.json');
    const load = () => loadConfig({ projectDir: path.join(h.base, 'project'), env: h.env }).problems.map((p) => `${p.file}: ${p.message}`);
    assert.deepEqual(load(), []);
    fs.symlinkSync(path.join(h.base, 'nowhere.json'), user);
    assert.deepEqual(load(), [`${user}: cannot read: it is a link to ${path.join(h.base, 'nowhere.json')}, which does not exist`]);
    fs.unlinkSync(user);
    fs.symlinkSync(user, user);
    assert.match(load().join('\n'), new RegExp(`^${user.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read: ELOOP`));
  });

  test('Claude Code settings: a link to nothing is an error; the other files still load', () => {
    const h = home();
    const file = path.join(h.base, 'settings.json');
    fs.symlinkSync(path.join(h.base, 'nowhere.json'), file);
    const r = loadClaudeSettingsFile(file, 'user');
    assert.equal(r.hooks.length, 0);
    assert.deepEqual(
      r.problems.map((p) => p.message),
      [`cannot read: it is a link to ${path.join(h.base, 'nowhere.json')}, which does not exist (no hook from this file is loaded)`],
    );
    assert.deepEqual(loadClaudeSettingsFile(path.join(h.base, 'absent.json'), 'user').problems, []);
    // Two files linked to each other: an error on each, not a failure of the whole load.
    const a = path.join(h.base, 'a.json');
    const b = path.join(h.base, 'b.json');
    fs.symlinkSync(b, a);
    fs.symlinkSync(a, b);
    assert.match(
      loadClaudeSettingsFile(a, 'project')
        .problems.map((p) => p.message)
        .join('\n'),
      /^cannot read: ELOOP.*\(no hook from this file is loaded\)$/,
    );
  });
});
