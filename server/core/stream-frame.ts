/** One frame of a streamed answer: its data (an object to encode, or text sent as it is) and its SSE event name. */
export interface StreamFrame {
  data: unknown;
  event?: string;
}
