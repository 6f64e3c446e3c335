// An MCP client (as Claude Desktop or an IDE would be) talking to the notes server through
// `hookline mcp-proxy`: the folder's hooks see every tool call.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = import.meta.dirname;
const hookline = path.join(here, '../../dist/cli/main.js');
const client = new Client({ name: 'example', version: '1' });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [hookline, 'mcp-proxy', '--name', 'notes', '--', process.execPath, path.join(here, 'server.mjs')],
    cwd: here,
    env: process.env,
    stderr: 'inherit',
  }),
);
console.log('tools:', (await client.listTools()).tools.map((t) => t.name).join(', '));
for (const [name, args] of [
  ['read_note', { name: 'todo' }],
  ['delete_note', { name: 'todo' }],
]) {
  const r = await client.callTool({ name, arguments: args });
  console.log(`${name}:`, r.isError ? '(error)' : '', r.content.map((c) => c.text).join(' '));
}
await client.close();
