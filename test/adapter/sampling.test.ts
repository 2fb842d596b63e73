/**
 * MCP sampling <-> Gemini conversions: each request proven against GenerateContentRequest, each
 * result against McpCreateMessageResult, every loss a warning.
 */
import { describe, expect, it } from 'vitest';
import { chooseSamplingModel, modelByHints } from '../../src/adapter/sampling/model.js';
import { samplingRequest } from '../../src/adapter/sampling/request.js';
import { samplingResult } from '../../src/adapter/sampling/result.js';
import { GeminiMcpError } from '../../src/errors.js';
import {
  checkGenerateContentRequest,
  checkMcpCreateMessageRequestParams,
  checkMcpCreateMessageResult,
  checkVertexV1Beta1GenerateContentRequest,
  checkVertexV1GenerateContentRequest,
} from '../../src/generated/guards.js';
import type {
  GenerateContentResponse,
  McpCreateMessageRequestParams,
  Part,
} from '../../src/generated/types.js';
import { tool } from './helpers.js';

const PNG = Buffer.from('png bytes').toString('base64');
const WEATHER = tool('get_weather', {
  description: 'Weather of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
});
const DOTTED = tool('files.read');

const params = (
  extra: Partial<McpCreateMessageRequestParams> = {},
): McpCreateMessageRequestParams => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
  maxTokens: 100,
  ...extra,
});

/** The request, checked to be valid on both sides. */
function convert(
  value: McpCreateMessageRequestParams,
  options: Partial<Parameters<typeof samplingRequest>[1]> = {},
) {
  expect(checkMcpCreateMessageRequestParams(value)).toEqual([]);
  const request = samplingRequest(value, { serverId: 'srv', ...options });
  const { toolset: _t, withTools: _w, params: _p, warnings: _warnings, ...body } = request;
  const check =
    options.dialect === 'vertex-v1'
      ? checkVertexV1GenerateContentRequest
      : options.dialect === 'vertex-v1beta1'
        ? checkVertexV1Beta1GenerateContentRequest
        : checkGenerateContentRequest;
  expect(check(body)).toEqual([]);
  return request;
}

const reply = (
  parts: Part[],
  finishReason = 'STOP',
  extra: Partial<GenerateContentResponse> = {},
): GenerateContentResponse => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: finishReason as 'STOP' }],
  ...extra,
});

describe('sampling request (SA-1, SA-2, SA-3)', () => {
  it('SA-1: roles, text, image and audio become contents with inline data', () => {
    const request = convert(
      params({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', mimeType: 'image/png', data: PNG },
            ],
          },
          { role: 'assistant', content: { type: 'text', text: 'A picture.' } },
          {
            role: 'user',
            content: {
              type: 'audio',
              mimeType: 'audio/wav',
              data: `${PNG.slice(0, 4)}\n${PNG.slice(4)}`,
            },
          },
        ],
      }),
    );
    expect(request.contents).toEqual([
      {
        role: 'user',
        parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }],
      },
      { role: 'model', parts: [{ text: 'A picture.' }] },
      { role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: PNG } }] },
    ]);
    expect(request.warnings).toEqual([]);
    expect(request.withTools).toBe(false);
  });

  it('SA-1: media that is not base64 is left out, and a message left empty too, each reported', () => {
    const request = convert(
      params({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hi' } },
          { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'not base64!' } },
        ],
      }),
    );
    expect(request.contents).toHaveLength(1);
    expect(request.warnings.map((w) => [w.code, w.path])).toEqual([
      ['CONTENT_DROPPED', '/messages/1/content'],
      ['MESSAGE_DROPPED', '/messages/1'],
    ]);
  });

  it('SA-1: tool_use becomes a functionCall with its id and thought signature, tool_result a functionResponse under the same name and id', () => {
    const request = convert(
      params({
        tools: [WEATHER, DOTTED],
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool_use',
                id: 'c1',
                name: 'get_weather',
                input: { city: 'Paris' },
                _meta: { 'gemini-mcp/thoughtSignature': 'U0lH' },
              },
              { type: 'tool_use', id: 'gemini-mcp-7', name: 'files.read', input: {} },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: 'c1',
                content: [{ type: 'text', text: '18 C' }],
                structuredContent: { tempC: 18 },
              },
              {
                type: 'tool_result',
                toolUseId: 'gemini-mcp-7',
                content: [{ type: 'text', text: 'no such file' }],
                isError: true,
              },
            ],
          },
        ],
      }),
    );
    expect(request.contents[1]).toEqual({
      role: 'model',
      parts: [
        {
          functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'U0lH',
        },
        { functionCall: { name: 'files_read', args: {} } },
      ],
    });
    expect(request.contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: { id: 'c1', name: 'get_weather', response: { output: { tempC: 18 } } },
        },
        { functionResponse: { name: 'files_read', response: { error: 'no such file' } } },
      ],
    });
  });

  /** A tool_use answered by its tool_result, as a Vertex AI version's request. */
  const vertexToolTurn = (dialect: 'vertex-v1' | 'vertex-v1beta1') =>
    JSON.stringify(
      convert(
        params({
          tools: [WEATHER],
          messages: [
            { role: 'user', content: { type: 'text', text: 'Weather?' } },
            {
              role: 'assistant',
              content: [
                { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Oslo' } },
              ],
            },
            { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: [] }] },
          ],
        }),
        { dialect },
      ).contents,
    );

  it('SA-1: Vertex AI v1 (no ids in its reference) gets no call ids', () => {
    expect(vertexToolTurn('vertex-v1')).not.toContain('"id"');
  });

  it('SA-1: Vertex AI v1beta1 (ids in its reference) keeps the call ids', () => {
    expect(vertexToolTurn('vertex-v1beta1')).toContain('"id":"c1"');
  });

  it('SA-1: a tool_result answering no earlier tool_use is refused with its pointer', () => {
    const bad = params({
      messages: [
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'nope', content: [] }] },
      ],
    });
    expect(() => samplingRequest(bad, { serverId: 'srv' })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', path: '/messages/0/content/0/toolUseId' }),
    );
  });

  it('SA-1: params that fail CreateMessageRequestParams are refused typed', () => {
    expect(() => samplingRequest({ messages: [] }, { serverId: 'srv' })).toThrow(GeminiMcpError);
    expect(() => samplingRequest({ messages: [], maxTokens: 10 }, { serverId: 'srv' })).toThrow(
      /no message/,
    );
    expect(() => samplingRequest(params({ maxTokens: 0 }), { serverId: 'srv' })).toThrow(
      /maxTokens/,
    );
  });

  it('SA-2: system prompt, max tokens (capped), temperature (clamped), stop sequences (first 5)', () => {
    const request = convert(
      params({
        systemPrompt: 'Be brief.',
        maxTokens: 9000,
        temperature: 3,
        stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'],
      }),
      { maxTokensCap: 4096 },
    );
    expect(request.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(request.generationConfig).toEqual({
      maxOutputTokens: 4096,
      temperature: 2,
      stopSequences: ['a', 'b', 'c', 'd', 'e'],
    });
    expect(request.warnings.map((w) => w.code)).toEqual([
      'MAX_TOKENS_CAPPED',
      'TEMPERATURE_CLAMPED',
      'STOP_SEQUENCES_CUT',
    ]);
  });

  it('SA-2: includeContext other than none and metadata are reported, not sent', () => {
    const request = convert(params({ includeContext: 'allServers', metadata: { seed: 1 } }));
    expect(request.warnings.map((w) => [w.code, w.path])).toEqual([
      ['INCLUDE_CONTEXT', '/includeContext'],
      ['METADATA_IGNORED', '/metadata'],
    ]);
  });

  it('SA-2: a novelty of a newer protocol (an unknown toolChoice mode) is a warning, never a crash', () => {
    const novel = params({ tools: [WEATHER], toolChoice: { mode: 'sometimes' as 'auto' } });
    expect(checkMcpCreateMessageRequestParams(novel)).not.toEqual([]); // the write contract refuses it
    const request = samplingRequest(novel, { serverId: 'srv' });
    expect(request.toolConfig).toBeUndefined();
    expect(request.warnings.map((w) => w.code)).toEqual(['REQUEST_NOVELTY', 'TOOL_CHOICE_IGNORED']);
  });

  it.each([
    ['auto', 'AUTO'],
    ['required', 'ANY'],
    ['none', 'NONE'],
  ] as const)('SA-3: toolChoice %s -> functionCallingConfig.mode %s', (mode, expected) => {
    const request = convert(params({ tools: [WEATHER], toolChoice: { mode } }));
    expect(request.toolConfig).toEqual({ functionCallingConfig: { mode: expected } });
    expect(request.withTools).toBe(true);
  });

  it('SA-3: tools are declared as a tool set (names made valid, schema modes), changes reported', () => {
    const json = convert(params({ tools: [WEATHER, DOTTED] }));
    expect(json.tools[0]?.functionDeclarations.map((d) => d.name)).toEqual([
      'get_weather',
      'files_read',
    ]);
    expect(json.tools[0]?.functionDeclarations[0]).toMatchObject({
      parametersJsonSchema: WEATHER.inputSchema,
    });
    expect(json.warnings.map((w) => w.code)).toContain('TOOL_CHANGED');
    const openapi = convert(params({ tools: [WEATHER] }), {
      declarations: { schemaMode: 'openapi' },
    });
    expect(openapi.tools[0]?.functionDeclarations[0]).toMatchObject({
      parameters: { type: 'OBJECT' },
    });
  });

  it('SA-3: toolChoice without tools is reported and not sent', () => {
    const request = convert(params({ toolChoice: { mode: 'required' } }));
    expect(request.toolConfig).toBeUndefined();
    expect(request.tools).toEqual([]);
    expect(request.warnings.map((w) => w.code)).toEqual(['TOOL_CHOICE_IGNORED']);
  });
});

describe('sampling result (SA-4)', () => {
  const withTools = () =>
    samplingRequest(params({ tools: [WEATHER, DOTTED] }), { serverId: 'srv' });
  const resultOf = (response: GenerateContentResponse, tools: boolean, stopSequences = false) => {
    const request = tools ? withTools() : samplingRequest(params(), { serverId: 'srv' });
    const out = samplingResult(response, {
      toolset: request.toolset,
      withTools: request.withTools,
      model: 'gemini-2.5-flash',
      stopSequences,
      newId: () => 'n1',
    });
    expect(checkMcpCreateMessageResult(out.result)).toEqual([]);
    return out;
  };

  it('SA-4: text parts joined into one block, endTurn, the model named', () => {
    const { result, warnings } = resultOf(reply([{ text: 'Hello ' }, { text: 'world' }]), false);
    expect(result).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Hello world' },
      model: 'gemini-2.5-flash',
      stopReason: 'endTurn',
    });
    expect(warnings).toEqual([]);
  });

  it("SA-4: the reply's modelVersion names the model when present", () => {
    const { result } = resultOf(
      reply([{ text: 'x' }], 'STOP', { modelVersion: 'gemini-2.5-flash-001' }),
      false,
    );
    expect(result.model).toBe('gemini-2.5-flash-001');
  });

  it('SA-4: function calls become tool_use blocks: ids kept or made up, names mapped back, signatures in _meta', () => {
    const { result } = resultOf(
      reply([
        { text: 'Checking.' },
        {
          functionCall: { id: 'g1', name: 'get_weather', args: { city: 'Rome' } },
          thoughtSignature: 'U0lH',
        },
        { functionCall: { name: 'files_read' } },
      ]),
      true,
    );
    expect(result.stopReason).toBe('toolUse');
    expect(result.content).toEqual([
      { type: 'text', text: 'Checking.' },
      {
        type: 'tool_use',
        id: 'g1',
        name: 'get_weather',
        input: { city: 'Rome' },
        _meta: { 'gemini-mcp/thoughtSignature': 'U0lH' },
      },
      { type: 'tool_use', id: 'gemini-mcp-n1', name: 'files.read', input: {} },
    ]);
  });

  it('SA-4: a tool_use sent back round-trips to the same functionCall (made-up id left out)', () => {
    const { result } = resultOf(
      reply([{ functionCall: { name: 'files_read', args: { p: 1 } }, thoughtSignature: 'U0lH' }]),
      true,
    );
    const blocks = result.content as McpCreateMessageRequestParams['messages'][number]['content'];
    const again = convert(
      params({
        tools: [WEATHER, DOTTED],
        messages: [
          { role: 'user', content: { type: 'text', text: 'Read it' } },
          { role: 'assistant', content: blocks },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: 'gemini-mcp-n1',
                content: [{ type: 'text', text: 'ok' }],
              },
            ],
          },
        ],
      }),
    );
    expect(again.contents[1]?.parts).toEqual([
      { functionCall: { name: 'files_read', args: { p: 1 } }, thoughtSignature: 'U0lH' },
    ]);
  });

  it('SA-4: a call of an undeclared function is passed on under its own name, reported', () => {
    const { result, warnings } = resultOf(
      reply([{ functionCall: { id: 'x', name: 'launch' } }]),
      true,
    );
    expect(result.content).toEqual([{ type: 'tool_use', id: 'x', name: 'launch', input: {} }]);
    expect(warnings.map((w) => w.code)).toEqual(['UNKNOWN_TOOL_CALL']);
  });

  it('SA-4: images and audio become blocks; thoughts and other parts are left out, reported', () => {
    const { result, warnings } = resultOf(
      reply([
        { text: 'thinking', thought: true },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'application/pdf', data: PNG } },
        { executableCode: { language: 'PYTHON', code: 'print(1)' } },
      ]),
      true,
    );
    expect(result.content).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG }]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([
      ['PART_DROPPED', '/candidates/0/content/parts/2'],
      ['PART_DROPPED', '/candidates/0/content/parts/3'],
      ['THOUGHTS_OMITTED', '/candidates/0/content/parts'],
    ]);
  });

  it('SA-4: without tools the content is one block: texts joined, other blocks left out, reported', () => {
    const { result, warnings } = resultOf(
      reply([{ text: 'a' }, { inlineData: { mimeType: 'image/png', data: PNG } }, { text: 'b' }]),
      false,
    );
    expect(result.content).toEqual({ type: 'text', text: 'a\nb' });
    expect(warnings.map((w) => w.code)).toEqual(['SINGLE_BLOCK']);
    const image = resultOf(reply([{ inlineData: { mimeType: 'image/png', data: PNG } }]), false);
    expect(image.result.content).toEqual({ type: 'image', mimeType: 'image/png', data: PNG });
  });

  it.each([
    ['STOP', false, 'endTurn', []],
    ['STOP', true, 'endTurn', ['STOP_REASON']],
    ['MAX_TOKENS', false, 'maxTokens', []],
    ['SAFETY', false, 'SAFETY', ['STOP_REASON']],
    ['NEW_REASON', false, 'NEW_REASON', ['STOP_REASON']],
  ] as const)(
    'SA-4: finishReason %s (stop sequences: %s) -> stopReason %s',
    (finish, stops, stop, codes) => {
      const { result, warnings } = resultOf(reply([{ text: 'x' }], finish), false, stops);
      expect(result.stopReason).toBe(stop);
      expect(warnings.map((w) => w.code)).toEqual(codes);
    },
  );

  it('SA-4: a reply without content is refused, naming the reason', () => {
    const request = samplingRequest(params(), { serverId: 'srv' });
    const options = { toolset: request.toolset, withTools: false, model: 'm' };
    expect(() => samplingResult({ promptFeedback: { blockReason: 'SAFETY' } }, options)).toThrow(
      /blocked \(SAFETY\)/,
    );
    expect(() => samplingResult(reply([], 'SAFETY'), options)).toThrow(/finish reason SAFETY/);
  });
});

describe('model choice (SA-5)', () => {
  const policy = modelByHints(
    ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'],
    'gemini-2.5-flash',
  );

  it.each([
    [{ hints: [{ name: 'PRO' }] }, 'gemini-2.5-pro'],
    [{ hints: [{ name: 'claude-3-sonnet' }, { name: 'flash-lite' }] }, 'gemini-2.5-flash-lite'],
    [{ hints: [{ name: 'claude-3-sonnet' }] }, 'gemini-2.5-flash'],
    [undefined, 'gemini-2.5-flash'],
  ])('SA-5: modelByHints %j -> %s', (preferences, model) => {
    expect(policy(preferences, { serverId: 's' })).toBe(model);
  });

  it('SA-5: at most 16 hints are looked at', () => {
    const hints = [...Array.from({ length: 16 }, () => ({ name: 'nothing' })), { name: 'pro' }];
    expect(policy({ hints }, { serverId: 's' })).toBe('gemini-2.5-flash');
  });

  it('SA-5: a fixed or absent model reports the preferences as not followed; a policy decides', () => {
    const preferences = { hints: [{ name: 'pro' }], speedPriority: 0.9 };
    expect(chooseSamplingModel(preferences, 'gemini-2.5-flash', 's')).toMatchObject({
      model: 'gemini-2.5-flash',
      warnings: [{ code: 'MODEL_PREFERENCE', path: '/modelPreferences' }],
    });
    expect(chooseSamplingModel(preferences, undefined, 's').model).toBeUndefined();
    expect(chooseSamplingModel(undefined, undefined, 's').warnings).toEqual([]);
    expect(chooseSamplingModel(preferences, policy, 's')).toEqual({
      model: 'gemini-2.5-pro',
      warnings: [],
    });
  });
});
