/** The conversation of the socket's latest response, when only the socket keeps it. */
interface KeptBySocket {
  id: string;
  /** The request's previous response, which the gateway's store resolves (or none). */
  previousResponseId: string | null;
  /** Every item of the conversation since `previousResponseId`: the inputs, then the outputs. */
  items: unknown[];
}

/**
 * What one socket remembers between its turns, as OpenAI's WebSocket mode does: the state of the most
 * recent response, in memory on the connection, so that a turn can continue from it with
 * `previous_response_id` and only its new input even when nothing was stored (`store: false`, which
 * openai/codex sends) and after a warm-up (`generate: false`), which stores nothing either. A response the
 * gateway stored needs none of this: its ID resolves from the store on any socket and over HTTP. Only the
 * latest response is kept, as OpenAI keeps only it; an older one not stored is `previous_response_not_found`.
 */
export class SocketConversation {
  private latest: KeptBySocket | undefined;

  /**
   * The create body to send for a frame: one continuing from the socket's own latest response gets that
   * conversation's items before its input, and the stored response before it as `previous_response_id`.
   */
  bodyFor(body: Record<string, unknown>): Record<string, unknown> {
    const latest = this.latest;
    if (!latest || body.previous_response_id !== latest.id) return body;
    const { previous_response_id: _continued, ...rest } = body;
    return {
      ...rest,
      ...(latest.previousResponseId && { previous_response_id: latest.previousResponseId }),
      input: [...latest.items, ...inputItems(body.input)],
    };
  }

  /** Remembers a finished turn: `sent` the body the turn ran with, `response` its final snapshot. */
  rememberTurn(sent: Record<string, unknown>, response: { id?: unknown; output?: unknown }): void {
    if (typeof response.id !== 'string') return;
    if (sent.store !== false) {
      // The store has it: nothing to keep here.
      this.latest = undefined;
      return;
    }
    this.latest = {
      id: response.id,
      previousResponseId: typeof sent.previous_response_id === 'string' ? sent.previous_response_id : null,
      items: [...inputItems(sent.input), ...(Array.isArray(response.output) ? response.output : [])],
    };
  }

  /**
   * A warm-up (`generate: false`) the gateway admitted under `id`: its request state is kept as the
   * response's, so that the next turn continues from it with only its new input. openai/codex waits for
   * the warm-up's `response.completed` before the turn's first request (`prewarm_websocket` in
   * codex-rs/core/src/client.rs) and continues from its ID.
   */
  warmedUp(sent: Record<string, unknown>, id: string): void {
    const previousResponseId = typeof sent.previous_response_id === 'string' ? sent.previous_response_id : null;
    this.latest = { id, previousResponseId, items: inputItems(sent.input) };
  }
}

/** A create body's `input` as items: a string is one user message, as `POST /v1/responses` reads it. */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}
