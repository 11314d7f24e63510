/** The non-empty lines of a body read in chunks (a JSONL file), each as it completes, without holding the whole body. */
export async function* readLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line !== '') yield line;
    }
  }
  const last = (pending + decoder.decode()).trim();
  if (last !== '') yield last;
}
