import fs from 'node:fs';
import { z } from 'zod';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  LanguageModelV3Content,
} from '@ai-sdk/provider';

/** One line of a script: what the model answers to one call. */
export const ScriptLine = z
  .object({
    text: z.string().optional(),
    /** Streamed pieces of `text`; by default the text streams line by line. */
    chunks: z.array(z.string()).optional(),
    toolCalls: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).optional(),
  })
  .strict()
  .refine(
    (l) => l.text !== undefined || l.chunks !== undefined || l.toolCalls !== undefined,
    'a line needs "text", "chunks" or "toolCalls"',
  );
export type ScriptLine = z.infer<typeof ScriptLine>;

export class ScriptError extends Error {}

export function readScript(file: string): ScriptLine[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new ScriptError(`${file}: model script not found — check the path given to --model scripted:FILE`);
    throw new ScriptError(`${file}: cannot read the model script (${e.message}) — check the path given to --model scripted:FILE`);
  }
  const lines: ScriptLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim() || raw.trim().startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      throw new ScriptError(`${file}:${i + 1}: not valid JSON: ${(err as Error).message}`);
    }
    const r = ScriptLine.safeParse(value);
    if (!r.success) throw new ScriptError(`${file}:${i + 1}: ${r.error.issues.map((x) => x.message).join('; ')}`);
    lines.push(r.data);
  });
  return lines;
}

/** Splits text into streamed chunks: one per line, newlines kept. */
export function chunksOf(line: ScriptLine): string[] {
  if (line.chunks) return line.chunks;
  if (!line.text) return [];
  return line.text.match(/[^\n]*\n|[^\n]+$/g) ?? [line.text];
}

function usage(input: number, output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

const estimate = (s: string) => Math.ceil(s.length / 4);

/**
 * An AI SDK model that replays a JSONL script, one line per model call, for offline runs and
 * tests. It fails clearly when the script runs out.
 */
export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly supportedUrls = {};
  /** Every call's options, for inspection (what the model was asked). */
  readonly calls: LanguageModelV3CallOptions[] = [];
  private next = 0;

  constructor(
    private readonly lines: ScriptLine[],
    readonly source = 'inline script',
    private readonly log?: string,
  ) {
    this.modelId = `scripted:${source}`;
  }

  static fromFile(file: string, log?: string): ScriptedModel {
    return new ScriptedModel(readScript(file), file, log);
  }

  get remaining(): number {
    return this.lines.length - this.next;
  }

  private take(options: LanguageModelV3CallOptions): ScriptLine {
    this.calls.push(options);
    if (this.log) {
      const { prompt, toolChoice, tools, temperature, maxOutputTokens, topP, topK } = options;
      fs.appendFileSync(
        this.log,
        JSON.stringify({
          call: this.next + 1,
          prompt,
          toolChoice,
          tools: tools?.map((t) => t.name),
          temperature,
          maxOutputTokens,
          topP,
          topK,
        }) + '\n',
      );
    }
    const line = this.lines[this.next];
    if (!line)
      throw new ScriptError(
        `the model script ${this.source} has no line for model call ${this.next + 1} (it has ${this.lines.length} line${this.lines.length === 1 ? '' : 's'})`,
      );
    this.next++;
    return line;
  }

  async doGenerate(options: LanguageModelV3CallOptions) {
    const line = this.take(options);
    const content: LanguageModelV3Content[] = [];
    if (line.text ?? line.chunks) content.push({ type: 'text', text: line.text ?? line.chunks!.join('') });
    (line.toolCalls ?? []).forEach((c, i) =>
      content.push({ type: 'tool-call', toolCallId: `call_${this.next}_${i}`, toolName: c.name, input: JSON.stringify(c.args) }),
    );
    const out = chunksOf(line).join('');
    return {
      content,
      finishReason: { unified: line.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: usage(estimate(JSON.stringify(options.prompt)), estimate(out)),
      warnings: [],
    } as Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
  }

  async doStream(options: LanguageModelV3CallOptions) {
    const line = this.take(options);
    const call = this.next;
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    const pieces = chunksOf(line);
    if (pieces.length) {
      parts.push({ type: 'text-start', id: `t${call}` });
      for (const delta of pieces) parts.push({ type: 'text-delta', id: `t${call}`, delta });
      parts.push({ type: 'text-end', id: `t${call}` });
    }
    (line.toolCalls ?? []).forEach((c, i) =>
      parts.push({ type: 'tool-call', toolCallId: `call_${call}_${i}`, toolName: c.name, input: JSON.stringify(c.args) }),
    );
    parts.push({
      type: 'finish',
      finishReason: { unified: line.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: usage(estimate(JSON.stringify(options.prompt)), estimate(pieces.join(''))),
    });
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const p of parts) controller.enqueue(p);
        controller.close();
      },
    });
    return { stream };
  }
}
