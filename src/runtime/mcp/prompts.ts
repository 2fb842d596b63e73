/**
 * Every server's MCP prompts: listed page by page (bounded), namespaced per server, kept current
 * on `notifications/prompts/list_changed`; one of them fetched as Gemini Contents
 * (`prompts/get`) and its arguments completed (`completion/complete`).
 */

import { unknown } from 'zod/v4';
import {
  type PromptContents,
  type PromptContentsOptions,
  type PromptWarning,
  promptArguments,
  promptContents,
} from '../../adapter/prompts/contents.js';
import { sanitizeDescription } from '../../adapter/tools/description.js';
import { GeminiMcpError } from '../../errors.js';
import { readMcpCompleteResult, readMcpPrompt } from '../../generated/guards-mcp.js';
import type { McpCompleteResult, McpPrompt, McpPromptArgument } from '../../generated/types.js';
import { isJsonObject } from '../../json/object.js';
import { appendPointer } from '../../json/pointer.js';
import { CoalescedRounds } from './coalesced-rounds.js';
import type { McpClient, McpRequestOptions } from './mcp-client.js';

/** Results of any shape pass the SDK's parsing: the read contract checks them here. */
const AS_RECEIVED = unknown();

/** Pages of `prompts/list` followed at most, against a server that hands out cursors forever. */
const MAX_PAGES = 1000;

/** Prompts kept per server at most; past it the rest are left out with a warning. */
const MAX_PROMPTS = 10_000;

/** Completion values kept at most (the specification's limit per response). */
const MAX_COMPLETIONS = 100;

/** One server's prompt, as gemini-mcp-kit lists it. */
export interface ServerPrompt {
  /** `server/name`: what {@link getPrompt} and the CLI take. */
  readonly id: string;
  readonly serverId: string;
  /** The prompt's name on its server. */
  readonly name: string;
  /** Its title, invisible characters removed, when it has one. */
  readonly title?: string;
  /** Its description, invisible characters removed and capped at 4 KiB (`""` when none). */
  readonly description: string;
  /** The arguments it declares (their descriptions sanitized like its own). */
  readonly arguments: readonly McpPromptArgument[];
  /** The prompt as the server listed it (read contract: newer fields kept). */
  readonly prompt: McpPrompt;
}

/** A server's prompts and what listing them found. */
export interface ServerPromptList {
  prompts: ServerPrompt[];
  warnings: PromptWarning[];
}

/** Options of the requests of this module: a timeout per request (ms) and a signal. */
export interface PromptRequestOptions {
  /** Per-request timeout in ms; default the SDK's 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

function requestOptions(options: PromptRequestOptions): McpRequestOptions {
  return {
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** A text a server wrote, as it is shown: invisible characters removed, capped. */
function shown(text: string | undefined): { text: string; changed: boolean } {
  const sanitized = sanitizeDescription(text);
  return {
    text: sanitized.text,
    changed: sanitized.removedCharacters > 0 || sanitized.truncated,
  };
}

/** One listed prompt as a {@link ServerPrompt}, or a warning saying why it is left out. */
function serverPrompt(
  serverId: string,
  value: unknown,
  path: string,
  warnings: PromptWarning[],
): ServerPrompt | undefined {
  const { violations } = readMcpPrompt(value);
  const first = violations[0];
  if (first !== undefined) {
    warnings.push({
      code: 'PROMPT_DROPPED',
      serverId,
      path: `${path}${first.path}`,
      message: `a listed prompt is not a Prompt at "${first.path}": ${first.message}; left out`,
    });
    return undefined;
  }
  const prompt = value as McpPrompt;
  const name = shown(prompt.name);
  const title = prompt.title === undefined ? undefined : shown(prompt.title);
  const description = shown(prompt.description);
  const args = (prompt.arguments ?? []).map((argument) => {
    const about = argument.description === undefined ? undefined : shown(argument.description);
    return { argument, about };
  });
  if (
    name.changed ||
    title?.changed === true ||
    description.changed ||
    args.some(({ about }) => about?.changed === true)
  ) {
    warnings.push({
      code: 'PROMPT_SANITIZED',
      serverId,
      promptName: name.text,
      path,
      message: `prompt "${name.text}": invisible characters removed from its name, title or descriptions, or a description cut`,
    });
  }
  return {
    id: `${serverId}/${prompt.name}`,
    serverId,
    name: prompt.name,
    ...(title === undefined ? {} : { title: title.text }),
    description: description.text,
    arguments: args.map(({ argument, about }) =>
      about === undefined ? argument : { ...argument, description: about.text },
    ),
    prompt,
  };
}

/**
 * Every prompt of one connected server (the `Client` of either MCP SDK), following `nextCursor`
 * until the last page, at most 1000 pages and 10 000 prompts: none, without a request, when the
 * server did not declare the `prompts` capability. Each prompt is read with the MCP read
 * contract; one that fails it, or repeats a name, is left out with a `PROMPT_DROPPED` warning,
 * and text it shows (name, title, descriptions) has invisible characters removed. Throws
 * INVALID_PAYLOAD when a page is not a prompt list or a cursor repeats; errors of the request
 * itself (the server's refusal, a timeout) propagate.
 *
 * @example
 * ```ts
 * const { prompts } = await listAllPrompts(client, 'everything');
 * prompts.map((p) => p.id); // ['everything/simple-prompt', 'everything/args-prompt', ...]
 * ```
 */
export async function listAllPrompts(
  client: McpClient,
  serverId: string,
  options: PromptRequestOptions = {},
): Promise<ServerPromptList> {
  const prompts: ServerPrompt[] = [];
  const warnings: PromptWarning[] = [];
  if (client.getServerCapabilities?.()?.prompts === undefined) return { prompts, warnings };
  const names = new Set<string>();
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: 'prompts/list', params: cursor === undefined ? {} : { cursor } },
      AS_RECEIVED,
      requestOptions(options),
    );
    const { prompts: listed, nextCursor } = isJsonObject(result) ? result : {};
    if (!Array.isArray(listed) || (nextCursor !== undefined && typeof nextCursor !== 'string')) {
      throw new GeminiMcpError(
        'INVALID_PAYLOAD',
        `prompts/list of server "${serverId}" returned no prompt list`,
        { path: Array.isArray(listed) ? '/nextCursor' : '/prompts', data: { serverId } },
      );
    }
    for (const [index, value] of listed.entries()) {
      const path = appendPointer(`/pages/${page}/prompts`, index);
      if (prompts.length >= MAX_PROMPTS) {
        warnings.push({
          code: 'PROMPT_DROPPED',
          serverId,
          path,
          message: `more than ${MAX_PROMPTS} prompts: the rest are left out`,
        });
        return { prompts, warnings };
      }
      const prompt = serverPrompt(serverId, value, path, warnings);
      if (prompt === undefined) continue;
      if (names.has(prompt.name)) {
        warnings.push({
          code: 'PROMPT_DROPPED',
          serverId,
          promptName: prompt.name,
          path,
          message: `a second prompt named "${prompt.name}": left out`,
        });
        continue;
      }
      names.add(prompt.name);
      prompts.push(prompt);
    }
    if (nextCursor === undefined) return { prompts, warnings };
    if (seen.has(nextCursor)) {
      throw new GeminiMcpError(
        'INVALID_PAYLOAD',
        `prompts/list of server "${serverId}" repeated cursor ${nextCursor}`,
        { path: '/nextCursor', data: { serverId } },
      );
    }
    seen.add(nextCursor);
    cursor = nextCursor;
  }
  throw new GeminiMcpError(
    'INVALID_PAYLOAD',
    `prompts/list of server "${serverId}" gave more than ${MAX_PAGES} pages`,
    { data: { serverId } },
  );
}

/**
 * {@link listAllPrompts}, a failure kept as a `PROMPTS_UNLISTED` warning (no prompts) rather
 * than thrown: a server whose prompts cannot be listed still serves its tools. A cancellation
 * (`signal` fired) is thrown.
 */
export async function listPromptsOrWarn(
  client: McpClient,
  serverId: string,
  options: PromptRequestOptions = {},
): Promise<ServerPromptList> {
  try {
    return await listAllPrompts(client, serverId, options);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    return { prompts: [], warnings: [unlisted(serverId, error)] };
  }
}

function unlisted(serverId: string, error: unknown): PromptWarning {
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'PROMPTS_UNLISTED', serverId, message: `listing prompts failed: ${message}` };
}

/** What listeners hear after a server's prompts were listed again (or failed to be). */
export type PromptsChange =
  | { serverId: string; prompts: readonly ServerPrompt[] }
  /** Listing failed; the server's previous prompts stay. */
  | { serverId: string; error: unknown };

/**
 * Every server's prompts, replaced server by server as each lists them again: what
 * `connectServers` keeps behind `prompts`.
 *
 * @example
 * ```ts
 * const live = new LivePrompts(new Map([['everything', await listAllPrompts(client, 'everything')]]));
 * live.onChange((change) => console.log(change.serverId));
 * await live.refresh('everything', () => listAllPrompts(client, 'everything'));
 * ```
 */
export class LivePrompts {
  readonly #lists: Map<string, ServerPromptList>;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #listeners = new Set<(change: PromptsChange) => void>();
  /** Per server, the notified listing running now and whether another one is owed after it. */
  readonly #notified = new CoalescedRounds();
  #all: readonly ServerPrompt[];

  /** Starts from each server's first list, in server order. */
  constructor(lists: ReadonlyMap<string, ServerPromptList>) {
    this.#lists = new Map(lists);
    this.#all = this.#flatten();
  }

  #flatten(): readonly ServerPrompt[] {
    return Object.freeze([...this.#lists.values()].flatMap((list) => list.prompts));
  }

  /** Every server's prompts, in server order, then in the order each listed them. */
  get prompts(): readonly ServerPrompt[] {
    return this.#all;
  }

  /** What listing found: prompts left out or sanitized, listings that failed. */
  get warnings(): readonly PromptWarning[] {
    return [...this.#lists.values()].flatMap((list) => list.warnings);
  }

  /**
   * Lists one server's prompts again with `fetch`, after any listing of it still running, then
   * tells every listener. A failed listing keeps the previous prompts, is a `PROMPTS_UNLISTED`
   * warning, and rejects.
   */
  refresh(serverId: string, fetch: () => Promise<ServerPromptList>): Promise<void> {
    const run = async (): Promise<void> => {
      let change: PromptsChange;
      try {
        const list = await fetch();
        this.#lists.set(serverId, list);
        this.#all = this.#flatten();
        change = { serverId, prompts: list.prompts };
      } catch (error) {
        const previous = this.#lists.get(serverId) ?? { prompts: [], warnings: [] };
        this.#lists.set(serverId, {
          prompts: previous.prompts,
          warnings: [
            ...previous.warnings.filter((w) => w.code !== 'PROMPTS_UNLISTED'),
            unlisted(serverId, error),
          ],
        });
        change = { serverId, error };
      }
      for (const listener of this.#listeners) listener(change);
      if ('error' in change) throw change.error;
    };
    const next = (this.#queues.get(serverId) ?? Promise.resolve()).then(run);
    this.#queues.set(
      serverId,
      next.catch(() => undefined),
    );
    return next;
  }

  /**
   * {@link refresh} for a `prompts/list_changed` notification, coalesced: while one such listing
   * of the server runs, further calls only ask for one more round after it (however many
   * arrive), so a storm of notifications costs at most two listings at a time. Never rejects: a
   * failure is kept as a warning and heard by the listeners.
   */
  refreshNotified(serverId: string, fetch: () => Promise<ServerPromptList>): Promise<void> {
    return this.#notified.run(serverId, () => this.refresh(serverId, fetch).catch(() => undefined));
  }

  /** Adds a listener for {@link PromptsChange}s; returns its unsubscribe. */
  onChange(listener: (change: PromptsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Drops every listener. */
  clearListeners(): void {
    this.#listeners.clear();
  }
}

/** What {@link getPrompt} and {@link completePromptArgument} need: the prompts and the clients. */
export interface PromptServers {
  /** Every server's prompts (`connectServers` keeps them current). */
  readonly prompts: readonly ServerPrompt[];
  /** A connected client per server id. */
  readonly clients: ReadonlyMap<string, McpClient>;
}

/**
 * The prompt `name` names: `server/name` exactly, or a prompt's own name when only one server
 * has a prompt of that name. INVALID_INPUT otherwise, naming the candidates or the prompts there are.
 */
function findPrompt(servers: PromptServers, name: string): ServerPrompt {
  if (typeof name !== 'string') {
    throw new GeminiMcpError('INVALID_INPUT', 'a prompt name must be a string (server/name)');
  }
  const exact = servers.prompts.find((prompt) => prompt.id === name);
  if (exact !== undefined) return exact;
  const named = servers.prompts.filter((prompt) => prompt.name === name);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  const known = servers.prompts.map((prompt) => prompt.id);
  throw new GeminiMcpError(
    'INVALID_INPUT',
    named.length > 1
      ? `prompt "${name}" is on ${named.length} servers: name one of ${named.map((p) => p.id).join(', ')}`
      : `no prompt "${name}"; ${known.length === 0 ? 'no server lists prompts' : `the prompts are ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', ...' : ''}`}`,
    { data: { prompt: name } },
  );
}

function clientOf(servers: PromptServers, prompt: ServerPrompt): McpClient {
  const client = servers.clients.get(prompt.serverId);
  if (client === undefined) {
    throw new GeminiMcpError('INVALID_INPUT', `no server "${prompt.serverId}" is connected`, {
      data: { serverId: prompt.serverId },
    });
  }
  return client;
}

/** Options of {@link getPrompt}. */
export interface GetPromptOptions
  extends PromptRequestOptions,
    Pick<PromptContentsOptions, 'maxInlineBytes' | 'dialect'> {}

/** The result of {@link getPrompt}: the Contents, and the prompt they came from. */
export interface FetchedPrompt extends PromptContents {
  readonly prompt: ServerPrompt;
}

/**
 * Fetches one prompt (`prompts/get`) as Gemini Contents, ready to start or continue a
 * conversation. `name` is `server/name` (a prompt's own name works when one server alone has
 * it); `args` are checked against the prompt's declared arguments first (a missing required
 * one, an unknown one, or a value that is not a string is INVALID_INPUT with the argument's
 * pointer, and nothing is sent). The result is read with the MCP read contract and converted as
 * {@link promptContents} says (roles `user` -> `user`, `assistant` -> `model`; media under
 * `maxInlineBytes`), each Content proven against the Gemini Content schema.
 *
 * @example
 * ```ts
 * const { contents } = await getPrompt(connections, 'everything/args-prompt', { city: 'Paris' });
 * const result = await runConversation({ generate, toolset: connections, clients: connections.clients, contents });
 * ```
 */
export async function getPrompt(
  servers: PromptServers,
  name: string,
  args: Readonly<Record<string, string>> = {},
  options: GetPromptOptions = {},
): Promise<FetchedPrompt> {
  const prompt = findPrompt(servers, name);
  const checked = promptArguments(prompt.prompt, args);
  const client = clientOf(servers, prompt);
  const result = await client.request(
    {
      method: 'prompts/get',
      params: {
        name: prompt.name,
        ...(Object.keys(checked).length === 0 ? {} : { arguments: checked }),
      },
    },
    AS_RECEIVED,
    requestOptions(options),
  );
  const converted = promptContents(result, {
    serverId: prompt.serverId,
    promptName: prompt.name,
    ...(options.maxInlineBytes === undefined ? {} : { maxInlineBytes: options.maxInlineBytes }),
    ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
  });
  return { ...converted, prompt };
}

/** The values a server suggests for an argument. */
export interface PromptCompletion {
  /** At most 100 values, as the server sent them. */
  values: string[];
  /** How many values there are in all, when the server says. */
  total?: number;
  /** Whether there are more values than those sent, when the server says. */
  hasMore?: boolean;
}

/** Options of {@link completePromptArgument}. */
export interface CompletePromptOptions extends PromptRequestOptions {
  /** The values of the prompt's other arguments given so far (their completions may depend on them). */
  context?: Readonly<Record<string, string>>;
}

/**
 * Asks the prompt's server for values of one of its arguments (`completion/complete` with a
 * `ref/prompt` reference), given what was typed so far. INVALID_INPUT when the prompt does not
 * declare the argument or the server declared no `completions` capability; a result that fails
 * the MCP read contract is INVALID_PAYLOAD; more than 100 values are cut to 100.
 *
 * @example
 * ```ts
 * const { values } = await completePromptArgument(connections, 'everything/completable-prompt', 'department', 'E');
 * // ['Engineering']
 * ```
 */
export async function completePromptArgument(
  servers: PromptServers,
  name: string,
  argument: string,
  value: string,
  options: CompletePromptOptions = {},
): Promise<PromptCompletion> {
  const prompt = findPrompt(servers, name);
  if (!prompt.arguments.some((a) => a.name === argument)) {
    promptArguments(prompt.prompt, { [argument]: value });
  }
  const client = clientOf(servers, prompt);
  if (client.getServerCapabilities?.()?.completions === undefined) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      `server "${prompt.serverId}" did not declare the completions capability`,
      { data: { serverId: prompt.serverId } },
    );
  }
  const context =
    options.context === undefined ? {} : { context: { arguments: { ...options.context } } };
  const result = await client.request(
    {
      method: 'completion/complete',
      params: {
        ref: { type: 'ref/prompt', name: prompt.name },
        argument: { name: argument, value },
        ...context,
      },
    },
    AS_RECEIVED,
    requestOptions(options),
  );
  const { violations } = readMcpCompleteResult(result);
  const first = violations[0];
  if (first !== undefined) {
    throw new GeminiMcpError(
      'INVALID_PAYLOAD',
      `completion/complete on server "${prompt.serverId}" returned no completion at "${first.path}": ${first.message}`,
      { path: first.path, details: violations, data: { serverId: prompt.serverId } },
    );
  }
  const { completion } = result as McpCompleteResult;
  return {
    values: completion.values.slice(0, MAX_COMPLETIONS),
    ...(completion.total === undefined ? {} : { total: completion.total }),
    ...(completion.hasMore === undefined ? {} : { hasMore: completion.hasMore }),
  };
}
