// The reply to `moves N` (`Movelist for game N:` ... `{Still in progress} *`), assembled line by line because it
// spans many lines and other games' boards may arrive around it.
import type { GameResult, MoveList, MoveListEntry } from './events.js';
import { GAME_NUMBER, matchedGameNumber, type GameNumber } from './game-number.js';
import { HANDLE } from './handle.js';
import { parseMoveTime } from './style12.js';

const TITLE = new RegExp(String.raw`^Movelist for game ${GAME_NUMBER}:\s*$`);
const PLAYERS = new RegExp(String.raw`^${HANDLE} \(([^)]*)\) vs\. ${HANDLE} \(([^)]*)\) --- `);
const MATCH = /^(Rated|Unrated) (.+?) match, initial time: (\d+) minutes?, increment: (\d+) seconds?\./;
const COLUMNS = /^Move\s+\S+\s+\S+\s*$/;
const RULE = /^-{4}\s+-+\s+-+\s*$/;
const PLY = String.raw`(\S+)(?:\s+\((\d[\d:.]*)\))?`;
const MOVE_ROW = new RegExp(String.raw`^\s*(\d+)\.\s+(?:\.\.\.\s+|${PLY}\s*)(?:${PLY})?\s*$`);
const FOOTER = /^\s*\{([^}]*)\}\s*(1-0|0-1|1\/2-1\/2|\*)\s*$/;

type Phase = 'title' | 'players' | 'match' | 'columns' | 'moves';

/** Plies a move list may have: above the longest game Kibitz follows (KIBITZ_MAX_PLIES at most). */
export const MAX_LIST_PLIES = 100_000;

/** Feeds lines one at a time; says whether each belonged to a move list and hands back the list at its end. */
export class MoveListAssembler {
  private phase: Phase | null = null;
  private list: MoveList | null = null;

  get active(): boolean {
    return this.phase !== null;
  }

  /**
   * Offers a line. Returns `consumed: false` when the line is not part of a move list, so the
   * caller decodes it as usual.
   */
  offer(line: string): { consumed: boolean; list?: MoveList; error?: string } {
    const title = TITLE.exec(line);
    if (title !== null) {
      this.start(matchedGameNumber(title[1]!));
      return { consumed: true };
    }
    const players = PLAYERS.exec(line);
    if (players !== null && (this.phase === null || this.phase === 'title' || this.phase === 'players')) {
      // lasker sends no title line: the players line opens the list.
      if (this.phase === null) this.start(null);
      const list = this.list!;
      list.white = players[1]!;
      list.whiteRating = players[2]!;
      list.black = players[3]!;
      list.blackRating = players[4]!;
      this.phase = 'match';
      return { consumed: true };
    }
    if (this.phase === null || this.list === null) return { consumed: false };
    const list = this.list;
    if (line.trim() === '' && this.phase !== 'moves') return { consumed: true };
    switch (this.phase) {
      case 'title':
      case 'players':
        return this.abandon('no players line after "Movelist for game"');
      case 'match': {
        const m = MATCH.exec(line);
        if (m === null) return this.abandon(`unexpected line after the players line: "${line}"`);
        list.rated = m[1] === 'Rated';
        list.type = m[2]!;
        list.initialMinutes = Number(m[3]);
        list.incrementSec = Number(m[4]);
        this.phase = 'columns';
        return { consumed: true };
      }
      case 'columns':
        if (COLUMNS.test(line) || RULE.test(line)) {
          if (RULE.test(line)) this.phase = 'moves';
          return { consumed: true };
        }
        return this.abandon(`expected the column header, got "${line}"`);
      case 'moves': {
        const footer = FOOTER.exec(line);
        if (footer !== null) {
          list.reason = footer[1]!.trim();
          list.result = footer[2] as GameResult;
          this.phase = null;
          this.list = null;
          return { consumed: true, list };
        }
        const row = MOVE_ROW.exec(line);
        if (row === null) return { consumed: false };
        // Without block mode nothing else ends a list a broken server never closes.
        if (list.moves.length >= MAX_LIST_PLIES) return this.abandon(`more than ${MAX_LIST_PLIES} plies`);
        const expected = Math.floor(list.moves.length / 2) + 1;
        if (Number(row[1]) !== expected && !(list.moves.length === 0 && row[2] === undefined)) {
          return this.abandon(`move number ${row[1]} where ${expected} was expected`);
        }
        if (row[2] !== undefined) list.moves.push(entry(row[2], row[3]));
        if (row[4] !== undefined) list.moves.push(entry(row[4], row[5]));
        return { consumed: true };
      }
    }
  }

  private start(game: GameNumber | null): void {
    this.phase = game === null ? 'players' : 'title';
    this.list = {
      kind: 'moveList',
      game,
      white: '',
      whiteRating: '',
      black: '',
      blackRating: '',
      rated: null,
      type: null,
      initialMinutes: null,
      incrementSec: null,
      moves: [],
      result: '*',
      reason: '',
    };
  }

  private abandon(error: string): { consumed: boolean; error: string } {
    this.phase = null;
    this.list = null;
    return { consumed: false, error };
  }
}

function entry(san: string, time: string | undefined): MoveListEntry {
  const parsed = time === undefined ? null : parseMoveTime(`(${time})`);
  return { san, timeMs: parsed === null ? null : parsed.ms };
}
