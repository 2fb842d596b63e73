/**
 * `gemini-mcp-kit tools`, `prompts`, `answer` and `chat`: the commands that connect MCP servers (the
 * runtime's `connectServers`) and show or play what Gemini sees of them.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { DIALECT_NAMES } from '../../adapter/dialect.js';
import { positiveInteger } from '../arguments.js';
import type { CliIo } from '../io.js';
import type { AnswerOpts, ChatOpts, ServerOpts, ToolsOpts } from './actions.js';
import type { LiveOpts } from './live.js';
import type { PromptsOpts } from './prompts.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function milliseconds(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError('expected milliseconds > 0');
  return n;
}

/** `--max-tools`: a whole number of at least 2 (gmk__search_tools takes one declaration). */
function maxTools(value: string): number {
  const n = positiveInteger(value);
  if (n < 2) {
    throw new InvalidArgumentError('must be at least 2 (gmk__search_tools takes one declaration)');
  }
  return n;
}

/** The options every server-using command shares. */
function serverOptions(command: Command): Command {
  return command
    .option(
      '-c, --config <file>',
      'a server configuration file, told by its shape: mcpServers (Claude Desktop, Cursor, Claude Code), .vscode/mcp.json (VS Code), settings.json (gemini-cli)',
    )
    .option(
      '-s, --server <name=command>',
      'a stdio server, e.g. "fs=npx -y @modelcontextprotocol/server-filesystem ." or name=https://host/mcp (repeatable)',
      collect,
    )
    .option(
      '--include <tool>',
      'expose only these tools: exact names, TOOL (any server) or SERVER/TOOL; no globs (repeatable)',
      collect,
    )
    .option(
      '--exclude <tool>',
      'never expose these tools: exact names, TOOL (any server) or SERVER/TOOL; no globs (repeatable)',
      collect,
    )
    .option(
      '--server-log <file>',
      "write the stdio servers' stderr to FILE (default: on stderr after the output, each line prefixed [server])",
    )
    .addOption(
      new Option('--prefix <mode>', 'when tool names become server__tool')
        .choices(['on-collision', 'always', 'never'])
        .default('on-collision'),
    )
    .addOption(
      new Option('--timeout <ms>', 'limit for connecting, listing and each tool call')
        .argParser(milliseconds)
        .default(30_000),
    )
    .addHelpText(
      'after',
      '\nWith neither --config nor --server, the bundled example server (hello, bitcoin_price) is used.',
    );
}

function toolsCommand(io: CliIo): Command {
  return serverOptions(
    new Command('tools')
      .summary('show the Gemini tools a set of MCP servers yields, with every warning')
      .description(
        [
          'Connect the MCP servers, list their tools, build the tool set and print the `tools` array of a Gemini request (proven against the Tool schema), plus every warning: renamed tools and why, tools left out, sanitized descriptions, schema conversion losses with pointers.',
          'json: the tools array on stdout (pipe it into a request), warnings on stderr. table: a table of the tools and the warnings, on stdout.',
          'Exit status: 0 listed (warnings or not); 2 usage, configuration or server error; 130 (143) stopped by Ctrl-C (SIGTERM).',
        ].join('\n\n'),
      ),
  )
    .addOption(
      new Option(
        '--schema-mode <mode>',
        'parametersJsonSchema as is (json) or converted to the OpenAPI subset',
      )
        .choices(['json', 'openapi'])
        .default('json'),
    )
    .option('--response-schema', "declare tools' outputSchema too")
    .addOption(
      new Option('-d, --dialect <dialect>', 'the API whose limits the request is fitted to')
        .choices(DIALECT_NAMES)
        .default('gemini'),
    )
    .option(
      '--budget',
      "report what the dialect's request would accept: its limits, how many tools fit, and each tool left out with why",
    )
    .addOption(
      new Option(
        '--run-on <where>',
        'where servers whose entry has no runOn run: gemini moves each that can (Streamable HTTP, public https: URL, static headers, no OAuth, no filters) into a Tool.mcpServers entry and says why the others stay',
      ).choices(['client', 'gemini']),
    )
    .addOption(
      new Option('-f, --format <format>', 'output format')
        .choices(['json', 'table'])
        .default('json'),
    )
    .action(async (opts: ToolsOpts) => (await import('./actions.js')).runTools(io, opts));
}

function promptsCommand(io: CliIo): Command {
  return serverOptions(
    new Command('prompts')
      .summary("list the MCP servers' prompts (chat --prompt SERVER/NAME runs one)")
      .description(
        [
          'Connect the MCP servers and list every prompt they offer (all pages), each as SERVER/NAME with its arguments (* required) and description; what a server wrote is shown with control characters escaped. chat --prompt SERVER/NAME key=value ... starts a chat from one, and so does a chat whose words begin with /SERVER:NAME.',
          'json: the prompts on stdout, warnings on stderr. table: a table and the warnings, on stdout.',
          'Exit status: 0 listed; 2 usage, configuration or server error; 130 (143) stopped by Ctrl-C (SIGTERM).',
        ].join('\n\n'),
      ),
  )
    .addOption(
      new Option('-f, --format <format>', 'output format')
        .choices(['json', 'table'])
        .default('table'),
    )
    .action(async (opts: PromptsOpts & ServerOpts) => {
      const { flagsOf } = await import('./actions.js');
      await (await import('./prompts.js')).runPrompts(io, flagsOf(opts), opts);
    });
}

function answerCommand(io: CliIo): Command {
  return serverOptions(
    new Command('answer')
      .summary("run a saved model turn's function calls and print the next user Content")
      .description(
        [
          "Read a saved GenerateContentResponse (or a model Content), run its function calls on the MCP servers and print the next user Content as JSON: exactly one functionResponse per functionCall, in call order, ids echoed where the dialect's reference has them (gemini, vertex-v1beta1; vertex means vertex-v1beta1) and left out where not (vertex-v1).",
          'Exit status: 0 every call answered with its result; 1 some call answered with an error (rejected: unknown tool, invalid arguments; failed; timed out), summed up in one line on stderr (--allow-errors: 0), or the file is not a model turn with calls; 2 usage or server error; 130 (143) stopped by Ctrl-C (SIGTERM).',
        ].join('\n\n'),
      )
      .argument('<RESPONSE.json>', 'the saved model turn'),
  )
    .addOption(
      new Option('-d, --dialect <dialect>', 'the API and version the turn is for')
        .choices(DIALECT_NAMES)
        .default('gemini'),
    )
    .option('--validate-args', "check the calls' arguments against the tools' inputSchema first")
    .option(
      '--allow-errors',
      'exit 0 even when calls were answered with an error (the Content holds them either way)',
    )
    .action(async (file: string, opts: AnswerOpts) =>
      (await import('./actions.js')).runAnswer(io, file, opts),
    );
}

function chatCommand(io: CliIo): Command {
  return serverOptions(
    new Command('chat')
      .summary('talk to Gemini with the MCP servers as tools (needs GEMINI_API_KEY)')
      .description(
        [
          'The live loop: send PROMPT to Gemini with the tool set, run the calls it makes on the MCP servers, send the answers back, until it answers in words or --max-turns is reached. Tool calls are shown on stderr, the answer on stdout: its control characters and bidirectional overrides as visible escapes (\\x1b, \\u202e; line feeds and tabs kept), whether stdout is a terminal or a pipe, since a pipe often ends at one; --raw prints the bytes as the model sent them.',
          'Before a call that may destroy data or reach beyond a closed world (the tool\'s annotations say so, or say nothing), chat asks on the terminal, showing the tool\'s title, its server and the arguments; annotations are believed only for a server whose configuration entry says "trust": true, so every call of another server is asked. Off a terminal (stdin not a TTY) such a call is declined, said on stderr, and the model is told; --yes runs every call without asking.',
          'Servers may ask for completions of their own (MCP sampling): chat serves them with the same model, at most 10 per server and minute and 4096 tokens each, and shows each request on stderr; --no-sampling declares no sampling capability.',
          "--prompt SERVER/NAME starts from one of the servers' prompts (see gemini-mcp-kit prompts) instead of a question: the words are its arguments, key=value; words that begin with /SERVER:NAME do the same. --instructions SERVER puts that server's own instructions (sent when it connects) into the system instruction, attributed to it, invisible characters removed, at most 4 KiB; without it no server's instructions are sent.",
          'Needs GEMINI_API_KEY (https://aistudio.google.com/apikey) and the @google/genai package. GOOGLE_GEMINI_BASE_URL points @google/genai at another endpoint.',
          'With --dialect vertex-v1 or vertex-v1beta1 (vertex: v1beta1), it talks to Vertex AI through @google/genai, which reads GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (application default credentials) or GOOGLE_API_KEY (express mode); GOOGLE_VERTEX_BASE_URL points it at another endpoint.',
          'Exit status: 0 answered in words; 1 stopped without an answer (--max-turns, failed function calling, no content); 2 usage, configuration, server or model endpoint error (the request and the cause named); 130 (143) stopped by Ctrl-C (SIGTERM).',
        ].join('\n\n'),
      )
      .argument(
        '[PROMPT...]',
        'what to ask; /SERVER:NAME key=value ... runs a prompt; with --prompt, its key=value arguments',
      ),
  )
    .option(
      '--prompt <server/name>',
      "start from this server's prompt (see gemini-mcp-kit prompts)",
    )
    .option(
      '--instructions <server>',
      "send this server's instructions in the system instruction, attributed to it (repeatable; off by default)",
      collect,
    )
    .option('-m, --model <model>', 'the Gemini model (default: $GEMINI_MODEL or gemini-2.5-flash)')
    .option(
      '--no-sampling',
      "do not serve the servers' sampling requests (served by default with --model, each shown on stderr)",
    )
    .addOption(
      new Option(
        '-d, --dialect <dialect>',
        'the API: gemini (GEMINI_API_KEY), or Vertex AI by version (vertex = vertex-v1beta1)',
      )
        .choices(DIALECT_NAMES)
        .default('gemini'),
    )
    .addOption(
      new Option('--max-turns <n>', 'model turns at most').argParser(positiveInteger).default(10),
    )
    .addOption(
      new Option(
        '--max-tools <n>',
        "tools declared per request at most (>= 2); past that, and past the dialect's limit, the model searches the tools (gmk__search_tools) and each one found is declared from the next request",
      ).argParser(maxTools),
    )
    .addOption(
      new Option('--schema-mode <mode>', 'how tools are declared')
        .choices(['json', 'openapi'])
        .default('json'),
    )
    .addOption(
      new Option('-f, --format <format>', 'output').choices(['text', 'json']).default('text'),
    )
    .option(
      '--raw',
      "print the answer's text as the model sent it (default: control characters and bidirectional overrides shown as escapes such as \\x1b, on a terminal or not)",
    )
    .option(
      '-y, --yes',
      'run every call without asking (default: a call that may destroy data or reach beyond a closed world, every call of a server without "trust": true, is asked on the terminal, and declined when stdin is not one)',
    )
    .action(async (words: string[], opts: ChatOpts) =>
      (await import('./actions.js')).runChat(io, words, opts),
    );
}

function liveCommand(io: CliIo): Command {
  return serverOptions(
    new Command('live')
      .summary(
        'a Gemini Live session with the MCP servers as tools, text in and out (needs GEMINI_API_KEY)',
      )
      .description(
        [
          "Opens a Gemini Live API session (WebSocket) with the tool set: each line of stdin is a user turn, the model's text goes to stdout. Every tool call (-> name (id)), progress notification (..), response sent (<-, with its scheduling), cancellation (x) and tool update is shown on stderr as it happens. Calls run as the conversation goes on; a toolCallCancellation cancels them on their servers.",
          'Tools whose server runs them as tasks (MCP execution.taskSupport), and those named with --non-blocking, are declared NON_BLOCKING: their progress reaches the model as SILENT responses, at most one per --progress-interval, their result when the model is idle.',
          'Needs GEMINI_API_KEY and the @google/genai package; GOOGLE_GEMINI_BASE_URL points it at another endpoint. The model: --model, else $GEMINI_LIVE_MODEL, else gemini-live-2.5-flash-preview. Ends when stdin ends and the last turn is complete.',
        ].join('\n\n'),
      ),
  )
    .option('-m, --model <model>', 'the Live model')
    .option('--non-blocking <tool>', 'declare this exposed tool NON_BLOCKING (repeatable)', collect)
    .addOption(
      new Option('--progress-interval <ms>', 'least time between two progress responses of a call')
        .argParser(milliseconds)
        .default(2_000),
    )
    .action(async (opts: LiveOpts) => (await import('./live.js')).runLive(io, opts));
}

/** The server-using commands, in help order. */
export const SERVER_COMMANDS: ((io: CliIo) => Command)[] = [
  toolsCommand,
  promptsCommand,
  answerCommand,
  chatCommand,
  liveCommand,
];
