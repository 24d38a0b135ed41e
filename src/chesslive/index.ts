// ChessLive! move files and PGN for Kibitz games: the public face of this module.
export type { LiveGame, LiveMove, LiveResult, LiveVariant, Result } from './model.js';
export { err, fromSnapshot, ok } from './model.js';
export { writeChessLive } from './write.js';
export type { ChessLiveError, ChessLiveRead, ReadOptions } from './read.js';
export { parseChessLive } from './read.js';
export { fromPgn, toPgn } from './pgn.js';
export { replayGame, replayFen } from './rules.js';
