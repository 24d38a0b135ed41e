import { InteractionContextType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/discord/loader.js';

describe('where each command may be used', () => {
  it('registers the commands that act on a channel or server as usable in servers only', async () => {
    const result = await loadCommands();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const contexts = Object.fromEntries(result.value.bodies().map((b) => [b.name, b.contexts ?? 'anywhere']));
    const guildOnly = [InteractionContextType.Guild];
    expect(contexts).toEqual({
      clip: 'anywhere',
      club: guildOnly,
      follow: guildOnly,
      games: guildOnly,
      help: 'anywhere',
      observe: guildOnly,
      pgn: 'anywhere',
      position: 'anywhere',
      relay: guildOnly,
      tv: guildOnly,
      settings: guildOnly,
      unfollow: guildOnly,
      unobserve: guildOnly,
    });
  });
});
