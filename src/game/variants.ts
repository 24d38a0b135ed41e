// The variants Kibitz knows, written once: the chessops rules that decide legality, the PGN
// `Variant` header, the FICS game types, and the variants a move file (PGN, ChessLive!) carries.
import type { Rules } from 'chessops';

/** A FICS game's variant. `wild` covers every wild type; `wild/fr` is chess960. */
export type Variant = 'chess' | 'crazyhouse' | 'bughouse' | 'wild' | 'suicide' | 'atomic' | 'losers';

/**
 * Rules a move file can carry. `bughouse` is one board of a bughouse pair: drops of any piece are
 * allowed because the pieces in hand come from the partner board, which one file does not show.
 */
export type FileVariant = 'chess' | 'chess960' | 'crazyhouse' | 'bughouse';

interface VariantFacts {
  /** chessops rules that decide legality. */
  rules: Rules;
  /** PGN `Variant` header; null for standard rules, which PGN leaves unnamed. */
  pgn: string | null;
}

const VARIANTS: Record<Variant, VariantFacts> = {
  chess: { rules: 'chess', pgn: null },
  crazyhouse: { rules: 'crazyhouse', pgn: 'Crazyhouse' },
  bughouse: { rules: 'crazyhouse', pgn: 'Bughouse' },
  wild: { rules: 'chess', pgn: 'Chess960' },
  suicide: { rules: 'antichess', pgn: 'Antichess' },
  atomic: { rules: 'atomic', pgn: 'Atomic' },
  losers: { rules: 'chess', pgn: null },
};

/** The FICS type chess960 is played as. */
const CHESS960_TYPE = 'wild/fr';

/** A move file's variant as a FICS game: chess960 is `wild` of type `wild/fr`. */
export const FILE_VARIANTS: Record<FileVariant, { variant: Variant; type: string | null }> = {
  chess: { variant: 'chess', type: null },
  chess960: { variant: 'wild', type: CHESS960_TYPE },
  crazyhouse: { variant: 'crazyhouse', type: null },
  bughouse: { variant: 'bughouse', type: null },
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

/** chessops rules that decide legality for a FICS variant. */
export function rulesFor(variant: Variant): Rules {
  return VARIANTS[variant].rules;
}

/** chessops rules for a move file's variant. */
export function fileRules(variant: FileVariant): Rules {
  return rulesFor(FILE_VARIANTS[variant].variant);
}

/** The PGN `Variant` header of a FICS variant; null for standard rules. */
export function pgnVariantHeader(variant: Variant): string | null {
  return VARIANTS[variant].pgn;
}

/** The move-file variant a PGN `Variant` header names (`Chess960`, `Fischer Random`...), if known. */
export function parsePgnVariant(header: string): FileVariant | undefined {
  return PGN_VARIANT_NAMES[header.toLowerCase().replace(/[\s-]/g, '')];
}

/** Variant from a FICS game type (`blitz`, `crazyhouse`, `blitz bughouse`, `wild/fr`, `zh`). */
export function variantFromType(type: string): Variant {
  if (/bughouse|\bbug\b/.test(type)) return 'bughouse';
  if (/crazyhouse|\bzh\b/.test(type)) return 'crazyhouse';
  if (/wild|\bw\d|chess960|fr\b/.test(type)) return 'wild';
  if (/suicide/.test(type)) return 'suicide';
  if (/atomic/.test(type)) return 'atomic';
  if (/losers/.test(type)) return 'losers';
  return 'chess';
}

/**
 * A FICS game as a move file's variant: `wild/fr` is chess960, other wild types keep standard
 * rules from their start position; null for suicide, atomic and losers, whose moves have effects
 * (explosions, forced captures) the move files do not describe.
 */
export function fileVariantOf(variant: Variant, type: string | null): FileVariant | null {
  switch (variant) {
    case 'chess':
    case 'crazyhouse':
    case 'bughouse':
      return variant;
    case 'wild':
      return type === CHESS960_TYPE ? 'chess960' : 'chess';
    default:
      return null;
  }
}
