/**
 * An MCP server (the SDK's McpServer) that uses the client's capabilities during tool calls:
 * it elicits input (form with defaults, form with a required field, URL mode, an oversized
 * form), lists the client's roots, counts roots/list_changed and reports the capabilities the
 * client declared. In memory via `createCapabilityServer()`, or over stdio when run as a script.
 */
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** The conformance suite's elicitation-defaults form (SEP-1034): every field has a default. */
export const DEFAULTS_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** A booking form: a required city without default, nights with a default and bounds. */
export const BOOKING_FORM = {
  type: 'object',
  properties: {
    city: { type: 'string', title: 'City', minLength: 2 },
    nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 30, default: 1 },
    extras: {
      type: 'array',
      title: 'Extras',
      items: {
        anyOf: [
          { const: 'breakfast', title: 'Breakfast' },
          { const: 'parking', title: 'Parking' },
        ],
      },
    },
  },
  required: ['city', 'nights'],
};

/** A form of `count` text fields (to exceed a client's size bound). */
function bigForm(count) {
  const properties = {};
  for (let i = 0; i < count; i++)
    properties[`field_${i}`] = { type: 'string', description: 'x'.repeat(100) };
  return { type: 'object', properties };
}

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/** A fresh server; `state.rootsChanged` counts roots/list_changed notifications. */
export function createCapabilityServer() {
  const mcp = new McpServer({ name: 'capability-server', version: '1.0.0' });
  const state = { rootsChanged: 0 };
  const { server } = mcp;
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    state.rootsChanged += 1;
  });
  const elicit = (params) => async () => text(await server.elicitInput(params));
  mcp.registerTool(
    'ask_defaults',
    { description: 'Elicits the defaults form' },
    elicit({ message: 'Accept with defaults', requestedSchema: DEFAULTS_FORM }),
  );
  mcp.registerTool(
    'book',
    { description: 'Elicits the booking form' },
    elicit({ message: 'Where to?', requestedSchema: BOOKING_FORM }),
  );
  mcp.registerTool(
    'ask_big',
    { description: 'Elicits a form of 300 fields (about 40 KiB)' },
    elicit({ message: 'Too big', requestedSchema: bigForm(300) }),
  );
  mcp.registerTool(
    'ask_url',
    { description: 'Elicits in URL mode' },
    elicit({
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/sign-in',
      elicitationId: 'e-1',
    }),
  );
  mcp.registerTool('roots', { description: "Lists the client's roots" }, async () =>
    text(await server.listRoots()),
  );
  mcp.registerTool(
    'roots_changed',
    { description: 'How many roots/list_changed arrived' },
    async () => text(state.rootsChanged),
  );
  mcp.registerTool(
    'client_capabilities',
    { description: 'The capabilities the client declared' },
    async () => text(server.getClientCapabilities() ?? null),
  );
  return { server: mcp, state };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await createCapabilityServer().server.connect(new StdioServerTransport());
}
