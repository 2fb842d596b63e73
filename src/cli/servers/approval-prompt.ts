/**
 * How `chat` approves the model's calls: before a call that may destroy something or reach
 * beyond a closed world (every call of an untrusted server: its annotations are its own claims),
 * it asks on the terminal (stdin and stderr both TTYs), showing the tool's title, its server and
 * the arguments, escaped; anywhere else it declines and says so on stderr. The model is told of
 * each denial in the call's response.
 */
import { createInterface } from 'node:readline';
import type { ToolCallCheck, ToolCallHook } from '../../runtime/turn/approval.js';
import {
  type ConfirmCall,
  composePolicies,
  confirmDestructive,
  confirmOpenWorld,
} from '../../runtime/turn/approval-policies.js';
import { terminalSafe } from '../io.js';
import { inTurn, isInteractive, type PromptIo } from './terminal-turns.js';

/** The arguments shown, at most (characters of their JSON). */
const MAX_SHOWN_ARGUMENTS = 2_000;

/** The tool as a person reads it: its title, then where it is (`"Delete a note" (notes/delete_note)`). */
function toolLabel(check: ToolCallCheck): string {
  const where = `${check.serverId}/${check.name}`;
  return terminalSafe(check.title === undefined ? where : `"${check.title}" (${where})`);
}

/** What the server says its tool does, and whether that is believed. */
function claims({ annotations, trusted }: ToolCallCheck): string {
  const effect =
    annotations.readOnlyHint === true
      ? 'read-only'
      : annotations.destructiveHint === false
        ? 'not destructive'
        : 'may destroy data';
  const world = annotations.openWorldHint === false ? 'closed world' : 'open world';
  const trust = trusted ? 'trusted server' : 'untrusted server: its hints are not believed';
  return `${effect}, ${world}; ${trust}`;
}

function shownArguments(args: Readonly<Record<string, unknown>>): string {
  const json = JSON.stringify(args);
  const cut = json.length > MAX_SHOWN_ARGUMENTS ? `${json.slice(0, MAX_SHOWN_ARGUMENTS)}...` : json;
  return terminalSafe(cut, { json: true });
}

/** Asks one call on the terminal: `y` runs it; anything else, Ctrl-C, Ctrl-D or the call's signal denies it. */
function askOnTerminal(io: PromptIo, check: ToolCallCheck): Promise<boolean> {
  if (check.signal.aborted) return Promise.resolve(false);
  io.stderr.write(`\nrun ${toolLabel(check)}? ${claims(check)}\n`);
  io.stderr.write(`  arguments: ${shownArguments(check.arguments)}\n`);
  const lines = createInterface({ input: io.stdin, output: io.stderr, terminal: true });
  return new Promise<boolean>((resolve) => {
    const done = (allowed: boolean, note?: string): void => {
      check.signal.removeEventListener('abort', dismiss);
      lines.off('close', dismiss);
      if (note !== undefined) io.stderr.write(note);
      lines.close();
      resolve(allowed);
    };
    const dismiss = (): void => done(false, '\n(declined)\n');
    check.signal.addEventListener('abort', dismiss, { once: true });
    lines.once('line', (answer) => done(/^\s*y(es)?\s*$/i.test(answer)));
    lines.on('SIGINT', dismiss);
    lines.on('close', dismiss);
    lines.setPrompt('allow (y) or deny (n)? [n]: ');
    lines.prompt();
  });
}

/**
 * The CLI's approval hook: asks on the terminal before a call that may destroy or reach out
 * (one question at a time, shared with elicitation forms), declines off a terminal with a line
 * on stderr naming the tool and `--yes`.
 *
 * @example
 * ```ts
 * await runConversation({ ...options, onToolCall: terminalApproval(io) });
 * ```
 */
export function terminalApproval(io: PromptIo): ToolCallHook {
  const interactive = isInteractive(io);
  const confirm: ConfirmCall = (check) => {
    if (interactive) return inTurn(io, () => askOnTerminal(io, check));
    io.stderr.write(
      `run ${toolLabel(check)}? declined, not a terminal (${claims(check)}; --yes runs calls without asking)\n`,
    );
    return false;
  };
  return composePolicies(confirmDestructive(confirm), confirmOpenWorld(confirm));
}
