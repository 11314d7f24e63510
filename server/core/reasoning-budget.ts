import type { ModelRequest } from './internal-representation.js';

type Effort = NonNullable<NonNullable<ModelRequest['reasoning']>['effort']>;

/**
 * OpenAI speaks of reasoning effort, Anthropic and Gemini of a thinking-token budget. These tables are
 * the one place the two scales meet. The budgets follow Anthropic's guidance (1,024 is its minimum).
 */
const budgetForEffort: Record<Effort, number> = {
  none: 0,
  minimal: 1_024,
  low: 2_048,
  medium: 8_192,
  high: 16_384,
  xhigh: 32_768,
};

/**
 * OpenAI's effort scale (like Anthropic's) now tops out at `max`, one step past the gateway's `xhigh`:
 * translated, it asks for the most the gateway's scale has.
 */
export function gatewayEffort(effort: Effort | 'max'): Effort {
  return effort === 'max' ? 'xhigh' : effort;
}

/** The thinking budget a request asks for: its own budget if given, else its effort converted; 0 = off. */
export function thinkingBudget(reasoning: ModelRequest['reasoning']): number | undefined {
  if (!reasoning) return undefined;
  if (reasoning.budgetTokens !== undefined) return reasoning.budgetTokens;
  return reasoning.effort ? budgetForEffort[reasoning.effort] : undefined;
}

/** The effort closest to a budget, for upstreams that only take an effort. */
export function effortForBudget(budgetTokens: number): Effort {
  if (budgetTokens <= 0) return 'none';
  if (budgetTokens <= 1_024) return 'minimal';
  if (budgetTokens <= 4_096) return 'low';
  if (budgetTokens <= 12_288) return 'medium';
  return 'high';
}

/** The effort a request asks for, whichever scale it used. */
export function reasoningEffort(reasoning: ModelRequest['reasoning']): Effort | undefined {
  if (!reasoning) return undefined;
  return reasoning.effort ?? (reasoning.budgetTokens !== undefined ? effortForBudget(reasoning.budgetTokens) : undefined);
}
