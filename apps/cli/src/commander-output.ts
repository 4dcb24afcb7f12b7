/**
 * Commander's own error messages without the values typed on the command line. Commander echoes an unknown
 * option with its value (`unknown option '--key=sk-…'`) and a rejected option argument
 * (`argument 'sk-…' is invalid`); a secret pasted into the wrong place would then land in a terminal's
 * scrollback or a CI log. Option names stay, values go, and anything shaped like a provider key is masked.
 */

/** Shapes of provider keys and tokens. */
const KEY_SHAPED = /\b(?:sk-[A-Za-z0-9_-]{6,}|sk_[A-Za-z0-9_-]{12,}|gsk_[A-Za-z0-9]{8,}|xai-[A-Za-z0-9]{8,}|AIza[0-9A-Za-z_-]{20,}|pk-[A-Za-z0-9_-]{12,}|(?:ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{16,})/g;

/**
 * A commander error message with values removed.
 *
 * @example redactCommanderMessage("error: unknown option '--key=sk-test-123456'\n") // "error: unknown option '--key=…'\n"
 */
export function redactCommanderMessage(text: string): string {
  return text
    .replace(/'(-{1,2}[^'=\s]+)=[^']*'/g, "'$1=…'")
    .replace(/argument '[^']*' is invalid/g, 'argument is invalid')
    .replace(KEY_SHAPED, '***');
}
