import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/discord/loader.js';
import { LARGEST_GAME_NUMBER } from '../../src/protocol/game-number.js';

describe('game number options', () => {
  it('take every number the protocol allows, 1 to 999,999,999, in every command', async () => {
    const result = await loadCommands();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const games = result.value
      .bodies()
      .flatMap((b) => (b.options ?? []).map((o) => ({ command: b.name, ...o })))
      .filter((o) => o.name === 'game' && o.type === ApplicationCommandOptionType.Integer)
      .map((o) => ({
        command: o.command,
        min: 'min_value' in o ? o.min_value : null,
        max: 'max_value' in o ? o.max_value : null,
      }));
    expect(games.map((g) => g.command).sort()).toEqual(['clip', 'observe', 'pgn', 'unobserve']);
    expect(LARGEST_GAME_NUMBER).toBe(999_999_999);
    for (const g of games) expect(g).toMatchObject({ min: 1, max: LARGEST_GAME_NUMBER });
  });
});
