import { z } from 'zod';

/** The `type` every member of an open union with a type not its own is read as: no provider uses it. */
export const otherType = '(other)';

/** A member of an open union: an object told apart by its literal `type`. */
type TypedObject = z.ZodObject<{ type: z.ZodLiteral<string> } & z.core.$ZodShape, z.core.$ZodObjectConfig>;

/**
 * Objects told apart by `type`, where the upstream adds types over time (Anthropic's content blocks and
 * deltas, its stream events): each known type is checked against its own schema, and an object of any
 * other type reads as `{type: '(other)'}`, for the converter to skip, instead of failing the stream.
 *
 * @example
 * const block = openUnion([z.object({ type: z.literal('text'), text: z.string() })]);
 * block.parse({ type: 'text', text: 'Hi' }); // { type: 'text', text: 'Hi' }
 * block.parse({ type: 'web_search_tool_result', content: [] }); // { type: '(other)' }
 * block.parse({ type: 'text' }); // throws: text is required
 */
export function openUnion<const Members extends readonly [TypedObject, ...TypedObject[]]>(members: Members) {
  const known = new Set<unknown>(members.flatMap((member) => [...member.shape.type.values]));
  const other = { type: otherType } as const;
  return z.preprocess(
    // Non-objects go on unchanged, so the union reports them as the wrong type.
    (value) => (typeof value === 'object' && value !== null && !known.has((value as { type?: unknown }).type) ? other : value),
    z.discriminatedUnion('type', [...members, z.object({ type: z.literal(otherType) })]),
  );
}
