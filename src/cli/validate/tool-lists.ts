/**
 * `validate --request --tool-lists FILE`: the servers' tool lists a request was built from, as the
 * tool set that maps each declared name back to its server and tool. Offline: the tool set is the
 * adapter's (`buildToolSet`), no server is started.
 */

import { buildToolSet } from '../../adapter/tools/toolset.js';
import type { ServerTools, ToolSet } from '../../adapter/tools/toolset-types.js';
import { GeminiMcpError } from '../../errors.js';
import { isJsonObject } from '../../json/object.js';
import { readRegularFile } from '../../json/regular-file.js';
import { CliError } from '../cli-error.js';

/** The largest tool-lists file read (a corpus of thousands of tools is a few megabytes). */
const MAX_BYTES = 64 * 1024 * 1024;

/** The servers a value lists: `[{serverId, tools}]`, or server id to tools (or `{tools}`). */
function serversOf(file: string, value: unknown): ServerTools[] {
  if (Array.isArray(value)) return value as ServerTools[];
  if (!isJsonObject(value)) {
    throw new CliError(
      `${file}: --tool-lists takes [{serverId, tools}] or an object of server id to tools`,
    );
  }
  return Object.entries(value).map(([serverId, listed]) => ({
    serverId,
    tools: Array.isArray(listed)
      ? listed
      : isJsonObject(listed) && Array.isArray(listed.tools)
        ? listed.tools
        : [],
  }));
}

/**
 * The tool set of a `--tool-lists` file, named as `buildToolSet` names them by default
 * (`prefix: 'on-collision'`). A file that cannot be read or is not tool lists is a usage error.
 */
export async function loadToolLists(file: string): Promise<ToolSet> {
  let text: string;
  try {
    text = (await readRegularFile(file, MAX_BYTES)).toString('utf8');
  } catch (error) {
    throw new CliError(`${file}: cannot read the tool lists (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file}: the tool lists are not JSON (${(error as Error).message})`);
  }
  try {
    return buildToolSet(serversOf(file, value)).toolset;
  } catch (error) {
    if (error instanceof GeminiMcpError) {
      throw new CliError(`${file}: ${error.message}${error.path ? ` (at ${error.path})` : ''}`);
    }
    throw error;
  }
}
