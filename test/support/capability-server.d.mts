/** Types of capability-server.mjs (plain JavaScript, so the stdio server starts without a loader). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The conformance suite's elicitation-defaults form (SEP-1034). */
export const DEFAULTS_FORM: Record<string, unknown>;
/** A booking form: a required city, nights with a default, optional extras. */
export const BOOKING_FORM: Record<string, unknown>;
/** A fresh server and what it has seen. */
export function createCapabilityServer(): { server: McpServer; state: { rootsChanged: number } };
