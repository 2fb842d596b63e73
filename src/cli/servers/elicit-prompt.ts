/**
 * How the CLI answers a server's request for input (elicitation): on a terminal (stdin and
 * stderr both TTYs) it asks, one line per field of the form, with the defaults shown and each
 * answer checked as it is typed; anywhere else it declines and says so on stderr. Questions from
 * several servers are asked one after another, never interleaved.
 */
import { createInterface, type Interface } from 'node:readline';
import {
  type ElicitationAnswer,
  type ElicitationOptions,
  type ElicitationQuery,
  type FormField,
  type FormValue,
  fieldProblem,
} from '../../runtime/mcp/features/elicitation.js';
import { terminalSafe } from '../io.js';
import { inTurn, isInteractive, type PromptIo } from './terminal-turns.js';

/** Thrown inside a prompt when the user ends it (Ctrl-C, Ctrl-D) or the server gives up. */
class Dismissed extends Error {}

function shown(value: FormValue): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function hint(field: FormField): string {
  switch (field.kind) {
    case 'boolean':
      return ' (y/n)';
    case 'number':
    case 'integer': {
      const bounds = [
        field.minimum === undefined ? '' : `>= ${field.minimum}`,
        field.maximum === undefined ? '' : `<= ${field.maximum}`,
      ].filter((b) => b !== '');
      const what = field.kind === 'integer' ? 'whole number' : 'number';
      return ` (${[what, ...bounds].join(' ')})`;
    }
    case 'choice':
      return ' (a number or a value)';
    case 'choices':
      return ' (numbers or values, comma-separated)';
    case 'text':
      return field.format === undefined ? '' : ` (${field.format})`;
  }
}

function pick(field: FormField & { options: readonly { value: string }[] }, word: string): string {
  const index = /^\d+$/.test(word) ? Number(word) - 1 : -1;
  return field.options[index]?.value ?? word;
}

/** What the typed line means for the field; `undefined` for an empty line. */
function parse(field: FormField, line: string): unknown {
  const input = line.trim();
  if (input === '') return undefined;
  switch (field.kind) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(input)) return true;
      if (/^(n|no|false)$/i.test(input)) return false;
      return input;
    case 'number':
    case 'integer':
      return Number.isNaN(Number(input)) ? input : Number(input);
    case 'choice':
      return pick(field, input);
    case 'choices':
      return input.split(',').map((word) => pick(field, word.trim()));
    case 'text':
      return line;
  }
}

class Prompt {
  /** Lines as they come, kept when typed ahead of their question (a paste, a fast typist). */
  private readonly typed: AsyncIterator<string>;
  private readonly dismissed: Promise<void>;

  constructor(
    private readonly lines: Interface,
    private readonly io: PromptIo,
    private readonly signal: AbortSignal,
  ) {
    this.typed = lines[Symbol.asyncIterator]();
    this.dismissed = new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
  }

  async ask(question: string): Promise<string> {
    if (this.signal.aborted) throw new Dismissed();
    this.lines.setPrompt(question);
    this.lines.prompt();
    const next = await Promise.race([this.typed.next(), this.dismissed]);
    if (next === undefined || next.done === true) throw new Dismissed();
    return next.value;
  }

  async field(field: FormField): Promise<unknown> {
    const label = terminalSafe(field.title ?? field.name);
    const about = field.description === undefined ? '' : ` - ${terminalSafe(field.description)}`;
    if (field.kind === 'choice' || field.kind === 'choices') {
      this.io.stderr.write(`${label}${about}\n`);
      field.options.forEach((option, i) => {
        this.io.stderr.write(`  ${i + 1}) ${terminalSafe(option.title)}\n`);
      });
    }
    const fallback = field.default === undefined ? '' : ` [${terminalSafe(shown(field.default))}]`;
    const star = field.required ? '*' : '';
    const head = field.kind === 'choice' || field.kind === 'choices' ? label : `${label}${about}`;
    for (;;) {
      const value = parse(field, await this.ask(`${head}${star}${hint(field)}${fallback}: `));
      if (value === undefined) {
        if (field.default !== undefined || !field.required) return undefined;
        this.io.stderr.write('  a value is required\n');
        continue;
      }
      const problem = fieldProblem(field, value);
      if (problem === undefined) return value;
      this.io.stderr.write(`  expected ${terminalSafe(problem)}\n`);
    }
  }
}

async function askOnTerminal(
  io: PromptIo,
  serverId: string,
  query: ElicitationQuery,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  if (signal.aborted) return { action: 'cancel' };
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal.addEventListener('abort', onAbort);
  const lines = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  lines.on('SIGINT', onAbort);
  lines.on('close', onAbort);
  const prompt = new Prompt(lines, io, stop.signal);
  try {
    io.stderr.write(`\nserver "${terminalSafe(serverId)}" asks: ${terminalSafe(query.message)}\n`);
    if (query.mode === 'url') {
      io.stderr.write(`open: ${terminalSafe(query.url)}\n`);
    }
    const choice = (await prompt.ask('answer (a), decline (d) or cancel (c)? [a]: ')).trim();
    if (/^d/i.test(choice)) return { action: 'decline' };
    if (/^c/i.test(choice)) return { action: 'cancel' };
    if (query.mode === 'url') return { action: 'accept' };
    const content: Record<string, FormValue> = {};
    for (const field of query.fields) {
      const value = await prompt.field(field);
      if (value !== undefined) content[field.name] = value as FormValue;
    }
    return { action: 'accept', content };
  } catch (error) {
    if (error instanceof Dismissed) {
      io.stderr.write('\n(cancelled)\n');
      return { action: 'cancel' };
    }
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    lines.off('close', onAbort);
    lines.close();
  }
}

/**
 * The CLI's elicitation: asks on the terminal when stdin and stderr are both terminals (Ctrl-C
 * or Ctrl-D cancels the form), one question at a time across servers and call approvals; declines otherwise, with a
 * line on stderr naming the server and what it asked.
 *
 * @example
 * ```ts
 * await connectServers(config, { capabilities: { elicitation: terminalElicitation(io) } });
 * ```
 */
export function terminalElicitation(io: PromptIo): ElicitationOptions {
  const interactive = isInteractive(io);
  return {
    onElicitation(query, { serverId, signal }) {
      if (!interactive) {
        io.stderr.write(
          `server "${terminalSafe(serverId)}" asked for input (${terminalSafe(query.message)}): declined, not a terminal\n`,
        );
        return { action: 'decline' };
      }
      return inTurn(io, () => askOnTerminal(io, serverId, query, signal));
    },
  };
}
