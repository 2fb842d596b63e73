/**
 * `gmk__load_skill`, the function gemini-mcp-kit offers the model when a conversation opts in to
 * skills (MCP skills extension): its declaration, which names the skills the servers list (each
 * with its server and one-line description, sanitized), and the text of a loaded skill or file
 * as the model reads it (invisible characters removed, capped, attributed to its server).
 */
import type { FunctionDeclaration } from '../../generated/types.js';
import { stripInvisible } from '../../json/invisible.js';
import { truncateUtf8, utf8ByteLength } from '../../json/utf8.js';
import { declarationOf, entryOf, type OwnFunctionSpec } from '../resources/functions.js';
import { RESERVED_SERVER_ID } from '../tools/names.js';
import type { ToolSetEntry } from '../tools/toolset-types.js';

/** The name of the function that loads a skill. */
export const LOAD_SKILL_NAME = `${RESERVED_SERVER_ID}__load_skill`;

/** A skill as the declaration names it. */
export interface OfferedSkill {
  readonly serverId: string;
  readonly name: string;
  readonly description: string;
}

/** Skills the declaration names at most. */
const MAX_OFFERED = 50;
/** The longest name or description shown in the declaration, in characters. */
const MAX_SHOWN_TEXT = 160;
/** The most text of one skill or file the model is given, by default, in bytes of UTF-8. */
export const DEFAULT_MAX_SKILL_TEXT_BYTES = 32 * 1024;

/** Server-written text on one line: invisible characters removed, whitespace folded, capped. */
function shown(text: string): string {
  const line = stripInvisible(text).text.replace(/\s+/g, ' ').trim();
  const points = [...line];
  return points.length > MAX_SHOWN_TEXT ? `${points.slice(0, MAX_SHOWN_TEXT - 1).join('')}…` : line;
}

function specOf(skills: readonly OfferedSkill[]): OwnFunctionSpec {
  const lines = skills
    .slice(0, MAX_OFFERED)
    .map(
      (skill) =>
        `- ${shown(skill.name)} (server ${JSON.stringify(shown(skill.serverId))}): ${shown(skill.description)}`,
    );
  const more = skills.length - MAX_OFFERED;
  return {
    toolName: 'load_skill',
    description: [
      'Loads a skill an MCP server publishes: its instructions (SKILL.md), verified against the server\'s listing. Load a skill before following it; with "file", reads one of its supporting files (a path the loaded skill mentions).',
      lines.length === 0 ? 'No server lists a skill now.' : 'Skills:',
      ...lines,
      ...(more > 0 ? [`(${more} more not shown)`] : []),
    ].join('\n'),
    parameters: [
      { name: 'name', description: "The skill's name, as listed.", required: true },
      {
        name: 'server',
        description:
          'The server of the skill (its id); needed only when several list one of that name.',
        required: false,
      },
      {
        name: 'file',
        description:
          'A supporting file of a skill loaded before, by its path in the skill (references/FORMS.md); leave out to load the skill.',
        required: false,
      },
    ],
  };
}

/** The entry a call of `gmk__load_skill` resolves to. */
export function loadSkillEntry(skills: readonly OfferedSkill[]): ToolSetEntry {
  return entryOf(specOf(skills));
}

/** The declaration of `gmk__load_skill`, naming `skills`, in a schema mode. */
export function loadSkillDeclaration(
  skills: readonly OfferedSkill[],
  mode: 'json' | 'openapi',
): FunctionDeclaration {
  return declarationOf(specOf(skills), mode);
}

/**
 * A skill's text (or a file's) as the model reads it: a tag naming it and its server, then the
 * text with invisible characters removed, cut at `maxBytes` of UTF-8 (saying so).
 */
export function skillText(
  tag: { readonly kind: 'skill' | 'file'; readonly name: string; readonly serverId: string },
  text: string,
  maxBytes: number,
): string {
  const visible = stripInvisible(text).text;
  const cut = utf8ByteLength(visible) > maxBytes;
  const head = `[${tag.kind} ${JSON.stringify(tag.name)} from server ${JSON.stringify(tag.serverId)}, verified against its listing${cut ? `, cut at ${maxBytes} bytes` : ''}]`;
  return `${head}\n${cut ? truncateUtf8(visible, maxBytes) : visible}`;
}
