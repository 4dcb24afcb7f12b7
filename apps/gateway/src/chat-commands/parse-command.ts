/**
 * Chat commands: a last user message such as `/model anthropic/claude-sonnet-4-5@anthropic:work`,
 * `/model default`, `/new`, `/reset` or `/status` is handled by the gateway instead of a model (docs/contracts.md#gateway,
 * the model-failover doc "Session overrides and live model switching", "Session stickiness"). Other slash words go to the
 * model untouched.
 */
import { splitModelAndProfile } from '@understudy/contracts';

/** A parsed chat command. */
export type ChatCommand =
  /** `/model` alone: show the selection and the usage. */
  | { readonly kind: 'model_show' }
  /**
   * `/model <ref>[@<profile>]`: a user model override, with an optional user auth pin. `argument` is the whole
   * text after `/model`, kept so a model id that itself contains `@` can still be read as a model.
   */
  | { readonly kind: 'model_set'; readonly model: string; readonly profile?: string | undefined; readonly argument: string }
  /** `/model default`: back to the configured selection. */
  | { readonly kind: 'model_default' }
  | { readonly kind: 'new' }
  | { readonly kind: 'reset' }
  | { readonly kind: 'status' }
  /** A command word with bad arguments; `message` says the usage. */
  | { readonly kind: 'invalid'; readonly message: string };

/** How `/model` is used, shown with a bad `/model` and with `/model` alone. */
export const MODEL_USAGE =
  'Usage: /model <provider/model | alias>[@<profile id>] to select a model for this session, /model default to go back to the configured model.';

/** Session flags the seed's examples carry (`/model … -s`); the gateway's commands always act on the session. */
const SESSION_FLAGS = new Set(['-s', '--session']);

/**
 * Reads a chat command from the text of the last user message, or returns `undefined` when the text is not one
 * of the gateway's commands (it then goes to the model).
 *
 * @example parseChatCommand('/model openai/gpt-4o@openai:work') // { kind: 'model_set', model: 'openai/gpt-4o', profile: 'openai:work', … }
 * @example parseChatCommand('/status') // { kind: 'status' }
 * @example parseChatCommand('/imagine a cat') // undefined
 */
export function parseChatCommand(text: string | undefined): ChatCommand | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const [word = '', ...rest] = trimmed.split(/\s+/);
  const args = rest.filter((token) => !SESSION_FLAGS.has(token.toLowerCase()));
  switch (word.toLowerCase()) {
    case '/new':
      return { kind: 'new' };
    case '/reset':
      return { kind: 'reset' };
    case '/status':
      return { kind: 'status' };
    case '/model': {
      if (args.length === 0) return { kind: 'model_show' };
      if (args.length > 1) return { kind: 'invalid', message: `/model takes one argument. ${MODEL_USAGE}` };
      const argument = args[0] ?? '';
      if (argument.toLowerCase() === 'default') return { kind: 'model_default' };
      if (argument.endsWith('@')) {
        return { kind: 'invalid', message: `/model ${argument}: nothing follows the "@"; name an auth profile after it (e.g. @openai:work) or leave the "@" out. ${MODEL_USAGE}` };
      }
      const { model, profile } = splitModelAndProfile(argument);
      return { kind: 'model_set', model, ...(profile === undefined ? {} : { profile }), argument };
    }
    default:
      return undefined;
  }
}
