import type { ToolDefinition } from '../../core/internal-representation.js';
import { asRecord, parseJson } from '../../providers/upstream/parse-json.js';

/**
 * How a Responses client's function, namespace and custom tools are offered to an upstream that knows only
 * plain functions, and how that upstream's calls are told back to the client under the names it gave.
 *
 * - A function inside a `namespace` tool is offered as `<namespace>__<name>` (names allow only
 *   `[a-zA-Z0-9_-]`); its calls come back as `function_call` with `namespace` and `name`.
 * - A `custom` tool (free-form input, as Codex's `apply_patch`) is offered as a function of one string
 *   argument, `input`; its calls come back as `custom_tool_call` with that string as `input`.
 *
 * Built from the request's `tools`, which a response also echoes, so the converter and the renderers agree.
 */
export interface ClientTool {
  kind: 'function' | 'custom';
  name: string;
  namespace?: string;
}

/** The string argument a custom tool's free-form input travels in. */
const customInputField = 'input';

export class ResponsesToolNames {
  private readonly byUpstreamName = new Map<string, ClientTool>();

  private constructor(tools: readonly unknown[]) {
    for (const value of tools) {
      const tool = asRecord(value);
      if (!tool || typeof tool.name !== 'string') continue;
      if (tool.type === 'custom') this.add({ kind: 'custom', name: tool.name });
      if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
        for (const memberValue of tool.tools) {
          const member = asRecord(memberValue);
          if (!member || typeof member.name !== 'string') continue;
          this.add({ kind: member.type === 'custom' ? 'custom' : 'function', name: member.name, namespace: tool.name });
        }
      }
    }
  }

  /** The names of `tools` (a request's, or a response's echo of them). */
  static of(tools: readonly unknown[] | null | undefined): ResponsesToolNames {
    return new ResponsesToolNames(tools ?? []);
  }

  /** What the upstream calls the client's tool. */
  static upstreamName(name: string, namespace?: string | null): string {
    return namespace ? `${namespace}__${name}` : name;
  }

  /** The client's tool behind an upstream's call; a plain function when the name is not one of ours. */
  clientTool(upstreamName: string): ClientTool {
    return this.byUpstreamName.get(upstreamName) ?? { kind: 'function', name: upstreamName };
  }

  private add(tool: ClientTool): void {
    this.byUpstreamName.set(ResponsesToolNames.upstreamName(tool.name, tool.namespace), tool);
  }
}

/** A custom tool as the function an upstream without custom tools is offered. */
export function customToolAsFunction(name: string, description: string | null | undefined, format: unknown): ToolDefinition {
  const spec = asRecord(format);
  const grammar = spec?.type === 'grammar' && typeof spec.definition === 'string' ? spec : undefined;
  const inputDescription = grammar
    ? `The tool's free-form input, which must follow this ${String(grammar.syntax ?? '')} grammar:\n${grammar.definition}`
    : "The tool's free-form input, as plain text.";
  return {
    name,
    ...(description ? { description } : {}),
    parameters: {
      type: 'object',
      properties: { [customInputField]: { type: 'string', description: inputDescription } },
      required: [customInputField],
      additionalProperties: false,
    },
  };
}

/** A custom tool's input as the arguments of the function it was offered as. */
export function customInputAsArguments(input: string): string {
  return JSON.stringify({ [customInputField]: input });
}

/**
 * The free-form input inside a function call's arguments. Arguments that are not the expected object (a
 * model that ignored the schema) are passed on whole rather than lost.
 */
export function customInputFromArguments(args: string): string {
  const input = asRecord(parseJson(args))?.[customInputField];
  return typeof input === 'string' ? input : args;
}
