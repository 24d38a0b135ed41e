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
}

export function fillRect(s: Surface, x: number, y: number, w: number, h: number, index: number): void {
  for (let row = 0; row < h; row++) {
    const start = s.base + (y + row) * s.stride + x;
    s.data.fill(index, start, start + w);
  }
}

export function blit(s: Surface, sprite: Sprite, x: number, y: number): void {
  const { width, height, pixels } = sprite;
  for (let row = 0; row < height; row++) {
    s.data.set(pixels.subarray(row * width, row * width + width), s.base + (y + row) * s.stride + x);
  }
}
