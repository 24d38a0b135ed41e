// Links to lichess's analysis board: https://lichess.org/analysis/<variant>/<FEN>, the FEN's spaces
// written `_` (the form lichess's own "share" links use) and anything else a path cannot hold
// percent-encoded (a crazyhouse FEN's `[pockets]`).
import { lichessVariant, type Variant } from './variants.js';

const ANALYSIS = 'https://lichess.org/analysis';

/** The analysis board on a position, or null for a variant lichess does not analyse by FICS's rules. */
export function makeLichessAnalysisUrl(variant: Variant, fen: string): string | null {
  const name = lichessVariant(variant);
  if (name === null) return null;
  const path = fen.trim().split(/\s+/).map(encodeFenField).join('_');
  return `${ANALYSIS}/${name}/${path}`;
}

function encodeFenField(field: string): string {
  return field.split('/').map(encodeURIComponent).join('/');
}
