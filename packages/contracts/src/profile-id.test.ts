import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { qualifyProfileId, splitModelAndProfile } from './profile-id.js';

describe('splitModelAndProfile', () => {
  it.each([
    { argument: 'openai/gpt-4o@openai:work', model: 'openai/gpt-4o', profile: 'openai:work' },
    { argument: 'openai/gpt-4o@openai:ada@example.com', model: 'openai/gpt-4o', profile: 'openai:ada@example.com' },
    { argument: 'vertex/claude@20240620@vertex:work', model: 'vertex/claude@20240620', profile: 'vertex:work' },
    { argument: 'openai/gpt-4o@work', model: 'openai/gpt-4o', profile: 'work' },
    { argument: 'openai/gpt-4o', model: 'openai/gpt-4o', profile: undefined },
    { argument: 'openai/gpt-4o@', model: 'openai/gpt-4o@', profile: undefined },
    { argument: '@openai:work', model: '@openai:work', profile: undefined },
  ])('splits $argument', ({ argument, model, profile }) => {
    const split = splitModelAndProfile(argument);
    expect(split.model).toBe(model);
    expect(split.profile).toBe(profile);
  });

  it('loses nothing: model, "@" and profile put back together are the argument', () => {
    fc.assert(
      fc.property(fc.string(), (argument) => {
        const split = splitModelAndProfile(argument);
        expect(split.profile === undefined ? split.model : `${split.model}@${split.profile}`).toBe(argument);
      }),
    );
  });
});

describe('qualifyProfileId', () => {
  it.each([
    ['openai', 'work', 'openai:work'],
    ['openai', ' work ', 'openai:work'],
    ['openai', 'OpenAI:ada@example.com', 'openai:ada@example.com'],
    ['openai', 'anthropic:w', 'anthropic:w'],
  ])('reads %s + %j as %s', (provider, text, id) => {
    expect(qualifyProfileId(provider, text)).toBe(id);
  });
});
