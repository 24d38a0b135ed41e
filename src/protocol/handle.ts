// FICS handles: 3 to 17 letters (`help register`). A server line naming a longer one is malformed:
// the decoders skip it (logged, shortened) rather than carry a name no FICS account can have.

export const HANDLE_MAX_LENGTH = 17;

declare const checked: unique symbol;
/** A string that matches FICS's rule for handles, 3 to 17 letters: made only by parseHandle (src/fics/validate.ts). */
export type Handle = string & { readonly [checked]: 'Handle' };

/** A handle inside a regular expression, as one capturing group: a bounded token. */
export const HANDLE = String.raw`(\S{1,${HANDLE_MAX_LENGTH}})`;

/** Why a decoded handle cannot be one, or null when its length is a handle's. */
export function handleProblem(name: string): string | null {
  return name.length <= HANDLE_MAX_LENGTH
    ? null
    : `a handle of ${name.length} characters (FICS allows at most ${HANDLE_MAX_LENGTH})`;
}
