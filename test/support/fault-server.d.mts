/** Types of fault-server.mjs (plain JavaScript, so the stdio server starts without a loader). */

/** How the fault server reaches its client: one message out, or the end of the server. */
export interface FaultServerIo {
  send: (message: object) => void;
  exit: () => void;
}

/** A JSON-RPC message handler implementing the fault server over any transport. */
export function createFaultHandler(io: FaultServerIo): (message: object) => void;
