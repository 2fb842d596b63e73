/**
 * The Gemini Live API's messages (`BidiGenerateContent`, the WebSocket session): from the
 * protobufjs descriptor that `@google-ai/generativelanguage` ships, package
 * `google.ai.generativelanguage.v1beta` (v1alpha has the bidi messages too, but not `GoAway`,
 * `SessionResumptionUpdate` or the setup's resumption, compression and transcription configs).
 *
 * The discovery document (the REST reference the `gemini` family comes from) defines none of
 * the bidi messages but `BidiGenerateContentSetup` (for ephemeral tokens), whose copy there has
 * `historyConfig` and `proactivity`, which the protos lack. The messages the bidi messages share
 * with generateContent (Content, Tool, GenerationConfig, Blob, FunctionCall, FunctionResponse,
 * GroundingMetadata, ModalityTokenCount, UrlContextMetadata) are the `gemini` family's, from the discovery document:
 * one definition of each, the one every other request is held to. `UsageMetadata` is the Live
 * API's own (its `responseTokenCount` where generateContent has `candidatesTokenCount`).
 */
import type { JsonObject } from './canonical-json.js';
import { buildProtoSchemas } from './protos.js';
import type { SchemaFile } from './schema-set.js';

const PREFIX = 'google.ai.generativelanguage.v1beta';

/** What a client sends and what the server sends: the two unions of the session. */
const LIVE_ROOTS = [
  'BidiGenerateContentClientMessage',
  'BidiGenerateContentServerMessage',
] as const;

/** The messages the bidi messages share with generateContent: the `gemini` family's. */
const SHARED = new Set([
  'Blob',
  'Content',
  'FunctionCall',
  'FunctionResponse',
  'GenerationConfig',
  'GroundingMetadata',
  'ModalityTokenCount',
  'Tool',
  'UrlContextMetadata',
]);

/** A client message is exactly one of setup, clientContent, realtimeInput and toolResponse. */
const EXACTLY_ONE = new Set(['BidiGenerateContentClientMessage.messageType']);

/** Our own short descriptions (upstream prose is not copied). */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  BidiGenerateContentClientMessage:
    'One message a Live API client sends: exactly one of setup, clientContent, realtimeInput and toolResponse.',
  BidiGenerateContentServerMessage:
    'One message the Live API server sends: setup complete, content, a tool call, a cancellation, goAway or a resumption update.',
  BidiGenerateContentSetup:
    "The first message of a Live session: the model, its config, the session's tools.",
  BidiGenerateContentClientContent: 'Turns the client adds to the conversation.',
  BidiGenerateContentRealtimeInput: 'Audio, video or text streamed in real time.',
  BidiGenerateContentToolResponse: "The client's answers to the model's function calls.",
  BidiGenerateContentSetupComplete: 'The server accepted the setup.',
  BidiGenerateContentServerContent: 'Content the model generates, with where its turn stands.',
  BidiGenerateContentToolCall: 'Function calls the model asks the client to run.',
  BidiGenerateContentToolCallCancellation:
    'Ids of earlier function calls the client should not run or answer (the user interrupted).',
  GoAway: 'The server will close the connection soon.',
  SessionResumptionUpdate: 'A handle to resume the session with, on a new connection.',
};

/** The hand rules of the Live family, for the manifest. */
export const LIVE_RULES = [
  {
    id: 'live-from-protos',
    fact: 'The Live API messages are the v1beta protos of @google-ai/generativelanguage (the proto3 JSON mapping; REQUIRED fields required, OUTPUT_ONLY read-only, a oneof at most one field); a client message holds exactly one of its messageType fields.',
    source:
      '@google-ai/generativelanguage protos.json: google.ai.generativelanguage.v1beta BidiGenerateContent* messages',
  },
  {
    id: 'live-shared-messages',
    fact: 'Blob, Content, FunctionCall, FunctionResponse, GenerationConfig, GroundingMetadata, ModalityTokenCount, Tool and UrlContextMetadata inside a Live message are the Gemini API schemas (schemas/gemini/, from the discovery document).',
    source: 'discovery document: the same messages of generateContent; protos.json v1beta',
  },
] as const;

/** The Live API schema files, from the descriptor. */
export function buildLiveSchemas(input: string, document: unknown): SchemaFile[] {
  return buildProtoSchemas({
    input,
    document,
    prefix: PREFIX,
    family: 'live',
    roots: LIVE_ROOTS,
    emitted: ['BidiGenerateContentClientMessage'],
    exactlyOne: EXACTLY_ONE,
    notRequired: new Set(),
    describe: (name) => DESCRIPTIONS[name],
    external: (name) => (SHARED.has(name) ? `../gemini/${name}.schema.json` : undefined),
  });
}

/** The manifest's record of the Live input: where the messages come from. */
export function liveProvenance(packageVersion: string): JsonObject {
  return { package: packageVersion, protoPackage: PREFIX };
}
