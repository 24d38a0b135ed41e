import type { Undecoded } from './events.js';

/** The one way decoders report a line they cannot read. */
export function undecoded(lineKind: string, reason: string, line: string): Undecoded {
  return { kind: 'undecoded', lineKind, reason, line };
}
