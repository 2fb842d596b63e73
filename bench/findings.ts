/**
 * Notes shown under a figure that misses its target, beside the fresh profile the full run adds
 * (`npx tsx bench/profile.ts P1 P2 P2set P3 P5` runs the same profiles alone). Written from the
 * profile of the conversion filed as issue 14 (2026-11-30, src/ at faf6bcd, before that issue's
 * fixes); each note names the cause and the fix the issue asks for, so a run can check them
 * against its own numbers. Paths are the layout of src/ since faf6bcd.
 */
export const FINDINGS: Readonly<Record<string, readonly string[]>> = {
  P1: [
    '- **openapi mode proves each converted Schema more than once**: `toGeminiSchema` ends with `proveContract(schema, checkSchema)` (src/schema/to-gemini-schema.ts), `toGeminiParameters` proves a merged root union again, and `declaration()` (src/adapter/declarations.ts) proves the whole FunctionDeclaration, whose `parameters` is a `$ref` to Schema. Issue 14 item 2: validate each Schema once.',
  ],
  P2: [
    '- **Since 60c9ba3 (issue 14 item 3)** the tool set owns frozen copies of its tools and each declaration is built and proven once per set and options (src/adapter/declarations.ts); a repeated call returns fresh objects built from that cache. Before it, json mode copied every inputSchema (`cloneJson`) and re-sanitized every description on every call while the anchor shares the MCP objects. The fresh profile below shows where the rest goes.',
  ],
  P3: [
    '- **Where the time goes** (issue 14 profile, about 2,100 real tools): each converted Schema validated twice in `functionDeclarations`; `surveySchema` (src/schema/limits.ts) indexes every node by JSON pointer though about 3% of real schemas hold a `$ref`; `Object.defineProperty` per property, a `Set` of kinds per node and 56-75 KB allocated per tool for a 4 KB output (GC 9-16% of the time); `canonicalJson` re-serializing whole subtrees at every nested `anyOf` level (quadratic in depth); `$ref` expansion re-parsing the pointer on every follow, its budget spent before it is known to be exceeded.',
    '- **The refused tools** (deeply recursive `$ref` graphs, e.g. Microsoft Graph and LINE flex messages) spend tens of ms each before `SCHEMA_TOO_LARGE`. Issue 14 item 1: decide from a cheap size estimate, cut a recursion at its first re-entry and fill a node budget breadth-first, each cut reported as `weakened`.',
  ],
  P5: [
    '- **A single call still goes through the pool and an extra async frame** (`executeToolCalls`, src/runtime/execute.ts, and `mapConcurrent`, src/runtime/pool.ts). Issue 14 item 4: await a single call directly.',
  ],
};
