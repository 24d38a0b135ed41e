// Decodes a whole observer transcript (bytes as received) into its games, in first-seen order.
import { ObserverDecoder } from '../protocol/decode.js';
import type { Undecoded } from '../protocol/events.js';
import type { GameSnapshot } from './snapshot.js';
import { GameTracker } from './tracker.js';

export interface TranscriptGames {
  games: GameSnapshot[];
  undecoded: Undecoded[];
}

/** Feeds the bytes in reads of `chunkSize` (as a socket would) through the decoder and tracker. */
export function decodeTranscript(bytes: Uint8Array, chunkSize = 4096): TranscriptGames {
  const decoder = new ObserverDecoder();
  const tracker = new GameTracker();
  const latest = new Map<string, GameSnapshot>();
  const undecoded: Undecoded[] = [];
  const take = (events: ReturnType<ObserverDecoder['push']>): void => {
    for (const event of events) {
      if (event.kind === 'reply') continue;
      for (const update of tracker.apply(event)) {
        if (update.type === 'undecoded') undecoded.push(update.event);
        else if (update.type !== 'needs') latest.set(update.snapshot.key, update.snapshot);
      }
    }
  };
  for (let at = 0; at < bytes.length; at += chunkSize) take(decoder.push(bytes.subarray(at, at + chunkSize)));
  take(decoder.end());
  // Info-only events (holdings, end notices) may follow the last position change.
  for (const snapshot of tracker.games()) if (latest.has(snapshot.key)) latest.set(snapshot.key, snapshot);
  return { games: [...latest.values()], undecoded };
}
