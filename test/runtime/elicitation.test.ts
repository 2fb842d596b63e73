/**
 * CC-10: reading an elicitation form (every primitive the MCP schema allows) and checking an
 * answer against it, field by field.
 */
import { describe, expect, it } from 'vitest';
import { GeminiMcpError } from '../../src/errors.js';
import {
  type FormField,
  fieldProblem,
  formContent,
  formFields,
} from '../../src/runtime/mcp/features/elicitation.js';

describe('CC-10: form fields from a requestedSchema', () => {
  it('CC-10: every kind of primitive, in the server order, required names kept', () => {
    const fields = formFields({
      type: 'object',
      properties: {
        mail: { type: 'string', format: 'email', title: 'Mail', description: 'where to write' },
        odd: { type: 'string', format: 'ipv4' },
        size: { type: 'string', enum: ['s', 'm'], enumNames: ['Small', 'Medium'], default: 'm' },
        tier: {
          type: 'string',
          oneOf: [
            { const: 'a', title: 'Gold' },
            { const: 'b', title: 'Silver' },
          ],
        },
        tags: {
          type: 'array',
          items: { type: 'string', enum: ['x', 'y'] },
          minItems: 1,
          default: ['x'],
        },
        ratio: { type: 'number', minimum: 0, maximum: 1 },
        ok: { type: 'boolean', default: false },
      },
      required: ['mail', 'tags', 'ghost'],
    });
    expect(fields).toEqual([
      {
        name: 'mail',
        required: true,
        title: 'Mail',
        description: 'where to write',
        kind: 'text',
        format: 'email',
      },
      { name: 'odd', required: false, kind: 'text' },
      {
        name: 'size',
        required: false,
        kind: 'choice',
        options: [
          { value: 's', title: 'Small' },
          { value: 'm', title: 'Medium' },
        ],
        default: 'm',
      },
      {
        name: 'tier',
        required: false,
        kind: 'choice',
        options: [
          { value: 'a', title: 'Gold' },
          { value: 'b', title: 'Silver' },
        ],
      },
      {
        name: 'tags',
        required: true,
        kind: 'choices',
        options: [
          { value: 'x', title: 'x' },
          { value: 'y', title: 'y' },
        ],
        minItems: 1,
        default: ['x'],
      },
      { name: 'ratio', required: false, kind: 'number', minimum: 0, maximum: 1 },
      { name: 'ok', required: false, kind: 'boolean', default: false },
    ] satisfies FormField[]);
  });

  it('CC-10: a property named __proto__ is an ordinary field, in the content too', () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","default":"p"}}}',
    );
    const fields = formFields(schema);
    expect(fields.map((f) => f.name)).toEqual(['__proto__']);
    const content = formContent(fields, {});
    expect(Object.keys(content)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
  });
});

describe('CC-10: answers checked against the fields', () => {
  const text = (extra: Partial<FormField> = {}): FormField =>
    ({ name: 't', required: true, kind: 'text', ...extra }) as FormField;

  it.each([
    [text({ format: 'email' } as Partial<FormField>), 'ada@example.com', undefined],
    [text({ format: 'email' } as Partial<FormField>), 'ada at example', 'an email address'],
    [text({ format: 'uri' } as Partial<FormField>), 'https://example.com/a', undefined],
    [text({ format: 'uri' } as Partial<FormField>), 'not a uri', 'a URI'],
    [text({ format: 'date' } as Partial<FormField>), '2026-11-30', undefined],
    [text({ format: 'date' } as Partial<FormField>), '2026-13-45', 'a date (YYYY-MM-DD)'],
    [text({ format: 'date-time' } as Partial<FormField>), '2026-11-30T16:00:00Z', undefined],
    [
      text({ format: 'date-time' } as Partial<FormField>),
      '2026-11-30 16:00',
      'a date-time (RFC 3339)',
    ],
    [text({ maxLength: 2 } as Partial<FormField>), 'é😀', undefined],
    [text({ maxLength: 2 } as Partial<FormField>), 'abc', 'text of at most 2 characters'],
    [text(), 3, 'text'],
    [{ name: 'n', required: true, kind: 'number' } as FormField, Number.NaN, 'a number'],
    [{ name: 'n', required: true, kind: 'number', minimum: 1 } as FormField, 0.5, 'a number >= 1'],
    [{ name: 'b', required: true, kind: 'boolean' } as FormField, 'yes', 'true or false'],
    [
      {
        name: 'c',
        required: true,
        kind: 'choices',
        options: [{ value: 'x', title: 'x' }],
        maxItems: 1,
      } as FormField,
      ['x', 'x'],
      'a list without repeats',
    ],
  ])('CC-10: %j with %j: %s', (field, value, expected) => {
    expect(fieldProblem(field, value)).toBe(expected);
  });

  it('CC-10: content that is not an object is refused at /content', () => {
    const fields = formFields({ type: 'object', properties: { a: { type: 'string' } } });
    expect(() => formContent(fields, ['a'] as never)).toThrow(/\/content: expected an object/);
    expect(() => formContent(fields, null as never)).toThrow(/\/content: expected an object/);
  });

  it('CC-10: every mismatch is reported at once, each with its pointer', () => {
    const fields = formFields({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'boolean' } },
      required: ['a', 'b'],
    });
    let error: unknown;
    try {
      formContent(fields, { a: 'one', c: 1 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GeminiMcpError);
    expect((error as GeminiMcpError).code).toBe('INVALID_INPUT');
    expect((error as GeminiMcpError).path).toBe('/content/c');
    expect((error as GeminiMcpError).details).toEqual([
      { path: '/content/c', message: 'no such field' },
      { path: '/content/a', message: 'expected a whole number' },
      { path: '/content/b', message: 'a value (the field is required)' },
    ]);
  });
});
