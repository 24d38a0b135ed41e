import { PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { helpEmbed } from '../../commands/help.js';
import { buildRegistry } from '../../src/discord/loader.js';

describe('helpEmbed', () => {
  it('lists each command, subcommand and option, most used first, admin-only ones marked', () => {
    const follow = new SlashCommandBuilder()
      .setName('follow')
      .setDescription('Follow players')
      .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
      .addSubcommand((s) =>
        s
          .setName('add')
          .setDescription('Post every game of a player')
          .addStringOption((o) => o.setName('handle').setDescription('FICS handle').setRequired(true)),
      )
      .addSubcommand((s) => s.setName('list').setDescription('Followed players in this channel'));
    const observe = new SlashCommandBuilder()
      .setName('observe')
      .setDescription('Show a live game')
      .addBooleanOption((o) => o.setName('flip').setDescription('Black at the bottom'));
    const { registry, errors } = buildRegistry([
      { file: 'follow.ts', module: { data: follow, execute: async () => {} } },
      {
        file: 'observe.ts',
        module: { data: observe, execute: async () => {}, help: 'Posts a board that follows the game.' },
      },
    ]);
    expect(errors).toEqual([]);
    const embed = helpEmbed(registry).toJSON();
    expect(embed.fields).toEqual([
      {
        name: '/observe',
        value: 'Posts a board that follows the game.\n`flip` (optional): Black at the bottom',
      },
      { name: '/follow add (admins)', value: 'Post every game of a player\n`handle`: FICS handle' },
      { name: '/follow list (admins)', value: 'Followed players in this channel' },
    ]);
  });
});
