// Whether FICS can be asked now: a command waits a moment for a connection instead of as long as
// FICS stays down (the pool queues requests until it is back).
import type { Services } from './services.js';

/** No FICS connection online: `gaveUp` when every one failed or closed (the login is refused). */
export interface FicsDown {
  readonly kind: 'fics-down';
  readonly gaveUp: boolean;
  readonly host: string;
  readonly port: number;
}

/** FICS threw on a request (its error classes are in src/fics/errors.ts). */
export interface FicsFailed {
  readonly kind: 'fics-failed';
  readonly error: unknown;
}

export interface FicsServices {
  readonly fics: Pick<Services['fics'], 'status' | 'on' | 'off'>;
  readonly config: { readonly fics: Pick<Services['config']['fics'], 'host' | 'port'> };
  readonly ficsWaitMs: number;
}

/** Null once a FICS connection is online (waiting up to `ficsWaitMs` for one), else why not. */
export async function ficsDown(services: FicsServices): Promise<FicsDown | null> {
  const { fics } = services;
  const online = (): boolean => fics.status().some((c) => c.state === 'online');
  const gaveUp = (): boolean => {
    const connections = fics.status();
    return connections.length > 0 && connections.every((c) => c.state === 'failed' || c.state === 'closed');
  };
  if (!online() && !gaveUp()) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        fics.off('state', changed);
        resolve();
      };
      const changed = (): void => {
        if (online() || gaveUp()) done();
      };
      const timer = setTimeout(done, services.ficsWaitMs);
      fics.on('state', changed);
    });
  }
  if (online()) return null;
  const { host, port } = services.config.fics;
  return { kind: 'fics-down', gaveUp: gaveUp(), host, port };
}
