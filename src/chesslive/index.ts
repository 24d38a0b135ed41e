// ChessLive! move files: the public face of this module. A file is read into, and written from,
// the game record (src/game/record.ts) that PGN and FICS games use.
export { makeChessLive } from './write.js';
export type { ChessLiveError, ChessLiveRead, ReadOptions } from './read.js';
export { parseChessLive } from './read.js';
