import type OpenAI from 'openai';
import { assertMatchesSchema } from './contract-schemas.js';

export type ImageStreamEvent = OpenAI.Images.ImageGenStreamEvent | OpenAI.Images.ImageEditStreamEvent;

/** Every event of an SDK image stream, each checked against the contract's schema for it on the way. */
export async function collectImageEvents(
  stream: AsyncIterable<ImageStreamEvent>,
  schema: 'ImagesGenerationStreamEvent' | 'ImagesEditStreamEvent',
): Promise<ImageStreamEvent[]> {
  const events: ImageStreamEvent[] = [];
  for await (const event of stream) {
    assertMatchesSchema(schema, event);
    events.push(event);
  }
  return events;
}
