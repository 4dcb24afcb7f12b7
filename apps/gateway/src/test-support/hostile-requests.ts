/**
 * fast-check arbitraries of hostile raw HTTP requests for the gateway fuzzer: request targets (hostile paths,
 * absolute forms, percent junk), methods, headers (odd names, duplicates, both framings), chunked framing
 * (uppercase and zero-padded sizes, extensions, trailers, bad sizes), and JSON bodies near a valid chat request
 * — fields replaced by non-string primitives or attacker-shaped objects, nested deeply, or the JSON text
 * mutated (cut, a character flipped). Every request is complete, so none waits on the gateway's idle limit.
 */
import fc from 'fast-check';

/** One raw request, as bytes on the wire plus what the checks need to know about it. */
export interface HostileRequest {
  /** The request exactly as sent. */
  readonly text: string;
  /** The method and the target as written on the request line. */
  readonly method: string;
  readonly target: string;
  /** The framing is one Node's parser may refuse (then a missing answer is allowed). */
  readonly brokenFraming: boolean;
}

const ROUTES = ['/v1/chat/completions', '/v1/messages', '/chat/completions', '/messages', '/v1/models', '/healthz', '/admin/status', '/metrics'];

const target: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ROUTES) },
  { weight: 2, arbitrary: fc.constantFrom('//', '///', '//[', '//a:99999/', '//%', '//%zz', '//user:pass@host/v1/models', '/\\\\evil', '/..%2f..%2f', '/v1/models?x=%', '/v1//messages', '//v1/chat/completions') },
  { weight: 1, arbitrary: fc.constantFrom('http://x/v1/models', 'https://[::1]/v1/messages', 'http://[/', '*', 'mailto:a', 'http:/v1/models') },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ROUTES), fc.string({ unit: fc.constantFrom('/', '%', '[', ']', ':', '@', '?', '&', '=', '#', 'a', '0', '.', '~', ';'), maxLength: 12 })).map(([route, tail]) => `${route}${tail}`) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('/', '%', '[', ']', ':', '@', '?', 'a', '9', '.'), minLength: 1, maxLength: 16 }).map((tail) => `/${tail}`) },
);

const method = fc.oneof({ weight: 6, arbitrary: fc.constant('POST') }, { weight: 3, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') }, { weight: 1, arbitrary: fc.constantFrom('FOO', 'post', 'CONNECT') });

const primitive: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -0, 0.1, 2 ** 53),
  fc.string({ maxLength: 8 }),
  fc.constant({ toString: null }),
  fc.constant({ toString: 1, valueOf: 1 }),
  fc.constant([]),
  fc.constant({}),
);

/** A valid chat request of the dialect of `route`, the base the mutations start from. */
function baseBody(route: string, stream: boolean): Record<string, unknown> {
  const anthropic = route.includes('messages');
  const body: Record<string, unknown> = {
    model: 'default',
    messages: [
      { role: 'user', content: anthropic ? [{ type: 'text', text: 'hi' }] : 'hi' },
      anthropic
        ? { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }] }
        : { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      anthropic ? { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } : { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ],
    tools: anthropic ? [{ name: 'f', input_schema: { type: 'object' } }] : [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    stream,
    temperature: 0.5,
  };
  if (anthropic) body['max_tokens'] = 16;
  return body;
}

/** Every path of objects and arrays in `value`, as key lists (at most ~40). */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (out.length > 40 || typeof value !== 'object' || value === null) return out;
  for (const [key, child] of Object.entries(value)) {
    const next = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(next);
    paths(child, next, out);
  }
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], replacement: unknown): void {
  let node: unknown = root;
  // An earlier replacement may have turned a parent into a primitive: then there is no place left to set.
  for (const key of path.slice(0, -1)) node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
  const last = path[path.length - 1];
  if (last !== undefined && typeof node === 'object' && node !== null) (node as Record<string | number, unknown>)[last] = replacement;
}

/** Marks a place that {@link deepText} fills in as JSON text (too deep for `JSON.stringify`). */
const DEEP = '"__hostile_deep__"';

function deepText(depth: number, array: boolean): string {
  return array ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON body text: the base, with zero to three fields replaced, maybe a deep value, maybe the text mutated. */
function bodyText(route: string): fc.Arbitrary<string> {
  return fc
    .record({
      stream: fc.boolean(),
      replacements: fc.array(fc.tuple(fc.nat(), primitive), { maxLength: 3 }),
      deep: fc.option(fc.tuple(fc.nat(), fc.constantFrom(150, 5_000, 60_000), fc.boolean()), { freq: 5 }),
      textMutation: fc.option(fc.oneof(fc.record({ cut: fc.nat() }), fc.record({ flip: fc.nat(), to: fc.constantFrom('"', '{', '}', ',', ':', '\\', '\u0000', 'x', ']') })), { freq: 4 }),
      raw: fc.option(fc.constantFrom('', ' ', 'null', '[]', '"x"', '1', 'true', '{}', '{"messages":null}', '{"messages":[{}]}', '\uFEFF{}', '{"a":1}{"b":2}'), { freq: 8 }),
    })
    .map(({ stream, replacements, deep, textMutation, raw }) => {
      if (raw !== null) return raw;
      const body = baseBody(route, stream);
      const places = paths(body);
      for (const [index, value] of replacements) {
        const place = places[index % places.length];
        if (place !== undefined) setAt(body, place, structuredClone(value));
      }
      if (deep !== null) {
        const place = places[deep[0] % places.length];
        if (place !== undefined) setAt(body, place, '__hostile_deep__');
      }
      let text = JSON.stringify(body);
      if (deep !== null) text = text.replace(DEEP, () => deepText(deep[1], deep[2]));
      if (textMutation !== null) {
        if ('cut' in textMutation) text = text.slice(0, textMutation.cut % (text.length + 1));
        else {
          const at = textMutation.flip % Math.max(1, text.length);
          text = `${text.slice(0, at)}${textMutation.to}${text.slice(at + 1)}`;
        }
      }
      return text;
    });
}

const headerName = fc.constantFrom('x-understudy-session', 'x-understudy-agent', 'x-understudy-chat-type', 'anthropic-version', 'authorization', 'x-api-key', 'content-type', 'accept', 'x-understudy-source', 'anthropic-beta');
const headerValue = fc.oneof(
  fc.constantFrom('', ' ', 'ghost', 'main', '../etc', 'a'.repeat(300), 'Bearer x', 'group', 'channel', 'cron', '2023-06-01', 'application/json', 'text/plain', 'direct'),
  fc.string({ unit: fc.constantFrom('a', ':', '/', '.', ' ', '%', '\t', 'é'), maxLength: 20 }),
);

/** Chunked framing of `body`: sizes in odd forms, extensions, trailers; sometimes a size that is not hex. */
function chunked(body: string): fc.Arbitrary<{ readonly text: string; readonly broken: boolean }> {
  return fc
    .record({
      pieces: fc.integer({ min: 1, max: 5 }),
      upper: fc.boolean(),
      pad: fc.boolean(),
      extension: fc.boolean(),
      trailer: fc.boolean(),
      badSize: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
    })
    .map(({ pieces, upper, pad, extension, trailer, badSize }) => {
      // Split by characters and sized in UTF-8 bytes: the request is written as UTF-8 text.
      const characters = Array.from(body);
      const size = Math.max(1, Math.ceil(characters.length / pieces));
      let text = '';
      for (let offset = 0; offset < characters.length; offset += size) {
        const chunk = characters.slice(offset, offset + size).join('');
        let hex = Buffer.byteLength(chunk).toString(16);
        if (upper) hex = hex.toUpperCase();
        if (pad) hex = `00${hex}`;
        if (badSize) hex = `g${hex}`;
        text += `${hex}${extension ? ';x=1' : ''}\r\n${chunk}\r\n`;
      }
      text += `0\r\n${trailer ? 'x-trailer: 1\r\n' : ''}\r\n`;
      return { text, broken: badSize };
    });
}

/** One hostile request. */
export const hostileRequest: fc.Arbitrary<HostileRequest> = fc
  .record({ method, target, headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }), framing: fc.constantFrom('length', 'length', 'chunked', 'none', 'both', 'short') })
  .chain(({ method: verb, target: path, headers, framing }) =>
    bodyText(path).chain((body) =>
      (framing === 'chunked' || framing === 'both' ? chunked(body) : fc.constant({ text: body, broken: false })).map((framed) => {
        const lines = [`${verb} ${path} HTTP/1.1`, 'Host: gateway.test', 'Connection: close'];
        if (!headers.some(([name]) => name === 'content-type')) lines.push('Content-Type: application/json');
        for (const [name, value] of headers) lines.push(`${name}: ${value}`);
        const length = Buffer.byteLength(body);
        // Node's parser refuses unknown or lower-case methods and bytes outside visible ASCII in header values.
        let brokenFraming = framed.broken || verb === 'FOO' || verb === 'post' || headers.some(([, value]) => /[^\t\x20-\x7e]/.test(value));
        if (framing === 'length') lines.push(`Content-Length: ${length}`);
        if (framing === 'chunked') lines.push('Transfer-Encoding: chunked');
        if (framing === 'both') {
          lines.push(`Content-Length: ${length}`, 'Transfer-Encoding: chunked');
          brokenFraming = true;
        }
        if (framing === 'short') {
          // A declared length shorter than the body: the rest reads as a second, broken request.
          lines.push(`Content-Length: ${Math.floor(length / 2)}`);
          brokenFraming = true;
        }
        const payload = framing === 'none' ? '' : framed.text;
        return { text: `${lines.join('\r\n')}\r\n\r\n${payload}`, method: verb, target: path, brokenFraming };
      }),
    ),
  );
