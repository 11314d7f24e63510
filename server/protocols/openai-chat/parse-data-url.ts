import type { MediaSource } from '../../core/internal-representation.js';

const dataUrl = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

/** `data:image/png;base64,…` → inline bytes; anything else stays a URL for the provider to fetch or pass on. */
export function toMediaSource(url: string): MediaSource {
  const match = dataUrl.exec(url);
  if (match) return { kind: 'base64', mediaType: match[1] ?? 'application/octet-stream', data: match[2] };
  return { kind: 'url', url };
}
