// ChessLive! move files and PGN for Kibitz games: the public face of this module.
export type { LiveGame, LiveMove, LiveResult } from './model.js';
export { fromSnapshot } from './model.js';
export { writeChessLive } from './write.js';
export type { ChessLiveError, ChessLiveRead, ReadOptions } from './read.js';
export { parseChessLive } from './read.js';
export { fromPgn, toPgn } from './pgn.js';
export { replayGame } from './rules.js';
