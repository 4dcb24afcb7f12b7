import { describe, expect, it } from 'vitest';
import { parseEmulatorScript } from '@understudy/provider-emulator';
import { FAULT_MIX, PRIMARY_CALLS_PER_REQUEST, chaosScript, primarySteps } from './chaos-script.js';

/** The step the emulator plays for a route's call number `call` (0-based): in order, then the last one again. */
function stepOfCall(steps: readonly unknown[], call: number): unknown {
  return steps[Math.min(call, steps.length - 1)];
}

describe('the chaos script', () => {
  it.each([1, 7, 600, 5000])('plays the fault mix round again for every primary call of a %i-request run', (requests) => {
    const steps = primarySteps(requests);
    const calls = requests * PRIMARY_CALLS_PER_REQUEST;
    for (let call = 0; call < calls; call += 1) expect(stepOfCall(steps, call)).toBe(FAULT_MIX[call % FAULT_MIX.length]);
  });

  it('keeps injecting faults late in a default-sized run (a single copy of the mix stopped after 12 calls)', () => {
    const steps = primarySteps(5000);
    const late = Array.from({ length: FAULT_MIX.length }, (_, offset) => stepOfCall(steps, 9000 + offset));
    expect(late.filter((step) => Object.keys(step as object).length > 0)).toHaveLength(FAULT_MIX.filter((step) => Object.keys(step).length > 0).length);
  });

  it('routes the primary model to the mix and the fallback model to healthy answers', () => {
    const [primary, fallback] = chaosScript(10).routes ?? [];
    expect(primary).toMatchObject({ name: 'primary', match: { model: 'flaky-a' } });
    expect(fallback).toEqual({ name: 'fallback', match: { model: 'steady-a' }, steps: [{}] });
  });

  it('is a script the emulator accepts as it is', () => {
    expect(parseEmulatorScript(chaosScript(10))).toEqual(chaosScript(10));
  });
});
