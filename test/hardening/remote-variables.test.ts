// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configurations under test write ${...} variables literally
/**
 * Issue 38 (item 12; unit tier: in process). A configuration that sends an environment
 * variable's value to a remote server (in its URL or a header) says so: one warning naming the
 * variable and the server, unless the variable is listed as allowed (the library's
 * `allowRemoteVariables` option, or the configuration's own top-level key of that name). It used
 * to go out without a word. Unset variables are warned about boundedly: 1,000,000 `$A` used to
 * give 1,000,000 warnings; now the first five, then one count.
 */
import { describe, expect, it } from 'vitest';
import { parseServersConfig } from '../../src/runtime/mcp/config/index.js';
import type { ConfigReadOptions, ConfigWarning } from '../../src/runtime/mcp/config/types.js';

const env = { SECRET: 's3cret', TOKEN: 't0ken', HOST: 'api.example.com' };

function warningsOf(config: unknown, options: ConfigReadOptions = {}): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  parseServersConfig(config, { env, ...options, onWarning: (w) => warnings.push(w) });
  return warnings;
}

const remote = {
  mcpServers: {
    api: {
      url: 'https://api.example.com/mcp?key=${env:SECRET}',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    },
  },
};

describe('issue 38 item 12: environment values sent to a remote server are announced', () => {
  it('a variable in a remote URL and one in a header: a warning each, naming the variable and the server', () => {
    const warnings = warningsOf(remote);
    expect(warnings).toEqual([
      {
        code: 'VARIABLE_SENT_REMOTE',
        path: '/mcpServers/api/url',
        message: expect.stringMatching(/SECRET.*"api".*api\.example\.com.*allowRemoteVariables/),
      },
      {
        code: 'VARIABLE_SENT_REMOTE',
        path: '/mcpServers/api/headers/Authorization',
        message: expect.stringMatching(/TOKEN.*"api".*header "Authorization"/),
      },
    ]);
  });

  it('every variable form counts (VS Code ${env:NAME}, Claude Code ${NAME:-default}, gemini-cli $NAME)', () => {
    const vscode = { servers: { s: { type: 'http', url: 'https://h.example/${env:SECRET}' } } };
    const gemini = { mcpServers: { g: { httpUrl: 'https://h.example/$SECRET' } } };
    const claude = { mcpServers: { c: { type: 'http', url: 'https://h.example/${TOKEN:-x}' } } };
    expect(warningsOf(vscode).map((w) => w.code)).toEqual(['VARIABLE_SENT_REMOTE']);
    expect(warningsOf(gemini, { format: 'gemini-cli' }).map((w) => w.code)).toEqual([
      'VARIABLE_SENT_REMOTE',
    ]);
    expect(warningsOf(claude).map((w) => w.code)).toEqual(['VARIABLE_SENT_REMOTE']);
  });

  it('a loopback server, an allowed name (library option or config key) and a stdio env stay silent', () => {
    const loopback = {
      mcpServers: { l: { url: 'http://127.0.0.1:3000/mcp', headers: { A: '${env:SECRET}' } } },
    };
    expect(warningsOf(loopback)).toEqual([]);
    expect(warningsOf(remote, { allowRemoteVariables: ['SECRET', 'TOKEN'] })).toEqual([]);
    expect(warningsOf({ ...remote, allowRemoteVariables: ['SECRET', 'TOKEN'] })).toEqual([]);
    const stdio = { mcpServers: { s: { command: 'node', env: { KEY: '${env:SECRET}' } } } };
    expect(warningsOf(stdio)).toEqual([]);
  });

  it('1,000,000 unset variables give six warnings: the first five and a count', () => {
    const config = { mcpServers: { g: { command: 'node', args: ['$A'.repeat(1_000_000)] } } };
    const warnings = warningsOf(config, { format: 'gemini-cli', env: {} });
    expect(warnings.length).toBe(6);
    expect(warnings[5]!.message).toContain('999,995 more');
  });
});
