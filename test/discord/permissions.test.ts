import { once } from 'node:events';
import { ChannelType, Events, PermissionFlagsBits } from 'discord.js';
import type { TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOT_PERMISSIONS,
  botPermissionsIn,
  checkPostingPermissions,
  inviteUrl,
  missingPostingPermissions,
} from '../../src/discord/permissions.js';
import { startFakeWithClient } from './harness.js';
import type { ClientHarness } from './harness.js';

const P = PermissionFlagsBits;

describe('missingPostingPermissions', () => {
  it('names what is missing for a plain post and for a post with a thread', () => {
    expect(missingPostingPermissions(BOT_PERMISSIONS, { thread: true })).toEqual([]);
    expect(missingPostingPermissions(P.ViewChannel | P.SendMessages, { thread: false })).toEqual([
      'Attach Files',
      'Embed Links',
    ]);
    expect(
      missingPostingPermissions(P.ViewChannel | P.SendMessages | P.AttachFiles | P.EmbedLinks, {
        thread: true,
      }),
    ).toEqual(['Create Public Threads', 'Send Messages in Threads']);
    expect(missingPostingPermissions(0n, { thread: false })).toEqual([
      'View Channel',
      'Send Messages',
      'Attach Files',
      'Embed Links',
    ]);
    expect(missingPostingPermissions(P.Administrator, { thread: true })).toEqual([]);
  });

  it('turns them into one message for the user', () => {
    expect(checkPostingPermissions(BOT_PERMISSIONS, '<#1>', { thread: false })).toEqual({
      ok: true,
      value: undefined,
    });
    const check = checkPostingPermissions(P.ViewChannel | P.SendMessages | P.EmbedLinks, '<#123>', {
      thread: false,
    });
    expect(check).toEqual({
      ok: false,
      error: {
        missing: ['Attach Files'],
        message:
          "I can't post there: in <#123> I'm missing **Attach Files**. A server admin can grant it to my role in the channel's Permissions settings.",
      },
    });
    const many = checkPostingPermissions(P.ViewChannel, '<#123>', { thread: true });
    expect(many.ok || many.error.message).toMatch(
      /missing \*\*Send Messages\*\*, \*\*Attach Files\*\*, \*\*Embed Links\*\*, \*\*Create Public Threads\*\* and \*\*Send Messages in Threads\*\*\. .* grant them/,
    );
  });

  it('builds an invite link with both scopes and the permissions', () => {
    const url = new URL(inviteUrl('123456789012345678'));
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    expect(BigInt(url.searchParams.get('permissions') ?? '0')).toBe(BOT_PERMISSIONS);
    expect(BOT_PERMISSIONS & P.ReadMessageHistory).toBe(P.ReadMessageHistory);
  });
});

describe('botPermissionsIn (against the fake, through discord.js caches)', () => {
  let h: ClientHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sees channel overwrites on the bot role and on the bot member', async () => {
    h = await startFakeWithClient();
    expect(missingPostingPermissions(botPermissionsIn(h.textChannel) ?? 0n, { thread: true })).toEqual([]);

    let updated = once(h.client, Events.ChannelUpdate);
    h.fake.setOverwrite(h.channel.id, {
      id: h.fake.botRole(h.guild.id).id,
      type: 'role',
      deny: P.AttachFiles,
    });
    await updated;
    updated = once(h.client, Events.ChannelUpdate);
    h.fake.setOverwrite(h.channel.id, { id: h.fake.bot.id, type: 'member', deny: P.CreatePublicThreads });
    await updated;
    const channel = h.client.channels.cache.get(h.channel.id) as TextChannel;
    const granted = botPermissionsIn(channel);
    expect(granted).toBe(h.fake.permissionsFor(h.channel.id, h.fake.bot.id));
    expect(missingPostingPermissions(granted ?? 0n, { thread: true })).toEqual([
      'Attach Files',
      'Create Public Threads',
    ]);
  });

  it('reads a thread through its parent', async () => {
    h = await startFakeWithClient();
    const thread = await h.textChannel.threads.create({ name: 'Game 5', type: ChannelType.PublicThread });
    // Denied to @everyone in the parent channel: the bot's role no longer has it either...
    let updated = once(h.client, Events.ChannelUpdate);
    h.fake.setOverwrite(h.channel.id, { id: h.guild.id, type: 'role', deny: P.SendMessagesInThreads });
    await updated;
    expect(missingPostingPermissions(botPermissionsIn(thread) ?? 0n, { thread: true })).toEqual([
      'Send Messages in Threads',
    ]);
    // ...until an overwrite for the bot's role allows it again.
    updated = once(h.client, Events.ChannelUpdate);
    h.fake.setOverwrite(h.channel.id, {
      id: h.fake.botRole(h.guild.id).id,
      type: 'role',
      allow: P.SendMessagesInThreads,
    });
    await updated;
    expect(missingPostingPermissions(botPermissionsIn(thread) ?? 0n, { thread: true })).toEqual([]);
    expect(botPermissionsIn(thread)).toBe(h.fake.permissionsFor(thread.id, h.fake.bot.id));
  });
});
