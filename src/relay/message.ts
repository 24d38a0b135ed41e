// What a live post says besides its picture, as plain data: the Discord side turns it into an
// embed and buttons. Nothing here knows the wire format or discord.js.
import { formatClock, resultText } from '../../render/index.js';
import { makeLichessAnalysisUrl } from '../game/lichess.js';
import { firstPlyOf, type GameSnapshot } from '../game/snapshot.js';

export interface LiveAttachment {
  name: string;
  data: Buffer;
  /** A picture in words (render/alt-text.ts), for screen readers; none for text files. */
  description?: string;
}

/** The file name of a live post's picture; an edit without a new picture keeps this one. */
export const BOARD_IMAGE = 'board.png';

/** The file name of a bughouse post's second picture, the partner board. */
export const PARTNER_IMAGE = 'partner.png';

/**
 * The partner board of a bughouse game, shown beside the game's own as a picture of its own (a
 * second embed): each picture has a single board's shape, so Discord shows each board as large as
 * a single game's, whatever rule it scales an embed's image by.
 */
export interface LivePartner {
  /** The partner game and its players. */
  title: string;
  image: LiveAttachment;
}

/** What a partner board's embed is titled by; its game follows when known. */
export const PARTNER_BOARD = 'Partner board';

export interface LiveMessage {
  title: string;
  /** Players, time control, clocks, last moves. */
  lines: string[];
  /** The board picture; null keeps the one the message has (and sends no `files`). */
  image: LiveAttachment | null;
  /** Bughouse: the partner board, in its own picture (sent with `image`, kept with it). */
  partner?: LivePartner;
  /**
   * With `image` null, the embeds past the game's own that show the pictures kept: a partner
   * board's (`pair`, from the post's stored pair), or, for a post stored before its pair was
   * (LivePostOptions.pair), those the message shows, read back from Discord (`shown`). None
   * when absent.
   */
  keeps?: 'pair' | 'shown';
  /** Extra files (PGN, GIF) on the final message. */
  files: LiveAttachment[];
  /** Flip / PGN / Stop buttons while the game runs. */
  live: boolean;
  /** Set on the final message. */
  footer: string | null;
  /** The game's live web page, linked from a live post ("Watch live"). */
  watchUrl?: string;
  /** lichess's analysis board on the final position (final message); absent for bughouse and the like. */
  analysisUrl?: string;
  /** The post's engine choice, for its Engine buttons; absent when the operator has no engine. */
  engine?: { eval: boolean; arrow: boolean };
  /**
   * Where the game stands: running, or how it ended (`unknown`: stopped, aborted, adjourned).
   * Absent on messages made without a game's snapshot: live or unknown by `live`.
   */
  outcome?: Outcome;
}

export type Outcome = 'live' | 'white' | 'black' | 'draw' | 'unknown';

/** How a game stands, from its end and result. */
export function outcomeOf(snap: Pick<GameSnapshot, 'ended' | 'result'>): Outcome {
  if (!snap.ended) return 'live';
  switch (snap.result) {
    case '1-0':
      return 'white';
    case '0-1':
      return 'black';
    case '1/2-1/2':
      return 'draw';
    default:
      return 'unknown';
  }
}

/** A time control as players write it: `10+5` (minutes, then seconds added per move). */
export function makeTimeControl(initialMinutes: number, incrementSec: number): string {
  return `${initialMinutes}+${incrementSec}`;
}

/** What a live post shows of the engine (src/relay/evaluations.ts). */
export interface EngineShown {
  choice: { eval: boolean; arrow: boolean };
  line: string | null;
}

/** The last `count` plies in move-number notation: `23. Nf3 Nc6 24. Bb5`. */
export function lastMoves(snap: GameSnapshot, count = 6): string {
  const firstPly = Math.max(0, snap.san.length - count);
  // Plies before the known history (a late join not yet merged) shift the numbering.
  const startPly = firstPlyOf(snap);
  const parts: string[] = [];
  for (let i = firstPly; i < snap.san.length; i++) {
    const ply = startPly + i;
    const number = Math.floor(ply / 2) + 1;
    if (ply % 2 === 0) parts.push(`${number}. ${snap.san[i]}`);
    else parts.push(i === firstPly ? `${number}... ${snap.san[i]}` : snap.san[i]!);
  }
  return parts.join(' ');
}

function player(name: string, rating: string | null): string {
  return rating !== null && rating !== '' ? `${name} (${rating})` : name;
}

/** A game, its players and (once it is decided) its result: `Game 12: A (1500) vs B · 1-0`. */
export function gameTitle(snap: GameSnapshot): string {
  const outcome = outcomeOf(snap);
  const players = `${player(snap.white, snap.whiteRating)} vs ${player(snap.black, snap.blackRating)}`;
  // The result leads the end of the title, where a reader of the channel looks first.
  const score =
    outcome === 'live' || outcome === 'unknown'
      ? ''
      : ` · ${resultText({ result: snap.result, reason: null })}`;
  return `${snap.source ?? `Game ${snap.game}`}: ${players}${score}`;
}

/** A bughouse partner board's title, beside its game's. */
export function partnerTitle(partner: GameSnapshot): string {
  return `${PARTNER_BOARD} · ${gameTitle(partner)}`;
}

export function liveMessage(
  snap: GameSnapshot,
  image: LiveAttachment,
  files: LiveAttachment[] = [],
  engine?: EngineShown,
): LiveMessage {
  const control =
    snap.initialMinutes !== null && snap.incrementSec !== null
      ? makeTimeControl(snap.initialMinutes, snap.incrementSec)
      : null;
  const kind = [
    snap.rated === null ? null : snap.rated ? 'rated' : 'unrated',
    snap.type ?? snap.variant,
    control,
  ]
    .filter((p) => p !== null)
    .join(' ');
  const toMove = snap.sideToMove === 'white' ? '⬜' : '⬛';
  const lines = [
    `${kind}${snap.mode === 'examined' ? ' (examined)' : ''}`,
    `⬜ ${formatClock(snap.whiteClockMs)} · ⬛ ${formatClock(snap.blackClockMs)}${snap.ended ? '' : ` · ${toMove} to move`}`,
  ];
  if (snap.opening !== null) lines.push(`${snap.opening.eco} ${snap.opening.name}`);
  const moves = lastMoves(snap);
  if (moves !== '') lines.push(moves);
  if (snap.needs !== null) lines.push('(catching up with the server…)');
  if (engine?.line) lines.push(engine.line);
  const outcome = outcomeOf(snap);
  const analysisUrl = snap.ended ? makeLichessAnalysisUrl(snap.variant, snap.fen) : null;
  return {
    title: gameTitle(snap),
    lines,
    image,
    files,
    live: !snap.ended,
    footer: snap.ended ? resultText({ result: snap.result, reason: snap.reason }) : null,
    ...(engine ? { engine: engine.choice } : {}),
    ...(analysisUrl === null ? {} : { analysisUrl }),
    outcome,
  };
}
