// Typed errors of the FICS connection. Each message is written for the operator or the user who
// asked, and names what to do; `code` is for code that decides (retry or stop, what to reply).

/** A value from a user or the configuration was refused before anything reached the socket. */
export class FicsInputError extends Error {
  override readonly name = 'FicsInputError';
  constructor(
    readonly field: 'game' | 'handle' | 'password' | 'command',
    readonly input: string,
    message: string,
  ) {
    super(message);
  }
}

export type LoginFailure =
  | 'guestsDisabled'
  | 'badPassword'
  | 'notRegistered'
  | 'handleInUse'
  | 'badHandle'
  | 'banned'
  | 'serverFull'
  | 'timeout'
  | 'closed';

/** Failures that another attempt will not fix until someone changes the configuration. */
const PERMANENT: ReadonlySet<LoginFailure> = new Set([
  'guestsDisabled',
  'badPassword',
  'notRegistered',
  'badHandle',
  'banned',
]);

export class FicsLoginError extends Error {
  override readonly name = 'FicsLoginError';
  constructor(
    readonly code: LoginFailure,
    message: string,
    /** What the server said, when it said something. */
    readonly serverText: string | null = null,
  ) {
    super(message);
  }

  get permanent(): boolean {
    return PERMANENT.has(this.code);
  }
}

export type CommandFailure =
  /** No reply in time. */
  | 'timeout'
  /** The connection closed (or was closed) before the reply. */
  | 'closed'
  /** Too many commands wait their turn on this connection already. */
  | 'overloaded'
  /** The game number names no game on the server. */
  | 'noSuchGame'
  /** This connection observes as many games as the server allows. */
  | 'observeLimit'
  | 'notLoggedIn'
  | 'notPlaying'
  | 'noSuchPlayer'
  /** The server does not know the command (`Command not found.`, `Command has failed.`). */
  | 'unknownCommand'
  /** Any other refusal: `serverText` says what. */
  | 'refused';

export class FicsCommandError extends Error {
  override readonly name = 'FicsCommandError';
  constructor(
    readonly code: CommandFailure,
    readonly command: string,
    message: string,
    readonly serverText: string | null = null,
  ) {
    super(message);
  }
}

/** Every connection the pool may open observes as many games as the server allows. */
export class FicsCapacityError extends Error {
  override readonly name: string = 'FicsCapacityError';
  constructor(
    readonly connections: number,
    readonly perConnection: number,
  ) {
    super(
      `Kibitz already observes as many games as it can (${connections} FICS connection${connections === 1 ? '' : 's'}, ` +
        `at most ${perConnection} games each). Stop following a game, or raise FICS_MAX_CONNECTIONS.`,
    );
  }
}

/**
 * A server asked for one more game while it holds its fair share of the pool (src/fics/shares.ts):
 * the places left are kept for the other servers.
 */
export class FicsShareError extends FicsCapacityError {
  override readonly name = 'FicsShareError';
  constructor(
    readonly holdings: number,
    readonly limit: number,
    readonly capacity: number,
  ) {
    super(0, 0);
    this.message =
      `This server already has ${holdings} FICS game${holdings === 1 ? '' : 's'} live, its share ` +
      `(${limit}) of the ${capacity} games Kibitz can observe for all the servers it is in. ` +
      'Stop one with /unobserve, or try again when one ends.';
  }
}
