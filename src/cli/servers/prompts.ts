/**
 * MCP prompts on the command line: `gemini-mcp-kit prompts` lists every server's, and `chat`
 * starts from one, named with `--prompt server/name key=value ...` or typed as
 * `/server:name key=value ...`.
 */
import type { PromptContent, PromptWarning } from '../../adapter/prompts/contents.js';
import type { PrefixMode } from '../../adapter/tools/names.js';
import type { ServerConnections } from '../../runtime/mcp/connect.js';
import { getPrompt, type ServerPrompt } from '../../runtime/mcp/prompts.js';
import { CliError, EXIT } from '../cli-error.js';
import { type CliIo, shownMessage, shownPath, table, terminalSafe } from '../io.js';
import { connect, type ServerFlags } from './connect.js';

/** Options of `prompts`, besides the connection flags. */
export interface PromptsOpts {
  prefix: PrefixMode;
  format: 'json' | 'table';
}

/** The longest description a table row shows, in characters. */
const SHOWN_DESCRIPTION = 80;

/** A prompt's arguments in a table: `city*, state` (`*` required), `(none)`. */
function argumentSummary(prompt: ServerPrompt): string {
  return prompt.arguments.length === 0
    ? '(none)'
    : prompt.arguments.map((a) => `${a.name}${a.required === true ? '*' : ''}`).join(', ');
}

/** The first line of a description, cut to fit a table row. */
function shortDescription(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > SHOWN_DESCRIPTION ? `${line.slice(0, SHOWN_DESCRIPTION - 3)}...` : line;
}

/** One warning of the prompts' listing as a line: `[CODE] server/prompt at /pointer: message`. */
export function promptWarningLine(warning: PromptWarning): string {
  const where = `${warning.serverId}${warning.promptName === undefined ? '' : `/${warning.promptName}`}`;
  const at = warning.path === undefined ? '' : ` at ${shownPath(warning.path)}`;
  return terminalSafe(`[${warning.code}] ${where}${at}: ${shownMessage(warning.message)}`);
}

/** `gemini-mcp-kit prompts`. */
export async function runPrompts(io: CliIo, flags: ServerFlags, opts: PromptsOpts): Promise<void> {
  const connections = await connect(flags, { prefix: opts.prefix }, io);
  try {
    const warnings = [
      ...connections.configLines.map((line) => terminalSafe(line)),
      ...connections.promptWarnings.map(promptWarningLine),
    ];
    const { prompts } = connections;
    if (opts.format === 'table') {
      const rows = [
        ['PROMPT', 'ARGUMENTS', 'DESCRIPTION'],
        ...prompts.map((p) => [p.id, argumentSummary(p), shortDescription(p.description)]),
      ];
      io.stdout.write(`${table(rows)}\n\n`);
      const servers = new Set(prompts.map((p) => p.serverId)).size;
      io.stdout.write(
        `${prompts.length} prompt(s) from ${servers} of ${connections.clients.size} server(s); in chat: --prompt SERVER/NAME key=value, or /SERVER:NAME key=value\n`,
      );
      io.stdout.write(
        warnings.length === 0
          ? 'no warnings\n'
          : `${warnings.length} warning(s):\n${warnings.map((w) => `  ${w}\n`).join('')}`,
      );
    } else {
      const listed = prompts.map((p) => ({
        id: p.id,
        serverId: p.serverId,
        name: p.name,
        ...(p.title === undefined ? {} : { title: p.title }),
        description: p.description,
        arguments: p.arguments,
      }));
      io.stdout.write(`${terminalSafe(JSON.stringify(listed, null, 2), { json: true })}\n`);
      for (const warning of warnings) io.stderr.write(`warning: ${warning}\n`);
    }
  } finally {
    await connections.close();
  }
}

/** A prompt to start a chat from: its `server/name` (or a bare name) and its arguments. */
export interface PromptInvocation {
  name: string;
  args: Record<string, string>;
}

/** `/server:name` as the first word of a chat's words. */
const SLASH_PROMPT = /^\/([^\s:/]+):(\S+)$/;

/** `key=value` words as arguments (a word without `=`, or a key given twice, is a usage error). */
function promptArgs(words: readonly string[], name: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const word of words) {
    const at = word.indexOf('=');
    const key = at <= 0 ? '' : word.slice(0, at);
    if (key === '') {
      throw new CliError(
        `prompt ${terminalSafe(name)}: expected key=value, got "${terminalSafe(word)}"`,
        EXIT.USAGE,
      );
    }
    if (Object.hasOwn(args, key)) {
      throw new CliError(
        `prompt ${terminalSafe(name)}: argument "${terminalSafe(key)}" given twice`,
        EXIT.USAGE,
      );
    }
    Object.defineProperty(args, key, {
      value: word.slice(at + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return args;
}

/**
 * The prompt a chat starts from, if any: `--prompt server/name` with the words as its
 * `key=value` arguments, or words that begin with `/server:name`; `undefined` for words that
 * are a question.
 */
export function promptInvocation(
  words: readonly string[],
  prompt: string | undefined,
): PromptInvocation | undefined {
  if (prompt !== undefined) return { name: prompt, args: promptArgs(words, prompt) };
  const [first, ...rest] = words;
  const slash = first === undefined ? null : SLASH_PROMPT.exec(first);
  if (slash === null) return undefined;
  const name = `${slash[1]}/${slash[2]}`;
  return { name, args: promptArgs(rest, name) };
}

/**
 * The Contents a chat starts from: the prompt's (its warnings on stderr, and a line saying which
 * prompt it ran), or the words as the user's question.
 */
export async function chatContents(
  io: CliIo,
  connections: ServerConnections,
  words: readonly string[],
  prompt: string | undefined,
  timeoutMs: number,
): Promise<PromptContent[]> {
  const invocation = promptInvocation(words, prompt);
  if (invocation === undefined) {
    if (words.length === 0) {
      throw new CliError('chat needs a PROMPT, or --prompt SERVER/NAME', EXIT.USAGE);
    }
    return [{ role: 'user', parts: [{ text: words.join(' ') }] }];
  }
  const fetched = await getPrompt(connections, invocation.name, invocation.args, { timeoutMs });
  for (const warning of fetched.warnings)
    io.stderr.write(`warning: ${promptWarningLine(warning)}\n`);
  io.stderr.write(
    `prompt ${terminalSafe(fetched.prompt.id)}: ${fetched.contents.length} message(s)\n`,
  );
  return fetched.contents;
}
