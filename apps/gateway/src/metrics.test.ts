import { describe, expect, it } from 'vitest';
import { ChildCache, GatewayMetrics } from './metrics.js';

function metrics(): GatewayMetrics {
  return new GatewayMetrics({ activeWindows: () => Promise.resolve([]), defaultMetrics: false });
}

describe('cached child metrics', () => {
  it('count into the same series as labelled calls', async () => {
    const subject = metrics();
    subject.requestsOf.of('chat_completions', '200').inc();
    subject.requestsOf.of('chat_completions', '200').inc();
    subject.requests.inc({ route: 'chat_completions', status: '200' });
    subject.requestsOf.of('chat_completions', '429').inc();
    subject.attemptsOf.of('openai', 'call', 'ok').inc();
    subject.requestSecondsOf.of('messages').observe(0.02);
    subject.requestSeconds.observe({ route: 'messages' }, 0.2);
    const { text } = await subject.render();
    expect(text).toContain('understudy_requests_total{route="chat_completions",status="200"} 3');
    expect(text).toContain('understudy_requests_total{route="chat_completions",status="429"} 1');
    expect(text).toContain('understudy_attempts_total{provider="openai",kind="call",reason="ok"} 1');
    expect(text).toContain('understudy_request_duration_seconds_count{route="messages"} 2');
    expect(text).toContain('understudy_request_duration_seconds_bucket{le="0.025",route="messages"} 1');
  });

  it('makes one child per label set, keeps label values apart, and keeps counting after it starts again', async () => {
    const made: string[] = [];
    const cache = new ChildCache((a: string, b: string) => {
      made.push(`${a}/${b}`);
      return { a, b };
    });
    expect(cache.of('x', 'y')).toBe(cache.of('x', 'y'));
    expect(cache.of('x', 'yz')).not.toBe(cache.of('xy', 'z'));
    expect(made).toEqual(['x/y', 'x/yz', 'xy/z']);

    const subject = metrics();
    for (let index = 0; index < 1500; index += 1) subject.requestsOf.of(`route-${index}`, '200').inc();
    subject.requestsOf.of('route-0', '200').inc();
    const { text } = await subject.render();
    expect(text).toContain('understudy_requests_total{route="route-0",status="200"} 2');
    expect(text).toContain('understudy_requests_total{route="route-1499",status="200"} 1');
  });
});
