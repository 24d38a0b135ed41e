// What differs between the two servers the shared transcripts were recorded on: lasker 2.2
// (the C server FICS descends from; what freechess.org still resembles in its texts) and FatICS.
// Every text here is taken from those transcripts, or from lasker's source where they show none.

export interface Dialect {
  name: 'fatics' | 'lasker';
  /** lasker and freechess.org end lines "\n\r"; FatICS "\r\n". */
  eol: string;
  banner: readonly string[];
  /** Interface variables the server knows (others get "No such ivariable"). */
  ivars: ReadonlySet<string>;
  /** lasker accepts `iset ms 1` and still sends seconds. */
  honoursMs: boolean;
  /** `<12>` lag field (33 tokens) or not (32). */
  lag: boolean;
  /** `Game N: ...` after "You are now observing game N." */
  observeHeader: boolean;
  /** "Removing game N from observation list." after a game's end line. */
  removingAfterEnd: boolean;
  /** `<b1>` writes `White`/`Black`. */
  capitalisedHoldings: boolean;
  /** `**** Starting FICS session as NAME ****` after the login (not in the FICS 1.6.2 lineage). */
  sessionLine: boolean;
  /** A guest keeps the name typed, `guest` included (no GuestXXXX assigned). */
  keepsGuestName: boolean;
  /** FICS 1.6.2 lineage (uhlin/fics): `iset` only echoes `com_iset: name value`. */
  isetStub: boolean;
  /** The answer to a command the server does not know. */
  unknownCommand(word: string): string;
  ivarSet(name: string): string;
  setReply(name: string, value: string): string;
  guestIntro(name: string): string[];
  notPlaying(name: string): string;
  /** `games` footer. */
  gamesFooter(shown: number, total: number): string;
}

const SET_REPLIES: Record<string, Record<string, string>> = {
  fatics: {
    'bell 0': 'You will not hear beeps.',
    'seek 0': 'You will not see seek ads.',
    'gin 1': 'You will now hear game results.',
    'gin 0': 'You will not hear game results.',
    'kibitz 1': 'You will now hear kibitzes.',
    'kibitz 0': 'You will not hear kibitzes.',
  },
  lasker: {
    'bell 0': 'Bell off.',
    'seek 0': 'You will not hear ads.',
    'gin 1': 'You will now hear about game results.',
    'gin 0': 'You will not hear about game results.',
    'kibitz 1': 'You will now hear kibitzes.',
    'kibitz 0': 'You will not hear kibitzes.',
  },
};

function setReply(dialect: 'fatics' | 'lasker', name: string, value: string): string {
  if (name === 'style') return `Style ${value} set.`;
  if (name === 'interface') return `interface set to "${value}".`;
  return SET_REPLIES[dialect]![`${name} ${value}`] ?? `No such variable name ${name}.`;
}

export const FATICS: Dialect = {
  name: 'fatics',
  eol: '\r\n',
  banner: [
    'Welcome to / Bienvenue à / Bienvenido a / Willkommen auf',
    '',
    '                   ♙♘♗♖♕♔ FatICS ♚♛♜♝♞♟',
    '',
    'If you are not a registered player, enter the login name "guest".',
    '',
    '',
  ],
  ivars: new Set([
    'block',
    'ms',
    'nowrap',
    'compressmove',
    'gameinfo',
    'startpos',
    'defprompt',
    'lock',
    'pendinfo',
    'seekinfo',
  ]),
  honoursMs: true,
  lag: true,
  observeHeader: true,
  removingAfterEnd: true,
  capitalisedHoldings: false,
  sessionLine: true,
  keepsGuestName: false,
  isetStub: false,
  unknownCommand: (word) => `${word}: Command not found.`,
  ivarSet: (name) => `${name} set.`,
  setReply: (name, value) => setReply('fatics', name, value),
  guestIntro: (name) => [
    `Logging you in as "${name}"; you may use this name to play unrated games.`,
    '(After logging in, do "help register" for more info on how to register.)',
    '',
  ],
  notPlaying: (name) => `${name} is not playing or examining a game.`,
  gamesFooter: (shown, total) => `  ${shown} games displayed (of ${String(total).padStart(3)} in progress).`,
};

export const LASKER: Dialect = {
  name: 'lasker',
  eol: '\n\r',
  banner: [
    '',
    '                   YOUR CHESS SERVER NAME HERE',
    '',
    'Head admin : admin    Complaints to : NOT_CONFIGURED',
    'Server location: NOT_CONFIGURED    Server version : 2.2.x-DEVEL',
    'Server name : NOT_CONFIGURED',
    '',
    'If you are not a registered player enter the login name "guest"',
  ],
  // lasker's iset.c knows these; block, nowrap, compressmove, gameinfo and defprompt it does not.
  ivars: new Set(['ms', 'lock', 'startpos', 'premove', 'smartmove']),
  honoursMs: false,
  lag: false,
  observeHeader: false,
  removingAfterEnd: false,
  capitalisedHoldings: true,
  sessionLine: true,
  keepsGuestName: false,
  isetStub: false,
  unknownCommand: (word) => `${word}: Command not found.`,
  ivarSet: (name) => `${name} set`,
  setReply: (name, value) => setReply('lasker', name, value),
  guestIntro: (name) => [
    `Logging you in as "${name}"`,
    '',
    `"${name}" is not a registered name.  You may play unrated games as a guest.`,
    '(After logging in, do "help register" for more info on how to register.)',
    '',
  ],
  notPlaying: (name) => `${name} is not playing a game.`,
  gamesFooter: (shown) => `  ${shown} games displayed.`,
};

/**
 * The FICS 1.6.2 lineage (uhlin/fics, `extra-captures/uhlin_login`): lasker's texts and board layout,
 * but a stub `iset` and "Command has failed." for unknown commands. Its login is replayed from the
 * capture (FakeFicsOptions.loginReplay).
 */
export const UHLIN: Dialect = {
  ...LASKER,
  // From the capture (its ASCII art left out).
  banner: [
    '',
    ' ***** Welcome to a Free (GNU) Internet Chess Server at <this.place.net> *****',
    ' Come on in and check it out!',
    '',
    'Server location: localhost   Server version : rpblc-1.4.7',
    '',
    'If you are not a registered player, enter a unique ID to join the server.',
  ],
  guestIntro: (name) => [
    `"${name}" is not a registered name. You may use this name to play unrated games.`,
    '(After logging in,do "help register" for more info on how to register.)',
    '',
  ],
  sessionLine: false,
  keepsGuestName: true,
  ivars: new Set(),
  isetStub: true,
  unknownCommand: (word) => `${word}: Command has failed.`,
};
