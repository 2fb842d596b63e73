/**
 * Every server's skills (the MCP skills extension, SEP-2640): listed with `skills/list` (every
 * page, bounded, each entry read with the extension's read contract) from the servers that
 * declare `io.modelcontextprotocol/skills`, namespaced per server. Listing reads no file of any
 * skill: a `SKILL.md` is read when the skill is loaded, a supporting file when it is read.
 */
import {
  keptSkillEntry,
  readSkillEntry,
  SKILLS_EXTENSION,
  type SkillEntry,
} from '../../../adapter/skills/entry.js';
import { GeminiMcpError } from '../../../errors.js';
import {
  isMethodNotFound,
  type ListKind,
  type ListResourcesOptions,
  listAll,
  type ResourceListWarning,
} from '../resources/list.js';
import type { ResourceClient } from '../resources/resource-client.js';

/** A skill, with the server that publishes it: skills are namespaced per server. */
export interface ListedSkill {
  readonly serverId: string;
  /** The skill's name (its frontmatter `name`). */
  readonly name: string;
  /** The entry as listed: the `SKILL.md` URI, the frontmatter, and the files with their digests. */
  readonly entry: SkillEntry;
}

/** Every connected server's skills (`connections.skills`). */
export interface SkillCatalog {
  /** Every server's skills, in configuration order, then each server's order. */
  readonly skills: readonly ListedSkill[];
  /** What listing left out or could not do (malformed entries, caps, failed lists). */
  readonly warnings: readonly ResourceListWarning[];
  /** Lists one server's skills again (every server's when `serverId` is omitted). */
  refresh(serverId?: string): Promise<void>;
}

const SKILLS: ListKind<SkillEntry> = {
  method: 'skills/list',
  key: 'skills',
  read: readSkillEntry,
  uriOf: (entry) => entry.uri,
  codes: { invalid: 'SKILL_INVALID', capped: 'SKILLS_CAPPED' },
};

/** Whether the server declared the skills extension (`capabilities.extensions`). */
function declaresSkills(client: ResourceClient): boolean {
  const capabilities = client.getServerCapabilities?.() as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const declared = capabilities?.extensions?.[SKILLS_EXTENSION];
  return typeof declared === 'object' && declared !== null;
}

/** One server's skills and what listing them found. */
interface ServerSkills {
  readonly skills: readonly ListedSkill[];
  readonly warnings: readonly ResourceListWarning[];
}

async function listServerSkills(
  client: ResourceClient,
  serverId: string,
  options: ListResourcesOptions,
): Promise<ServerSkills> {
  const warnings: ResourceListWarning[] = [];
  try {
    const entries = await listAll(client, serverId, SKILLS, options, warnings);
    const skills = entries.map((entry) =>
      Object.freeze({ serverId, name: entry.frontmatter.name, entry: keptSkillEntry(entry) }),
    );
    return { skills, warnings };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (!isMethodNotFound(error)) {
      const why = error instanceof Error ? error.message : String(error);
      warnings.push({
        code: 'SKILLS_UNAVAILABLE',
        serverId,
        message: `skills/list failed: ${why.slice(0, 500)}`,
      });
    }
    return { skills: [], warnings };
  }
}

/** The catalog over the servers that declared the extension. */
class ListedSkills implements SkillCatalog {
  readonly #clients: ReadonlyMap<string, ResourceClient>;
  readonly #options: ListResourcesOptions;
  readonly #lists = new Map<string, ServerSkills>();
  #skills: readonly ListedSkill[] = [];
  #warnings: readonly ResourceListWarning[] = [];

  constructor(clients: ReadonlyMap<string, ResourceClient>, options: ListResourcesOptions) {
    this.#clients = clients;
    this.#options = options;
  }

  get skills(): readonly ListedSkill[] {
    return this.#skills;
  }

  get warnings(): readonly ResourceListWarning[] {
    return this.#warnings;
  }

  async refresh(serverId?: string): Promise<void> {
    if (serverId !== undefined && !this.#clients.has(serverId)) {
      throw new GeminiMcpError('INVALID_INPUT', `no server "${serverId}" is connected`, {
        data: { serverId },
      });
    }
    const ids = [...this.#clients].flatMap(([id, client]) =>
      (serverId === undefined || id === serverId) && declaresSkills(client) ? [id] : [],
    );
    await Promise.all(
      ids.map(async (id) => {
        const client = this.#clients.get(id) as ResourceClient;
        this.#lists.set(id, await listServerSkills(client, id, this.#options));
      }),
    );
    const order = [...this.#clients.keys()].filter((id) => this.#lists.has(id));
    this.#skills = Object.freeze(order.flatMap((id) => this.#lists.get(id)?.skills ?? []));
    this.#warnings = Object.freeze(order.flatMap((id) => this.#lists.get(id)?.warnings ?? []));
  }
}

/**
 * Lists the skills of every server that declares `io.modelcontextprotocol/skills` (every page of
 * `skills/list`, at most 100 pages and 10 000 skills per server; an entry that fails the read
 * contract is left out with a `SKILL_INVALID` warning; a failed list is a `SKILLS_UNAVAILABLE`
 * warning, never a failed connection). No file of any skill is read.
 */
export async function openSkillCatalog(
  clients: ReadonlyMap<string, ResourceClient>,
  options: ListResourcesOptions = {},
): Promise<SkillCatalog> {
  const catalog = new ListedSkills(clients, options);
  await catalog.refresh();
  return catalog;
}
