import { describe, it } from 'vitest';
import { expectRuleCase } from '../test-support/classify.js';
import type { RuleCase } from '../test-support/classify.js';

describe('facts around the failure (docs/policy.md#what-each-reason-does: an abort caused by a timeout is a timeout)', () => {
  const cases: RuleCase[] = [
    ['a user abort is an abort even with a transport code', { abortCause: 'user', code: 'ECONNRESET' }, 'abort', 'abort.user'],
    ['an abort from our stall timeout is a timeout', { abortCause: 'timeout', timeoutKind: 'stall', message: 'AbortError' }, 'timeout', 'abort.timeout.stall'],
    ['a fired timeout without an abort cause is a timeout', { timeoutKind: 'headers' }, 'timeout', 'timeout.headers'],
    ['an unknown abortCause value is ignored', { abortCause: 'nope' as never, body: 'Overloaded', status: 529 }, 'overloaded'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe('failures without text (seed: empty_response vs no_error_details)', () => {
  const cases: RuleCase[] = [
    ['no status and no text is empty_response', {}, 'empty_response', 'empty.no_body'],
    ['whitespace and `{}` are no text', { body: '  {}  ', message: ' ' }, 'empty_response', 'empty.no_body'],
    ['a 200 with an empty body is empty_response', { status: 200, body: '' }, 'empty_response', 'empty.no_body'],
    ['a 404 with nothing at all names no cause: no_error_details', { status: 404 }, 'no_error_details', 'status.404.no_body'],
    ['"404 status code (no body)" is the status speaking: a missing model', { status: 404, body: '404 status code (no body)' }, 'model_not_found', 'status.404'],
    ['"HTTP 404 Not Found" alone states a 404: a missing model', { message: 'HTTP 404 Not Found' }, 'model_not_found', 'text_status.404'],
    ['a bare stated 400 names no cause: unclassified', { message: '400 status code (no body)' }, 'unclassified', 'unclassified'],
    ['a bodiless 401 is still auth: the status is decisive', { status: 401, body: '401 status code (no body)' }, 'auth', 'status.401'],
    ['a bodiless 429 is a rate limit', { status: 429, body: '' }, 'rate_limit', 'status.429'],
    ['a stream that ended with nothing is a timeout', { status: 200, phase: 'stream' }, 'timeout', 'stream.ended_early'],
    ['a connection that failed with nothing is a timeout', { phase: 'connect' }, 'timeout', 'transport.connect_failed'],
    ['a code is text enough: not bodiless', { code: 'ECONNRESET' }, 'timeout', 'transport.econnreset'],
    ['the no-details literal wins over a status', { status: 500, message: 'Unknown error (no error details in response)' }, 'no_error_details', 'literal.no_error_details'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});

describe("a stated 400 behind an app's generic words names no cause (the twenty-seventh set's held-back part, opened)", () => {
  const cases: RuleCase[] = [
    ["axios's words around a stated 400 name no cause", { message: 'AxiosError: Request failed with status code 400' }, 'unclassified', 'unclassified'],
    ["an app's apology and a stated 400 name no cause", { message: 'An unexpected error occurred, please contact support. (Request failed with status code 400)' }, 'unclassified', 'unclassified'],
    ['a stated 400 beside a named cause is still read', { message: 'Request failed with status code 400 with unknown field top_q' }, 'format'],
  ];
  it.each(cases)('%s', (...row) => expectRuleCase(row));
});
