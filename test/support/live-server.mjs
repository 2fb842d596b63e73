/**
 * An MCP server over stdio for the Live API tests, speaking raw JSON-RPC (newline-delimited),
 * in one of two roles (argv[2]):
 * - `fast`: `add {a, b}` and `upper {text}` answer at once; `retire` removes `upper` and sends
 *   `notifications/tools/list_changed`.
 * - `slow`: `survey {steps, stepMs}` (declared `execution.taskSupport: "optional"`: a task, so
 *   long-running) sends a progress notification every `stepMs`, then answers; `wait {ms}`
 *   sends one progress notification, then answers after `ms` unless cancelled; `ledger` returns
 *   every tools/call it received (request id, tool) and every `notifications/cancelled`.
 */
import { createInterface } from 'node:readline';

const role = process.argv[2];
const object = (properties = {}, required = []) => ({ type: 'object', properties, required });

const TOOLS = {
  fast: [
    {
      name: 'add',
      description: 'Adds two numbers.',
      inputSchema: object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    },
    {
      name: 'upper',
      description: 'Upper-cases a text.',
      inputSchema: object({ text: { type: 'string' } }, ['text']),
    },
    { name: 'retire', description: 'Removes the upper tool.', inputSchema: object() },
  ],
  slow: [
    {
      name: 'survey',
      description: 'Surveys for a while, reporting progress.',
      inputSchema: object({ steps: { type: 'number' }, stepMs: { type: 'number' } }, ['steps']),
      execution: { taskSupport: 'optional' },
    },
    {
      name: 'wait',
      description: 'Waits, then answers.',
      inputSchema: object({ ms: { type: 'number' } }, ['ms']),
    },
    { name: 'ledger', description: 'What this server was asked.', inputSchema: object() },
  ],
}[role];

if (TOOLS === undefined) {
  process.stderr.write(`live-server: role must be fast or slow, got ${role}\n`);
  process.exit(2);
}

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const calls = [];
const cancelled = [];
const timers = new Map();

function progress(token, value, total, message) {
  if (token === undefined) return;
  send({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: token, progress: value, total, message },
  });
}

function call(id, name, args, token) {
  calls.push({ requestId: id, tool: name });
  const reply = (result) => {
    timers.delete(id);
    send({ jsonrpc: '2.0', id, result });
  };
  switch (name) {
    case 'add':
      return reply({
        ...text(String(args.a + args.b)),
        structuredContent: { sum: args.a + args.b },
      });
    case 'upper':
      return reply(text(String(args.text).toUpperCase()));
    case 'retire': {
      const at = TOOLS.findIndex((tool) => tool.name === 'upper');
      if (at !== -1) TOOLS.splice(at, 1);
      reply(text('upper retired'));
      return send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    }
    case 'survey': {
      const steps = Number(args.steps);
      const stepMs = Number(args.stepMs ?? 20);
      let done = 0;
      const tick = () => {
        done += 1;
        progress(token, done, steps, `step ${done} of ${steps}`);
        if (done < steps) timers.set(id, setTimeout(tick, stepMs));
        else reply({ ...text(`surveyed ${steps} sites`), structuredContent: { sites: steps } });
      };
      timers.set(id, setTimeout(tick, stepMs));
      return;
    }
    case 'wait':
      progress(token, 0, 1, 'waiting');
      timers.set(
        id,
        setTimeout(() => reply(text('waited')), Number(args.ms)),
      );
      return;
    case 'ledger':
      return reply({
        ...text(JSON.stringify({ calls, cancelled })),
        structuredContent: { calls, cancelled },
      });
    default:
      return send({ jsonrpc: '2.0', id, error: { code: -32602, message: `no tool ${name}` } });
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params = {} } = JSON.parse(line);
  if (method === 'notifications/cancelled') {
    cancelled.push(params.requestId);
    clearTimeout(timers.get(params.requestId));
    timers.delete(params.requestId);
    return;
  }
  if (id === undefined) return;
  if (method === 'initialize') {
    return send({
      jsonrpc: '2.0',
      id,
      result: {
        protocolVersion: params.protocolVersion ?? '2025-06-18',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `live-${role}`, version: '1.0.0' },
      },
    });
  }
  if (method === 'tools/list') return send({ jsonrpc: '2.0', id, result: { tools: TOOLS } });
  if (method === 'tools/call')
    return call(id, params.name, params.arguments ?? {}, params._meta?.progressToken);
  if (method === 'ping') return send({ jsonrpc: '2.0', id, result: {} });
  send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
});
process.stdin.on('end', () => process.exit(0));
