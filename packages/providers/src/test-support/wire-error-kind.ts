import { WireError } from '../wire/wire-format.js';

/** The `kind` of the {@link WireError} an action throws; `undefined` when it throws nothing. */
export function wireErrorKind(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return WireError.isInstance(error) ? error.kind : 'not a WireError';
  }
  return undefined;
}
