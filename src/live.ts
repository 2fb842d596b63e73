/**
 * gemini-mcp-kit/live: MCP servers inside a Gemini Live session (`ai.live.connect` of
 * @google/genai, the optional peer). {@link liveTools} declares the servers' tools in the
 * session, answers every `toolCall` on the servers as the calls finish, cancels the calls a
 * `toolCallCancellation` names, and sends a long-running tool's progress as `SILENT` responses.
 * Never imported by the root entry.
 *
 * @example
 * ```ts
 * import { GoogleGenAI, Modality } from '@google/genai';
 * import { connectServers } from 'gemini-mcp-kit';
 * import { liveTools } from 'gemini-mcp-kit/live';
 *
 * const ai = new GoogleGenAI({ apiKey: process.env['GEMINI_API_KEY'] ?? '' });
 * const servers = await connectServers('mcp.json');
 * const { session } = await liveTools(servers).connect(ai.live, {
 *   model: 'gemini-live-2.5-flash-preview',
 *   config: { responseModalities: [Modality.TEXT] },
 *   callbacks: { onmessage: (message) => process.stdout.write(message.text ?? '') },
 * });
 * session.sendClientContent({ turns: 'What changed in my notes today?' });
 * ```
 *
 * @packageDocumentation
 * @module gemini-mcp-kit/live
 */
export type {
  LiveBehavior,
  LiveConnector,
  LiveFunctionResponse,
  LiveScheduling,
  LiveSessionLike,
  LiveToolEvent,
  LiveToolPolicy,
  LiveToolSource,
  LiveTools,
  LiveToolsOptions,
  LiveToolsSession,
} from './runtime/live/live-tools.js';
export { liveTools } from './runtime/live/live-tools.js';
