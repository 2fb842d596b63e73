/**
 * The client the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios)
 * runs: an agent on gemini-mcp-kit's public API. It connects the scenario's server with
 * `connectServers` (OAuth through `oauthFromConfig`, the `oauth` section of its entry, a
 * provider of gemini-mcp-kit/auth or the SDK's in `auth`: no token exchange of its own), then
 * answers a scripted model turn: one functionCall per tool the server offers, run with
 * `answerCalls`, and one `gmk__load_skill` call per skill the server lists (MCP skills
 * extension), answered by `runConversation` against a scripted `generate`, with a supporting
 * file of each skill it loaded read through `file`. The "browser" of an authorization is played here: it
 * GETs the authorization URL and follows the redirects back to the loopback listener.
 *
 * Usage (by the suite): MCP_CONFORMANCE_SCENARIO=<name> [MCP_CONFORMANCE_CONTEXT=<json>] client.ts <server-url>
 */

import { PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import {
  enterpriseAuthProvider,
  oauthFromConfig,
  oauthProvider,
  type ServerAuth,
} from '../../src/auth.js';
import {
  answerCalls,
  connectServers,
  type HttpServerConfig,
  type ResponseInput,
  runConversation,
  type ServerConnections,
  type ToolSet,
} from '../../src/index.js';

/** The URL-based client id the suite's CIMD scenario expects. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<
  string,
  string
> & {
  /** The calls a scenario asks the client to make, with their arguments (e.g. http-custom-headers). */
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
};
if (serverUrl === undefined) {
  console.error('usage: MCP_CONFORMANCE_SCENARIO=<name> client.ts <server-url>');
  process.exit(2);
}

/** The user's browser: opens the authorization URL, follows the redirects (to the loopback listener). */
async function browser(url: URL): Promise<void> {
  const response = await fetch(url);
  console.error(`browser: ${url.origin}${url.pathname} -> ${response.status} ${response.url}`);
  await response.body?.cancel();
}

/** The server's entry and authorization, as an application would configure them. */
function setUp(url: string): { entry: HttpServerConfig; auth?: ServerAuth } {
  const everyServer = oauthFromConfig({ onAuthorizationUrl: browser });
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return {
        entry: { url },
        auth: {
          conformance: oauthProvider({
            serverUrl: url,
            grantType: 'client_credentials',
            clientId: context.client_id ?? '',
            clientSecret: context.client_secret ?? '',
          }),
        },
      };
    case 'auth/client-credentials-jwt':
      return {
        entry: { url },
        auth: {
          conformance: new PrivateKeyJwtProvider({
            clientId: context.client_id ?? '',
            privateKey: context.private_key_pem ?? '',
            algorithm: context.signing_algorithm ?? 'ES256',
          }),
        },
      };
    case 'auth/cross-app-access-complete-flow':
    // Its name in conformance 0.2.
    case 'auth/enterprise-managed-authorization':
      return {
        entry: { url },
        auth: {
          conformance: enterpriseAuthProvider({
            idpTokenEndpoint: context.idp_token_endpoint ?? '',
            idToken: context.idp_id_token ?? '',
            idpClientId: context.idp_client_id ?? '',
            clientId: context.client_id ?? '',
            clientSecret: context.client_secret ?? '',
          }),
        },
      };
    case 'auth/wif-jwt-bearer':
      // Workload identity: the platform's token for this workload, as a jwt-bearer assertion.
      return {
        entry: { url },
        auth: {
          conformance: oauthProvider({
            serverUrl: url,
            grantType: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            clientId: context.client_id ?? '',
            assertion: () => context.valid_jwt ?? '',
          }),
        },
      };
    case 'auth/pre-registration':
      // The gemini-cli `oauth` section of the entry: a pre-registered confidential client.
      return {
        entry: {
          url,
          oauth: { clientId: context.client_id ?? '', clientSecret: context.client_secret ?? '' },
        },
        auth: everyServer,
      };
    default:
      return {
        entry: { url, oauth: { clientMetadataUrl: CLIENT_METADATA_URL } },
        auth: everyServer,
      };
  }
}

/**
 * Canned arguments of the scripted model, by tool name: `json_schema_echo` gets the inputSchema
 * of the suite's 2020-12 tool as the tool set holds it (the suite checks its keywords survived).
 */
const ARGUMENTS: Record<string, (tools: ToolSet) => Record<string, unknown>> = {
  add_numbers: () => ({ a: 2, b: 3 }),
  json_schema_echo: (tools) => ({
    schema: tools.entries.find((entry) => entry.tool.name === 'json_schema_2020_12_tool')?.tool
      .inputSchema,
  }),
};

/**
 * The model's skill turns: it loads every skill listed, then reads each loaded skill's first
 * supporting file, then answers; in the no-prefetch scenario its task needs no skill, so it
 * answers at once (the skills offered in its declaration, none read). Returns whether every
 * load was answered without an error.
 */
async function loadSkills(servers: ServerConnections): Promise<boolean> {
  const listed = servers.skills.skills;
  const modelSays = (parts: object[]): ResponseInput => ({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
  });
  const loads = listed.map((skill) => ({
    functionCall: {
      name: 'gmk__load_skill',
      args: { name: skill.name, server: skill.serverId },
    },
  }));
  let turn = 0;
  let loaded = true;
  const result = await runConversation({
    toolset: servers,
    clients: servers.clients,
    skills: { servers, timeoutMs: 20_000 },
    contents: [{ role: 'user', parts: [{ text: 'Use the skills you have.' }] }],
    maxTurns: 3,
    generate: async ({ contents }) => {
      turn++;
      if (turn === 1 && scenario !== 'sep-2640-client-no-prefetch') return modelSays(loads);
      if (turn === 2) {
        const answers = contents.at(-1)?.parts ?? [];
        const files = answers.flatMap((part, index) => {
          const answer = (part as { functionResponse?: { response?: object } }).functionResponse;
          const response = answer?.response ?? {};
          console.error(
            `gmk__load_skill ${listed[index]?.name}: ${JSON.stringify(response).slice(0, 300)}`,
          );
          if ('error' in response) {
            loaded = false;
            return [];
          }
          const skill = listed[index];
          const file = skill?.entry.resources?.find((f) => f.uri !== skill.entry.uri);
          return skill === undefined || file === undefined
            ? []
            : [
                {
                  functionCall: {
                    name: 'gmk__load_skill',
                    args: { name: skill.name, server: skill.serverId, file: file.uri },
                  },
                },
              ];
        });
        if (files.length > 0) return modelSays(files);
      }
      return modelSays([{ text: 'Done.' }]);
    },
  });
  console.error(`skills: ${result.stop.reason} after ${result.turns} turn(s)`);
  return loaded;
}

const { entry, auth } = setUp(serverUrl);
const servers = await connectServers(
  { mcpServers: { conformance: entry } },
  {
    ...(auth === undefined ? {} : { auth }),
    timeoutMs: 20_000,
    // A user who accepts every form as offered: the form's defaults fill it in.
    capabilities: {
      elicitation: { onElicitation: async () => ({ action: 'accept', content: {} }) },
    },
  },
);
/**
 * A call the scenario's server does not implement (`tools/call` answered -32601, as in
 * json-schema-ref-no-deref, whose server only lists tools): answered to the model as the server's
 * refusal, which is right, so it does not fail the run. Any other error does.
 */
const unimplemented = (error: unknown): boolean =>
  typeof error === 'string' && error.includes('{"mcpCode":-32601}');
let failed = false;
try {
  // The model's turn: one call per tool offered (none when the server offers none).
  const parts = servers.toolset.entries.map((entry) => ({
    functionCall: {
      name: entry.exposedName,
      args:
        context.toolCalls?.find((call) => call.name === entry.tool.name)?.arguments ??
        ARGUMENTS[entry.tool.name]?.(servers.toolset) ??
        {},
    },
  }));
  if (scenario !== 'initialize' && parts.length > 0) {
    const answer = await answerCalls({ role: 'model', parts }, servers.toolset, servers.clients, {
      timeoutMs: 20_000,
    });
    for (const part of answer.parts) {
      const { name, response } = part.functionResponse;
      console.error(`${name}: ${JSON.stringify(response).slice(0, 300)}`);
      if (response !== undefined && 'error' in response && !unimplemented(response.error)) {
        failed = true;
      }
    }
  }
  if (scenario !== 'initialize' && servers.skills.skills.length > 0) {
    if (!(await loadSkills(servers))) failed = true;
  }
} finally {
  await servers.close();
}
process.exit(failed ? 1 : 0);
