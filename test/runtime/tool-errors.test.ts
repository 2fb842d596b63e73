/**
 * Issue 32 item 1 (unit tier): a failed call is classified by the codes of the SDK that threw,
 * v2's `SdkError` (`SdkErrorCode`) and `ProtocolError`, and v1's `McpError` for a v1 client an
 * application passes, never by matching v2 message text.
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ResolvedCall } from '../../src/adapter/types.js';
import { type FailureContext, toolErrorFrom } from '../../src/runtime/turn/tool-errors.js';

const call: ResolvedCall = {
  callId: 'c1',
  exposedName: 'slow',
  serverId: 'a',
  name: 'slow',
  arguments: {},
  tool: { name: 'slow', inputSchema: { type: 'object' } },
};

const context = (more: Partial<FailureContext> = {}): FailureContext => ({
  call,
  cancelled: false,
  clientClosed: false,
  timeoutMs: 5000,
  ...more,
});

describe('issue 32 item 1: tool errors from either SDK, by code', () => {
  it('v2 SdkError REQUEST_TIMEOUT is TIMEOUT, whatever its message says', () => {
    const error = new SdkError(SdkErrorCode.RequestTimeout, 'anything at all');
    expect(toolErrorFrom(error, context())).toEqual({
      code: 'TIMEOUT',
      message: 'tool "slow" on server "a" did not answer within 5000 ms; the request was cancelled',
    });
  });

  it('v2 SdkError CONNECTION_CLOSED is CLIENT_CLOSED after our close, else TRANSPORT with the transport error', () => {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    expect(toolErrorFrom(error, context({ clientClosed: true })).code).toBe('CLIENT_CLOSED');
    expect(
      toolErrorFrom(error, context({ transportError: new Error('the server exited') })),
    ).toEqual({
      code: 'TRANSPORT',
      message:
        'the connection to server "a" closed before tool "slow" on server "a" answered (the server exited)',
    });
  });

  it('v2 SdkError NOT_CONNECTED is CLIENT_CLOSED: the call was not run', () => {
    const error = new SdkError(SdkErrorCode.NotConnected, 'Not connected');
    expect(toolErrorFrom(error, context())).toMatchObject({
      code: 'CLIENT_CLOSED',
      message: 'server "a" is not connected; tool "slow" on server "a" was not run',
    });
  });

  it("v2 ProtocolError is the server's PROTOCOL_ERROR with its code and data, -32001 included (only v1 means a timeout by it)", () => {
    expect(
      toolErrorFrom(new ProtocolError(-32602, 'bad arguments', { at: '/x' }), context()),
    ).toEqual({
      code: 'PROTOCOL_ERROR',
      message: 'tool "slow" on server "a" failed: bad arguments',
      data: { mcpCode: -32602, mcpData: { at: '/x' } },
    });
    expect(toolErrorFrom(new ProtocolError(-32001, 'busy'), context()).code).toBe('PROTOCOL_ERROR');
  });

  it("a v1 client's errors keep their meaning: McpError -32001 is TIMEOUT, -32000 a closed connection, 'Not connected' CLIENT_CLOSED", () => {
    expect(toolErrorFrom(new McpError(-32001, 'Request timed out'), context()).code).toBe(
      'TIMEOUT',
    );
    expect(toolErrorFrom(new McpError(-32000, 'Connection closed'), context()).code).toBe(
      'TRANSPORT',
    );
    expect(toolErrorFrom(new Error('Not connected'), context()).code).toBe('CLIENT_CLOSED');
  });
});
