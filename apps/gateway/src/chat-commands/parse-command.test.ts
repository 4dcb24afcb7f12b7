import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseChatCommand } from './parse-command.js';

describe('parseChatCommand', () => {
  // docs/contracts.md#gateway: a last user message that is a command is handled by the gateway; anything else goes to the model.
  it.each([
    { text: '/model', expected: { kind: 'model_show' } },
    { text: '  /model default  ', expected: { kind: 'model_default' } },
    { text: '/MODEL Default', expected: { kind: 'model_default' } },
    { text: '/model openai/gpt-4o', expected: { kind: 'model_set', model: 'openai/gpt-4o', argument: 'openai/gpt-4o' } },
    { text: '/model opus', expected: { kind: 'model_set', model: 'opus', argument: 'opus' } },
    {
      text: '/model openai/gpt-4o@openai:work -s',
      expected: { kind: 'model_set', model: 'openai/gpt-4o', profile: 'openai:work', argument: 'openai/gpt-4o@openai:work' },
    },
    {
      text: '/model openai/gpt-4o@openai:ada@example.com',
      expected: { kind: 'model_set', model: 'openai/gpt-4o', profile: 'openai:ada@example.com', argument: 'openai/gpt-4o@openai:ada@example.com' },
    },
    { text: '/new', expected: { kind: 'new' } },
    { text: '/reset', expected: { kind: 'reset' } },
    { text: '/status please', expected: { kind: 'status' } },
  ])('reads $text', ({ text, expected }) => {
    expect(parseChatCommand(text)).toEqual(expected);
  });

  it('answers a /model with two arguments with the usage', () => {
    const command = parseChatCommand('/model openai/a anthropic/b');
    expect(command?.kind).toBe('invalid');
    expect(command?.kind === 'invalid' ? command.message : '').toContain('Usage: /model');
  });

  // Breaker F10: "x@" names no profile; it is answered with the fix, not read as a model id ending in "@".
  it.each(['/model openai/x@', '/model openai/x@@@'])('answers %s with what is missing after the "@"', (text) => {
    const command = parseChatCommand(text);
    expect(command?.kind).toBe('invalid');
    expect(command?.kind === 'invalid' ? command.message : '').toContain('nothing follows the "@"');
  });

  it.each(['hello', '/imagine a cat', 'please /model openai/x', '', undefined])('leaves %j to the model', (text) => {
    expect(parseChatCommand(text)).toBeUndefined();
  });

  it('never throws, and only text starting with "/" can be a command', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const command = parseChatCommand(text);
        if (!text.trim().startsWith('/')) expect(command).toBeUndefined();
      }),
    );
  });
});
