/**
 * Compile-time checks (run by `tsc --noEmit`, which includes test/): the generated Gemini types
 * are assignable to @google/genai's, and back, where the two overlap. @google/genai declares
 * string enums (`Type`, `Behavior`, `FunctionResponseScheduling`, ...) where the generated types
 * have the same values as string literal unions; TypeScript never assigns a literal to an enum
 * member, so those fields are compared by value set instead of by assignment.
 */
import type * as genai from '@google/genai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Content,
  FunctionCall,
  FunctionDeclaration,
  FunctionResponse,
  FunctionResponseBlob,
  FunctionResponsePart,
  Part,
  Schema,
  Tool,
} from '../../src/generated/types.js';

/** The enum-typed fields of @google/genai, compared by their value sets below. */
type EnumFields = 'parameters' | 'response' | 'behavior';

describe('generated types against @google/genai', () => {
  it('FD-6: FunctionDeclaration is assignable to genai.FunctionDeclaration (and back, named and described)', () => {
    expectTypeOf<Omit<FunctionDeclaration, EnumFields>>().toExtend<genai.FunctionDeclaration>();
    expectTypeOf<
      Omit<genai.FunctionDeclaration, EnumFields> & { name: string; description: string }
    >().toExtend<Omit<FunctionDeclaration, EnumFields>>();
    expectTypeOf<`${NonNullable<genai.FunctionDeclaration['behavior']>}`>().toEqualTypeOf<
      NonNullable<FunctionDeclaration['behavior']>
    >();
  });

  it('FD-4: Schema types carry the same values as genai.Type', () => {
    expectTypeOf<`${genai.Type}`>().toEqualTypeOf<NonNullable<Schema['type']>>();
    expectTypeOf<Omit<Schema, 'type' | 'anyOf' | 'items' | 'properties'>>().toExtend<
      Omit<genai.Schema, 'type' | 'anyOf' | 'items' | 'properties'>
    >();
  });

  it('FD-6: Tool with function declarations is assignable to genai.Tool', () => {
    type Declarations = { functionDeclarations?: Omit<FunctionDeclaration, EnumFields>[] };
    expectTypeOf<Declarations>().toExtend<Pick<genai.Tool, 'functionDeclarations'>>();
    expectTypeOf<Tool['functionDeclarations']>().not.toBeAny();
  });

  it('FC-2: genai.FunctionCall with a name is assignable to FunctionCall, and back', () => {
    expectTypeOf<FunctionCall>().toExtend<genai.FunctionCall>();
    expectTypeOf<
      Pick<genai.FunctionCall, 'args' | 'id'> & { name: string }
    >().toExtend<FunctionCall>();
  });

  it('FR-1: FunctionResponse and its media parts are assignable to genai.FunctionResponse', () => {
    expectTypeOf<FunctionResponseBlob>().toExtend<genai.FunctionResponseBlob>();
    expectTypeOf<FunctionResponsePart>().toExtend<Pick<genai.FunctionResponsePart, 'inlineData'>>();
    type Ours = Omit<FunctionResponse, 'scheduling' | 'parts'> & { parts?: FunctionResponsePart[] };
    expectTypeOf<Omit<Ours, 'parts'>>().toExtend<
      Omit<genai.FunctionResponse, 'parts' | 'scheduling'>
    >();
    expectTypeOf<`${NonNullable<genai.FunctionResponse['scheduling']>}`>().toEqualTypeOf<
      NonNullable<FunctionResponse['scheduling']>
    >();
    expectTypeOf<
      Pick<genai.FunctionResponse, 'id'> & { name: string; response: Record<string, unknown> }
    >().toExtend<Omit<FunctionResponse, 'parts' | 'scheduling'>>();
  });

  it('FC-1, FR-1: the Parts the adapter reads and writes are assignable to genai.Part, and back', () => {
    type CallOrResponsePart = Pick<Part, 'text' | 'thought' | 'thoughtSignature'> & {
      functionCall?: FunctionCall;
      functionResponse?: Omit<FunctionResponse, 'scheduling' | 'parts'>;
    };
    expectTypeOf<CallOrResponsePart>().toExtend<genai.Part>();
    expectTypeOf<Pick<genai.Part, 'text' | 'thought' | 'thoughtSignature'>>().toExtend<Part>();
  });

  it('FC-1: Content with such parts is assignable to genai.Content', () => {
    type OurContent = Omit<Content, 'parts'> & {
      parts?: (Pick<Part, 'text'> & { functionCall?: FunctionCall })[];
    };
    expectTypeOf<OurContent>().toExtend<genai.Content>();
    expectTypeOf<{ role: 'model'; parts: Pick<genai.Part, 'text'>[] }>().toExtend<Content>();
  });
});
