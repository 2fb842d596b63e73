/**
 * The model's access to MCP skills, when a conversation opts in (`runConversation({ skills })`):
 * `gmk__load_skill`, gemini-mcp-kit's own function, answered here (never sent to a server). A
 * skill is loaded through `loadSkill` (verified against its listing); a supporting file is read
 * only when the model asks for it, and only of a skill it loaded in this conversation, verified
 * against the entry that skill was loaded with. Every failure is answered to the model, naming
 * what failed.
 */

import { skillRoot } from '../../adapter/skills/entry.js';
import {
  DEFAULT_MAX_SKILL_TEXT_BYTES,
  LOAD_SKILL_NAME,
  loadSkillDeclaration,
  loadSkillEntry,
  type OfferedSkill,
  skillText,
} from '../../adapter/skills/functions.js';
import type { ToolResult } from '../../adapter/types.js';
import { GeminiMcpError } from '../../errors.js';
import type { ReadNotice } from '../../generated/guards-common.js';
import { checkMcpCallToolResult } from '../../generated/guards-mcp.js';
import { proveContract } from '../../json/contract.js';
import { stripInvisible } from '../../json/invisible.js';
import type { LoadedSkill, SkillServers } from '../mcp/skills/load.js';
import { checkCount } from '../options.js';
import type { ResourceFunctions, SkillFileReader } from './resource-functions.js';

/**
 * Opt-in model access to the servers' skills: `gmk__load_skill` is declared in every request
 * (naming the skills `servers` lists, counted in its budget) and answered by gemini-mcp-kit.
 */
export interface SkillAccess {
  /** Where skills are listed and read: what `connectServers` returned. */
  readonly servers: SkillServers;
  /**
   * Limit of one read, in ms.
   *
   * @defaultValue 60000
   */
  readonly timeoutMs?: number;
  /**
   * The most text of one skill or file the model is given, in bytes of UTF-8 (the rest is cut,
   * and the answer says so).
   *
   * @defaultValue 32768
   */
  readonly maxTextBytes?: number;
}

/** The longest error text answered, in characters. */
const MAX_ERROR_TEXT = 1000;

function failure(text: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function proven(result: ToolResult): ToolResult {
  return proveContract(result, checkMcpCallToolResult, { schema: 'McpCallToolResult' });
}

/** A string argument: absent, a string, or `null` when it is something else. */
function stringArgument(
  args: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined | null {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : null;
}

/** What went wrong, in words for the model. */
function answerFailure(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const cut = message.length > MAX_ERROR_TEXT ? `${message.slice(0, MAX_ERROR_TEXT)}...` : message;
  const refusedSkill = error instanceof GeminiMcpError && error.code === 'SKILL_REFUSED';
  return failure(
    `${refusedSkill ? 'Refused: the content is not what the server listed, so it is not used.' : 'The skill could not be loaded.'} ${stripInvisible(cut).text}`,
  );
}

/** The skill function of a conversation, and its reader of loaded skills' files. */
export interface SkillFunctions extends ResourceFunctions {
  /**
   * For `gmk__read_resource`: a URI under the root of a skill loaded in this conversation is read
   * as that skill's file (verified against its entry, an unlisted one refused).
   */
  readonly skillFile: SkillFileReader;
}

/**
 * The skill function of a conversation: its declaration (naming the skills listed when the
 * conversation starts), its entry, and the answers to its calls.
 */
export function skillFunctions(
  access: SkillAccess,
  context: { signal?: AbortSignal; onNotice?: (notice: ReadNotice) => void },
): SkillFunctions {
  if (!Array.isArray(access?.servers?.skills?.skills) || !(access.servers.clients instanceof Map)) {
    throw new GeminiMcpError(
      'INVALID_INPUT',
      'runConversation option skills.servers must be what connectServers returned',
      { path: '/skills/servers' },
    );
  }
  checkCount('skills.maxTextBytes', access.maxTextBytes);
  const { servers } = access;
  const maxBytes = access.maxTextBytes ?? DEFAULT_MAX_SKILL_TEXT_BYTES;
  const offered: OfferedSkill[] = servers.skills.skills.map((skill) => ({
    serverId: skill.serverId,
    name: skill.name,
    description: skill.entry.frontmatter.description,
  }));
  const loaded: LoadedSkill[] = [];
  const readOptions = {
    ...(access.timeoutMs === undefined ? {} : { timeoutMs: access.timeoutMs }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.onNotice === undefined ? {} : { onNotice: context.onNotice }),
  };
  /** One file of a loaded skill, verified, as the model reads it. */
  const readFile = async (skill: LoadedSkill, file: string): Promise<ToolResult> => {
    const { readSkillFile } = await import('../mcp/skills/load.js');
    const contents = await readSkillFile(servers, skill, file, readOptions);
    const text =
      contents.text ??
      `(a binary file of ${contents.bytes.byteLength} bytes${contents.mimeType === undefined ? '' : `, ${contents.mimeType}`})`;
    return {
      content: [
        {
          type: 'text',
          text: skillText(
            { kind: 'file', name: contents.uri, serverId: skill.serverId },
            text,
            maxBytes,
          ),
        },
      ],
    };
  };
  const skillFile: SkillFileReader = async (uri, serverId) => {
    const skill = loaded.find(
      (s) =>
        (serverId === undefined || s.serverId === serverId) &&
        uri.startsWith(`${skillRoot(s.entry.uri)}/`),
    );
    if (skill === undefined) return undefined;
    try {
      return await readFile(skill, uri);
    } catch (error) {
      return answerFailure(error);
    }
  };
  const load = async (args: Readonly<Record<string, unknown>>): Promise<ToolResult> => {
    const name = stringArgument(args, 'name');
    const server = stringArgument(args, 'server');
    const file = stringArgument(args, 'file');
    if (typeof name !== 'string') return failure('Give "name": the skill\'s name, as listed.');
    if (server === null || file === null) {
      return failure('"server" and "file" must be strings, or left out.');
    }
    try {
      // Loaded with the first call: node:crypto and the YAML parser stay out of the package's import.
      const { loadSkill } = await import('../mcp/skills/load.js');
      if (file !== undefined) {
        const skill = loaded.find(
          (s) =>
            (s.name === name || s.entry.uri === name) &&
            (server === undefined || s.serverId === server),
        );
        if (skill === undefined) {
          return failure(
            `Load the skill ${JSON.stringify(name.slice(0, 200))} first (without "file").`,
          );
        }
        return await readFile(skill, file);
      }
      const skill = await loadSkill(servers, name, {
        ...readOptions,
        ...(server === undefined ? {} : { serverId: server }),
      });
      if (!loaded.some((s) => s.serverId === skill.serverId && s.entry.uri === skill.entry.uri)) {
        loaded.push(skill);
      }
      const files = (skill.entry.resources ?? []).filter((f) => f.uri !== skill.entry.uri).length;
      return {
        content: [
          {
            type: 'text',
            text: `${skillText({ kind: 'skill', name: skill.name, serverId: skill.serverId }, skill.text, maxBytes)}${files === 0 ? '' : `\n(${files} supporting file(s): read one with ${LOAD_SKILL_NAME} and "file", a path the skill mentions)`}`,
          },
        ],
      };
    } catch (error) {
      return answerFailure(error);
    }
  };
  return {
    skillFile,
    entries: [loadSkillEntry(offered)],
    declarations: (mode) => [loadSkillDeclaration(offered, mode)],
    answers: new Map([[LOAD_SKILL_NAME, async (args) => proven(await load(args))]]),
  };
}
