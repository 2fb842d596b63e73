/**
 * Issue 36 item 1: the Gemini Live API's messages (BidiGenerateContent), vendored from the v1beta
 * protos of the pinned @google-ai/generativelanguage, with the messages they share with
 * generateContent taken from the Gemini API family; generated guards for the write contract
 * (what a client sends) and read twins (what the server sends).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLiveSchemas } from '../../scripts/lib/live.js';
import { SyncInputError } from '../../scripts/lib/sync-error.js';
import { CATALOG } from '../../src/generated/catalog.js';
import {
  checkLiveBidiGenerateContentClientMessage,
  readLiveBidiGenerateContentServerMessage,
  SCHEMAS,
} from '../../src/generated/guards.js';
import { liveProtos } from './run-script.js';

const protos: unknown = JSON.parse(readFileSync(liveProtos, 'utf8'));
const files = buildLiveSchemas('protos.json', protos);
const schema = (name: string) => files.find((f) => f.file === `live/${name}.schema.json`)?.schema;

describe('the Live API messages from @google-ai/generativelanguage', () => {
  it('v1beta has every bidi message, GoAway and SessionResumptionUpdate among them', () => {
    for (const name of [
      'BidiGenerateContentSetup',
      'BidiGenerateContentClientContent',
      'BidiGenerateContentRealtimeInput',
      'BidiGenerateContentToolResponse',
      'BidiGenerateContentServerMessage',
      'BidiGenerateContentServerContent',
      'BidiGenerateContentToolCall',
      'BidiGenerateContentToolCallCancellation',
      'BidiGenerateContentSetupComplete',
      'GoAway',
      'SessionResumptionUpdate',
    ]) {
      expect(schema(name), name).toBeDefined();
    }
    expect(Object.keys(schema('BidiGenerateContentServerMessage')!.properties as object)).toEqual([
      'goAway',
      'serverContent',
      'sessionResumptionUpdate',
      'setupComplete',
      'toolCall',
      'toolCallCancellation',
      'usageMetadata',
    ]);
  });

  it('the messages shared with generateContent are the Gemini API schemas, not copies', () => {
    const setup = schema('BidiGenerateContentSetup')!.properties as Record<string, unknown>;
    expect(setup.tools).toEqual({ type: 'array', items: { $ref: '../gemini/Tool.schema.json' } });
    expect(setup.systemInstruction).toEqual({ $ref: '../gemini/Content.schema.json' });
    expect(files.some((f) => /\/(Content|Tool|FunctionCall)\.schema\.json$/.test(f.file))).toBe(
      false,
    );
    // The Live API's usage has responseTokenCount (generateContent's candidatesTokenCount).
    expect(Object.keys(schema('UsageMetadata')!.properties as object)).toContain(
      'responseTokenCount',
    );
  });

  it('a descriptor without the v1beta package is refused, named', () => {
    expect(() => buildLiveSchemas('x.json', { nested: {} })).toThrow(SyncInputError);
    expect(() => buildLiveSchemas('x.json', { nested: {} })).toThrow(
      /google\.ai\.generativelanguage\.v1beta/,
    );
  });
});

describe('the generated Live guards', () => {
  it('a client message is strict: exactly one message kind, no unknown field, the declarations held to the Gemini rules', () => {
    expect(
      checkLiveBidiGenerateContentClientMessage({
        toolResponse: {
          functionResponses: [
            { id: 'c1', name: 'slow', response: {}, willContinue: true, scheduling: 'SILENT' },
          ],
        },
      }),
    ).toEqual([]);
    expect(
      checkLiveBidiGenerateContentClientMessage({
        setup: { model: 'models/m' },
        toolResponse: {},
      })[0]?.keyword,
    ).toBe('oneOf');
    expect(
      checkLiveBidiGenerateContentClientMessage({ setup: { model: 'models/m', extra: 1 } }),
    ).toEqual([expect.objectContaining({ path: '/setup/extra', keyword: 'additionalProperties' })]);
    expect(
      checkLiveBidiGenerateContentClientMessage({
        toolResponse: { functionResponses: [{ name: 'a', response: {}, scheduling: 'LATER' }] },
      }),
    ).toEqual([expect.objectContaining({ path: '/toolResponse/functionResponses/0/scheduling' })]);
  });

  it('a server message is read tolerantly: an unknown enum value in a shared message is a notice, a call without a name is refused', () => {
    const read = readLiveBidiGenerateContentServerMessage({
      serverContent: { modelTurn: { role: 'model', parts: [{ text: 'hi' }] }, turnComplete: true },
      usageMetadata: { responseTokenCount: 3, responseTokensDetails: [{ modality: 'HOLOGRAM' }] },
    });
    expect(read.violations).toEqual([]);
    expect(read.notices).toEqual([
      expect.objectContaining({ path: '/usageMetadata/responseTokensDetails/0/modality' }),
    ]);
    expect(
      readLiveBidiGenerateContentServerMessage({ toolCall: { functionCalls: [{ args: {} }] } })
        .violations[0]?.path,
    ).toBe('/toolCall/functionCalls/0/name');
  });

  it('the family is listed in the catalogue and the SCHEMAS table, its server message read with the read contract', () => {
    expect(CATALOG.LiveBidiGenerateContentServerMessage).toEqual({
      file: 'live/BidiGenerateContentServerMessage.schema.json',
      family: 'live',
      received: true,
    });
    expect(CATALOG.LiveBidiGenerateContentClientMessage.received).toBe(false);
    expect(SCHEMAS.LiveGoAway.read).toBeDefined();
  });
});
