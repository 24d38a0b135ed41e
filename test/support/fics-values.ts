// Game numbers and handles for tests, made the way the bot makes them: parsed, never cast.
import { orThrow, parseGameNumber, parseHandle } from '../../src/fics/validate.js';
import { parseGameId, type GameId } from '../../src/game/game-id.js';
import type { GameNumber } from '../../src/protocol/game-number.js';
import type { Handle } from '../../src/protocol/handle.js';

export const gameNumber = (input: number | string): GameNumber => orThrow(parseGameNumber(input));
export const handle = (input: string): Handle => orThrow(parseHandle(input));
export const gameId = (input: number | string): GameId => orThrow(parseGameId(input));
