import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { validateLayer } from '../../src/config/validate.js';
import { CommandHookConfig, HookDefinition } from '../../src/config/schema.js';
// Generates from dist/ (npm test builds first), exactly as the build does.
import { generateSchemas } from '../../scripts/schema.mjs';

const SCHEMA_DIR = path.join(import.meta.dirname, '../../schema');
const published = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, 'settings.json'), 'utf8'));
const schemaAccepts = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile(published);

/** The runtime's verdict: a file is valid when loading it reports no error (warnings allowed). */
function runtimeAccepts(value: unknown): boolean {
  return !validateLayer(structuredClone(value), '/s.json', 'project').problems.some((p) => p.severity === 'error');
}

const hook = (extra: Record<string, unknown> = {}) => ({ type: 'command', command: 'true', ...extra });
const on = (def: unknown) => ({ hooks: { BeforeTool: [def] } });
const withHook = (h: unknown) => on({ hooks: [h] });

const good: Array<[string, unknown]> = [
  ['empty', {}],
  ['every hook field', withHook(hook({ name: 'n', description: 'd', persistent: true, timeout: 500, env: { A: 'x' } }))],
  [
    'every event',
    {
      hooks: Object.fromEntries(
        [
          'BeforeTool',
          'AfterTool',
          'BeforeAgent',
          'Notification',
          'AfterAgent',
          'SessionStart',
          'SessionEnd',
          'PreCompress',
          'BeforeModel',
          'AfterModel',
          'BeforeToolSelection',
        ].map((e) => [e, [{ hooks: [hook()] }]]),
      ),
    },
  ],
  ['matcher and sequential', on({ matcher: 'run_shell_command|read_file', sequential: true, hooks: [hook()] })],
  ['an empty definition list and hook list', { hooks: { BeforeTool: [], AfterTool: [{ hooks: [] }] } }],
  ['the older meta keys inside hooks', { hooks: { enabled: true, disabled: ['a'], notifications: false } }],
  [
    'hooksConfig and security',
    {
      hooksConfig: { enabled: false, disabled: ['x'], notifications: true },
      security: { folderTrust: { enabled: true }, environmentVariableRedaction: { enabled: true, allowed: ['A'], blocked: ['B'] } },
    },
  ],
  ['other settings of Gemini CLI', { model: { name: 'x' }, ui: { theme: 'dark' }, hooksConfig: { other: 1 }, security: { auth: {} } }],
  ['unknown field on a hook (a warning)', withHook(hook({ timout: 5 }))],
  ['unknown field on a definition (a warning)', on({ matchers: 'x', hooks: [hook()] })],
  ['fractional timeout (a warning)', withHook(hook({ timeout: 2500.5 }))],
  ['env numbers and booleans (a warning)', withHook(hook({ env: { A: 1, B: true } }))],
  ['a matcher on an event that ignores it (a warning)', { hooks: { BeforeAgent: [{ matcher: 'x', hooks: [hook()] }] } }],
];

const bad: Array<[string, unknown]> = [
  ['not an object', []],
  ['a string', 'x'],
  ['null', null],
  ['hooks not an object', { hooks: [1] }],
  ['hooks null', { hooks: null }],
  ['unknown event', { hooks: { BeforeTools: [{ hooks: [hook()] }] } }],
  ["another agent's event", { hooks: { PreToolUse: [{ hooks: [hook()] }] } }],
  ['definitions not an array', { hooks: { AfterTool: 'x' } }],
  ['definition not an object', on('echo hi')],
  ['definition without hooks', on({ matcher: 'x' })],
  ['definition hooks not an array', on({ hooks: hook() })],
  ['hook not an object', withHook('echo hi')],
  ['missing type', withHook({ command: 'true' })],
  ['unknown type', withHook(hook({ type: 'prompt' }))],
  ['runtime type', withHook({ type: 'runtime', name: 'rt' })],
  ['missing command', withHook({ type: 'command' })],
  ['empty command', withHook(hook({ command: '' }))],
  ['command not a string', withHook(hook({ command: ['ls'] }))],
  ['negative timeout', withHook(hook({ timeout: -5 }))],
  ['zero timeout', withHook(hook({ timeout: 0 }))],
  ['timeout text that is not a number', withHook(hook({ timeout: 'soon' }))],
  ['env value an object', withHook(hook({ env: { A: { v: 1 } } }))],
  ['env an array', withHook(hook({ env: ['A=1'] }))],
  ['env name with "="', withHook(hook({ env: { 'B=C': '1' } }))],
  ['env name empty', withHook(hook({ env: { '': '1' } }))],
  ['command with a NUL character', withHook(hook({ command: 'true\u0000' }))],
  ['name not a string', withHook(hook({ name: 3 }))],
  ['description not a string', withHook(hook({ description: false }))],
  ['persistent not a boolean', withHook(hook({ persistent: 'yes' }))],
  ['sequential not a boolean', on({ sequential: 'yes', hooks: [hook()] })],
  ['matcher not a string', on({ matcher: ['x'], hooks: [hook()] })],
  ['hooks.enabled not a boolean', { hooks: { enabled: 'yes' } }],
  ['hooks.disabled not strings', { hooks: { disabled: [1] } }],
  ['hooksConfig.enabled not a boolean', { hooksConfig: { enabled: 'no' } }],
  ['hooksConfig.disabled not an array', { hooksConfig: { disabled: 'x' } }],
  ['hooksConfig not an object', { hooksConfig: true }],
  ['folderTrust.enabled not a boolean', { security: { folderTrust: { enabled: 1 } } }],
  ['redaction lists not arrays', { security: { environmentVariableRedaction: { allowed: 'A' } } }],
];

describe('the published settings schema and the runtime validator agree', () => {
  for (const [name, value] of good) {
    test(`valid: ${name}`, () => {
      assert.equal(runtimeAccepts(value), true, 'runtime');
      assert.equal(schemaAccepts(value), true, `schema: ${JSON.stringify(schemaAccepts.errors)}`);
    });
  }
  for (const [name, value] of bad) {
    test(`invalid: ${name}`, () => {
      assert.equal(runtimeAccepts(value), false, 'runtime');
      assert.equal(schemaAccepts(value), false, 'schema');
    });
  }

  test('what Gemini CLI reads past its own schema: read the same way at run time (a warning), flagged by the published schema', () => {
    for (const value of [
      withHook(hook({ timeout: '5000' })),
      withHook(hook({ timeout: null })),
      withHook(hook({ type: 'plugin' })),
      { hooksConfig: { enabled: 'false' } },
      { hooks: { AfterTool: { hooks: [hook()] } } },
    ]) {
      assert.equal(runtimeAccepts(value), true, JSON.stringify(value));
      assert.equal(schemaAccepts(value), false, JSON.stringify(value));
    }
  });

  test('a tool matcher that is not a regular expression: a warning at run time (compared as an exact name), valid to the schema', () => {
    const value = on({ matcher: 'read_file(', hooks: [hook()] });
    assert.equal(runtimeAccepts(value), true);
    assert.equal(schemaAccepts(value), true);
  });
});

describe('the committed schemas are what the zod schemas generate', () => {
  test('each file in schema/ is byte for byte the generated one, and none is missing or extra', () => {
    const generated = generateSchemas() as Record<string, string>;
    assert.deepEqual(fs.readdirSync(SCHEMA_DIR).sort(), Object.keys(generated).sort());
    for (const [name, text] of Object.entries(generated)) {
      assert.equal(
        fs.readFileSync(path.join(SCHEMA_DIR, name), 'utf8'),
        text,
        `schema/${name} is stale: run npm run build and commit schema/`,
      );
    }
  });
});

describe("the messages are the schema's", () => {
  test('the zod schema carries the wording the validator reports', () => {
    const messages = (r: { error?: { issues: Array<{ message: string }> } }) => r.error?.issues.map((i) => i.message);
    assert.deepEqual(messages(CommandHookConfig.safeParse({ command: 'x' })), ['missing "type" (expected "command")']);
    assert.deepEqual(messages(CommandHookConfig.safeParse({ type: 'command' })), ['missing "command" for a command hook']);
    assert.deepEqual(messages(HookDefinition.safeParse({ sequential: 1, hooks: 'x' })), [
      '"sequential" must be true or false',
      '"hooks" must be an array',
    ]);
    const [problem] = validateLayer({ hooks: { AfterTool: [{ hooks: [{ type: 'command' }] }] } }, '/s.json', 'project').problems;
    assert.deepEqual(problem, {
      file: '/s.json',
      path: 'hooks.AfterTool[0].hooks[0].command',
      message: 'missing "command" for a command hook on AfterTool',
      severity: 'error',
    });
  });
});
