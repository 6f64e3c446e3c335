import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { applyEnablement, loadConfig } from '../../src/config/load.js';
import { cmd } from '../helpers.js';
import { projectWith, mark, write } from './util.js';

const TOOL = { tool_name: 'run_shell_command', tool_input: {} };

/** User and system hooks that write to the marker, and a project that tries to switch them. */
function switched(
  project: Record<string, unknown>,
  trusted: boolean,
  user: Record<string, unknown> = {},
  system: Record<string, unknown> = {},
) {
  return projectWith((m) => ({
    trusted,
    project,
    user: { ...user, hooks: { BeforeTool: [{ hooks: [mark(m, 'usr'), mark(m, 'usr-off')] }] } },
    system: { ...system, hooks: { BeforeTool: [{ hooks: [mark(m, 'sys')] }] } },
  }));
}

describe('an untrusted workspace changes nothing', () => {
  test('its hooksConfig.disabled does not turn off user or system hooks', async () => {
    const p = switched({ hooksConfig: { disabled: ['usr', 'sys'] } }, false);
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['sys', 'usr', 'usr-off']);
  });

  test('its hooksConfig.enabled: false does not turn off user or system hooks', async () => {
    const p = switched({ hooksConfig: { enabled: false } }, false);
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['sys', 'usr', 'usr-off']);
  });

  test('its hooksConfig.enabled: true does not turn back on what the user turned off', async () => {
    const p = switched({ hooksConfig: { enabled: true } }, false, { hooksConfig: { enabled: false } });
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), []);
  });

  test('its redaction list does not change the environment hooks get', async () => {
    const p = projectWith((m) => ({
      trusted: false,
      project: { security: { environmentVariableRedaction: { blocked: ['PLAIN_SETTING'] } } },
      user: { hooks: { BeforeTool: [{ hooks: [cmd(`printf '%s\\n' "\${PLAIN_SETTING-unset}" >> '${m}'`, { name: 'env' })] }] } },
    }));
    await p.engine({ env: { ...p.env, PLAIN_SETTING: 'visible' } }).fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['visible']);
  });
});

describe('a trusted workspace may only take away', () => {
  test('its disabled names and enabled: false turn hooks off', async () => {
    const p = switched({ hooksConfig: { disabled: ['usr'] } }, true);
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['sys', 'usr-off']);
    const q = switched({ hooksConfig: { enabled: false } }, true);
    await q.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(q.ran(), []);
  });

  test('its enabled: true never overrides a user or system false', async () => {
    const p = switched({ hooksConfig: { enabled: true } }, true, { hooksConfig: { enabled: false } });
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), []);
    const q = switched({ hooksConfig: { enabled: true } }, true, {}, { hooksConfig: { enabled: false } });
    await q.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(q.ran(), []);
  });

  test('it cannot take a name off the user disabled list', async () => {
    const p = switched({ hooksConfig: { enabled: true, disabled: [] } }, true, { hooksConfig: { disabled: ['usr-off'] } });
    await p.engine().fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran().sort(), ['sys', 'usr']);
  });

  test('its redaction blocked names are added', async () => {
    const p = projectWith((m) => ({
      project: { security: { environmentVariableRedaction: { blocked: ['PLAIN_SETTING'] } } },
      user: { hooks: { BeforeTool: [{ hooks: [cmd(`printf '%s\\n' "\${PLAIN_SETTING-unset}" >> '${m}'`, { name: 'env' })] }] } },
    }));
    await p.engine({ env: { ...p.env, PLAIN_SETTING: 'visible' } }).fire('BeforeTool', TOOL);
    assert.deepEqual(p.ran(), ['unset']);
  });
});

describe('applyEnablement', () => {
  test('is decided per layer, from what loadConfig returns, without reading anything', () => {
    const p = projectWith((m) => ({
      trusted: false,
      project: { hooksConfig: { enabled: false, disabled: ['a'] }, security: { environmentVariableRedaction: { blocked: ['X_PRJ'] } } },
      user: { hooksConfig: { disabled: ['b'] }, hooks: { BeforeTool: [{ hooks: [mark(m, 'a'), mark(m, 'b'), mark(m, 'c')] }] } },
    }));
    const loaded = loadConfig({ projectDir: p.dir, env: p.env });
    assert.deepEqual(loaded.switches.project, { enabled: false, disabled: ['a'] });
    assert.deepEqual(loaded.switches.user, { enabled: undefined, disabled: ['b'] });
    // As loaded, the workspace counts for nothing.
    assert.deepEqual(
      loaded.entries.map((e) => [e.hook.name, e.enabled]),
      [
        ['a', true],
        ['b', false],
        ['c', true],
      ],
    );
    assert.ok(!loaded.redaction.blocked.includes('X_PRJ'));
    const untrusted = applyEnablement(loaded, { workspaceTrusted: false });
    assert.deepEqual(
      untrusted.entries.map((e) => e.enabled),
      [true, false, true],
    );
    const trusted = applyEnablement(loaded, { workspaceTrusted: true });
    assert.deepEqual(
      trusted.entries.map((e) => e.enabled),
      [false, false, false],
    );
    assert.equal(trusted.hooksEnabled, false);
    assert.ok(trusted.redaction.blocked.includes('X_PRJ'));
    // Pure: the input is left as it was.
    assert.deepEqual(
      loaded.entries.map((e) => e.enabled),
      [true, false, true],
    );
  });
});

describe('Claude Code disableAllHooks in a project file', () => {
  test("turns off that project's hooks only, never the user's", async () => {
    const { loadClaudeConfig } = await import('../../src/dialects/claude/config.js');
    const p = projectWith(() => ({}));
    const home = fs.mkdtempSync(path.join(path.dirname(p.dir), 'claude-home-'));
    write(path.join(home, '.claude', 'settings.json'), { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    write(path.join(p.dir, '.claude', 'settings.json'), {
      disableAllHooks: true,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo project' }] }] },
    });
    write(path.join(p.dir, '.claude', 'settings.local.json'), { disableAllHooks: false });
    const config = loadClaudeConfig({ projectDir: p.dir, env: { HOME: home } });
    assert.deepEqual(
      config.hooks.map((h) => h.command),
      ['echo user'],
    );
    // And a project's `false` does not undo the user's `true`.
    write(path.join(home, '.claude', 'settings.json'), {
      disableAllHooks: true,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo user' }] }] },
    });
    write(path.join(p.dir, '.claude', 'settings.json'), { disableAllHooks: false });
    assert.deepEqual(loadClaudeConfig({ projectDir: p.dir, env: { HOME: home } }).hooks, []);
  });
});
