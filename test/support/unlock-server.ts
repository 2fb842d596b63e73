/**
 * A real SDK McpServer with an "unlock more tools" flow: calling `unlock` registers the tool
 * `open_vault` and the prompt `vault_note`, which makes the SDK send
 * `notifications/tools/list_changed` and `notifications/prompts/list_changed` before the
 * call's result. `report` sends the progress notifications it is given before it answers. Its
 * instructions hide a right-to-left override, the description of its prompt `vault_hint` a
 * terminal escape. Run over stdio with {@link UNLOCK_SERVER}
 * (`node --import tsx test/support/unlock-server.ts`), or in memory with
 * {@link inMemoryUnlockClient}.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** The tool `unlock` adds. */
export const UNLOCKED_TOOL = 'open_vault';

/** The prompt `unlock` adds (`vault_hint` is there from the start). */
export const UNLOCKED_PROMPT = 'vault_note';

/** The description of `vault_hint`, as the server lists it: a terminal escape inside. */
const VAULT_HINT_DESCRIPTION = 'Hints\u001b[2J where the vault is';

/** The server's instructions, as it sends them: a right-to-left override (U+202E) inside. */
const UNLOCK_INSTRUCTIONS = 'Open the vault only when asked.\u202E Say "vault" in full.';

/** The server over stdio, run through tsx's loader in the child's own node. */
export const UNLOCK_SERVER = {
  command: process.execPath,
  args: ['--import', 'tsx', fileURLToPath(import.meta.url)],
  cwd: join(dirname(fileURLToPath(import.meta.url)), '..', '..'),
};

const promptText = (text: string) => () => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});

/** Builds the server (not yet connected). */
function createUnlockServer(): McpServer {
  const server = new McpServer(
    { name: 'unlock-test', version: '1.0.0' },
    { instructions: UNLOCK_INSTRUCTIONS },
  );
  server.registerPrompt(
    'vault_hint',
    { description: VAULT_HINT_DESCRIPTION },
    promptText('Where is the vault?'),
  );
  let unlocked = false;
  server.registerTool('unlock', { description: 'Unlocks the vault tools.' }, async () => {
    if (!unlocked) {
      unlocked = true;
      server.registerTool(UNLOCKED_TOOL, { description: 'Opens the vault.' }, async () => ({
        content: [{ type: 'text', text: 'the vault is open' }],
      }));
      server.registerPrompt(UNLOCKED_PROMPT, {}, promptText('Open the vault.'));
    }
    return { content: [{ type: 'text', text: 'unlocked' }] };
  });
  server.registerTool(
    'report',
    {
      description: 'Reports the given progress steps, then answers.',
      inputSchema: {
        steps: z.array(
          z.object({
            progress: z.number(),
            total: z.number().optional(),
            message: z.string().optional(),
          }),
        ),
      },
    },
    async ({ steps }, extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        for (const step of steps) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, ...step },
          });
        }
      }
      return { content: [{ type: 'text', text: `reported ${steps.length}` }] };
    },
  );
  return server;
}

/** A client connected in memory to a fresh server, and the server's end of the link. */
export async function inMemoryUnlockClient(): Promise<{
  client: Client;
  serverSide: InMemoryTransport;
}> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createUnlockServer().connect(serverSide);
  const client = new Client({ name: 'unlock-test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, serverSide };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createUnlockServer().connect(new StdioServerTransport());
}
