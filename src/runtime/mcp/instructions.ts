/**
 * Servers' `instructions` (sent when a server is reached) as part of Gemini's
 * `systemInstruction`, for the servers the user opted in: each attributed to its server,
 * sanitized like a tool description and capped. They come from a half-trusted server: off
 * unless asked for, server by server.
 */
import { sanitizeDescription } from '../../adapter/tools/description.js';
import type { Content } from '../../generated/types.js';
import type { McpClient } from './mcp-client.js';

/** One server's instructions, as they go into the system instruction. */
export interface ServerInstructions {
  readonly serverId: string;
  /** The text: invisible characters removed, capped at 4 KiB of UTF-8 (a cut one ends in `…`). */
  readonly text: string;
  /** Invisible code points removed. */
  readonly removedCharacters: number;
  /** Whether the text was cut at the cap. */
  readonly truncated: boolean;
}

/**
 * The instructions of each client whose server id `optedIn` says yes to and whose server gave
 * non-empty instructions (read with the client's `getInstructions()`, after connect), sanitized
 * like tool descriptions (invisible characters removed, 4 KiB at most), in client order.
 *
 * @example
 * ```ts
 * serverInstructions(connections.clients, (id) => id === 'everything');
 * // [{ serverId: 'everything', text: '# Everything Server ...', removedCharacters: 0, truncated: false }]
 * ```
 */
export function serverInstructions(
  clients: ReadonlyMap<string, McpClient>,
  optedIn: (serverId: string) => boolean,
): ServerInstructions[] {
  return [...clients].flatMap(([serverId, client]) => {
    if (!optedIn(serverId)) return [];
    const given = client.getInstructions?.();
    if (typeof given !== 'string') return [];
    const { text, removedCharacters, truncated } = sanitizeDescription(given);
    return text.trim() === '' ? [] : [{ serverId, text, removedCharacters, truncated }];
  });
}

/** The line that attributes a server's instructions to it, before their text. */
function attribution(serverId: string): string {
  return `Instructions from the MCP server "${serverId}" (written by that server, not by the user):`;
}

/**
 * A system instruction of `own` text (the application's, first) and each server's
 * instructions under a line naming its server: one Content with one text part, or `undefined`
 * when there is nothing to say.
 *
 * @example
 * ```ts
 * instructionsContent([{ serverId: 'docs', text: 'Cite page numbers.', removedCharacters: 0, truncated: false }]);
 * // { parts: [{ text: 'Instructions from the MCP server "docs" (...):\nCite page numbers.' }] }
 * ```
 */
export function instructionsContent(
  instructions: readonly ServerInstructions[],
  own?: string,
): Content | undefined {
  const sections = [
    ...(own === undefined || own === '' ? [] : [own]),
    ...instructions.map(({ serverId, text }) => `${attribution(serverId)}\n${text}`),
  ];
  return sections.length === 0 ? undefined : { parts: [{ text: sections.join('\n\n') }] };
}
