// A scripted model server on loopback for the real-agent suite. It speaks the wire protocols the
// agents use (Anthropic messages, Gemini generateContent, OpenAI responses and chat completions),
// plays one case's turns to the agent's main conversation, answers side requests (titles,
// summaries, prompt hooks) with a short text, and records every request so a test sees exactly
// what the model was shown after each hook.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One model answer, or how to answer from the request (to call a tool with an id an earlier result gave). */
export type TurnOf = Turn | ((body: any) => Turn);

/** One model answer: text, tool calls, or both; or an API error with this HTTP status. */
export interface Turn {
  text?: string;
  /**
   * `namespace`: an OpenAI responses tool offered inside a namespace (Codex's `multi_agent_v1`);
   * `freeform`: the text a freeform (custom) tool is called with, in place of `input` (Codex's `apply_patch`).
   */
  tools?: Array<{ name: string; input: Record<string, unknown>; namespace?: string; freeform?: string }>;
  error?: { status: number; type: string; message: string };
}

/** An http hook's answer: the status and the JSON body. */
export interface HookAnswer {
  status: number;
  body: unknown;
}

export interface Recorded {
  path: string;
  /** A main-conversation request (it offers tools), not a side request. */
  main: boolean;
  body: any;
}

export interface ModelServer {
  url: string;
  port: number;
  requests: Recorded[];
  close(): Promise<void>;
}

export interface ServerOptions {
  turns: TurnOf[];
  /** The answer to side requests (no tools offered): a prompt hook's judgement, a title. */
  side?: string | ((body: any) => string);
  /** What a main request gets once the turns run out. */
  last?: string;
  /** `POST /hook/LABEL`: an http hook; it is answered with what this returns for the label and body. */
  hook?: (label: string, body: unknown) => HookAnswer;
  /** Which requests are the main conversation (default: those that offer tools). */
  isMain?: (path: string, body: any) => boolean;
  /**
   * Another conversation of the session (a subagent's): the requests `when` picks take their turns
   * from `turns` (then `last`), and are recorded as side requests, not the main conversation's.
   */
  branch?: { when: (body: any) => boolean; turns: Turn[] };
}

let ids = 0;
const id = (prefix: string) => `${prefix}${(++ids).toString(36).padStart(12, '0')}`;

function sse(res: http.ServerResponse, event: string | undefined, data: unknown): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}

/** Anthropic `POST /v1/messages`, streamed or not. */
function anthropic(res: http.ServerResponse, body: any, turn: Turn): void {
  const content: any[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const t of turn.tools ?? []) content.push({ type: 'tool_use', id: id('toolu_'), name: t.name, input: t.input });
  const stop = turn.tools?.length ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 10, output_tokens: 5 };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: id('msg_'), type: 'message', role: 'assistant', model: body.model, content, stop_reason: stop, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const message = { id: id('msg_'), type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, usage };
  sse(res, 'message_start', { type: 'message_start', message });
  content.forEach((c, index) => {
    if (c.type === 'text') {
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: c.text } });
    } else {
      const block = { type: 'tool_use', id: c.id, name: c.name, input: {} };
      sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: block });
      const delta = { type: 'input_json_delta', partial_json: JSON.stringify(c.input) };
      sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

/** Gemini `models/M:streamGenerateContent?alt=sse` and `:generateContent`. */
function gemini(res: http.ServerResponse, stream: boolean, turn: Turn): void {
  const parts: any[] = [];
  if (turn.text) parts.push({ text: turn.text });
  for (const t of turn.tools ?? []) parts.push({ functionCall: { name: t.name, args: t.input } });
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-flash',
  };
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  sse(res, undefined, chunk);
  res.end();
}

/** OpenAI `POST /v1/responses` (streamed). */
function responses(res: http.ServerResponse, body: any, turn: Turn): void {
  const output: any[] = [];
  if (turn.text)
    output.push({
      type: 'message',
      id: id('msg_'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  for (const t of turn.tools ?? [])
    output.push(
      t.freeform !== undefined
        ? { type: 'custom_tool_call', id: id('ctc_'), call_id: id('call_'), name: t.name, input: t.freeform, status: 'completed' }
        : {
            type: 'function_call',
            id: id('fc_'),
            call_id: id('call_'),
            name: t.name,
            ...(t.namespace ? { namespace: t.namespace } : {}),
            arguments: JSON.stringify(t.input),
            status: 'completed',
          },
    );
  const response = { id: id('resp_'), object: 'response', status: 'in_progress', model: body.model, output: [] as any[] };
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    total_tokens: 15,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...response, status: 'completed', output, usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const send = (type: string, data: Record<string, unknown>) => sse(res, type, { type, sequence_number: seq++, ...data });
  send('response.created', { response });
  output.forEach((item, output_index) => {
    send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
    send('response.output_item.done', { output_index, item });
  });
  send('response.completed', { response: { ...response, status: 'completed', output, usage } });
  res.end();
}

/** OpenAI `POST /v1/chat/completions`, streamed or not. */
function chat(res: http.ServerResponse, body: any, turn: Turn): void {
  const calls = (turn.tools ?? []).map((t, index) => ({
    index,
    id: id('call_'),
    type: 'function',
    function: { name: t.name, arguments: JSON.stringify(t.input) },
  }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  const base = { id: id('chatcmpl-'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model };
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!body.stream) {
    const message = {
      role: 'assistant',
      content: turn.text ?? null,
      ...(calls.length ? { tool_calls: calls.map(({ index, ...c }) => c) } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: unknown, finish_reason: string | null) =>
    sse(res, undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] });
  chunk({ role: 'assistant', content: '' }, null);
  if (turn.text) chunk({ content: turn.text }, null);
  if (calls.length) chunk({ tool_calls: calls }, null);
  chunk({}, finish);
  sse(res, undefined, { ...base, object: 'chat.completion.chunk', choices: [], usage });
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Whether a request offers the model tools: the agent's main conversation. */
function offersTools(body: any): boolean {
  if (Array.isArray(body?.tools) && body.tools.length > 0) {
    // Gemini sends its tools as declarations inside one entry.
    return body.tools.some((t: any) => !t.functionDeclarations || t.functionDeclarations.length > 0);
  }
  return false;
}

export async function startModelServer(opts: ServerOptions): Promise<ModelServer> {
  const requests: Recorded[] = [];
  let next = 0;
  let branchNext = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      let body: any = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = { unparsed: Buffer.concat(chunks).toString('utf8') };
      }
      if (url.includes('count_tokens') || url.includes(':countTokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10, totalTokens: 10 }));
        return;
      }
      if (req.method === 'GET') {
        // Model lists and health checks.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
        return;
      }
      const hookMatch = /^\/hook\/([\w.-]+)$/.exec(url);
      if (hookMatch && opts.hook) {
        const a = opts.hook(hookMatch[1], body);
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
        return;
      }
      const branched = opts.branch !== undefined && offersTools(body) && opts.branch.when(body);
      const main = !branched && (opts.isMain ? opts.isMain(url, body) : offersTools(body));
      requests.push({ path: url, main, body });
      const side = typeof opts.side === 'function' ? opts.side(body) : (opts.side ?? 'ok');
      const given = main ? opts.turns[next++] : undefined;
      const turn: Turn = branched
        ? (opts.branch!.turns[branchNext++] ?? { text: opts.last ?? 'done' })
        : main
          ? ((typeof given === 'function' ? given(body) : given) ?? { text: opts.last ?? 'done' })
          : { text: side };
      if (turn.error) {
        res.writeHead(turn.error.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: turn.error.type, message: turn.error.message } }));
        return;
      }
      if (/\/messages(\?|$)/.test(url)) anthropic(res, body, turn);
      else if (url.includes(':streamGenerateContent')) gemini(res, true, turn);
      else if (url.includes(':generateContent')) gemini(res, false, turn);
      else if (url.endsWith('/responses')) responses(res, body, turn);
      else if (url.endsWith('/chat/completions')) chat(res, body, turn);
      else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no such endpoint: ${url}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
