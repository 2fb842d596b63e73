/**
 * The example bitcoin server over HTTP on 127.0.0.1, with the SDK's own server transports:
 * Streamable HTTP (stateless, one server per request) and the legacy HTTP+SSE transport
 * (GET /sse opens the stream, POST /messages?sessionId=... carries the client's messages;
 * anything else, a POST to /sse included, is a 404, as an SSE-only server answers).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpSdkServer } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createBitcoinServer } from '../../examples/bitcoin-server.js';

/** A running HTTP server: its base URL, what it was asked, and how to stop it. */
export interface RunningHttpServer {
  /** `http://127.0.0.1:PORT` (or the host it was started on) */
  readonly origin: string;
  /** `METHOD path authorization` of each request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

async function listen(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
  requests: string[],
  host = '127.0.0.1',
): Promise<RunningHttpServer> {
  const http: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url} ${request.headers.authorization ?? '-'}`);
    handle(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * The bitcoin server (or the server `create` makes, one per request) on Streamable HTTP at
 * `/mcp`, on `host` (default 127.0.0.1; another loopback address such as 127.0.0.2 stands for a
 * host that is not `localhost` by name).
 */
export function startStreamableHttpServer(
  host?: string,
  create: () => { connect: McpSdkServer['connect']; close(): Promise<void> } = createBitcoinServer,
): Promise<RunningHttpServer> {
  return listen(
    (request, response) => {
      if (!request.url?.startsWith('/mcp')) {
        response.writeHead(404).end('not found');
        return;
      }
      const server = create();
      const transport = new StreamableHTTPServerTransport({});
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(request, response));
    },
    [],
    host,
  );
}

/** The bitcoin server on the legacy HTTP+SSE transport: GET `/sse`, POST `/messages`. */
export function startSseServer(): Promise<RunningHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();
  return listen((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', response);
      const server = createBitcoinServer();
      sessions.set(transport.sessionId, transport);
      response.on('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      void server.connect(transport);
      return;
    }
    const session = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (request.method === 'POST' && url.pathname === '/messages' && session !== undefined) {
      void session.handlePostMessage(request, response);
      return;
    }
    response.writeHead(404).end('not found');
  }, []);
}
