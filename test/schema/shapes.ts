/**
 * Synthetic schemas of the shapes real servers publish and the limits meet: recursive `$ref`
 * graphs (a self-recursive component tree, a cycle of entity definitions) and `$ref` bombs.
 */

/**
 * A component tree that refers to itself from `fanout` places (the shape of layout servers'
 * flex messages): with the default cut after three re-entries it expands past 20,000 nodes.
 */
export function componentTree(fanout = 16): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    type: { type: 'string', enum: ['box', 'text', 'image'], description: 'The component kind' },
    text: { type: 'string', description: 'Text shown' },
    size: { type: 'string', enum: ['sm', 'md', 'lg'] },
    flex: { type: 'integer', minimum: 0 },
  };
  for (let i = 0; i < fanout; i++) {
    properties[`slot${i}`] =
      i % 2 === 0
        ? { $ref: '#/$defs/Component', description: `Slot ${i}` }
        : { type: 'array', items: { $ref: '#/$defs/Component' }, description: `Slot list ${i}` };
  }
  return {
    type: 'object',
    properties: { root: { $ref: '#/$defs/Component' } },
    required: ['root'],
    $defs: {
      Component: {
        type: 'object',
        description: 'A layout component',
        properties,
        required: ['type'],
      },
    },
  };
}

/**
 * Three entity definitions, each referring to the other two and to itself (the shape of
 * directory and graph APIs: a user's manager, a group's members, ...).
 */
export function entityCycle(): Record<string, unknown> {
  const entity = (name: string, others: readonly string[]) => ({
    type: 'object',
    description: `A ${name}`,
    properties: {
      id: { type: 'string', description: `The ${name} id` },
      displayName: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      ...Object.fromEntries(
        others.flatMap((other) => [
          [`${other.toLowerCase()}`, { $ref: `#/definitions/${other}` }],
          [
            `${other.toLowerCase()}List`,
            { type: 'array', items: { $ref: `#/definitions/${other}` } },
          ],
        ]),
      ),
    },
  });
  return {
    type: 'object',
    properties: {
      user: { $ref: '#/definitions/User' },
      filter: { type: 'string', description: 'An OData filter' },
    },
    required: ['user'],
    definitions: {
      User: entity('User', ['Group', 'Device', 'User']),
      Group: entity('Group', ['User', 'Device', 'Group']),
      Device: entity('Device', ['User', 'Group', 'Device']),
    },
  };
}

/** `$defs` where each level refers twice to the one below: 2^levels nodes once expanded. */
export function billionLaughs(levels: number, shape: 'properties' | 'anyOf'): unknown {
  const defs: Record<string, unknown> = { l0: { type: 'string', minLength: 1 } };
  for (let i = 1; i <= levels; i++) {
    const ref = { $ref: `#/$defs/l${i - 1}` };
    defs[`l${i}`] =
      shape === 'properties'
        ? { type: 'object', properties: { a: ref, b: ref } }
        : { anyOf: [{ allOf: [ref, { title: 'x' }] }, { allOf: [ref, { title: 'y' }] }] };
  }
  return { $ref: `#/$defs/l${levels}`, $defs: defs };
}

/**
 * `count` entity definitions, each referring to every one (itself included): its paths without
 * a repeated entity alone run past any budget, so it is expanded breadth-first.
 */
export function entityGraph(count: number): Record<string, unknown> {
  const names = Array.from({ length: count }, (_, i) => `Entity${i}`);
  const definitions: Record<string, unknown> = {};
  for (const name of names) {
    definitions[name] = {
      type: 'object',
      description: `The ${name}`,
      properties: {
        id: { type: 'string' },
        ...Object.fromEntries(
          names.map((other) => [other.toLowerCase(), { $ref: `#/definitions/${other}` }]),
        ),
      },
    };
  }
  return { type: 'object', properties: { root: { $ref: '#/definitions/Entity0' } }, definitions };
}
