/**
 * A hook system, seen from an agent loop: an object of optional functions, one per point of
 * the loop. Each takes plain data (what the loop is about to do) and returns an effect as data
 * (src/apply's effects); the loop folds over the adapters in registration order with one rule:
 *
 * - the first deny, block or stop ends the point (no later adapter runs);
 * - rewrites chain (each adapter sees the prompt, request, arguments or result as the earlier
 *   ones left it);
 * - contexts and messages add up, in order; an `ask` from any adapter asks the user.
 *
 * Adapters run their own hooks and print their own display lines through `AdapterIO`.
 */
import type { LLMRequest, LLMResponse } from '../events/model.js';
import type { ToolFacts } from '../events/tools.js';
import type {
  AfterAgentEffect,
  AfterModelEffect,
  AfterToolEffect,
  BeforeModelEffect,
  BeforeToolEffect,
  SessionStartEffect,
  ToolSelection,
  Note,
} from '../apply/index.js';

export interface AdapterIO {
  /** A line for the user (stderr in the CLI). */
  notice(line: string): void;
}

/** What every adapter of one agent shares. */
export interface AdapterContext {
  cwd: string;
  /** The model's spec (`gemini:gemini-2.5-flash`, `scripted`); each system names it its own way (`llm_request.model` is the name alone). */
  modelName: string;
  /** The session's id and transcript (they change on `/clear`). */
  session(): { id: string; transcriptPath: string };
  /** The agent's approval mode now (default, auto_edit, yolo). */
  approvalMode(): string;
  io: AdapterIO;
  /** One line per hook run. */
  displayHooks: boolean;
  /** Display numbering shared by the dialects, restarted each turn (mm and SpatialAgent number per turn). */
  counter: { next: number };
  /** How deep in hand-offs this agent is (0 for the user's own agent). */
  depth: number;
  /** The agent talks with a user at a prompt (not one `-p` prompt). */
  interactive: boolean;
  /** Set for a called agent (a hand-off): its name and the asking agent's session. */
  handedTo?: { name: string; parent: { id: string; transcriptPath: string } };
}

export type Advisory = { systemMessage?: string };

export interface SessionStartPoint {
  source: 'startup' | 'resume' | 'clear';
  /** The prompt the session starts with, when it is known at its start (`-p`). */
  prompt?: string;
  /** A resumed session: its history's size in (estimated) tokens, and the seconds since the model last answered. */
  resumed?: { contextTokens: number; secondsSinceLastResponse?: number };
}

export interface PromptPoint {
  /** The user's prompt as earlier adapters left it (without any context blocks). */
  prompt: string;
  /** Tool names offered to the model, and the step limit (SpatialAgent's Start). */
  tools: string[];
  maxSteps: number;
  signal?: AbortSignal;
}

export type PromptEffect =
  /**
   * Go on; `prompt` replaces the prompt, `blocks` are appended to its text (a blank line apart),
   * `parts` follow it as text parts of their own (Gemini CLI's `<hook_context>`), `notes` are
   * messages of their own after it (Claude Code's UserPromptSubmit context).
   */
  | { action: 'proceed'; prompt?: string; blocks?: string[]; parts?: string[]; notes?: Note[]; systemMessage?: string }
  /**
   * End the turn without calling the model. With `answer`, the history keeps `history` (or the
   * prompt) and the answer, which the user reads; without, the user's prompt stays in history.
   */
  | { action: 'stop'; reason: string; answer?: string; history?: string; notice?: string; systemMessage?: string }
  /** Refuse the turn; the prompt is discarded. `notice` is the line the user reads. */
  | { action: 'block'; reason: string; notice: string; systemMessage?: string };

export interface ModelRequestPoint {
  request: LLMRequest;
  /** 1 for the turn's first model call. */
  step: number;
  system: string;
  signal?: AbortSignal;
}

export interface ToolSelectionPoint {
  request: LLMRequest;
  tools: readonly string[];
  signal?: AbortSignal;
}

export interface ModelChunkPoint {
  request: LLMRequest;
  response: LLMResponse;
  signal?: AbortSignal;
}

export interface ModelResponsePoint {
  step: number;
  text: string;
  toolCalls: number;
  signal?: AbortSignal;
}

export interface ToolPoint {
  /** The call's id (Claude Code's `tool_use_id`). */
  id: string;
  /** The agent's tool name. */
  name: string;
  args: Record<string, unknown>;
  /** The tool a tail call replaces (`original_request_name`). */
  originalName?: string;
  step: number;
  signal?: AbortSignal;
}

export interface ToolOutcomePoint extends ToolPoint {
  result: {
    llmContent: string;
    returnDisplay: unknown;
    error?: { message: string; type?: string };
    exitCode?: number | null;
    /** What the call did, as data (src/events/tools.ts). */
    facts?: ToolFacts;
    /** How long the tool ran. */
    durationMs?: number;
  };
  /** What the model will read, as earlier adapters left it. */
  llmContent: string;
}

export interface NotificationPoint {
  type: string;
  message: string;
  details: Record<string, unknown>;
  /** The tool the notification is about. */
  tool?: string;
  signal?: AbortSignal;
}

export interface TurnEndPoint {
  /** The user's original prompt. */
  prompt: string;
  /** Every model answer since it. */
  response: string;
  /** The last model answer's text (Claude Code's and Codex's `last_assistant_message`). */
  lastResponse?: string;
  stopHookActive: boolean;
  retries: number;
  /** The agent's own cap on retries, when it sets one; else each hook system keeps its own (Gemini CLI's, Claude Code's). */
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface TurnFinishedPoint {
  /** What the model read for the turn. */
  prompt: string;
  answer: string;
  error?: string;
  steps: number;
  state: string;
  /** The query as it was at the turn's start (before contexts). */
  query: string;
}

/** A hand-off to another agent (mm's `ask_agent`): the question before it is sent. */
export interface HandOffPoint {
  ask: Record<string, unknown> & { agent: string; prompt: string; transcript?: string };
  quiet: boolean;
}

export type HandOffEffect =
  | { action: 'deny'; reason?: string }
  | { action: 'send'; prompt: string; transcript?: string; contexts: string[] };

export interface HandOffTarget {
  file: string;
  /** The model its configuration names, if any. */
  model?: string;
}

export interface HandOffDonePoint extends HandOffPoint {
  answer: string;
  error?: string;
  durationMs: number;
}

export interface HandOffDoneEffect {
  answer?: string;
  contexts: string[];
}

/** The agent is about to ask the user to allow a tool call (its approval prompt). */
export interface PermissionPoint {
  name: string;
  args: Record<string, unknown>;
  signal?: AbortSignal;
}

export type PermissionEffect =
  /** No answer: the user is asked. */
  | { action: 'ask'; systemMessage?: string }
  /** Allowed without asking, with these arguments when a hook replaced them. */
  | { action: 'allow'; args?: Record<string, unknown>; systemMessage?: string }
  /** Refused without asking; the model reads `message` (or exactly `refusal`, when given); `interrupt` also ends the turn. */
  | { action: 'deny'; message: string; refusal?: string; interrupt: boolean; systemMessage?: string }
  | { action: 'stop'; reason: string; systemMessage?: string };

/** A tool call the user (or the approval mode, with nobody to ask) refused. */
export interface PermissionDeniedPoint {
  id: string;
  name: string;
  args: Record<string, unknown>;
  reason: string;
  signal?: AbortSignal;
}

/** Every tool call of one model response, once all have a result (before the next model call). */
export interface ToolBatchPoint {
  calls: Array<{
    id: string;
    name: string;
    args: Record<string, unknown>;
    output: string;
    isError: boolean;
    /** A program's run (shell tools): its output and exit code. */
    shell?: { output: string; exitCode: number | null };
  }>;
  signal?: AbortSignal;
}

export interface ToolBatchEffect {
  /** Read by the model with the batch's results. */
  context?: string;
  /** Messages for the model after the batch's results. */
  notes?: Note[];
  /** Stops the agent before its next model call. */
  stop?: string;
  systemMessage?: string;
}

/** The turn ended with an error from the model (its API). */
export interface TurnFailedPoint {
  /** A kind: rate_limit, authentication_failed, invalid_request, model_not_found, server_error, overloaded, unknown. */
  kind: string;
  message: string;
  /** The API's HTTP status, when it answered with one. */
  status?: number;
}

/** A context file (GEMINI.md, AGENTS.md, CLAUDE.md…) the agent put in its system prompt. */
export interface InstructionsPoint {
  file: string;
  scope: 'User' | 'Project' | 'Local';
  /** Claude Code's `load_reason`: at the session's start, or imported (`@path`) by `parent`. */
  reason: 'session_start' | 'include';
  parent?: string;
}

/** A settings file this system loaded changed during the session. */
export interface ConfigChangePoint {
  file: string;
  source: string;
}

export interface Adapter {
  /** The hook system's name, for messages. */
  readonly name: string;
  /**
   * With nobody to ask (`-p`, no terminal), this system's agent offers the model only the tools it
   * may run without asking (Gemini CLI in `-p`). The loop withholds the others when every adapter
   * says so; the other agents offer them and refuse them at the approval.
   */
  readonly approvedToolsOnly?: boolean;
  sessionStart?(p: SessionStartPoint): Promise<SessionStartEffect>;
  sessionEnd?(p: { reason: 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other' }): Promise<Advisory>;
  prompt?(p: PromptPoint): Promise<PromptEffect>;
  modelRequest?(p: ModelRequestPoint): Promise<BeforeModelEffect>;
  toolSelection?(p: ToolSelectionPoint): Promise<ToolSelection & Advisory>;
  modelChunk?(p: ModelChunkPoint): Promise<AfterModelEffect>;
  /** After a model response, before its tool calls run or it is accepted; a reason blocks the turn. */
  modelResponse?(p: ModelResponsePoint): Promise<{ block?: string }>;
  beforeTool?(p: ToolPoint): Promise<BeforeToolEffect>;
  notification?(p: NotificationPoint): Promise<Advisory>;
  afterTool?(p: ToolOutcomePoint): Promise<AfterToolEffect>;
  /** Before the history is compressed; a `block` keeps it as it is. */
  compress?(p: { trigger: 'manual' | 'auto'; instructions?: string }): Promise<Advisory & { block?: string }>;
  /** After the history was compressed into `summary`; a `context` (or `notes`, messages of their own) follows the summary in the history. */
  compressed?(p: { trigger: 'manual' | 'auto'; summary: string }): Promise<Advisory & { context?: string; notes?: Note[] }>;
  /** The approval prompt is about to be shown: answer it, or let the user. */
  permissionRequest?(p: PermissionPoint): Promise<PermissionEffect>;
  /** A tool call was refused at the approval prompt; `retry` tells the model it may try again. */
  permissionDenied?(p: PermissionDeniedPoint): Promise<Advisory & { retry?: boolean }>;
  /** All tool calls of one model response have their results. */
  toolBatch?(p: ToolBatchPoint): Promise<ToolBatchEffect>;
  /** The turn ended with a model (API) error instead of an answer (observers). */
  turnFailed?(p: TurnFailedPoint): Promise<void>;
  /** A context file was loaded into the system prompt (observers). */
  instructionsLoaded?(p: InstructionsPoint): Promise<void>;
  /** The settings files this system loaded, to watch during the session. */
  configFiles?(): Array<{ file: string; source: string }>;
  /** One of them changed: apply it (reload), or `block` to keep the old settings. */
  configChange?(p: ConfigChangePoint): Promise<Advisory & { block?: boolean }>;
  /** The turn has its answer: accept it, retry with a new prompt, or stop. */
  turnEnd?(p: TurnEndPoint): Promise<AfterAgentEffect>;
  /** The turn is over, whatever its outcome (observers). */
  turnFinished?(p: TurnFinishedPoint): Promise<void>;
  handOff?(p: HandOffPoint): Promise<HandOffEffect>;
  handOffDone?(p: HandOffDonePoint): Promise<HandOffDoneEffect>;
  /** The agents this system can hand off to, by name: their configuration file and model. */
  agents?(): Record<string, HandOffTarget>;
  /** Variables this system sets for the agent's shell commands now (Claude Code's settings `env`, `$CLAUDE_ENV_FILE`). */
  toolEnv?(): Record<string, string>;
  /** Text for the session banner (`| hooks: …`). */
  banner?(): string;
  /** The session is ending: lets background work (Claude Code's `async` hooks) end on its own first, for a bounded time. */
  settle?(): Promise<void>;
  /** Stops whatever the adapter keeps running (persistent hooks). */
  close?(): void;
}
