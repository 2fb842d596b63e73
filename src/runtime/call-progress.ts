/**
 * A running call's MCP `notifications/progress`, bounded and told to the caller with the call
 * they belong to.
 */
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedCall } from '../adapter/types.js';
import { truncateUtf8 } from '../json/utf8.js';

/** The longest progress message passed on, in UTF-8 bytes (longer ones are cut, marked `…`). */
export const MAX_PROGRESS_MESSAGE_BYTES = 1024;

/** The UTF-8 length of the `…` that marks a cut message. */
const ELLIPSIS_BYTES = 3;

/** One progress notification a server sent about a running call, as `onProgress` hears it. */
export interface CallProgress {
  /** The call's position among the items given (0 for the first): tells apart calls without id. */
  readonly index: number;
  /** The model's id for the call, or null when it sent none. */
  readonly callId: string | null;
  /** The name the model called. */
  readonly exposedName: string;
  readonly serverId: string;
  /** Progress so far, as the server counts it (always a finite number). */
  readonly progress: number;
  /** The total the server expects, when it gave a finite one. */
  readonly total?: number;
  /** The server's message, capped at {@link MAX_PROGRESS_MESSAGE_BYTES}. */
  readonly message?: string;
}

/**
 * The SDK's `onprogress` handler for one call: each notification whose `progress` is a finite
 * number reaches `onProgress` with the call's index, id, exposed name and server; a total that
 * is not finite is left out, a message that is not a string too, and a long one is cut.
 *
 * @example
 * ```ts
 * await client.request(request, ResultSchema, {
 *   onprogress: progressHandler(call, 0, (p) => console.log(p.exposedName, p.progress, p.total)),
 * });
 * ```
 */
export function progressHandler(
  call: ResolvedCall,
  index: number,
  onProgress: (progress: CallProgress) => void,
): (progress: Progress) => void {
  const { callId, exposedName, serverId } = call;
  return ({ progress, total, message }) => {
    if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
    const told: { -readonly [K in keyof CallProgress]: CallProgress[K] } = {
      index,
      callId,
      exposedName,
      serverId,
      progress,
    };
    if (typeof total === 'number' && Number.isFinite(total)) told.total = total;
    if (typeof message === 'string') {
      const fits = truncateUtf8(message, MAX_PROGRESS_MESSAGE_BYTES).length === message.length;
      told.message = fits
        ? message
        : `${truncateUtf8(message, MAX_PROGRESS_MESSAGE_BYTES - ELLIPSIS_BYTES)}…`;
    }
    onProgress(told);
  };
}
