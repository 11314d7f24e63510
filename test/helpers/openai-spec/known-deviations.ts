// The rules of OpenAI's published spec that the oracle does not enforce, because OpenAI's own examples in
// the same file break them (so the rule does not say what OpenAI's API sends) and the gateway answers as
// those examples do. Nothing else is exempt: a rule an example breaks but the gateway keeps stays enforced.
// test/openai-published-spec.test.ts proves each entry: its example breaks the rule at `at`, and the
// entry is what makes the oracle accept it there.

export interface KnownDeviation {
  /** JSON pointer into the published document to the schema (a property) not enforced as written. */
  schema: string;
  /** What the oracle accepts there besides what the schema allows. */
  alsoAccepts: 'null';
  /** Why the gateway answers so, and why OpenAI's rule is not what OpenAI sends. */
  why: string;
  /** OpenAI's example that breaks the rule: `<METHOD> <path> "<title>"` (`event <n>` for one of a stream), or `<Schema> example`. */
  brokenBy: string;
  /** Where in that example: the JSON pointer of the value that breaks it. */
  at: string;
}

export const knownDeviations: readonly KnownDeviation[] = [
  {
    schema: '/components/schemas/ModelResponseProperties/properties/user',
    alsoAccepts: 'null',
    why: "Every Response OpenAI shows says `user: null` when the request set none, though the schema is a plain string; the gateway echoes the request's `user` the same way.",
    brokenBy: 'POST /responses "File input"',
    at: '/user',
  },
  {
    schema: '/components/schemas/Response/allOf/2/properties/usage',
    alsoAccepts: 'null',
    why: 'The response of `response.created` and `response.in_progress` has `usage: null` in OpenAI\'s examples (there is none yet), though `usage` is a `ResponseUsage`; the gateway\'s snapshots before the answer do the same.',
    brokenBy: 'ResponseCreatedEvent example',
    at: '/response/usage',
  },
  {
    schema: '/components/schemas/CreateChatCompletionResponse/properties/system_fingerprint',
    alsoAccepts: 'null',
    why: 'OpenAI answers `system_fingerprint: null` for models without one (its example, and the recorded OpenAI answer test/fixtures/upstream-recorded/openai-chat/non-stream-image-input.json), though the schema is a string; the gateway forwards that, and its own answers say null too. (Its stream chunks leave the field out: no example of a chunk has null.)',
    brokenBy: 'POST /chat/completions "Logprobs"',
    at: '/system_fingerprint',
  },
  {
    schema: '/components/schemas/Batch/properties/errors',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `errors: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/errors',
  },
  {
    schema: '/components/schemas/Batch/properties/output_file_id',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `output_file_id: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/output_file_id',
  },
  {
    schema: '/components/schemas/Batch/properties/error_file_id',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `error_file_id: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/error_file_id',
  },
  {
    schema: '/components/schemas/Batch/properties/in_progress_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `in_progress_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/in_progress_at',
  },
  {
    schema: '/components/schemas/Batch/properties/expires_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `expires_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/expires_at',
  },
  {
    schema: '/components/schemas/Batch/properties/finalizing_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `finalizing_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/finalizing_at',
  },
  {
    schema: '/components/schemas/Batch/properties/completed_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `completed_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/completed_at',
  },
  {
    schema: '/components/schemas/Batch/properties/failed_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `failed_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/failed_at',
  },
  {
    schema: '/components/schemas/Batch/properties/expired_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `expired_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/expired_at',
  },
  {
    schema: '/components/schemas/Batch/properties/cancelling_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `cancelling_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/cancelling_at',
  },
  {
    schema: '/components/schemas/Batch/properties/cancelled_at',
    alsoAccepts: 'null',
    why: "OpenAI's Batch objects say null for what has not happened (yet), though the schema has no null: its example of a new batch has `cancelled_at: null`; the gateway's batches answer the same.",
    brokenBy: 'POST /batches',
    at: '/cancelled_at',
  },
];
