/**
 * Issue 38 items 7 and 11 (unit tier, `npm test`): what a server's elicitation requests can
 * reach. URL mode hands `onElicitation` only an `https:` link or an `http:` one to a loopback
 * host (the rest is refused to the server with a JSON-RPC error naming the scheme), and a server
 * gets at most `requestsPerMinute` elicitations a minute (the sampling limiter, default 10): 500
 * requests at once no longer reach the callback 500 times.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { equipClient } from '../../src/runtime/mcp/features/capabilities.js';
import {
  type ElicitationOptions,
  type ElicitationQuery,
  elicitationFeature,
} from '../../src/runtime/mcp/features/elicitation.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A hostile server in memory, connected to a client that answers elicitations with `options`. */
async function hostileServer(options: Partial<ElicitationOptions> = {}) {
  const queries: ElicitationQuery[] = [];
  const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: {} });
  const client = new Client({ name: 'test', version: '0.0.0' });
  equipClient(client, 'hostile', [
    elicitationFeature({
      url: true,
      onElicitation: (query) => {
        queries.push(query);
        return { action: 'decline' };
      },
      ...options,
    }),
  ]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
  const askUrl = (url: string) =>
    server.elicitInput({ mode: 'url', message: 'sign in', url, elicitationId: 'e1' });
  const askForm = () =>
    server.elicitInput({
      mode: 'form',
      message: 'your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
  return { queries, askUrl, askForm };
}

/** The JSON-RPC error a request ended with. */
async function refusal(request: Promise<unknown>): Promise<McpError> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('issue 38 item 7: URL-mode elicitation hands only https: and loopback http: links on', () => {
  const REFUSED: [string, string][] = [
    ['javascript:alert(document.cookie)', 'javascript:'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['vbscript:msgbox("hi")', 'vbscript:'],
    ['file:///etc/passwd', 'file:'],
    ['smb://attacker.example/share', 'smb:'],
    ['ms-msdt:/id PCWDiagnostic', 'ms-msdt:'],
    ['http://attacker.example/sign-in', 'http:'],
  ];
  for (const [url, scheme] of REFUSED) {
    it(`${url}: refused to the server (InvalidParams naming ${scheme}), onElicitation never called`, async () => {
      const { queries, askUrl } = await hostileServer();
      const error = await refusal(askUrl(url));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(scheme);
      expect(error.data).toMatchObject({ code: 'INVALID_INPUT', scheme });
      expect(queries).toEqual([]);
    });
  }

  for (const url of [
    'https://auth.example.com/sign-in?state=1',
    'http://127.0.0.1:8080/callback',
    'http://localhost:3000/',
    'http://[::1]/consent',
  ]) {
    it(`${url}: reaches onElicitation`, async () => {
      const { queries, askUrl } = await hostileServer();
      expect(await askUrl(url)).toEqual({ action: 'decline' });
      expect(queries).toEqual([{ mode: 'url', message: 'sign in', url, elicitationId: 'e1' }]);
    });
  }
});

describe('issue 38 item 11: elicitation is rate-limited per server like sampling', () => {
  it('500 requests at once: 10 reach onElicitation (the default per minute), 490 refused -32010', async () => {
    const { queries, askForm } = await hostileServer();
    const outcomes = await Promise.allSettled(Array.from({ length: 500 }, () => askForm()));
    expect(queries).toHaveLength(10);
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [o.reason as McpError] : [],
    );
    expect(refused).toHaveLength(490);
    expect(refused[0]?.code).toBe(-32010);
    expect(refused[0]?.message).toContain('at most 10 request(s) per minute from server "hostile"');
    expect(refused[0]?.data).toEqual({ limit: 'requestsPerMinute' });
  });

  it('requestsPerMinute sets the limit; URL and form requests count together', async () => {
    const { queries, askForm, askUrl } = await hostileServer({ requestsPerMinute: 2 });
    await askForm();
    await askUrl('https://example.com/');
    expect((await refusal(askForm())).code).toBe(-32010);
    expect(queries).toHaveLength(2);
  });
});
