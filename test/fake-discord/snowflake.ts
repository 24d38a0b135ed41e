// Discord ids: ms since the Discord epoch in the high bits, a counter in the low 12 bits, so ids
// sort by creation time and discord.js derives sensible createdAt dates from them.
const DISCORD_EPOCH = 1_420_070_400_000n;

export class Snowflakes {
  #counter = 0n;

  next(at: number = Date.now()): string {
    const id = ((BigInt(at) - DISCORD_EPOCH) << 22n) | (this.#counter & 0xfffn);
    this.#counter += 1n;
    return id.toString();
  }
}
