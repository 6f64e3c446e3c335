#!/usr/bin/env node
// A tiny MCP server (notes in memory) to put behind `hookline mcp-proxy`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = new Map([['todo', 'buy milk']]);
const server = new McpServer({ name: 'notes', version: '1.0.0' });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
server.registerTool('read_note', { description: 'Reads a note', inputSchema: { name: z.string() } }, async ({ name }) =>
  text(notes.get(name) ?? `no note "${name}"`),
);
server.registerTool('delete_note', { description: 'Deletes a note', inputSchema: { name: z.string() } }, async ({ name }) =>
  text(notes.delete(name) ? `deleted "${name}"` : `no note "${name}"`),
);
await server.connect(new StdioServerTransport());
