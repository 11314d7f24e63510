import { asGatewayError } from '../core/as-gateway-error.js';
import { GatewayError, type ErrorKind } from '../core/gateway-error.js';
import { nameOffendingItem } from './name-offending-item.js';

/** The shape of express-openapi-validator's HttpError, read structurally so we need not import its classes. */
interface ValidatorError {
  status: number;
  message: string;
  errors?: Array<{ path?: string; message?: string }>;
  headers?: Record<string, string>;
}

/** body-parser and raw-body mark their errors with a `type`. */
interface BodyParserError {
  type: string;
  status?: number;
  message: string;
  limit?: number;
  /** `charset.unsupported`: the charset the request declared. */
  charset?: string;
}

/**
 * Turns anything thrown during a request into a GatewayError whose message is safe to show: the errors of
 * reading the request (its body, the contract) get a precise client message; the rest is what any model
 * call's error becomes (core/as-gateway-error.ts).
 */
export function toGatewayError(error: unknown, body?: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (isBodyParserError(error)) return fromBodyParser(error);
  if (isValidatorError(error)) return fromValidator(error, body);
  return asGatewayError(error);
}

function fromBodyParser(error: BodyParserError): GatewayError {
  switch (error.type) {
    case 'entity.parse.failed':
      return new GatewayError('invalid_request', `The request body is not valid JSON: ${error.message}`, { code: 'invalid_json' });
    case 'entity.too.large':
      return new GatewayError('request_too_large', `The request body is larger than the limit of ${error.limit} bytes.`);
    case 'encoding.unsupported':
      return new GatewayError('unsupported_media_type', error.message);
    case 'charset.unsupported':
      return new GatewayError('unsupported_media_type', `The charset '${error.charset?.toLowerCase()}' is not supported: JSON request bodies must be UTF-8 (RFC 8259).`);
    case 'request.aborted':
      return new GatewayError('invalid_request', 'The client closed the connection before the body was read.');
    default:
      return new GatewayError('invalid_request', error.message);
  }
}

const validatorKinds: Record<number, ErrorKind> = {
  400: 'invalid_request',
  401: 'authentication',
  403: 'permission',
  404: 'not_found',
  405: 'invalid_request',
  413: 'request_too_large',
  415: 'unsupported_media_type',
};

/** `body`: the request body, so that a refusal inside an array can name the item by its type or name. */
function fromValidator(error: ValidatorError, body: unknown): GatewayError {
  const kind = validatorKinds[error.status];
  if (!kind) {
    // Only response validation (tests and development) produces 500s here; say what broke the contract.
    return new GatewayError('internal', `Response does not match the API contract: ${describe(error)}`, { cause: error });
  }
  const first = error.errors?.[0];
  const param = error.status === 400 && first?.path ? paramFromPointer(first.path) : undefined;
  const item = error.status === 400 && first?.path?.startsWith('/body/') ? nameOffendingItem(body, first.path) : undefined;
  const message =
    error.status === 404 ? 'Unknown path. See /openapi.yaml for the operations this gateway serves.' : `${describe(error)}${item ? ` (${item})` : ''}`;
  return new GatewayError(kind, message, {
    status: error.status,
    param,
    code: error.status === 404 ? 'unknown_url' : undefined,
    headers: error.headers,
  });
}

function describe(error: ValidatorError): string {
  if (!error.errors?.length) return error.message;
  return error.errors.map((item) => `${item.path ?? ''} ${item.message ?? ''}`.trim()).join('; ');
}

/**
 * `/body/messages/0/role` → `messages[0].role`, the way OpenAI names params. A missing required property
 * is reported at its parent, so take the property name from the message in that case.
 */
export function paramFromPointer(pointer: string): string | undefined {
  const parts = pointer.replace(/^\.?\/?(body|query|path|headers)\/?/, '').split(/[/.]/).filter(Boolean);
  const param = parts.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
  return param || undefined;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string' &&
    (error as BodyParserError).type.includes('.');
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === 'object' && error !== null && typeof (error as ValidatorError).status === 'number' &&
    typeof (error as ValidatorError).message === 'string';
}
