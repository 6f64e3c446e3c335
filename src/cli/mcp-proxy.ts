/**
 * `hookline mcp-proxy [--name SERVER] -- <server command…>`: a stdio MCP server in front of any
 * stdio MCP server. Each `tools/call` fires BeforeTool and AfterTool with the tool named
 * `mcp__<server>__<tool>` and `mcp_context` as Gemini CLI gives it; `tools/list` fires
 * BeforeToolSelection, which may hide tools. Everything else passes through unchanged. The hooks
 * are the folder's configured ones, trust applying.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  CompleteRequestSchema,
  CompleteResultSchema,
  GetPromptRequestSchema,
  GetPromptResultSchema,
  ListPromptsRequestSchema,
  ListPromptsResultSchema,
  ListResourcesRequestSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesRequestSchema,
  ListResourceTemplatesResultSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ReadResourceResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  EmptyResultSchema,
  SetLevelRequestSchema,
  ToolListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  PromptListChangedNotificationSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { HookEngine } from '../engine/index.js';
import { applyAfterTool, applyBeforeTool, applyToolSelection } from '../apply/index.js';
import { UsageError, warn } from './io.js';
import { envFrom } from '../run/process.js';

/** Server and tool names as hooks see them: Gemini CLI's `mcp__<server>__<tool>`. */
export function hookToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** A server name from the upstream's own name: letters, digits, `-` and `_` only. */
export function serverNameOf(name: string | undefined, command: string): string {
  const raw = name || path.basename(command).replace(/\.[^.]+$/, '');
  return raw.replace(/[^A-Za-z0-9_-]+/g, '_') || 'server';
}

export type McpContext = {
  server_name: string;
  tool_name: string;
  command: string;
  args: string[];
  cwd: string;
};

/** The text a result gives the model: its text parts, one after another. */
function resultText(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

const failed = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

// Long tool runs are the server's business; the proxy adds no time limit of its own.
const NO_TIMEOUT = { timeout: 2 ** 31 - 1, resetTimeoutOnProgress: true };

export interface ProxyParts {
  upstream: Client;
  engine: HookEngine;
  /** The server name hooks see. */
  server: string;
  context: Omit<McpContext, 'tool_name'>;
  notice: (line: string) => void;
}

/** The proxy server in front of a connected upstream client. */
export function proxyServer({ upstream, engine, server, context, notice }: ProxyParts): Server {
  const caps = upstream.getServerCapabilities() ?? {};
  const info = upstream.getServerVersion();
  const capabilities: ServerCapabilities = {
    tools: { listChanged: true },
    ...(caps.prompts ? { prompts: caps.prompts } : {}),
    ...(caps.resources ? { resources: caps.resources } : {}),
    ...(caps.completions ? { completions: caps.completions } : {}),
    ...(caps.logging ? { logging: caps.logging } : {}),
  };
  const proxy = new Server(
    { name: info?.name ?? server, version: info?.version ?? '0.0.0' },
    { capabilities, ...(upstream.getInstructions() ? { instructions: upstream.getInstructions() } : {}) },
  );
  const report = (runs: ReadonlyArray<{ error?: string }>) => {
    for (const r of runs) if (r.error) notice(r.error);
  };
  /** Tool names the last listing offered (hook names); undefined before the first listing. */
  let offered: Set<string> | undefined;

  const select = async (tools: Tool[], signal?: AbortSignal): Promise<Tool[]> => {
    const names = tools.map((t) => hookToolName(server, t.name));
    const r = await engine.fire('BeforeToolSelection', { llm_request: { model: '', messages: [] }, mcp_context: context }, { signal });
    report(r.runs);
    const allowed = new Set(applyToolSelection(r.output, names).allowed);
    offered = allowed;
    return tools.filter((t) => allowed.has(hookToolName(server, t.name)));
  };

  proxy.setRequestHandler(ListToolsRequestSchema, async (req, extra) => {
    const r = await upstream.listTools(req.params, { signal: extra.signal });
    return { ...r, tools: await select(r.tools, extra.signal) };
  });

  proxy.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = req.params.name;
    const name = hookToolName(server, tool);
    const signal = extra.signal;
    if (!offered) await select((await upstream.listTools(undefined, { signal })).tools, signal);
    if (!offered?.has(name)) return failed(`Tool "${tool}" is not available: a BeforeToolSelection hook restricted the tools.`);
    const mcp_context: McpContext = { ...context, tool_name: tool };
    const given = req.params.arguments ?? {};
    const before = await engine.fire('BeforeTool', { tool_name: name, tool_input: { ...given }, mcp_context }, { signal });
    report(before.runs);
    const be = applyBeforeTool(before.output, given);
    if (be.systemMessage) notice(be.systemMessage);
    if (be.action === 'stop' || be.action === 'deny') return failed(be.message);
    if (be.action === 'ask') {
      const refused = await confirm(proxy, tool, be.args, be.systemMessage);
      if (refused) return failed(refused);
    }
    const result = (await upstream.callTool({ ...req.params, arguments: be.args }, CallToolResultSchema, {
      ...NO_TIMEOUT,
      signal,
      ...(extra._meta?.progressToken !== undefined ? { onprogress: progress(extra) } : {}),
    })) as CallToolResult;
    const llmContent = resultText(result);
    const tool_response = {
      llmContent,
      returnDisplay: llmContent,
      ...(result.isError ? { error: { message: llmContent } } : {}),
    };
    const after = await engine.fire('AfterTool', { tool_name: name, tool_input: be.args, tool_response, mcp_context }, { signal });
    report(after.runs);
    const ae = applyAfterTool(after.output, llmContent);
    if (ae.systemMessage) notice(ae.systemMessage);
    if (ae.action === 'stop') return failed(ae.message);
    if (ae.action === 'replace') return { content: [{ type: 'text', text: ae.llmContent }], isError: result.isError };
    if (ae.llmContent === llmContent) return result;
    // AfterTool context goes after the server's own content.
    const added = ae.llmContent.startsWith(llmContent) ? ae.llmContent.slice(llmContent.length).replace(/^\n+/, '') : ae.llmContent;
    return { ...result, content: [...result.content, { type: 'text', text: added }] };
  });

  // Everything else the upstream offers, as it is.
  const forward = <R>(schema: Parameters<Server['setRequestHandler']>[0], result: R) =>
    proxy.setRequestHandler(schema, (req, extra) =>
      upstream.request(req as never, result as never, { ...NO_TIMEOUT, signal: extra.signal }),
    );
  if (caps.prompts) {
    forward(ListPromptsRequestSchema, ListPromptsResultSchema);
    forward(GetPromptRequestSchema, GetPromptResultSchema);
  }
  if (caps.resources) {
    forward(ListResourcesRequestSchema, ListResourcesResultSchema);
    forward(ListResourceTemplatesRequestSchema, ListResourceTemplatesResultSchema);
    forward(ReadResourceRequestSchema, ReadResourceResultSchema);
    if (caps.resources.subscribe) {
      forward(SubscribeRequestSchema, EmptyResultSchema);
      forward(UnsubscribeRequestSchema, EmptyResultSchema);
    }
  }
  if (caps.completions) forward(CompleteRequestSchema, CompleteResultSchema);
  if (caps.logging) forward(SetLevelRequestSchema, EmptyResultSchema);
  for (const schema of [
    ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    PromptListChangedNotificationSchema,
    LoggingMessageNotificationSchema,
  ])
    upstream.setNotificationHandler(schema, (n) => proxy.notification(n));
  return proxy;
}

function progress(extra: { _meta?: { progressToken?: string | number }; sendNotification: (n: never) => Promise<void> }) {
  const token = extra._meta?.progressToken;
  return (p: { progress: number; total?: number; message?: string }) => {
    void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } } as never).catch(() => {});
  };
}

/** A hook asked: the client's user says yes through MCP elicitation, or the call is refused. */
async function confirm(proxy: Server, tool: string, args: Record<string, unknown>, message?: string): Promise<string | undefined> {
  if (!proxy.getClientCapabilities()?.elicitation)
    return `Tool "${tool}" needs the user's approval (a hook asked for it), and this MCP client cannot ask; it was not run.`;
  const r = await proxy
    .elicitInput({
      message: `${message ? `${message}\n` : ''}Allow ${tool} ${JSON.stringify(args)}?`,
      requestedSchema: { type: 'object', properties: { allow: { type: 'boolean', title: 'Allow' } }, required: ['allow'] },
    })
    .catch(() => undefined);
  return r?.action === 'accept' && r.content?.allow === true ? undefined : `The user declined to run ${tool}.`;
}

export interface McpProxyOptions {
  name?: string;
  cwd?: string;
}

/** Runs the proxy on stdio until the client or the server goes away. */
export async function mcpProxy(command: string[], opts: McpProxyOptions): Promise<number> {
  const [bin, ...args] = command;
  if (!bin) throw new UsageError('mcp-proxy: no server command — give it after --, e.g. hookline mcp-proxy -- npx my-mcp-server');
  const cwd = path.resolve(opts.cwd ?? '.');
  const notice = (line: string) => warn(`mcp-proxy: ${line}`);
  const engine = new HookEngine({ cwd, onNotice: notice });
  // Before any client connects: the proxy's stderr is what an MCP client logs.
  engine.noticeHeld();
  for (const w of engine.pendingWarnings) notice(w);
  engine.on('warning', notice);
  const env = envFrom(process.env);
  // The server gets the environment the MCP client gave the proxy, as if the client had started it.
  const transport = new StdioClientTransport({ command: bin, args, cwd, env, stderr: 'inherit' });
  const upstream = new Client({ name: 'hookline-mcp-proxy', version: '1' }, { capabilities: {} });
  try {
    await upstream.connect(transport);
  } catch (err) {
    throw new UsageError(`mcp-proxy: cannot start the MCP server ${JSON.stringify(command.join(' '))}: ${(err as Error).message}`);
  }
  const server = serverNameOf(opts.name ?? upstream.getServerVersion()?.name, bin);
  const proxy = proxyServer({ upstream, engine, server, context: { server_name: server, command: bin, args, cwd }, notice });
  const closed = new Promise<'client' | 'server'>((resolve) => {
    proxy.onclose = () => resolve('client');
    upstream.onclose = () => resolve('server');
    // The client closing our stdin is the end of the session.
    process.stdin.once('end', () => resolve('client'));
  });
  await proxy.connect(new StdioServerTransport());
  const first = await closed;
  await Promise.allSettled([proxy.close(), upstream.close()]);
  engine.close();
  if (first === 'server') {
    notice(`the MCP server ${JSON.stringify(command.join(' '))} exited`);
    return 1;
  }
  return 0;
}
