/** Which Gemini model serves a sampling request: the server's model preferences and the client's policy. */
import type { McpModelPreferences } from '../../generated/types.js';
import type { SamplingWarning } from './types.js';

/**
 * Chooses the model for one sampling request from the server's `modelPreferences` (hints,
 * cost / speed / intelligence priorities, all advisory): a model name, or `undefined` for the
 * `generate` function's own model.
 */
export type SamplingModelPolicy = (
  preferences: McpModelPreferences | undefined,
  context: { readonly serverId: string },
) => string | undefined;

/** Hints looked at, at most (a server may send any number). */
const MAX_HINTS = 16;

/**
 * A policy that follows the hints: the first hint (in the server's order) that is a substring
 * of one of `models` (case ignored, as the specification describes hints) picks that model;
 * when none matches, `fallback` (or the `generate` function's own model). Priorities are not
 * used. At most 16 hints are looked at.
 *
 * @example
 * ```ts
 * const policy = modelByHints(['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'], 'gemini-2.5-flash');
 * policy({ hints: [{ name: 'pro' }] }, { serverId: 'docs' }); // 'gemini-2.5-pro'
 * policy({ hints: [{ name: 'claude-3-haiku' }] }, { serverId: 'docs' }); // 'gemini-2.5-flash'
 * ```
 */
export function modelByHints(models: readonly string[], fallback?: string): SamplingModelPolicy {
  const lowered = models.map((model) => ({ model, lower: model.toLowerCase() }));
  return (preferences) => {
    for (const hint of (preferences?.hints ?? []).slice(0, MAX_HINTS)) {
      const name = typeof hint.name === 'string' ? hint.name.toLowerCase() : '';
      if (name === '') continue;
      const found = lowered.find(({ lower }) => lower.includes(name));
      if (found !== undefined) return found.model;
    }
    return fallback;
  };
}

/** What the preferences ask for, in words, or `undefined` when they ask nothing. */
function asked(preferences: McpModelPreferences | undefined): string | undefined {
  if (preferences === undefined) return undefined;
  const hints = (preferences.hints ?? [])
    .slice(0, MAX_HINTS)
    .flatMap((hint) => (typeof hint.name === 'string' ? [JSON.stringify(hint.name)] : []));
  const priorities = (['costPriority', 'speedPriority', 'intelligencePriority'] as const).flatMap(
    (key) => (preferences[key] === undefined ? [] : [`${key} ${preferences[key]}`]),
  );
  const all = [...(hints.length > 0 ? [`hints ${hints.join(', ')}`] : []), ...priorities];
  return all.length === 0 ? undefined : all.join('; ');
}

/**
 * The model for one sampling request: `model` itself when it is a name (the preferences are
 * then reported as not followed), the policy's choice when it is a policy, and `undefined` (the
 * `generate` function's own model, preferences reported as not followed) when it is absent.
 *
 * @example
 * ```ts
 * const { model, warnings } = chooseSamplingModel(params.modelPreferences, 'gemini-2.5-flash', 'docs');
 * ```
 */
export function chooseSamplingModel(
  preferences: McpModelPreferences | undefined,
  model: string | SamplingModelPolicy | undefined,
  serverId: string,
): { model: string | undefined; warnings: SamplingWarning[] } {
  if (typeof model === 'function') return { model: model(preferences, { serverId }), warnings: [] };
  const wanted = asked(preferences);
  const warnings: SamplingWarning[] =
    wanted === undefined
      ? []
      : [
          {
            code: 'MODEL_PREFERENCE',
            path: '/modelPreferences',
            message: `model preferences (${wanted}) not followed: ${model === undefined ? "the generate function's own model" : `the model is fixed to ${model}`} serves every request`,
          },
        ];
  return { model, warnings };
}
