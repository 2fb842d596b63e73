/**
 * Ready approval policies for `onToolCall`: allow the read-only tools of trusted servers,
 * confirm the calls that may destroy or reach out, and compose them. A server's annotations
 * are hints it writes about itself: a policy believes a hint that makes a call look safer only
 * when the server is trusted, and otherwise takes the MCP defaults (destructive, open world).
 */
import type { ToolCallCheck, ToolCallDecision, ToolCallHook } from './approval.js';

/**
 * Asks whether a call may run (a person, say): `true` runs it, `false` denies it. Given the
 * call's check, with its signal that fires when the answer is no longer wanted.
 */
export type ConfirmCall = (check: ToolCallCheck) => boolean | Promise<boolean>;

const ALLOW: ToolCallDecision = { action: 'allow' };

/**
 * Whether the call may change or destroy something: unless the server is trusted and the tool
 * says it is read-only or not destructive (MCP: `destructiveHint` defaults to true and means
 * something only when `readOnlyHint` is false).
 */
function mayDestroy({ trusted, annotations }: ToolCallCheck): boolean {
  if (!trusted) return true;
  return annotations.readOnlyHint !== true && annotations.destructiveHint !== false;
}

/** Whether the call may reach beyond a closed world: unless the server is trusted and the tool says not. */
function mayReachOut({ trusted, annotations }: ToolCallCheck): boolean {
  return !trusted || annotations.openWorldHint !== false;
}

/**
 * A policy that allows the calls of read-only tools (`readOnlyHint: true`) of trusted servers
 * (`trust: true`) and has no opinion on the others (`undefined`: the next policy decides). An
 * untrusted server's read-only claim is not believed.
 *
 * @example
 * ```ts
 * const onToolCall = composePolicies(allowReadOnly(), confirmDestructive(ask));
 * ```
 */
export function allowReadOnly(): ToolCallHook {
  return (check) => (check.trusted && check.annotations.readOnlyHint === true ? ALLOW : undefined);
}

function confirming(
  confirm: ConfirmCall,
  applies: (check: ToolCallCheck) => boolean,
  what: string,
): ToolCallHook {
  return async (check) => {
    if (!applies(check)) return undefined;
    return (await confirm(check))
      ? ALLOW
      : { action: 'deny', reason: `the user did not confirm this ${what} call` };
  };
}

/**
 * A policy that asks `confirm` before a call that may destroy or change something (every call
 * of an untrusted server; of a trusted one, every call but those of tools annotated read-only
 * or `destructiveHint: false`): confirmed, it runs; not, it is denied and the model is told.
 * Other calls it leaves to the next policy (`undefined`).
 *
 * @example
 * ```ts
 * const onToolCall = confirmDestructive(async (check) => window.confirm(`Run ${check.title ?? check.name}?`));
 * ```
 */
export function confirmDestructive(confirm: ConfirmCall): ToolCallHook {
  return confirming(confirm, mayDestroy, 'possibly destructive');
}

/**
 * A policy that asks `confirm` before a call that may reach beyond a closed world (every call
 * of an untrusted server; of a trusted one, every call but those of tools annotated
 * `openWorldHint: false`), as {@link confirmDestructive} does for destructive ones.
 *
 * @example
 * ```ts
 * const onToolCall = composePolicies(confirmDestructive(ask), confirmOpenWorld(ask));
 * ```
 */
export function confirmOpenWorld(confirm: ConfirmCall): ToolCallHook {
  return confirming(confirm, mayReachOut, 'open-world');
}

/**
 * The policies in order: the first decision one of them gives is the decision (a call that
 * would need two confirmations is asked once); when none gives one, `undefined` (the call runs,
 * unless an outer composition decides otherwise).
 *
 * @example
 * ```ts
 * const onToolCall = composePolicies(allowReadOnly(), confirmDestructive(ask), () => ({ action: 'deny', reason: 'not on the list' }));
 * ```
 */
export function composePolicies(...policies: readonly ToolCallHook[]): ToolCallHook {
  return async (check) => {
    for (const policy of policies) {
      const decision = await policy(check);
      if (decision !== undefined) return decision;
    }
    return undefined;
  };
}
