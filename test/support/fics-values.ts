// Game numbers and handles for tests, made the way the bot makes them: parsed, never cast.
import {
  orThrow,
  parseGameNumber,
  parseHandle,
  type GameNumber,
  type Handle,
} from '../../src/fics/validate.js';

export const gameNumber = (input: number | string): GameNumber => orThrow(parseGameNumber(input));
export const handle = (input: string): Handle => orThrow(parseHandle(input));
