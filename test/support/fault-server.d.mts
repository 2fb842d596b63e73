/** Types of fault-server.mjs (plain JavaScript, so the stdio server starts without a loader). */

/** How the fault server reaches its client, and the faults it is told to stage. */
export interface FaultServerIo {
  /** Sends one message. */
  send: (message: object) => void;
  /** Ends the server (a crash). */
  exit: () => void;
  /** Writes text as it is, where the transport has bytes (stdio): for drip and garbage. */
  raw?: (text: string) => void;
  /** Exit at this tools/call (1 = the first). */
  crashAtCall?: number;
  /** List this many more tools, `tool_0` ... */
  extraTools?: number;
  /** One more tool with this name. */
  extraName?: string;
  /** Tools per tools/list page (default 3). */
  pageSize?: number;
}

/** A JSON-RPC message handler implementing the fault server over any transport. */
export function createFaultHandler(io: FaultServerIo): (message: object) => void;
