// The variants Kibitz knows, written once: the chessops rules that decide legality, the PGN
// `Variant` header, the FICS game types, and which variants a move file (PGN, ChessLive!) carries.
import type { Rules } from 'chessops';

/**
 * A game's variant. FICS's `wild/fr` is `chess960`; `wild` covers the other wild types (standard
 * rules from another start position).
 */
export type Variant =
  'chess' | 'chess960' | 'crazyhouse' | 'bughouse' | 'wild' | 'suicide' | 'atomic' | 'losers';

/**
 * The variants a move file names (a PGN `Variant` header, the ChessLive! reader's option).
 * `bughouse` is one board of a bughouse pair: drops of any piece are allowed because the pieces in
 * hand come from the partner board, which one file does not show.
 */
export type FileVariant = Extract<Variant, 'chess' | 'chess960' | 'crazyhouse' | 'bughouse'>;

interface VariantFacts {
  /** chessops rules that decide legality. */
  rules: Rules;
  /** How a game type names the variant (`blitz crazyhouse`); null for standard chess. */
  label: string | null;
  /** PGN `Variant` header; null for standard rules, which PGN leaves unnamed. */
  pgn: string | null;
  /**
   * Whether a move file can hold its games: suicide, atomic and losers moves have effects
   * (explosions, forced captures) that the move files do not describe.
   */
  moveFile: boolean;
  /**
   * lichess's name for the variant in its analysis board's URL; null where lichess's rules differ
   * (FICS suicide, losers) or one board is not the game (bughouse).
   */
  lichess: string | null;
}

// In the order FICS's help lists the variant game types (`wild` before `crazyhouse`).
const VARIANTS: Record<Variant, VariantFacts> = {
  chess: { rules: 'chess', label: null, pgn: null, moveFile: true, lichess: 'standard' },
  chess960: { rules: 'chess', label: 'chess960', pgn: 'Chess960', moveFile: true, lichess: 'chess960' },
  // Standard rules from the start position the FEN header gives.
  wild: { rules: 'chess', label: 'wild', pgn: null, moveFile: true, lichess: 'standard' },
  crazyhouse: {
    rules: 'crazyhouse',
    label: 'crazyhouse',
    pgn: 'Crazyhouse',
    moveFile: true,
    lichess: 'crazyhouse',
  },
  bughouse: { rules: 'crazyhouse', label: 'bughouse', pgn: 'Bughouse', moveFile: true, lichess: null },
  suicide: { rules: 'antichess', label: 'suicide', pgn: 'Antichess', moveFile: false, lichess: null },
  atomic: { rules: 'atomic', label: 'atomic', pgn: 'Atomic', moveFile: false, lichess: 'atomic' },
  losers: { rules: 'chess', label: 'losers', pgn: null, moveFile: false, lichess: null },
};

/** PGN `Variant` header values read, lower case, without spaces or dashes. */
const PGN_VARIANT_NAMES: Record<string, FileVariant> = {
  standard: 'chess',
  chess: 'chess',
  chess960: 'chess960',
  fischerandom: 'chess960',
  fischerrandom: 'chess960',
  frc: 'chess960',
  crazyhouse: 'crazyhouse',
  bughouse: 'bughouse',
};

/** lichess's name for a variant's analysis board; null for none lichess analyses by FICS's rules. */
export function lichessVariant(variant: Variant): string | null {
  return VARIANTS[variant].lichess;
}

/** chessops rules that decide legality for a variant. */
export function rulesFor(variant: Variant): Rules {
  return VARIANTS[variant].rules;
}

/** The PGN `Variant` header of a variant; null for standard rules. */
export function pgnVariantHeader(variant: Variant): string | null {
  return VARIANTS[variant].pgn;
}

/** Whether a move file (PGN, ChessLive!) can hold a game of this variant. */
export function fitsMoveFile(variant: Variant): boolean {
  return VARIANTS[variant].moveFile;
}

/** The move-file variant a PGN `Variant` header names (`Chess960`, `Fischer Random`...), if known. */
export function parsePgnVariant(header: string): FileVariant | undefined {
  return PGN_VARIANT_NAMES[header.toLowerCase().replace(/[\s-]/g, '')];
}

/** Variant from a FICS game type (`blitz`, `crazyhouse`, `blitz bughouse`, `wild/fr`, `zh`). */
export function variantFromType(server: string): Variant {
  // Servers capitalise as they please (`Crazyhouse`, `Wild`).
  const type = server.toLowerCase();
  if (/bughouse|\bbug\b/.test(type)) return 'bughouse';
  if (/crazyhouse|\bzh\b/.test(type)) return 'crazyhouse';
  if (/\bwild\/fr\b/.test(type)) return 'chess960';
  if (/wild|\bw\d|chess960|fr\b/.test(type)) return 'wild';
  if (/suicide/.test(type)) return 'suicide';
  if (/atomic/.test(type)) return 'atomic';
  if (/losers/.test(type)) return 'losers';
  return 'chess';
}

/** FICS's time classes: what a game type of standard chess names. */
export const TIME_CLASSES = ['lightning', 'blitz', 'standard', 'untimed'] as const;
export type TimeClass = (typeof TIME_CLASSES)[number];

/** The variants FICS names as game types of their own; chess960 is one of the wild types (`wild/fr`). */
export type VariantGameType = Exclude<Variant, 'chess' | 'chess960'>;
const VARIANT_GAME_TYPES = (Object.keys(VARIANTS) as Variant[]).filter(
  (v): v is VariantGameType => v !== 'chess' && v !== 'chess960',
);

/** The FICS game types, time classes then variants (`wild` covers every `wild/N`). */
export type FicsGameType = TimeClass | VariantGameType;
export const FICS_GAME_TYPES: readonly FicsGameType[] = [...TIME_CLASSES, ...VARIANT_GAME_TYPES];

/** Time classes in the words servers use for them: the FICS 1.6.2 lineage writes `Lighting`. */
const SPEEDS: Record<string, TimeClass> = {
  ...Object.fromEntries(TIME_CLASSES.map((t) => [t, t])),
  lighting: 'lightning',
  bullet: 'lightning',
};

/**
 * A server's game type in one spelling: the time class, then the variant as this table names it
 * (`lightning`, `blitz bughouse`), whatever the server wrote (`Lighting`, `Blitz`, `Wild` for a
 * bughouse board). A wild type keeps its number (`wild/5`). Null when the server named none.
 */
export function gameTypeLabel(type: string | null, variant: Variant): string | null {
  if (type === null) return null;
  const words = type
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const speed = words.map((w) => SPEEDS[w]).find((w) => w !== undefined) ?? null;
  const wildType = words.find((w) => w.startsWith('wild/'));
  const name =
    variant === 'wild' || variant === 'chess960'
      ? (wildType ?? VARIANTS[variant].label)
      : VARIANTS[variant].label;
  const label = [speed, name].filter((w) => w !== null).join(' ');
  return label === '' ? words.join(' ') || null : label;
}
