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
];
