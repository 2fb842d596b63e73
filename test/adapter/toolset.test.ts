import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPOSED_NAME_PATTERN } from '../../src/adapter/tools/names.js';
import { buildToolSet } from '../../src/adapter/tools/toolset.js';
import { GeminiMcpError } from '../../src/errors.js';
import { nameMap, PROPERTY_RUNS, server, tool } from './helpers.js';

const exposed = (servers: Parameters<typeof buildToolSet>[0], options = {}) =>
  buildToolSet(servers, options).toolset.entries.map((entry) => entry.exposedName);

describe('tool set and naming (NM)', () => {
  it('NM-1: returns {toolset, warnings}; every exposed name matches the shared pattern', () => {
    const { toolset, warnings } = buildToolSet([
      server('weather', 'forecast', 'get.alerts', '9lives', 'x'.repeat(90), 'naïve tool'),
      server('files', 'forecast', 'read_file'),
    ]);
    expect(toolset.entries).toHaveLength(7);
    expect(Array.isArray(warnings)).toBe(true);
    for (const { exposedName } of toolset.entries) {
      expect(exposedName).toMatch(EXPOSED_NAME_PATTERN);
      expect(exposedName).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    }
  });

  it.each([
    ['hello', 'hello'],
    ['bitcoin_price', 'bitcoin_price'],
    ['get-weather', 'get-weather'],
    ['_private', '_private'],
    ['A', 'A'],
    ['x'.repeat(64), 'x'.repeat(64)],
  ])('NM-2: a valid unique name is exposed unchanged (%s)', (name, want) => {
    const { toolset, warnings } = buildToolSet([server('s', name), server('t', 'other')]);
    expect(toolset.exposedName('s', name)).toBe(want);
    expect(warnings.filter((warning) => warning.code === 'TOOL_RENAMED')).toEqual([]);
  });

  it('NM-3: colliding names become server__tool on both sides (no first wins)', () => {
    const { toolset, warnings } = buildToolSet([
      server('alpha', 'search', 'only_alpha'),
      server('beta', 'search'),
    ]);
    expect(toolset.exposedName('alpha', 'search')).toBe('alpha__search');
    expect(toolset.exposedName('beta', 'search')).toBe('beta__search');
    expect(toolset.exposedName('alpha', 'only_alpha')).toBe('only_alpha');
    expect(toolset.resolve('search')).toBeUndefined();
    expect(warnings.filter((warning) => warning.code === 'TOOL_RENAMED')).toHaveLength(2);
  });

  it("NM-3: prefix 'always' prefixes every tool", () => {
    expect(exposed([server('a', 'x', 'y'), server('b', 'z')], { prefix: 'always' })).toEqual([
      'a__x',
      'a__y',
      'b__z',
    ]);
  });

  it("NM-3: prefix 'never' keeps names and throws NAME_COLLISION listing the collisions", () => {
    expect(exposed([server('a', 'x'), server('b', 'y')], { prefix: 'never' })).toEqual(['x', 'y']);
    const build = () =>
      buildToolSet([server('a', 'x', 'y'), server('b', 'x', 'y'), server('c', 'x')], {
        prefix: 'never',
      });
    expect(build).toThrow(GeminiMcpError);
    try {
      build();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'NAME_COLLISION',
        data: {
          collisions: expect.arrayContaining([
            { toolName: 'x', servers: ['a', 'b', 'c'] },
            { toolName: 'y', servers: ['a', 'b'] },
          ]),
        },
      });
      expect((error as Error).message).toContain('"x" (servers a, b, c)');
    }
  });

  it("NM-3: prefix 'never' still tells apart names that only sanitizing merged", () => {
    const names = exposed([server('a', 'get.x'), server('b', 'get x')], { prefix: 'never' });
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(/^get_x_[0-9a-f]{12}$/);
  });

  it('NM-3: a prefixed name colliding with a literal tool name is resolved too', () => {
    const { toolset } = buildToolSet([server('s', 't'), server('u', 't', 's__t')]);
    const names = toolset.entries.map((entry) => entry.exposedName);
    expect(new Set(names).size).toBe(3);
    for (const entry of toolset.entries) {
      expect(toolset.resolve(entry.exposedName)).toBe(entry);
    }
  });

  it('NM-3: look-alike names across servers (case, homoglyphs, - for _) are reported as shadowing', () => {
    const { warnings } = buildToolSet([
      server('a', 'read_file', 'Search'),
      server('b', 'rеad_file', 'search', 'read-file'),
    ]);
    const shadows = warnings.filter((warning) => warning.code === 'TOOL_SHADOWS');
    expect(shadows.map((warning) => `${warning.serverId}/${warning.toolName}`).sort()).toEqual([
      'a/Search',
      'a/read_file',
      'b/read-file',
      'b/rеad_file',
      'b/search',
    ]);
    expect(shadows[0]?.message).toContain('may shadow');
  });

  it.each([
    ['get.weather', 'get_weather'],
    ['get weather', 'get_weather'],
    ['2fa', '_2fa'],
    ['-flag', '_-flag'],
    ['naïve', 'na_ve'],
    ['ns:tool', 'ns_tool'],
    ['😀', '_'],
    ['a😀b', 'a_b'],
    ['', '_'],
  ])(
    'NM-4: invalid characters become _ and a bad first character gets a _ (%j -> %j)',
    (name, want) => {
      expect(exposed([server('s', name)])).toEqual([want]);
    },
  );

  it('NM-4: names over 64 characters become a prefix plus a hash of the identity', () => {
    const long = `tool_${'x'.repeat(100)}`;
    const [name] = exposed([server('s', long)]);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^tool_x+_[0-9a-f]{8}$/);
    const [other] = exposed([server('t', long)]);
    expect(other).not.toBe(name);
  });

  it('NM-5: names are deterministic and independent of server and tool order', () => {
    const servers = [
      server('a', 'x', 'y', 'a.b', 'a b'),
      server('b', 'x', 'long'.repeat(30)),
      server('c', 'y', 'z'),
    ];
    const forward = nameMap(buildToolSet(servers).toolset.entries);
    const reversed = servers
      .map((entry) => ({ ...entry, tools: [...entry.tools].reverse() }))
      .reverse();
    expect(nameMap(buildToolSet(reversed).toolset.entries)).toEqual(forward);
    expect(nameMap(buildToolSet(servers).toolset.entries)).toEqual(forward);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'NM-5: %s is an ordinary tool name and server id',
    (name) => {
      const { toolset } = buildToolSet([server(name, name, 'other'), server('plain', 'x')]);
      expect(toolset.exposedName(name, name)).toBe(name);
      expect(toolset.resolve(name)).toMatchObject({ serverId: name, tool: { name } });
      expect(toolset.entries).toHaveLength(3);
      expect(toolset.exposedName('plain', name)).toBeUndefined();
      expect(toolset.exposedName(name, 'x')).toBeUndefined();
    },
  );

  it('NM-5: resolve and exposedName are exact inverses', () => {
    const { toolset } = buildToolSet([server('a', 'x', 'y'), server('b', 'x', 'q.r')]);
    for (const entry of toolset.entries) {
      expect(toolset.resolve(entry.exposedName)).toBe(entry);
      expect(toolset.exposedName(entry.serverId, entry.tool.name)).toBe(entry.exposedName);
    }
    expect(toolset.resolve('x')).toBeUndefined();
    expect(toolset.exposedName('c', 'x')).toBeUndefined();
  });

  it('NM-6: tools failing the MCP Tool schema are left out with a warning naming them', () => {
    const { toolset, warnings } = buildToolSet([
      {
        serverId: 's',
        tools: [tool('ok'), { name: 'no_schema' }, { inputSchema: { type: 'object' } }, 42],
      },
    ]);
    expect(toolset.entries.map((entry) => entry.tool.name)).toEqual(['ok']);
    const invalid = warnings.filter((warning) => warning.code === 'TOOL_INVALID');
    expect(invalid).toHaveLength(3);
    expect(invalid[0]).toMatchObject({ serverId: 's', toolName: 'no_schema' });
    expect(invalid[0]?.message).toContain('"no_schema"');
    expect(invalid[1]?.message).toContain('#2');
  });

  it('NM-6: every copy of a name duplicated within one server is left out with a warning', () => {
    const { toolset, warnings } = buildToolSet([
      server('s', 'dup', 'ok', 'dup'),
      server('t', 'dup'),
    ]);
    expect(nameMap(toolset.entries)).toEqual([
      ['["s","ok"]', 'ok'],
      ['["t","dup"]', 'dup'],
    ]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: 'TOOL_DUPLICATE', serverId: 's', toolName: 'dup' }),
    );
  });

  it.each([
    ['include', { include: ['a', 'c'] }, ['a', 'c']],
    ['exclude', { exclude: ['b'] }, ['a', 'c']],
    ['both', { include: ['a', 'b'], exclude: ['b'] }, ['a']],
    ['empty include', { include: [] }, []],
  ])('NM-6: per-server filters choose what is exposed (%s)', (_label, filter, want) => {
    const { toolset } = buildToolSet([server('s', 'a', 'b', 'c'), server('t', 'b')], {
      filters: { s: filter },
    });
    expect(
      toolset.entries.filter((entry) => entry.serverId === 's').map((e) => e.exposedName),
    ).toEqual(want);
    expect(toolset.exposedName('t', 'b')).toBe('b');
  });

  it('NM-6: filters naming unknown servers or tools are reported, and __proto__ is an ordinary key', () => {
    const filters = JSON.parse(
      '{"__proto__": {"exclude": ["x"]}, "ghost": {}, "s": {"include": ["nope"]}}',
    );
    const { toolset, warnings } = buildToolSet([server('__proto__', 'x', 'y'), server('s', 'a')], {
      filters,
    });
    expect(toolset.entries.map((entry) => entry.tool.name)).toEqual(['y']);
    const unmatched = warnings.filter((warning) => warning.code === 'FILTER_UNMATCHED');
    expect(unmatched.map((warning) => [warning.serverId, warning.toolName])).toEqual([
      ['ghost', undefined],
      ['s', 'nope'],
    ]);
  });

  it.each([
    ['not a list', null],
    ['a numeric server id', [{ serverId: 1, tools: [] }]],
    ['a server without tools', [{ serverId: 's' }]],
    ['a duplicate server id', [server('s'), server('s')]],
  ])('NM-6: %s throws INVALID_INPUT', (_label, servers) => {
    expect(() => buildToolSet(servers as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('NM-7: truncation never merges two tools (create...Permissions vs delete...Permissions)', () => {
    const middle = 'OrganizationRepositoryEnvironmentDeploymentProtectionRule';
    const names = exposed([
      server('github', `create${middle}Permissions`, `delete${middle}Permissions`),
    ]);
    expect(names).toHaveLength(2);
    expect(names[0]).not.toBe(names[1]);
    for (const name of names) expect(name).toMatch(EXPOSED_NAME_PATTERN);
  });

  it('NM-7: sanitizing never merges two tools of one server', () => {
    const names = exposed([server('s', 'a.b', 'a b', 'a_b', 'a:b')]);
    expect(new Set(names).size).toBe(4);
    expect(names).toContain('a_b');
  });

  it('issue 34: the tools a set owns share their equal leaves across servers, each still a deep-equal frozen copy', () => {
    const schema = () => ({
      type: 'object',
      properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    });
    const listed = [
      { serverId: 'a', tools: [{ name: 'one', inputSchema: schema() }] },
      { serverId: 'b', tools: [{ name: 'two', inputSchema: schema() }] },
    ];
    const [one, two] = buildToolSet(listed).toolset.entries.map((entry) => entry.tool.inputSchema);
    expect(one).toEqual(schema());
    expect(two).toEqual(schema());
    const props = (s: typeof one) => s?.properties as Record<string, { items?: unknown }>;
    expect(props(two).id).toBe(props(one).id);
    expect(props(two).tags?.items).toBe(props(one).id);
    expect(props(two).tags).not.toBe(props(one).tags);
    expect(props(one).id).not.toBe(listed[0]?.tools[0]?.inputSchema.properties.id);
    expect(Object.isFrozen(props(one).id)).toBe(true);
  });

  it('NM-7: input property names Gemini may refuse are reported with their path', () => {
    const inputSchema = {
      type: 'object' as const,
      properties: {
        ok_name: { type: 'string' },
        'has space': { type: 'string' },
        'dash-name': { type: 'string' },
        nested: { type: 'object', properties: { $weird: { type: 'string' } } },
        list: { type: 'array', items: { type: 'object', properties: { ü: {} } } },
        properties: { type: 'object', properties: { fine: {} } },
      },
      $defs: { d: { properties: { '': {} } } },
    };
    const { warnings } = buildToolSet([{ serverId: 's', tools: [tool('t', { inputSchema })] }]);
    const paths = warnings
      .filter((warning) => warning.code === 'PARAMETER_NAME')
      .map((warning) => warning.path);
    expect(paths).toEqual([
      '/properties/has space',
      '/properties/dash-name',
      '/properties/nested/properties/$weird',
      '/properties/list/items/properties/ü',
      '/$defs/d/properties/',
    ]);
  });
});

/** Tool names from all of Unicode (0-300 chars) mixed with a small pool that forces collisions. */
const toolName = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom('hello', 'a.b', 'a_b', 'a b', '__proto__', 'constructor', 'x'.repeat(70), 's__t'),
);
const serverId = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('s', 'S', 'a', '__proto__', 'u'),
);
const serverList = fc.uniqueArray(
  fc.record({ serverId, names: fc.array(toolName, { maxLength: 12 }) }),
  { selector: (entry) => entry.serverId, maxLength: 8 },
);
const prefixMode = fc.constantFrom('on-collision', 'always', 'never') as fc.Arbitrary<
  'on-collision' | 'always' | 'never'
>;

describe('naming properties (NM)', () => {
  it('NM-1, NM-5, NM-7: any tool list gives valid, unique, reversible, order-independent names', () => {
    fc.assert(
      fc.property(serverList, prefixMode, (list, prefix) => {
        const servers = list.map((entry) => server(entry.serverId, ...entry.names));
        let result: ReturnType<typeof buildToolSet>;
        try {
          result = buildToolSet(servers, { prefix });
        } catch (error) {
          expect(prefix).toBe('never');
          expect(error).toMatchObject({ code: 'NAME_COLLISION' });
          return;
        }
        const { toolset } = result;
        const names = toolset.entries.map((entry) => entry.exposedName);
        expect(new Set(names).size).toBe(names.length);
        for (const entry of toolset.entries) {
          expect(entry.exposedName).toMatch(EXPOSED_NAME_PATTERN);
          expect(toolset.resolve(entry.exposedName)).toBe(entry);
          expect(toolset.exposedName(entry.serverId, entry.tool.name)).toBe(entry.exposedName);
        }
        const reversed = [...servers]
          .reverse()
          .map((entry) => ({ ...entry, tools: [...entry.tools].reverse() }));
        expect(nameMap(buildToolSet(reversed, { prefix }).toolset.entries)).toEqual(
          nameMap(toolset.entries),
        );
      }),
      PROPERTY_RUNS,
    );
  });
});
