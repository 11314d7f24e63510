/**
 * Which protocol's error shape and auth headers a path belongs to. Decided from the path alone because
 * errors can happen before any route matched (bad JSON, unknown path, missing key). A test checks that
 * this agrees with every operation's `x-protocol` in the spec.
 */
export type ProtocolFamily = 'openai' | 'anthropic' | 'gemini' | 'admin';

const geminiAction = /:(generateContent|streamGenerateContent|countTokens)$/;

export function protocolFamilyForPath(path: string): ProtocolFamily {
  if (path.startsWith('/admin/')) return 'admin';
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return 'anthropic';
  if (path === '/v1beta' || path.startsWith('/v1beta/') || geminiAction.test(path)) return 'gemini';
  return 'openai';
}
