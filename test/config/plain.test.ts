// The plain checks that spare a fire the schema library must agree with the schemas: whatever
// they accept, the schema accepts and parses to the same value; what the schema refuses, they
// never accept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CommandHookConfig, HookDefinition, HooksMeta, Settings } from '../../src/config/schema.js';
import { DEFINITION_KEYS, HOOKS_META_KEYS, plainCommandHook, plainMeta, plainSettings } from '../../src/config/plain.js';
import { EVENT_FIELDS } from '../../src/events/input.js';
import { EVENT_NAMES } from '../../src/events/names.js';
import { plainFields } from '../../src/events/plain.js';

const HOOKS: unknown[] = [
  { type: 'command', command: 'echo hi' },
  { type: 'command', command: 'x', name: 'n', description: 'd', persistent: true, timeout: 5000, env: { A: 'b' } },
  { type: 'command', command: 'x', timeout: 0.5 },
  { type: 'command', command: 'x', env: { A: 1, B: true } },
  { type: 'command', command: 'x', env: {} },
  { type: 'command', command: '' },
  { type: 'command' },
  { type: 'runtime', command: 'x' },
  { command: 'x' },
  { type: 'command', command: 'x', timeout: -1 },
  { type: 'command', command: 'x', timeout: '5' },
  { type: 'command', command: 'x', timeout: Number.POSITIVE_INFINITY },
  { type: 'command', command: 'x', name: 3 },
  { type: 'command', command: 'x', persistent: 'yes' },
  { type: 'command', command: 'x', env: { A: null } },
  { type: 'command', command: 'x', env: ['A'] },
  { type: 'command', command: 'x', unknown: 1 },
  { type: 'command', command: 'x', name: undefined },
  { type: 'command', command: 'x', env: Object.assign(Object.create(null), { A: 'b' }) },
  null,
  'echo',
  [],
];

test('plainCommandHook: accepts only what CommandHookConfig accepts, and parses it the same', () => {
  let accepted = 0;
  for (const raw of HOOKS) {
    const plain = plainCommandHook(raw);
    const zod = CommandHookConfig.safeParse(raw);
    if (plain === undefined) continue;
    accepted++;
    assert.ok(zod.success, JSON.stringify(raw));
    assert.deepEqual(plain, zod.data, JSON.stringify(raw));
  }
  assert.ok(accepted >= 4);
  // Numbers and booleans in env, unknown fields: valid, but left to the full check for their warnings.
  assert.equal(plainCommandHook({ type: 'command', command: 'x', env: { A: 1 } }), undefined);
  assert.equal(plainCommandHook({ type: 'command', command: 'x', extra: 1 }), undefined);
});

test('plainSettings: accepts only what Settings (without hooks) accepts, unchanged', () => {
  const samples: Array<Record<string, unknown>> = [
    {},
    { hooks: undefined, theme: 'dark', mcpServers: { a: { command: 'x' } } },
    { hooksConfig: { enabled: false, disabled: ['a', 'b'], notifications: true, other: 1 } },
    { security: { folderTrust: { enabled: false }, environmentVariableRedaction: { enabled: true, allowed: ['A'], blocked: ['B'] } } },
    { hooksConfig: { enabled: 'no' } },
    { hooksConfig: { disabled: [1] } },
    { hooksConfig: [] },
    { security: { folderTrust: true } },
    { security: { environmentVariableRedaction: { allowed: 'A' } } },
    { hooksConfig: null },
  ];
  let accepted = 0;
  for (const s of samples) {
    const plain = plainSettings(structuredClone(s));
    const zod = Settings.omit({ hooks: true }).safeParse(structuredClone(s));
    if (plain === undefined) {
      assert.ok(!zod.success, `left to zod though valid: ${JSON.stringify(s)}`);
      continue;
    }
    accepted++;
    assert.ok(zod.success, JSON.stringify(s));
    assert.deepEqual(plain, zod.data, JSON.stringify(s));
  }
  assert.equal(accepted, 4);
});

test('plainMeta and the key lists match HooksMeta and HookDefinition', () => {
  assert.deepEqual([...HOOKS_META_KEYS].sort(), Object.keys(HooksMeta.shape).sort());
  assert.deepEqual([...DEFINITION_KEYS].sort(), Object.keys(HookDefinition.shape).sort());
  for (const [key, value] of [
    ['enabled', true],
    ['enabled', 'yes'],
    ['disabled', ['a']],
    ['disabled', [1]],
    ['disabled', 'a'],
    ['notifications', false],
    ['notifications', 0],
  ] as const)
    assert.equal(plainMeta(key, value), HooksMeta.safeParse({ [key]: value }).success, `${key}: ${JSON.stringify(value)}`);
});

test('plainFields: true only for fields EVENT_FIELDS (partial) accepts', () => {
  const values: unknown[] = ['x', '', 1, true, null, {}, [], ['a'], { a: 1 }, 'startup', 'resume', 'exit', 'manual', 'auto', 'bogus'];
  const complex: Record<string, unknown[]> = {
    mcp_context: [
      { server_name: 's', tool_name: 't' },
      { server_name: 's', tool_name: 't', args: ['a'], extra: 1 },
      { server_name: 's' },
      { server_name: 's', tool_name: 't', args: [1] },
    ],
    tool_response: [{ llmContent: 'a', returnDisplay: 'b' }, { llmContent: 'a' }, { llmContent: 'a', returnDisplay: 'b', error: 'e' }],
  };
  let plainCount = 0;
  for (const event of EVENT_NAMES) {
    const schema = EVENT_FIELDS[event].partial();
    const names = [...Object.keys(EVENT_FIELDS[event].shape), 'unknown_field'];
    for (const name of names) {
      for (const v of [...values, ...(complex[name] ?? [])]) {
        const fields = { [name]: v };
        if (!plainFields(event, fields)) continue;
        plainCount++;
        assert.ok(schema.safeParse(fields).success, `${event}.${name} = ${JSON.stringify(v)}`);
      }
    }
  }
  assert.ok(plainCount > 50);
  assert.equal(plainFields('BeforeTool', { tool_name: 'run_shell_command', tool_input: { command: 'ls' } }), true);
  assert.equal(plainFields('BeforeModel', { llm_request: { model: 'm', messages: [] } }), false, 'model requests are left to the schema');
});
