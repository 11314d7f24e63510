import { isUtf8 } from 'node:buffer';

/** A line longer than the splitter takes: reading stops there rather than hold it whole. */
export class LineTooLong extends Error {
  override name = 'LineTooLong';
  constructor(
    readonly lineNumber: number,
    readonly maxLineBytes: number,
  ) {
    super(`Line ${lineNumber} is longer than ${maxLineBytes} bytes.`);
  }
}

/** One line of a file: its 1-based number and its bytes without the line end (`\n` or `\r\n`). */
export interface NumberedLine {
  number: number;
  bytes: Buffer;
}

/**
 * Splits bytes into lines as they arrive, holding at most one line (up to `maxLineBytes`) at a time, so a
 * file of any size is read in constant memory. The last line needs no line end.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lineNumber = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete lines the chunk ends; throws {@link LineTooLong} once a line passes the bound. */
  push(chunk: Buffer): NumberedLine[] {
    const lines: NumberedLine[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.hold(chunk.subarray(start, end));
      lines.push(this.take());
      start = end + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
    return lines;
  }

  /** The last line, if the input did not end with a line end. */
  end(): NumberedLine | undefined {
    return this.pendingBytes > 0 || this.pending.length > 0 ? this.take() : undefined;
  }

  private hold(piece: Buffer): void {
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.maxLineBytes) throw new LineTooLong(this.lineNumber + 1, this.maxLineBytes);
    if (piece.length > 0) this.pending.push(Buffer.from(piece));
  }

  private take(): NumberedLine {
    let bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    if (bytes.at(-1) === 13) bytes = bytes.subarray(0, -1);
    this.pending = [];
    this.pendingBytes = 0;
    return { number: ++this.lineNumber, bytes };
  }
}

/** A line as text; undefined when its bytes are not UTF-8 (decoding would silently change them). */
export function lineText(line: NumberedLine): string | undefined {
  return isUtf8(line.bytes) ? line.bytes.toString('utf8') : undefined;
}

/** The lines of a byte stream, each as text, one at a time; throws on a line over the bound or not UTF-8. */
export async function* readLines(source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>, maxLineBytes: number): AsyncGenerator<{ number: number; text: string }> {
  const splitter = new LineSplitter(maxLineBytes);
  const asText = (line: NumberedLine) => {
    const text = lineText(line);
    if (text === undefined) throw new Error(`Line ${line.number} is not UTF-8.`);
    return { number: line.number, text };
  };
  for await (const chunk of source) {
    for (const line of splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) yield asText(line);
  }
  const last = splitter.end();
  if (last) yield asText(last);
}
