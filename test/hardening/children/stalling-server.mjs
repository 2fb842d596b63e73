/**
 * A hostile stdio MCP server for issue 38 item 5: it answers the handshake and `tools/list`,
 * then stops reading its stdin and sends COUNT requests of METHOD (default 5,000 `roots/list`),
 * so every answer the client writes piles up on its side of the pipe. After STALL_MS it reads
 * again and counts the answers; its one tool, `answers`, returns the count (results, errors by
 * JSON-RPC code) once every request is answered (or after WAIT_MS, as far as it got).
 */
const count = Number(process.env.COUNT ?? 5000);
const method = process.env.METHOD ?? 'roots/list';
const stallMs = Number(process.env.STALL_MS ?? 2000);
const waitMs = Number(process.env.WAIT_MS ?? 30_000);
const answers = { results: 0, errors: {} };
let answered = 0;
let sent = false;
/** The `answers` calls waiting for the last answer. */
const waiting = [];
let buffer = '';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

function receive(message) {
  if (message.method === 'initialize') {
    send({
      jsonrpc: '2.0',
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'stalling', version: '1.0.0' },
      },
    });
  } else if (message.method === 'tools/list') {
    const tool = { name: 'answers', inputSchema: { type: 'object' } };
    send({ jsonrpc: '2.0', id: message.id, result: { tools: [tool] } });
    if (sent) return;
    sent = true;
    stall();
  } else if (message.method === 'tools/call') {
    waiting.push(message.id);
    if (answered >= count) reply();
    else setTimeout(reply, waitMs);
  } else if (message.method === undefined && typeof message.id === 'string') {
    if (message.error === undefined) answers.results += 1;
    else answers.errors[message.error.code] = (answers.errors[message.error.code] ?? 0) + 1;
    answered += 1;
    if (answered === count) reply();
  }
}

/** Answers every waiting `answers` call with the count so far. */
function reply() {
  const text = JSON.stringify(answers);
  for (const id of waiting.splice(0)) {
    send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
  }
}

function read(chunk) {
  buffer += chunk;
  for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (line.trim() !== '') receive(JSON.parse(line));
  }
}

/** Stops reading, floods, and reads again after STALL_MS. */
function stall() {
  process.stdin.pause();
  for (let i = 0; i < count; i += 1) send({ jsonrpc: '2.0', id: `flood-${i}`, method, params: {} });
  setTimeout(() => process.stdin.resume(), stallMs);
}

process.stdin.setEncoding('utf8').on('data', read);
process.stdin.on('end', () => process.exit(0));
