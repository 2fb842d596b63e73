/**
 * Notes shown under a figure that misses its target, beside the fresh profile the full run adds
 * (`npx tsx bench/profile.ts P1 P2 P2set P3 P5` runs the same profiles alone). The first note of
 * each figure is the cause named by the profile filed as issue 14 (src/ at faf6bcd) and what was
 * done about it; the others say what is left and why, from the measurements of the issue-14
 * branch (the figure's rows and the profile below them). Paths are the layout of src/ since
 * faf6bcd.
 */
export const FINDINGS: Readonly<Record<string, readonly string[]>> = {
  P1: [
    '- **openapi mode proved each converted Schema more than once** (issue 14 profile): `toGeminiSchema`, then `toGeminiParameters` on a merged root union, then the FunctionDeclaration whose `parameters` is a `$ref` to Schema. Since issue 14, `functionDeclarations` converts with `toDeclaredParameters` (no proof of its own) and proves each declaration once, which covers its Schema once.',
  ],
  P2: [
    '- **The first json-mode call RE2-compiled every `pattern` of every schema** (`uncheckedKeywords`, src/adapter/tool-schemas.ts, run for the `unchecked` warnings although nobody listened: the cached build always collected its warnings) **and copied every schema** (`sanitizeJsonStrings`, src/json/sanitize.ts, copied whole to remove hidden text that was almost never there). Since issue 14 the `unchecked` warnings are worked out only when a caller passes `onWarning` (in tool order, once per build), and a read-only scan returns clean data as it is.',
  ],
  P3: [
    '- **Issue 14 profile (faf6bcd)**: each converted Schema validated twice in `functionDeclarations`; the survey indexed every node by pointer though about 3% of real schemas hold a `$ref`; `Object.defineProperty` per property, a `Set` of kinds per node; `canonicalJson` over whole subtrees at every nested union; 13 real tools refused after tens of ms. Done since: one proof per Schema, lazy index, plain assignment, kind bit masks, budgeted `$ref` expansion (no real tool refused, none over 5 ms), fewer allocations per node (keyword kinds from one table, no arrays for count bounds, conjuncts without `$ref`/`allOf` not re-expanded, survey queues no JSON leaf, loss notes only where a loss is), unions serialized only where two alternatives share a type. Output byte-identical (test/schema/snapshot.test.ts, every corpus schema).',
    "- **Why toGeminiSchema stays above 1.5x structuredClone** (the row \"where toGeminiSchema spends its time\" splits it per tool): the output proof (the generated Schema validator over the output, required on every conversion by DESIGN §2.4) is one part; the survey (bounds before any work) about 5% of the call; the rest is the conversion itself. structuredClone is V8's native serializer; a converter that builds a new tree of JavaScript objects node by node starts near `JSON.parse(JSON.stringify(schema))`, which measures 0.85x structuredClone on these schemas, before any mapping. Per output node the converter also merges a conjunction of source nodes (`$ref`, `allOf`, union siblings), classifies every keyword for the loss report, and builds the node's JSON pointer (every warning names one). Getting to 1.5x needs a different design of the hot path, not more trimming: pointers built only when a loss is reported, a single-conjunct fast path (most nodes), and a validator specialised to output the converter built (ajv's generic code walks every keyword of the 30-keyword Schema definition).",
    '- **Why the whole corpus costs more than the sum of its tools**: the tool-by-tool figure converts one schema again and again, its garbage dying young; `functionDeclarations` over 2,180 tools keeps every declaration (frozen, cached per tool set), so the young-generation collections copy and promote them (the garbage collector is about a quarter of the profile below, against about a tenth tool by tool), and it does per tool what the per-tool figure does not: the scan for hidden text in the output strings, the FunctionDeclaration proof, `deepFreeze` of the cached declaration, the warning records. The row with the proofs compiled out shows what the proofs cost here.',
  ],
  P5: [
    '- **A single call went through the pool and two async frames** (issue 14 profile). Since issue 14 a single call is awaited directly, in one async frame (`executed`, src/runtime/execute.ts). What executeToolCalls still adds to the bare request is the CallToolResult check with its read contract (EX-2: a bad result becomes a ToolError), two `performance.now()` reads and the outcome record: about a microsecond on a 25 µs in-memory round trip, the size of the per-round spread of the difference, so the 1 µs target is measured at the resolution of the method (CPU time per batch).',
  ],
};
