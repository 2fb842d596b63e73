/**
 * A deliberately misbehaving MCP server, speaking raw JSON-RPC (no SDK, so it can send what
 * the SDK's server would refuse to): malformed results, 50 MB results, crashes, calls that
 * never answer. Run as a script it serves stdio; `createFaultHandler` serves any transport
 * (the tests wire it to the SDK's InMemoryTransport).
 *
 * Tools (listed three per page, so clients must follow `nextCursor`):
 * echo {text, delayMs?}, hang, crash, malformed {meta?}, not_object {as?}, huge {bytes}, fail, rpc_error,
 * bad_structured, good_structured, add_tool, cancellations (also counts tools/list requests),
 * drip {text} (the answer trickles
 * out a few bytes at a time), garbage (a line that is not JSON-RPC, then silence), storm {count}
 * (a burst of notifications/tools/list_changed).
 *
 * Script mode reads faults from the environment: FAULT_CRASH_AT=N exits at the N-th tools/call,
 * FAULT_TOOL_COUNT=N lists N more tools (`tool_0` ...), FAULT_PAGE_SIZE sets the page size,
 * FAULT_PID_FILE=path writes the server's pid there, FAULT_EXTRA_TOOL=name lists one more tool, FAULT_IGNORE_EOF=1 keeps running after
 * stdin closes (as a server that ignores EOF does).
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const DEFAULT_PAGE_SIZE = 3;

const objectSchema = (properties = {}, required = []) => ({
  type: 'object',
  properties,
  required,
});

const STRUCTURED_SCHEMA = objectSchema({ n: { type: 'number' } }, ['n']);

const BASE_TOOLS = [
  {
    name: 'echo',
    description: 'Returns its text, after delayMs.',
    inputSchema: objectSchema({ text: { type: 'string' }, delayMs: { type: 'number' } }, ['text']),
  },
  { name: 'hang', description: 'Never answers.', inputSchema: objectSchema() },
  { name: 'crash', description: 'Exits the server mid-call.', inputSchema: objectSchema() },
  {
    name: 'malformed',
    description:
      'Returns a malformed result; with `meta`, valid content under a `_meta` that is a string.',
    inputSchema: objectSchema({ meta: { type: 'boolean' } }),
  },
  {
    name: 'not_object',
    description: 'Returns a result that is not an object: a string, or `as` an array or null.',
    inputSchema: objectSchema({ as: { type: 'string', enum: ['string', 'array', 'null'] } }),
  },
  {
    name: 'huge',
    description: 'Returns a text of `bytes` bytes.',
    inputSchema: objectSchema({ bytes: { type: 'number' } }, ['bytes']),
  },
  { name: 'fail', description: 'Returns an isError result.', inputSchema: objectSchema() },
  { name: 'rpc_error', description: 'Answers with a JSON-RPC error.', inputSchema: objectSchema() },
  {
    name: 'bad_structured',
    description: 'Returns structuredContent that fails its outputSchema.',
    inputSchema: objectSchema(),
    outputSchema: STRUCTURED_SCHEMA,
  },
  {
    name: 'good_structured',
    description: 'Returns structuredContent that meets its outputSchema.',
    inputSchema: objectSchema(),
    outputSchema: STRUCTURED_SCHEMA,
  },
  {
    name: 'add_tool',
    description: 'Adds a tool and sends notifications/tools/list_changed.',
    inputSchema: objectSchema(),
  },
  {
    name: 'cancellations',
    description:
      'The request ids this server was told to cancel, and the tools/list requests it served.',
    inputSchema: objectSchema(),
  },
  {
    name: 'drip',
    description: 'Returns its text, written out a few bytes at a time.',
    inputSchema: objectSchema({ text: { type: 'string' } }, ['text']),
  },
  {
    name: 'garbage',
    description: 'Writes a line that is not JSON-RPC.',
    inputSchema: objectSchema(),
  },
  {
    name: 'storm',
    description: 'Sends `count` notifications/tools/list_changed, then answers.',
    inputSchema: objectSchema({ count: { type: 'number' } }, ['count']),
  },
];

const text = (value) => ({ content: [{ type: 'text', text: value }] });

/**
 * A JSON-RPC message handler implementing the fault server over any transport.
 * `send` delivers one message to the client; `exit` ends the server (crash); `raw`, where the
 * transport has bytes (stdio), writes text as it is (for drip and garbage).
 *
 * @param {{send: (message: object) => void, exit: () => void, raw?: (text: string) => void,
 *   crashAtCall?: number, extraTools?: number, pageSize?: number}} io
 * @returns {(message: any) => void}
 */
export function createFaultHandler({
  send,
  exit,
  raw,
  crashAtCall,
  extraTools = 0,
  pageSize = DEFAULT_PAGE_SIZE,
  extraName,
}) {
  const tools = [
    ...BASE_TOOLS,
    ...Array.from({ length: extraTools }, (_, i) => ({
      name: `tool_${i}`,
      description: `Generated tool number ${i}.`,
      inputSchema: objectSchema({ value: { type: 'string' } }),
    })),
    ...(extraName ? [{ name: extraName, inputSchema: objectSchema() }] : []),
  ];
  let calls = 0;
  let lists = 0;
  const cancelled = [];
  const pending = new Map();
  const reply = (id, result) => {
    if (!pending.delete(id)) return;
    send({ jsonrpc: '2.0', id, result });
  };

  const call = (id, name, args) => {
    switch (name) {
      case 'echo':
        if (typeof args.delayMs === 'number' && args.delayMs > 0) {
          setTimeout(() => reply(id, text(String(args.text))), args.delayMs);
        } else reply(id, text(String(args.text)));
        return;
      case 'hang':
        return;
      case 'crash':
        setTimeout(exit, 20);
        return;
      case 'malformed':
        if (args.meta === true) return reply(id, { ...text('fine'), _meta: 'not an object' });
        return reply(id, { content: 'not a list of blocks', isError: 'sometimes' });
      case 'not_object':
        if (args.as === 'array') return reply(id, [{ type: 'text', text: 'in an array' }]);
        if (args.as === 'null') return reply(id, null);
        return reply(id, 'a string where a result object belongs');
      case 'huge':
        return reply(id, text('x'.repeat(Number(args.bytes))));
      case 'fail':
        return reply(id, { ...text('the tool failed on purpose'), isError: true });
      case 'rpc_error':
        pending.delete(id);
        return send({
          jsonrpc: '2.0',
          id,
          error: { code: -32602, message: 'bad params on purpose' },
        });
      case 'bad_structured':
        return reply(id, { ...text('{"n":"one"}'), structuredContent: { n: 'one' } });
      case 'good_structured':
        return reply(id, { ...text('{"n":1}'), structuredContent: { n: 1 } });
      case 'add_tool': {
        const added = `extra_${tools.length - BASE_TOOLS.length + 1}`;
        tools.push({ name: added, description: 'Added at run time.', inputSchema: objectSchema() });
        reply(id, text(added));
        return send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      }
      case 'cancellations':
        return reply(id, {
          ...text(JSON.stringify(cancelled)),
          structuredContent: { cancelled, lists },
        });
      case 'drip': {
        if (!raw || !pending.delete(id)) return reply(id, text(String(args.text)));
        const line = `${JSON.stringify({ jsonrpc: '2.0', id, result: text(String(args.text)) })}\n`;
        const chunks = line.match(/[\s\S]{1,7}/g) ?? [];
        for (const [i, chunk] of chunks.entries()) setTimeout(() => raw(chunk), i * 3);
        return;
      }
      case 'garbage':
        if (raw) raw('{"jsonrpc": "2.0", "id": this is not json\n');
        return;
      case 'storm':
        for (let i = 0; i < Number(args.count); i++) {
          send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        }
        return reply(id, text(`sent ${Number(args.count)} list_changed`));
      default:
        if (tools.some((t) => t.name === name)) return reply(id, text(`${name} ran`));
        pending.delete(id);
        return send({ jsonrpc: '2.0', id, error: { code: -32602, message: `no tool ${name}` } });
    }
  };

  return (message) => {
    const { id, method, params = {} } = message;
    if (method === 'notifications/cancelled') {
      cancelled.push(params.requestId);
      pending.delete(params.requestId);
      return;
    }
    if (id === undefined) return;
    if (method === 'initialize') {
      return send({
        jsonrpc: '2.0',
        id,
        result: {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: 'fault-server', version: '1.0.0' },
        },
      });
    }
    if (method === 'tools/list') {
      lists += 1;
      const start = params.cursor === undefined ? 0 : Number(params.cursor);
      const page = tools.slice(start, start + pageSize);
      const next = start + pageSize < tools.length ? String(start + pageSize) : undefined;
      return send({
        jsonrpc: '2.0',
        id,
        result: next === undefined ? { tools: page } : { tools: page, nextCursor: next },
      });
    }
    if (method === 'tools/call') {
      calls += 1;
      if (calls === crashAtCall) return exit();
      pending.set(id, true);
      return call(id, params.name, params.arguments ?? {});
    }
    send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const number = (name) => (process.env[name] ? Number(process.env[name]) : undefined);
  const handle = createFaultHandler({
    send: (message) => process.stdout.write(`${JSON.stringify(message)}\n`),
    raw: (chunk) => process.stdout.write(chunk),
    exit: () => process.exit(1),
    crashAtCall: number('FAULT_CRASH_AT'),
    extraTools: number('FAULT_TOOL_COUNT'),
    extraName: process.env.FAULT_EXTRA_TOOL,
    pageSize: number('FAULT_PAGE_SIZE'),
  });
  if (process.env.FAULT_PID_FILE) writeFileSync(process.env.FAULT_PID_FILE, String(process.pid));
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => handle(JSON.parse(line)));
  if (process.env.FAULT_IGNORE_EOF) setInterval(() => undefined, 1000);
  else lines.on('close', () => process.exit(0));
}
