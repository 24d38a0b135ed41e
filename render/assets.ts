// Fonts and piece art, loaded from npm packages so nothing depends on what the host has installed.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GlobalFonts, Image } from '@napi-rs/canvas';
import type { Color, Role } from 'chessops/types';

const require = createRequire(import.meta.url);

/** Our own family name, so text never silently falls back to a system font. */
export const FONT_FAMILY = 'Kibitz Sans';

let fontsRegistered = false;

/**
 * Registers DejaVu Sans (regular and bold) from the dejavu-fonts-ttf package. @napi-rs/canvas draws
 * no text at all, and reports no error, when a font is missing.
 */
export function registerFonts(): void {
  if (fontsRegistered) return;
  for (const file of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
    const key = GlobalFonts.registerFromPath(require.resolve(`dejavu-fonts-ttf/ttf/${file}`), FONT_FAMILY);
    if (key === null) throw new Error(`could not register font ${file}`);
  }
  fontsRegistered = true;
}

export type PieceName = `${Color}-${Role}`;

let pieceImages: Map<PieceName, Image> | null = null;

/**
 * The cburnett piece set (Colin M.L. Burnett, GPL-2.0-or-later) as SVG images, read from the data
 * URIs in @lichess-org/chessground's assets/chessground.cburnett.css (GPL-3.0-or-later).
 */
export function loadPieceImages(): Map<PieceName, Image> {
  if (pieceImages) return pieceImages;
  const css = readFileSync(
    require.resolve('@lichess-org/chessground/assets/chessground.cburnett.css'),
    'utf8',
  );
  const images = new Map<PieceName, Image>();
  const rule =
    /piece\.(pawn|knight|bishop|rook|queen|king)\.(white|black)\s*\{\s*background-image:\s*url\('data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'\)/g;
  for (const [, role, color, data] of css.matchAll(rule)) {
    const image = new Image();
    image.src = Buffer.from(data ?? '', 'base64');
    images.set(`${color as Color}-${role as Role}`, image);
  }
  if (images.size !== 12) {
    throw new Error(`expected 12 cburnett pieces in chessground's CSS, found ${images.size}`);
  }
  pieceImages = images;
  return images;
}
