// The interaction dispatcher, through the real bot (startBot) and the fake Discord, with test
// commands that succeed and fail in every way.
import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_ANSWER_WAIT_MS } from '../../src/discord/dispatch.js';
import { MESSAGE_FLAG_EPHEMERAL } from '../fake-discord/index.js';
import { FIXTURE_COMMANDS, startFake, startTestBot } from './harness.js';
import type { Harness, TestBot } from './harness.js';

let h: Harness;
let bot: TestBot;

beforeAll(async () => {
  h = await startFake();
  bot = await startTestBot(h, { commandsDir: FIXTURE_COMMANDS });
});

afterAll(async () => {
  await bot.bot.stop();
  await h.close();
});

const logged = (): {
  level: number;
  msg: string;
  interaction?: Record<string, unknown>;
  err?: { message: string };
}[] => bot.logLines.map((line) => JSON.parse(line) as { level: number; msg: string });

const CALLBACK = '/interactions/:interaction_id/:interaction_token/callback';
const callbacksOf = (interactionId: string) =>
  h.fake.requestsTo('POST', CALLBACK).filter((r) => r.params.interaction_id === interactionId);

describe('dispatcher', () => {
  it('runs a chat-input command with its options', async () => {
    const reply = await h.fake.command(h.guild.id, h.channel.id, 'echo', { text: 'e4', times: 2 }).reply();
    expect(reply).toMatchObject({ callbackType: 4, ephemeral: false, content: 'e4 e4' });
  });

  it('routes buttons and select menus by custom-id prefix, passing the rest as arguments', async () => {
    const reply = await h.fake.command(h.guild.id, h.channel.id, 'echo', { text: 'Nf3' }).reply();
    const messageId = reply.message!.id;
    const pressed = await h.fake.button(messageId, 'again:Nf3').reply();
    expect(pressed).toMatchObject({ callbackType: 7, content: 'again: Nf3' });
    const picked = await h.fake.selectMenu(messageId, 'pick:Nf3', ['two']).reply();
    expect(picked).toMatchObject({ ephemeral: true, content: 'picked two for Nf3' });
  });

  it('answers a button nobody handles with an ephemeral note', async () => {
    const reply = await h.fake.command(h.guild.id, h.channel.id, 'echo', { text: 'd4' }).reply();
    const gone = await h.fake.button(reply.message!.id, 'gone:1').reply();
    expect(gone).toMatchObject({ ephemeral: true, content: 'This button no longer does anything.' });
  });

  it('routes autocomplete to the command', async () => {
    const reply = await h.fake.autocomplete(h.guild.id, h.channel.id, 'echo', { text: 'Qh' }, 'text').reply();
    expect(reply.choices).toEqual([
      { name: 'Qh!', value: 'Qh!' },
      { name: 'Qh?', value: 'Qh?' },
    ]);
  });

  it('tells the user ephemerally when a command throws, and logs it without the token', async () => {
    const handle = h.fake.command(h.guild.id, h.channel.id, 'boom', { when: 'before' });
    const reply = await handle.reply();
    expect(reply.flags & MESSAGE_FLAG_EPHEMERAL).toBe(MESSAGE_FLAG_EPHEMERAL);
    expect(reply.content).toBe('Something went wrong with /boom. It has been logged; please try again.');
    const entry = logged().find(
      (l) => l.msg === 'interaction handler failed' && l.interaction?.id === handle.id,
    );
    expect(entry).toMatchObject({
      level: 50,
      err: { message: 'exploded on purpose' },
      interaction: { command: 'boom' },
    });
    expect(bot.logLines.join('')).not.toContain(handle.token);
  });

  it('follows up ephemerally when a command throws after deferring', async () => {
    const handle = h.fake.command(h.guild.id, h.channel.id, 'boom', { when: 'deferred' });
    expect((await handle.callback()).type).toBe(5);
    const followUp = await handle.followUp(0);
    expect(followUp.flags & MESSAGE_FLAG_EPHEMERAL).toBe(MESSAGE_FLAG_EPHEMERAL);
    expect(followUp.content).toMatch(/Something went wrong with \/boom/);
  });

  it('answers a failing autocomplete with no choices', async () => {
    const reply = await h.fake.autocomplete(h.guild.id, h.channel.id, 'boom', { when: 'b' }, 'when').reply();
    expect(reply.choices).toEqual([]);
  });

  it('a first answer Discord fails (500): the user is told after a wait, not at once', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.command(h.guild.id, h.channel.id, 'echo', { text: 'e4' });
    const reply = await handle.reply();
    expect(reply).toMatchObject({
      ephemeral: true,
      content: 'Something went wrong with /echo. It has been logged; please try again.',
    });
    const answers = callbacksOf(handle.id);
    expect(answers.map((r) => r.status)).toEqual([500, 204]);
    expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(FAILURE_ANSWER_WAIT_MS);
    expect(h.fake.immediateRetries).toEqual([]);
  });

  it('an autocomplete Discord fails (500) is not answered again: its choices would come too late', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.autocomplete(h.guild.id, h.channel.id, 'echo', { text: 'Qh' }, 'text');
    await h.fake.waitFor(
      () =>
        logged().some(
          (l) =>
            l.msg.startsWith('could not tell the user about the failure') && l.interaction?.id === handle.id,
        ),
      'the failure logged',
    );
    expect(callbacksOf(handle.id).map((r) => r.status)).toEqual([500]);
    expect(h.fake.immediateRetries).toEqual([]);
  });

  it('answers a command it does not know (stale registration) ephemerally', async () => {
    const registered = h.fake
      .commands(h.guild.id)
      .map(({ name, description, options }) => ({ name, description, options }));
    await bot.bot.client.rest.put(Routes.applicationGuildCommands(h.fake.applicationId, h.guild.id), {
      body: [...registered, { name: 'ghost', description: 'No longer exists' }],
    });
    const reply = await h.fake.command(h.guild.id, h.channel.id, 'ghost').reply();
    expect(reply).toMatchObject({ ephemeral: true });
    expect(reply.content).toMatch(/I don't know \/ghost/);
  });
});
