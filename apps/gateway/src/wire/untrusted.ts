/**
 * Two guards for JSON that came from a client, used before and while the wire parsers read it:
 *
 * - {@link checkJsonDepth}: a request nested deeper than {@link MAX_JSON_DEPTH} levels is refused with a 400
 *   naming the field where it got too deep. Further down, `JSON.stringify` (tool arguments, the provider
 *   request body) recurses once per level and throws a `RangeError` on a body a few tens of thousands of levels
 *   deep; refusing it at the edge keeps that from ever being a 500 or reaching a provider client
 *   (docs/contracts.md#gateway).
 * - {@link describeValue}: a value shown in an error message without calling `String()` on it. An object such
 *   as `{"toString": null}` makes `String()` and template interpolation throw.
 */
import { invalidRequest } from '../gateway-error.js';

/**
 * The deepest nesting of objects and arrays a request body may have: the body itself is level 1, so a tool's
 * `parameters` schema gets about 95 levels of its own. Real schemas and tool arguments stay far below it.
 */
export const MAX_JSON_DEPTH = 100;

/** Path segments shown in the error before it is cut short with `…`. */
const SHOWN_SEGMENTS = 8;

/**
 * The path of the first value nested deeper than `maxDepth` levels, as segments from the root (`undefined`
 * when none is). Recurses at most `maxDepth` levels, so it cannot overflow the stack however deep the input.
 */
function tooDeep(value: unknown, remaining: number): (string | number)[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (remaining === 0) return [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const below = tooDeep(value[index], remaining - 1);
      if (below !== undefined) return [index, ...below];
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const below = tooDeep((value as Record<string, unknown>)[key], remaining - 1);
    if (below !== undefined) return [key, ...below];
  }
  return undefined;
}

/**
 * A readable field path from segments (`tools[0].function.parameters`), safe to show and to send as OpenAI's
 * `param` whatever the keys hold: a key that is not a plain name is shown in JSON quotes and cut at 40
 * characters (`["a b"]`), and the path is cut with `…` after 8 segments.
 *
 * @example formatPath(['tools', 0, 'function']) // 'tools[0].function'
 * @example formatPath(['x y']) // '["x y"]'
 */
export function formatPath(segments: readonly (string | number)[]): string {
  let text = '';
  for (const segment of segments.slice(0, SHOWN_SEGMENTS)) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]{0,39}$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment.length > 40 ? `${segment.slice(0, 40)}…` : segment)}]`;
  }
  return segments.length > SHOWN_SEGMENTS ? `${text}…` : text;
}

/**
 * Refuses a parsed request body nested deeper than `maxDepth` levels.
 *
 * @param maxDepth - @default MAX_JSON_DEPTH
 * @throws {GatewayError} 400 `nesting_too_deep` naming the field where the body got too deep.
 * @example checkJsonDepth({ tools: [{ function: { parameters: deep } }] }) // 400 "tools[0].function.parameters…: nested deeper than 100 levels …"
 */
export function checkJsonDepth(body: unknown, maxDepth = MAX_JSON_DEPTH): void {
  const segments = tooDeep(body, maxDepth);
  if (segments === undefined) return;
  const field = segments.length === 0 ? undefined : formatPath(segments);
  throw invalidRequest(
    `${field ?? 'the request body'}: nested deeper than ${maxDepth} levels of objects and arrays, more than the gateway accepts; flatten it (e.g. move repeated schemas into $defs)`,
    'nesting_too_deep',
    field,
  );
}

/**
 * A short description of an untrusted value for an error message: a string in JSON quotes (cut at 60
 * characters), a number, boolean or null as written, and only the kind of anything else (`an object`, `an
 * array`). Never calls a method of the value, so it cannot throw.
 *
 * @example describeValue('tool') // '"tool"'
 * @example describeValue({ toString: null }) // 'an object'
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
      return 'nothing';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? 'an array' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}
