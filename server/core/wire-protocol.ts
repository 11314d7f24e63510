/**
 * The model-call protocols a client may speak, and an upstream too: when both speak the same one the
 * gateway forwards the client's body instead of translating it (providers/provider.ts `passThroughs`).
 */
export type WireProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';
