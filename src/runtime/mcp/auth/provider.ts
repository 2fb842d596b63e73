/**
 * A ready OAuth client for one MCP server, on the SDK's `OAuthClientProvider` interface:
 * dynamic registration, a URL-based client id or a pre-registered client; the authorization
 * code flow with PKCE through a loopback redirect, or client credentials for machine-to-machine
 * use; tokens and registrations kept in a {@link TokenStore}.
 */
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import {
  DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { GeminiMcpError } from '../../../errors.js';
import { quote } from '../config/quote.js';
import { createDpopKey, DPOP_ALG, dpopKeyPair, isStoredDpopKey } from './dpop-key.js';
import { checkOAuthUrl } from './endpoint-rule.js';
import { type AuthorizationResponse, LoopbackRedirect } from './loopback.js';
import { isLoopbackRedirect, JWT_BEARER_GRANT, type OAuthSettings } from './settings.js';
import { memoryTokenStore, type StoredAuthorization, type TokenStore } from './store.js';

/**
 * The optional hooks gemini-mcp-kit calls on a provider so an interactive authorization finishes
 * inside the request that needed it (a redirect listener opened first, the code awaited).
 *
 * @example
 * ```ts
 * const hooks: AuthorizationHooks = { authorizationCode: () => codeFromMyBrowserWindow() };
 * ```
 */
export interface AuthorizationHooks {
  /** Called before each authorization starts (to open a redirect listener, so `redirectUrl` is known). */
  prepareAuthorization?(): Promise<void>;
  /**
   * After `redirectToAuthorization`: resolves with what the browser brought back, the code
   * (and the redirect's `iss`, which is checked against the authorization server, RFC 9207).
   */
  authorizationCode?(): Promise<string | AuthorizationResponse>;
  /** Called when an authorization is over, done or failed (to close the redirect listener). */
  endAuthorization?(): Promise<void>;
}

/**
 * What gemini-mcp-kit takes to authorize one server: any `OAuthClientProvider` of the v2 SDK
 * (`@modelcontextprotocol/client`: its `ClientCredentialsProvider`, `PrivateKeyJwtProvider`,
 * `CrossAppAccessProvider`, your own), with the optional {@link AuthorizationHooks}.
 *
 * @example
 * ```ts
 * import { ClientCredentialsProvider } from '@modelcontextprotocol/client';
 * const provider: ServerAuthProvider = new ClientCredentialsProvider({ clientId: 'bot', clientSecret: 's3cret' });
 * ```
 */
export type ServerAuthProvider = OAuthClientProvider & AuthorizationHooks;

/** Options of {@link oauthProvider}: the `oauth` settings of a configuration file, and where things go. */
export interface OAuthProviderOptions extends Omit<OAuthSettings, 'enabled'> {
  /** The MCP server's URL: the key of its stored state. */
  serverUrl: string;
  /** Where tokens and the registration are kept; default in memory. */
  store?: TokenStore;
  /** The client name shown on consent screens; default `gemini-mcp-kit`. */
  clientName?: string;
  /**
   * Shown the authorization URL the user must open (print it, or open a browser); a loopback
   * listener takes the redirect. Without it, a flow that needs a browser fails with UNAUTHORIZED
   * naming the URL.
   */
  onAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /** How long the loopback listener waits for the browser; default 5 minutes. */
  authorizationTimeoutMs?: number;
  /**
   * For `grantType` `urn:ietf:params:oauth:grant-type:jwt-bearer` (workload identity): the
   * platform's token for this workload, asked for at each token request (platform tokens
   * rotate). Without it, the file named by `assertionFile` is read.
   */
  assertion?: () => string | Promise<string>;
}

/** The largest assertion file read, 64 KiB (a platform token is a few KiB at most). */
const MAX_ASSERTION_BYTES = 64 * 1024;

/** The authorization server metadata field listing the DPoP algorithms it accepts (RFC 9449 section 5.1). */
const DPOP_ALGS_FIELD = 'dpop_signing_alg_values_supported';

/** The redirect URI told to servers when no listener can take it (the flow then fails typed). */
const UNUSABLE_REDIRECT = 'http://127.0.0.1/oauth/callback';

class OAuthFlowProvider implements ServerAuthProvider {
  readonly #options: OAuthProviderOptions;
  readonly #store: TokenStore;
  readonly #redirect: LoopbackRedirect | undefined;
  #codeVerifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #dpop: Promise<DpopSession | undefined> | undefined;
  prepareTokenRequest?: (scope?: string) => Promise<URLSearchParams>;
  clientMetadataUrl?: string;

  constructor(options: OAuthProviderOptions) {
    this.#options = options;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
    this.#store = options.store ?? memoryTokenStore();
    const { onAuthorizationUrl } = options;
    this.#redirect =
      onAuthorizationUrl === undefined || this.#machine
        ? undefined
        : new LoopbackRedirect({
            onAuthorizationUrl,
            ...(options.redirectUri === undefined ? {} : { redirectUri: options.redirectUri }),
            ...(options.authorizationTimeoutMs === undefined
              ? {}
              : { timeoutMs: options.authorizationTimeoutMs }),
          });
    const { grantType } = options;
    if (grantType === 'client_credentials' || grantType === JWT_BEARER_GRANT) {
      this.prepareTokenRequest = async (scope) =>
        new URLSearchParams({
          grant_type: grantType,
          ...(grantType === JWT_BEARER_GRANT ? { assertion: await this.#assertion() } : {}),
          ...(scope ? { scope } : {}),
        });
    }
  }

  /** Whether no browser is involved: client credentials or a workload's jwt-bearer assertion. */
  get #machine(): boolean {
    return (
      this.#options.grantType !== undefined && this.#options.grantType !== 'authorization_code'
    );
  }

  /** The workload's platform token, from `assertion()` or `assertionFile` (bounded, trimmed). */
  async #assertion(): Promise<string> {
    const { assertion, assertionFile } = this.#options;
    if (assertion !== undefined) return assertion();
    if (assertionFile === undefined) {
      throw new GeminiMcpError(
        'UNAUTHORIZED',
        `${this.#options.serverUrl}: the jwt-bearer grant needs the workload's token (assertion or assertionFile)`,
      );
    }
    const file = await open(assertionFile);
    try {
      const buffer = Buffer.alloc(MAX_ASSERTION_BYTES + 1);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_ASSERTION_BYTES) {
        throw new GeminiMcpError(
          'UNAUTHORIZED',
          `the assertion file ${quote(assertionFile)} holds more than ${MAX_ASSERTION_BYTES} bytes: not a platform token`,
          { data: { assertionFile } },
        );
      }
      return buffer.subarray(0, bytesRead).toString('utf8').trim();
    } finally {
      await file.close();
    }
  }

  get redirectUrl(): string | undefined {
    if (this.#machine) return undefined;
    return this.#redirect?.url?.href ?? this.#options.redirectUri ?? UNUSABLE_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#options.scopes?.join(' ');
    const secret = this.#options.clientSecret !== undefined;
    return {
      client_name: this.#options.clientName ?? 'gemini-mcp-kit',
      redirect_uris: this.redirectUrl === undefined ? [] : [this.redirectUrl],
      grant_types: this.#machine
        ? [this.#options.grantType ?? 'client_credentials']
        : ['authorization_code', 'refresh_token'],
      response_types: this.#machine ? [] : ['code'],
      token_endpoint_auth_method: secret ? 'client_secret_basic' : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  async #load(): Promise<StoredAuthorization> {
    return (await this.#store.load(this.#options.serverUrl)) ?? {};
  }

  async #update(change: (stored: StoredAuthorization) => StoredAuthorization): Promise<void> {
    await this.#store.save(this.#options.serverUrl, change(await this.#load()));
  }

  async clientInformation(
    context?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const stored = (await this.#load()).clientInformation;
    const { clientId, clientSecret } = this.#options;
    if (clientId !== undefined) {
      const configured = {
        client_id: clientId,
        ...(clientSecret === undefined ? {} : { client_secret: clientSecret }),
      };
      if (stored?.client_id === clientId) return { ...stored, ...configured };
      // A pre-registered client belongs to the authorization server it is first used with.
      return context === undefined ? configured : { ...configured, issuer: context.issuer };
    }
    // A registration made for another redirect URI (another port) cannot finish this flow: register again.
    const redirect = this.redirectUrl;
    if (
      stored !== undefined &&
      redirect !== undefined &&
      'redirect_uris' in stored &&
      Array.isArray(stored.redirect_uris) &&
      !stored.redirect_uris.includes(redirect)
    ) {
      return undefined;
    }
    return stored;
  }

  async saveClientInformation(clientInformation: StoredOAuthClientInformation): Promise<void> {
    await this.#update((stored) => ({ ...stored, clientInformation }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#load()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#update((stored) => ({ ...stored, tokens }));
  }

  /**
   * The server's DPoP session (RFC 9449): its key from the store, or a new one (then stored)
   * once the authorization server's metadata lists ES256 in `dpop_signing_alg_values_supported`;
   * `undefined` (plain bearer tokens) before that or otherwise.
   */
  async dpop(): Promise<DpopSession | undefined> {
    this.#dpop ??= this.#dpopSession();
    const session = await this.#dpop;
    // Not (yet) DPoP: asked again once discovery has read the metadata.
    if (session === undefined) this.#dpop = undefined;
    return session;
  }

  async #dpopSession(): Promise<DpopSession | undefined> {
    const stored = (await this.#load()).dpopKey;
    if (isStoredDpopKey(stored)) return DpopSession.create({ keyPair: await dpopKeyPair(stored) });
    const metadata = this.#discovery?.authorizationServerMetadata;
    const algs = metadata === undefined ? undefined : Reflect.get(metadata, DPOP_ALGS_FIELD);
    if (!Array.isArray(algs) || !algs.includes(DPOP_ALG)) return undefined;
    const { key, pair } = await createDpopKey();
    await this.#update((current) => ({ ...current, dpopKey: key }));
    return DpopSession.create({ keyPair: pair });
  }

  async prepareAuthorization(): Promise<void> {
    if (this.#redirect === undefined) return;
    const stored = (await this.#load()).clientInformation;
    const registered =
      stored !== undefined && 'redirect_uris' in stored && Array.isArray(stored.redirect_uris)
        ? stored.redirect_uris.find((uri) => typeof uri === 'string' && isLoopbackRedirect(uri))
        : undefined;
    await this.#redirect.listen(
      registered === undefined ? undefined : Number(new URL(registered).port),
    );
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    checkOAuthUrl(authorizationUrl.href, 'the authorization URL');
    if (this.#redirect === undefined) {
      throw new GeminiMcpError(
        'UNAUTHORIZED',
        `${this.#options.serverUrl} needs the user to authorize in a browser (${authorizationUrl.origin}${authorizationUrl.pathname}), and no onAuthorizationUrl was given to show it`,
        { data: { serverUrl: this.#options.serverUrl, authorizationUrl: authorizationUrl.href } },
      );
    }
    await this.#redirect.open(
      authorizationUrl,
      authorizationUrl.searchParams.get('state') ?? undefined,
    );
  }

  async authorizationCode(): Promise<AuthorizationResponse> {
    if (this.#redirect === undefined)
      throw new GeminiMcpError('UNAUTHORIZED', 'no redirect listener');
    return this.#redirect.code();
  }

  async endAuthorization(): Promise<void> {
    await this.#redirect?.close();
  }

  state(): string {
    return randomBytes(16).toString('base64url');
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) {
      throw new GeminiMcpError(
        'UNAUTHORIZED',
        'no authorization is in progress (no PKCE code verifier)',
      );
    }
    return this.#codeVerifier;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    if (this.#discovery !== undefined) return this.#discovery;
    const { authorizationUrl, tokenUrl } = this.#options;
    if (tokenUrl === undefined || (authorizationUrl === undefined && !this.#machine))
      return undefined;
    const issuer = new URL(tokenUrl).origin;
    return {
      authorizationServerUrl: issuer,
      authorizationServerMetadata: {
        issuer,
        authorization_endpoint: authorizationUrl ?? tokenUrl,
        token_endpoint: tokenUrl,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      },
    };
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    if (scope === 'all' || scope === 'verifier') this.#codeVerifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    // The DPoP key stays: it is this client's, not the authorization server's.
    await this.#update(({ tokens, clientInformation, dpopKey }) => ({
      ...(dpopKey === undefined ? {} : { dpopKey }),
      ...(scope === 'tokens' || scope === 'all' || tokens === undefined ? {} : { tokens }),
      ...(scope === 'client' || scope === 'all' || clientInformation === undefined
        ? {}
        : { clientInformation }),
    }));
  }
}

/**
 * An OAuth client for one MCP server, ready for `connectServers`' `auth` option. With
 * `onAuthorizationUrl`, the authorization code flow (PKCE) runs through a loopback listener
 * on 127.0.0.1 that waits for the browser; with `grantType: 'client_credentials'` no browser
 * is involved. Discovery (RFC 9728, RFC 8414), registration (dynamic, or `clientMetadataUrl`,
 * or `clientId`), token refresh and scope step-up are the SDK's.
 *
 * @example
 * ```ts
 * const servers = await connectServers(
 *   { mcpServers: { docs: { url: 'https://docs.example.com/mcp' } } },
 *   {
 *     auth: {
 *       docs: oauthProvider({
 *         serverUrl: 'https://docs.example.com/mcp',
 *         store: fileTokenStore(),
 *         onAuthorizationUrl: (url) => console.error(`Open ${url} to authorize docs`),
 *       }),
 *     },
 *   },
 * );
 * ```
 */
export function oauthProvider(options: OAuthProviderOptions): ServerAuthProvider {
  return new OAuthFlowProvider(options);
}
