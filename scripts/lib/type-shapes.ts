/**
 * Which public types change shape between two versions of the generated `types.ts`: types added
 * or removed, fields added or removed, fields narrowed (fewer values accepted), widened or
 * otherwise changed, fields becoming required or optional, objects closed or opened to unknown
 * fields. Read from the TypeScript itself, so it states what a user of the types will meet.
 */
import { Node, Project, type TypeNode } from 'ts-morph';

/** One member of an interface as it bears on its shape. */
interface Member {
  optional: boolean;
  /** The type as a set of union members, each normalised text. */
  union: string[];
}

/** A declaration: an interface's members, or a type alias's union. */
interface Shape {
  members: Map<string, Member> | null;
  union: string[];
  /** Names of the other types it refers to. */
  refers: Set<string>;
}

/** One type whose shape changes, with each change in words. */
interface TypeShapeChange {
  typeName: string;
  changes: string[];
}

/** What changes in the public types, and which other types contain the changed ones. */
export interface TypeShapeReport {
  changed: TypeShapeChange[];
  /** For each changed type, the public types that contain it (directly or not), sorted. */
  containedIn: Map<string, string[]>;
}

const INDEX_SIGNATURE = '[k: string]';

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();

function unionOf(node: TypeNode | undefined): string[] {
  if (!node) return ['unknown'];
  if (Node.isParenthesizedTypeNode(node)) return unionOf(node.getTypeNode());
  if (Node.isUnionTypeNode(node)) return [...new Set(node.getTypeNodes().flatMap(unionOf))].sort();
  return [normalise(node.getText())];
}

function shapesOf(source: string): Map<string, Shape> {
  const file = new Project({ useInMemoryFileSystem: true }).createSourceFile('types.ts', source);
  const shapes = new Map<string, Shape>();
  const refersOf = (node: Node): Set<string> =>
    new Set(
      node
        .getDescendants()
        .filter(Node.isTypeReference)
        .map((reference) => reference.getTypeName().getText()),
    );
  for (const declaration of file.getInterfaces()) {
    const members = new Map<string, Member>();
    for (const property of declaration.getProperties()) {
      members.set(property.getName(), {
        optional: property.hasQuestionToken(),
        union: unionOf(property.getTypeNode()),
      });
    }
    for (const index of declaration.getIndexSignatures()) {
      members.set(INDEX_SIGNATURE, { optional: true, union: unionOf(index.getReturnTypeNode()) });
    }
    shapes.set(declaration.getName(), { members, union: [], refers: refersOf(declaration) });
  }
  for (const alias of file.getTypeAliases()) {
    shapes.set(alias.getName(), {
      members: null,
      union: unionOf(alias.getTypeNode()),
      refers: refersOf(alias),
    });
  }
  return shapes;
}

const list = (values: string[]): string => values.join(' | ');

function unionChange(what: string, before: string[], after: string[]): string | undefined {
  const lost = before.filter((value) => !after.includes(value));
  const gained = after.filter((value) => !before.includes(value));
  if (lost.length === 0 && gained.length === 0) return undefined;
  if (gained.length === 0) return `${what} narrowed: no longer accepts ${list(lost)}`;
  if (lost.length === 0) return `${what} widened: also accepts ${list(gained)}`;
  return `${what} changed: ${list(before)} -> ${list(after)}`;
}

function memberChanges(before: Map<string, Member>, after: Map<string, Member>): string[] {
  const changes: string[] = [];
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const name of names) {
    const old = before.get(name);
    const now = after.get(name);
    if (name === INDEX_SIGNATURE) {
      if (!old) changes.push('now open to unknown fields');
      else if (!now) changes.push('now closed to unknown fields');
      continue;
    }
    if (!old) {
      changes.push(`field added: \`${name}${now!.optional ? '?' : ''}: ${list(now!.union)}\``);
    } else if (!now) {
      changes.push(`field removed: \`${name}\``);
    } else {
      const union = unionChange(`\`${name}\``, old.union, now.union);
      if (union) changes.push(union);
      if (old.optional && !now.optional) changes.push(`\`${name}\` now required`);
      if (!old.optional && now.optional) changes.push(`\`${name}\` now optional`);
    }
  }
  return changes;
}

function shapeChanges(before: Shape, after: Shape): string[] {
  if (before.members && after.members) return memberChanges(before.members, after.members);
  if (!before.members && !after.members) {
    const union = unionChange('the type', before.union, after.union);
    return union ? [union] : [];
  }
  return [after.members ? 'now an interface (was a type alias)' : 'now a type alias'];
}

/** Compares two versions of the generated `types.ts`. */
export function typeShapeChanges(beforeSource: string, afterSource: string): TypeShapeReport {
  const before = shapesOf(beforeSource);
  const after = shapesOf(afterSource);
  const changed: TypeShapeChange[] = [];
  for (const typeName of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const old = before.get(typeName);
    const now = after.get(typeName);
    const changes = !old ? ['type added'] : !now ? ['type removed'] : shapeChanges(old, now);
    if (changes.length > 0) changed.push({ typeName, changes });
  }
  const containedIn = new Map<string, string[]>();
  for (const { typeName } of changed) {
    const holders = new Set<string>();
    let frontier = [typeName];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const [name, shape] of [...after, ...before]) {
        if (holders.has(name) || name === typeName) continue;
        if (frontier.some((target) => shape.refers.has(target))) {
          holders.add(name);
          next.push(name);
        }
      }
      frontier = next;
    }
    containedIn.set(typeName, [...holders].sort());
  }
  return { changed, containedIn };
}
