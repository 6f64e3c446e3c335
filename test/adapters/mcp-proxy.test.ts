// `hookline mcp-proxy` end to end: the MCP SDK's client talks to the proxy (a real `hookline`
// process), which runs a small MCP server and the folder's hooks as real processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, FIXTURES, cmd, hook, makeProject, tmpFile } from '../helpers.js';
import { hookToolName, serverNameOf } from '../../src/cli/mcp-proxy.js';

const SERVER = path.join(FIXTURES, 'mcp', 'server.mjs');

function texts(r: unknown): string[] {
  return (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : ''));
}

async function connect(dir: string, env: NodeJS.ProcessEnv, answer?: () => boolean): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, answer ? { capabilities: { elicitation: {} } } : {});
  // The user's answer when a hook asks (MCP elicitation).
  if (answer) client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { allow: answer() } }));
  const clean = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp-proxy', '--name', 'fixture', '--', process.execPath, SERVER],
      cwd: dir,
      env: clean,
      stderr: 'pipe',
    }),
  );
  return client;
}

test('names: mcp__<server>__<tool>; a server name from the server or its command, safe characters only', () => {
  assert.equal(hookToolName('fs', 'read_file'), 'mcp__fs__read_file');
  assert.equal(serverNameOf('my server!', 'x'), 'my_server_');
  assert.equal(serverNameOf(undefined, '/usr/bin/server.py'), 'server');
});

test('tools/call fires BeforeTool and AfterTool: deny never reaches the server, a rewrite does, ask goes to the user, AfterTool context is added; tools/list is filtered', async () => {
  const log = tmpFile('mcp-hooks.log');
  const calls = tmpFile('mcp-calls.log');
  const policy = cmd(`${hook('mcp-policy.mjs')} '${log}'`, { timeout: 5000 });
  const settings = {
    hooks: {
      BeforeTool: [{ matcher: 'mcp__fixture__.*', hooks: [policy] }],
      AfterTool: [{ matcher: 'mcp__fixture__.*', hooks: [policy] }],
      BeforeToolSelection: [
        {
          hooks: [
            cmd(
              `printf '%s' '{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":{"allowedFunctionNames":["mcp__fixture__echo"]}}}'`,
            ),
          ],
        },
      ],
    },
  };
  const p = makeProject({ project: settings });
  let allow = false;
  const client = await connect(p.dir, { ...p.env, MCP_CALLS_LOG: calls }, () => allow);
  try {
    const listed = await client.listTools();
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['echo'],
    );

    const denied = await client.callTool({ name: 'echo', arguments: { text: 'forbidden' } });
    assert.equal(denied.isError, true);
    assert.deepEqual(texts(denied), ['Tool execution blocked: forbidden text']);

    const hidden = await client.callTool({ name: 'secret', arguments: {} });
    assert.equal(hidden.isError, true);
    assert.match(texts(hidden)[0], /not available/);

    const rewritten = await client.callTool({ name: 'echo', arguments: { text: 'lower' } });
    assert.deepEqual(texts(rewritten), ['echo: LOWER', '<hook_context>audited by policy</hook_context>']);

    const declined = await client.callTool({ name: 'echo', arguments: { text: 'ask' } });
    assert.deepEqual(texts(declined), ['The user declined to run echo.']);
    allow = true;
    assert.equal(texts(await client.callTool({ name: 'echo', arguments: { text: 'ask' } }))[0], 'echo: ask');

    const prompt = await client.getPrompt({ name: 'greet' });
    assert.deepEqual(prompt.messages[0].content, { type: 'text', text: 'hello from the server' });
  } finally {
    await client.close();
  }
  const served = fs
    .readFileSync(calls, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    served,
    [
      { tool: 'echo', args: { text: 'LOWER' } },
      { tool: 'echo', args: { text: 'ask' } },
    ],
    'the server saw only the allowed calls, rewritten',
  );
  const inputs = fs
    .readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(inputs[0].hook_event_name, 'BeforeTool');
  assert.equal(inputs[0].tool_name, 'mcp__fixture__echo');
  assert.deepEqual(inputs[0].mcp_context, {
    server_name: 'fixture',
    tool_name: 'echo',
    command: process.execPath,
    args: [SERVER],
    cwd: fs.realpathSync(p.dir),
  });
  const after = inputs.find((i) => i.hook_event_name === 'AfterTool');
  assert.deepEqual(after.tool_input, { text: 'LOWER' });
  assert.equal(after.tool_response.llmContent, 'echo: LOWER');
});

test('an untrusted folder runs none of its hooks through the proxy', async () => {
  const p = makeProject({
    project: { hooks: { BeforeTool: [{ hooks: [cmd(`printf '%s' '{"decision":"deny","reason":"workspace hook"}'`)] }] } },
    trusted: false,
  });
  const client = await connect(p.dir, p.env);
  try {
    assert.deepEqual(texts(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), ['echo: hi']);
  } finally {
    await client.close();
  }
});
