// An 8-bit indexed pixel surface: a window onto a byte buffer. PNG rows carry a filter byte before
// each row and GIF frames do not, so the same drawing code writes both through `stride`/`base`.

export interface Surface {
  data: Uint8Array;
  /** Bytes from one row to the next. */
  stride: number;
  /** Offset of pixel (0, 0); pixel (x, y) is at base + y * stride + x. */
  base: number;
}

/** A rectangular block of palette indices, row-major, `width` bytes a row. */
export interface Sprite {
  width: number;
  height: number;
  pixels: Buffer;
  /** Each row of `pixels` as a view, made once: a view made per row and blit cost more than the copy. */
  rows: Uint8Array[];
}

export function makeSprite(width: number, height: number, pixels: Buffer): Sprite {
  const rows = Array.from(
    { length: height },
    (_, row) => new Uint8Array(pixels.buffer, pixels.byteOffset + row * width, width),
  );
  return { width, height, pixels, rows };
}

export function fillRect(s: Surface, x: number, y: number, w: number, h: number, index: number): void {
  // Whole rows (a GIF frame's box) are one span: one fill, not a call a row.
  if (w === s.stride) {
    const start = s.base + y * s.stride + x;
    s.data.fill(index, start, start + w * h);
    return;
  }
  for (let row = 0; row < h; row++) {
    const start = s.base + (y + row) * s.stride + x;
    s.data.fill(index, start, start + w);
  }
}

export function blit(s: Surface, sprite: Sprite, x: number, y: number): void {
  const { height, rows } = sprite;
  for (let row = 0; row < height; row++) s.data.set(rows[row]!, s.base + (y + row) * s.stride + x);
}
