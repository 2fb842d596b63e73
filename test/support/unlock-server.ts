/**
 * A real SDK McpServer with an "unlock more tools" flow: calling `unlock` registers the tool
 * `open_vault`, which makes the SDK send `notifications/tools/list_changed` before the call's
 * result. `report` sends the progress notifications it is given before it answers. Run over
 * stdio with `node --import tsx test/support/unlock-server.ts`, or in memory with
 * {@link inMemoryUnlockClient}.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** The tool `unlock` adds. */
export const UNLOCKED_TOOL = 'open_vault';

/** Builds the server (not yet connected). */
function createUnlockServer(): McpServer {
  const server = new McpServer({ name: 'unlock-test', version: '1.0.0' });
  let unlocked = false;
  server.registerTool('unlock', { description: 'Unlocks the vault tools.' }, async () => {
    if (!unlocked) {
      unlocked = true;
      server.registerTool(UNLOCKED_TOOL, { description: 'Opens the vault.' }, async () => ({
        content: [{ type: 'text', text: 'the vault is open' }],
      }));
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
