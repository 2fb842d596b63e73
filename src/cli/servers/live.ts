/**
 * `gemini-mcp-kit live`: a Gemini Live session with the MCP servers as tools, text in and text
 * out on a terminal. Each line of stdin is a user turn; the model's text goes to stdout; every
 * tool call, progress notification, response, cancellation, tool update and goAway is shown on
 * stderr as it happens (server- and model-controlled strings escaped).
 */
import { createInterface } from 'node:readline';
import type { LiveToolEvent, LiveToolPolicy } from '../../runtime/live/live-tools.js';
import { liveTools } from '../../runtime/live/live-tools.js';
import { CliError, EXIT } from '../cli-error.js';
import { type CliIo, terminalSafe } from '../io.js';
import { flagsOf, type ServerOpts, writeConfigLines } from './actions.js';
import { connect } from './connect.js';

/** The default Live model (`--model`, `$GEMINI_LIVE_MODEL`). */
const DEFAULT_LIVE_MODEL = 'gemini-live-2.5-flash-preview';

/** How long the last turn may take to complete after stdin ended, in ms. */
const LAST_TURN_MS = 60_000;

/** `gemini-mcp-kit live`'s options. */
export interface LiveOpts extends ServerOpts {
  model?: string;
  /** `--non-blocking TOOL`: exposed names declared NON_BLOCKING (besides the servers' tasks). */
  nonBlocking?: string[];
  progressInterval: number;
}

/** What this command uses of @google/genai (its `GoogleGenAI`, its Live session). */
interface LiveModule {
  GoogleGenAI: new (options: {
    apiKey: string;
  }) => {
    live: {
      connect(params: {
        model: string;
        config: { responseModalities: string[] };
        callbacks: {
          onmessage: (message: LiveMessage) => void;
          onclose?: (event: { code?: number; reason?: string }) => void;
        };
      }): Promise<{
        sendClientContent(params: { turns: string }): void;
        sendToolResponse(params: never): void;
        close(): void;
      }>;
    };
  };
}

interface LiveMessage {
  serverContent?: {
    modelTurn?: { parts?: { text?: string; thought?: boolean }[] };
    turnComplete?: boolean;
  };
}

const idOf = (callId: string | null): string => (callId === null ? '' : ` (${callId})`);

/** One event, as the line shown on stderr (unescaped). */
function eventLine(event: LiveToolEvent): string {
  switch (event.type) {
    case 'call':
      return `-> ${event.exposedName}${idOf(event.callId)}${event.behavior === 'NON_BLOCKING' ? ' non-blocking' : ''}${event.rejected === undefined ? '' : ` rejected: ${event.rejected}`}`;
    case 'progress':
      return `.. ${event.exposedName}${idOf(event.callId)} ${event.progress}${event.total === undefined ? '' : `/${event.total}`}${event.message === undefined ? '' : ` ${event.message}`}`;
    case 'response':
      return `<- ${event.error ? 'error: ' : ''}${event.exposedName}${idOf(event.callId)}${event.willContinue ? ' progress' : ''}${event.scheduling === undefined ? '' : ` ${event.scheduling}`}`;
    case 'cancelled':
      return `x  ${event.exposedName}${idOf(event.callId)} cancelled (${event.reason})`;
    case 'tools':
      return `tools: ${event.count} declared${event.sent ? ', sent to the session' : ', not sent (this genai has no sendContextUpdate)'}`;
    case 'goAway':
      return `goAway${event.timeLeft === undefined ? '' : `: ${event.timeLeft} left`}, ${event.running} calls running`;
    case 'error':
      return `error${idOf(event.callId)}: ${event.message}`;
  }
}

async function loadGenAi(): Promise<LiveModule> {
  try {
    return (await import('@google/genai')) as unknown as LiveModule;
  } catch (error) {
    throw new CliError(
      'live needs the @google/genai package: npm install @google/genai',
      EXIT.USAGE,
      {
        cause: error,
      },
    );
  }
}

/** `gemini-mcp-kit live`. */
export async function runLive(io: CliIo, opts: LiveOpts): Promise<void> {
  const apiKey = process.env.GEMINI_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    throw new CliError(
      'live needs a Gemini API key: set GEMINI_API_KEY (get one at https://aistudio.google.com/apikey)',
    );
  }
  const { GoogleGenAI } = await loadGenAi();
  const model = opts.model ?? process.env.GEMINI_LIVE_MODEL ?? DEFAULT_LIVE_MODEL;
  const connections = await connect(flagsOf(opts), { prefix: opts.prefix }, io);
  writeConfigLines(io, connections.configLines);
  const nonBlocking = new Set(opts.nonBlocking ?? []);
  const said = (line: string): void => {
    io.stderr.write(`${terminalSafe(line)}\n`);
  };
  let turnDone: (() => void) | undefined;
  let closed: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const ai = new GoogleGenAI({ apiKey });
  const policy = (entry: { exposedName: string }): LiveToolPolicy | undefined =>
    nonBlocking.has(entry.exposedName) ? { behavior: 'NON_BLOCKING' } : undefined;
  const { session, stop } = await liveTools(connections, {
    policy,
    progressIntervalMs: opts.progressInterval,
    timeoutMs: opts.timeout,
    onEvent: (event) => said(eventLine(event)),
  }).connect(ai.live, {
    model,
    config: { responseModalities: ['TEXT'] },
    callbacks: {
      onmessage: (message: LiveMessage) => {
        for (const part of message.serverContent?.modelTurn?.parts ?? []) {
          if (typeof part.text === 'string' && part.thought !== true) {
            io.stdout.write(terminalSafe(part.text));
          }
        }
        if (message.serverContent?.turnComplete === true) {
          io.stdout.write('\n');
          turnDone?.();
        }
      },
      onclose: (event) => {
        said(`session closed${event.reason ? `: ${event.reason}` : ''}`);
        closed?.();
      },
    },
  });
  try {
    const lines = createInterface({ input: io.stdin, terminal: false });
    let turn: Promise<void> = Promise.resolve();
    for await (const line of lines) {
      if (line.trim() === '') continue;
      turn = new Promise<void>((resolve) => {
        turnDone = resolve;
      });
      session.sendClientContent({ turns: line });
    }
    const timer = setTimeout(() => turnDone?.(), LAST_TURN_MS);
    await Promise.race([turn, ended]);
    clearTimeout(timer);
  } finally {
    stop();
    session.close();
    await connections.close();
  }
}
