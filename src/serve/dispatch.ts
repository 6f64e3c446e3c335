/** One message (a request or a batch) to its response, never throwing: every failure is a JSON-RPC error. */
import { method, type MethodContext } from './methods.js';
import {
  checkRequest,
  errorResponse,
  idOf,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  parseMessage,
  responseText,
  RpcError,
  type Response,
} from './protocol.js';

async function one(value: unknown, ctx: MethodContext): Promise<Response | undefined> {
  let id: Response['id'] = null;
  let notification = false;
  try {
    const req = checkRequest(value);
    notification = !('id' in req);
    id = req.id ?? null;
    const result = await method(req.method)(req.params, ctx);
    return notification ? undefined : { jsonrpc: '2.0', id, result };
  } catch (err) {
    if (notification || (err as { notification?: boolean }).notification) return undefined;
    if (err instanceof RpcError) return errorResponse(id ?? idOf(err), err.code, err.message, err.data);
    // Never a stack trace: one line (the server keeps serving).
    const line = ((err as Error)?.message ?? String(err)).split('\n')[0];
    return errorResponse(id, INTERNAL_ERROR, `internal error: ${line}`);
  }
}

/** The response text for one line or body, or undefined when nothing is to be answered (notifications). */
export async function handle(text: string, ctx: MethodContext): Promise<string | undefined> {
  const parsed = parseMessage(text);
  if (!parsed.ok) return JSON.stringify(parsed.response);
  if (Array.isArray(parsed.value)) {
    if (!parsed.value.length) return JSON.stringify(errorResponse(null, INVALID_REQUEST, 'invalid request: an empty batch'));
    const answers = (await Promise.all(parsed.value.map((v) => one(v, ctx)))).filter((r) => r !== undefined);
    return answers.length ? responseText(answers) : undefined;
  }
  const answer = await one(parsed.value, ctx);
  return answer && responseText(answer);
}
