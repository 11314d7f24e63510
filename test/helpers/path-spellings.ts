import fc from 'fast-check';

/**
 * Other spellings of a request path, each with what it must do under the gateway's one matching rule
 * (README, "Paths"), decided here from what the spelling changed, not by the gateway's own matcher:
 * - `same`: doubled slashes, a trailing slash, percent-encoded characters of a parameter (a model ID's `/`
 *   as `%2F` or literal) reach the same operation;
 * - `unmatched`: another case of any letter of a literal segment or of a Gemini action, or a
 *   percent-encoded character of a literal, reach no operation (a 404 in the family's shape).
 */
export interface PathSpelling {
  path: string;
  verdict: 'same' | 'unmatched';
  /** What was done, for failure messages. */
  changes: string[];
}

/** One piece of a filled-in template: literal text, or a parameter's value (encoded as the SDKs do). */
interface Piece {
  text: string;
  literal: boolean;
}

/**
 * `/v1beta/models/{model}:generateContent` with `model` = `builtin/echo` → segments of pieces:
 * [[v1beta], [models], [builtin/echo (value), :generateContent (literal)]].
 */
function segmentsOf(template: string, values: Record<string, string>): Piece[][] {
  return template
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) =>
      segment
        .split(/(\{[^}]+\})/)
        .filter((piece) => piece !== '')
        .map((piece) => (piece.startsWith('{') ? { text: values[piece.slice(1, -1)] ?? 'x', literal: false } : { text: piece, literal: true })),
    );
}

const encodeChar = (char: string, lower: boolean) => {
  const hex = Array.from(Buffer.from(char, 'utf8'), (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return lower ? hex : hex.toUpperCase();
};

type PieceChange = { kind: 'keep' } | { kind: 'flip-case'; at: number } | { kind: 'encode'; at: number; lower: boolean };

const pieceChange = fc.oneof(
  { weight: 4, arbitrary: fc.constant<PieceChange>({ kind: 'keep' }) },
  { weight: 2, arbitrary: fc.nat().map<PieceChange>((at) => ({ kind: 'flip-case', at })) },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(), lower: fc.boolean() }).map<PieceChange>(({ at, lower }) => ({ kind: 'encode', at, lower })) },
);

/** A piece after its change, and whether the change alters what the path says. */
function applyChange(piece: Piece, change: PieceChange): { text: string; altered: boolean; note?: string } {
  // A value's `/` is written literally or as %2F (both mean the same); other characters are encoded as sent.
  const text = piece.literal ? piece.text : piece.text.split('/').map(encodeURIComponent).join('/');
  if (change.kind === 'keep' || piece.text.length === 0) return { text, altered: false };
  if (change.kind === 'flip-case') {
    if (!piece.literal) return { text, altered: false };
    const index = change.at % piece.text.length;
    const char = piece.text[index]!;
    const flipped = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
    if (flipped === char) return { text, altered: false };
    return { text: piece.text.slice(0, index) + flipped + piece.text.slice(index + 1), altered: true, note: `case of '${char}' in '${piece.text}'` };
  }
  const chars = [...piece.text];
  const index = change.at % chars.length;
  const encoded = chars.map((char, at) => (at === index ? encodeChar(char, change.lower) : piece.literal ? char : char === '/' ? '/' : encodeURIComponent(char))).join('');
  return { text: encoded, altered: piece.literal, note: `'${chars[index]}' of '${piece.text}' percent-encoded` };
}

/**
 * Spellings of the template filled with `values`: a change per piece, one or two slashes before each
 * segment, and a trailing slash or not. The query (credentials) is the caller's to append.
 */
export function pathSpellings(template: string, values: Record<string, string>): fc.Arbitrary<PathSpelling> {
  const segments = segmentsOf(template, values);
  const pieceCount = segments.reduce((count, pieces) => count + pieces.length, 0);
  return fc
    .record({
      changes: fc.array(pieceChange, { minLength: pieceCount, maxLength: pieceCount }),
      doubled: fc.array(fc.boolean(), { minLength: segments.length, maxLength: segments.length }),
      trailing: fc.boolean(),
      // Half the spellings change only what must not matter, so both verdicts are well represented.
      harmlessOnly: fc.boolean(),
    })
    .map(({ changes, doubled, trailing, harmlessOnly }) => {
      let next = 0;
      let verdict: PathSpelling['verdict'] = 'same';
      const notes: string[] = [];
      const path = segments
        .map((pieces, index) => {
          const text = pieces
            .map((piece) => {
              const change = changes[next++]!;
              const changed = applyChange(piece, harmlessOnly && piece.literal ? { kind: 'keep' } : change);
              if (changed.altered) verdict = 'unmatched';
              if (changed.note) notes.push(changed.note);
              return changed.text;
            })
            .join('');
          if (doubled[index]) notes.push(`'//' before segment ${index + 1}`);
          return (doubled[index] ? '//' : '/') + text;
        })
        .join('');
      if (trailing) notes.push('trailing /');
      return { path: trailing ? `${path}/` : path, verdict, changes: notes };
    });
}
