/**
 * The client the MCP conformance suite (`@modelcontextprotocol/conformance`, client scenarios)
 * runs: an agent on gemini-mcp-kit's public API. It connects the scenario's server with
 * `connectServers` (OAuth through `oauthFromConfig`, the `oauth` section of its entry, or an
 * SDK provider in `auth`), then answers a scripted model turn: one functionCall per tool the
 * server offers, run with `answerCalls`. The "browser" of an authorization is played here: it
 * GETs the authorization URL and follows the redirects back to the loopback listener.
 *
 * Usage (by the suite): MCP_CONFORMANCE_SCENARIO=<name> [MCP_CONFORMANCE_CONTEXT=<json>] client.ts <server-url>
 */

import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  oauthFromConfig,
  oauthProvider,
  type ServerAuth,
  type ServerAuthProvider,
} from '../../src/auth.js';
import {
  answerCalls,
  connectServers,
  type HttpServerConfig,
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

/**
 * SEP-990 (enterprise-managed authorization): the IdP's ID token exchanged at the IdP for an
 * ID-JAG, presented to the authorization server as a jwt-bearer grant (client_secret_basic).
 */
function crossAppAccess(): ServerAuthProvider {
  let tokens: OAuthTokens | undefined;
  let discovery: OAuthDiscoveryState | undefined;
  const clientInformation: OAuthClientInformationMixed = {
    client_id: context.client_id ?? '',
    client_secret: context.client_secret ?? '',
  };
  return {
    redirectUrl: undefined,
    clientMetadata: { client_name: 'gemini-mcp-kit conformance', redirect_uris: [] },
    clientInformation: () => clientInformation,
    tokens: () => tokens,
    saveTokens: (t) => {
      tokens = t;
    },
    saveDiscoveryState: (state) => {
      discovery = state;
    },
    redirectToAuthorization: () => {
      throw new Error('no browser in this flow');
    },
    saveCodeVerifier: () => undefined,
    codeVerifier: () => '',
    async prepareTokenRequest() {
      const issuer =
        discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
      const resource = discovery?.resourceMetadata?.resource;
      const exchange = await fetch(context.idp_token_endpoint ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          audience: String(issuer),
          resource: String(resource),
          subject_token: context.idp_id_token ?? '',
          subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
          client_id: context.idp_client_id ?? '',
        }),
      });
      if (!exchange.ok) throw new Error(`token exchange at the IdP: HTTP ${exchange.status}`);
      const { access_token: assertion } = (await exchange.json()) as { access_token: string };
      return new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      });
    },
  };
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
      return { entry: { url }, auth: { conformance: crossAppAccess() } };
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
      if (response !== undefined && 'error' in response) failed = true;
    }
  }
} finally {
  await servers.close();
}
process.exit(failed ? 1 : 0);
