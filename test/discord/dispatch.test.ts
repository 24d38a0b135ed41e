// The interaction dispatcher, through the real bot (startBot) and the fake Discord, with test
// commands that succeed and fail in every way. The bot's answer clock is the test's: its waits
// after Discord failed, and Discord's window for a first answer, move only when the test says.
import { Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_ANSWER_WAIT_MS, FIRST_ANSWER_WITHIN_MS } from '../../src/discord/dispatch.js';
import { MESSAGE_FLAG_EPHEMERAL } from '../fake-discord/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { FIXTURE_COMMANDS, startFake, startTestBot } from './harness.js';
import type { Harness, TestBot } from './harness.js';

let h: Harness;
let bot: TestBot;
const clock = new ManualClock();

beforeAll(async () => {
  // A request sent again after a 5xx less than the dispatcher's wait after it, by the bot's clock,
  // is listed (immediateRetries) and fails the test.
  h = await startFake({ minRetryWaitMs: FAILURE_ANSWER_WAIT_MS });
  h.fake.retryClock = () => clock.now();
  bot = await startTestBot(h, { commandsDir: FIXTURE_COMMANDS, answerClock: clock });
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
const FOLLOW_UP = '/webhooks/:application_id/:interaction_token';
const callbacksOf = (interactionId: string) =>
  h.fake.requestsTo('POST', CALLBACK).filter((r) => r.params.interaction_id === interactionId);
const followUpsOf = (token: string) =>
  h.fake.requestsTo('POST', FOLLOW_UP).filter((r) => r.params.interaction_token === token);

/** Resolves once the bot logged `msg` (or a message starting so) about the interaction. */
const loggedAbout = (interactionId: string, msg: string) =>
  h.fake.waitFor(
    () => logged().some((l) => l.msg.startsWith(msg) && l.interaction?.id === interactionId),
    `"${msg}" logged`,
  );

/** Resolves once the bot waits on its clock (a handler, or the dispatcher after a failure). */
const clockWaited = () => h.fake.waitFor(() => clock.pending === 1, 'a wait on the answer clock');

const SORRY_ECHO = 'Something went wrong with /echo. It has been logged; please try again.';
const SORRY_LATE = 'Something went wrong with /late. It has been logged; please try again.';
/** The longest a handler may take before its first answer fails and the user is still told. */
const LAST_WAIT_IN_WINDOW = FIRST_ANSWER_WITHIN_MS - FAILURE_ANSWER_WAIT_MS;

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

  it('a first answer Discord fails (500): the user is told after the wait by the bot clock, not before', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.command(h.guild.id, h.channel.id, 'echo', { text: 'e4' });
    // The failure handled: logged, then the dispatcher's wait on the clock taken in the same step.
    await loggedAbout(handle.id, 'interaction handler failed');
    expect(clock.pending).toBe(1);
    await clock.advance(FAILURE_ANSWER_WAIT_MS - 1);
    expect(callbacksOf(handle.id).map((r) => r.status)).toEqual([500]);
    await clock.advance(1);
    const reply = await handle.reply();
    expect(reply).toMatchObject({ ephemeral: true, content: SORRY_ECHO });
    expect(callbacksOf(handle.id).map((r) => r.status)).toEqual([500, 204]);
    // By the clock the fake measures retries with: not one sent before the wait was over.
    expect(h.fake.immediateRetries).toEqual([]);
  });

  it('a first answer Discord fails at the last moment a wait fits in the window: told after it', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.command(h.guild.id, h.channel.id, 'late', { after: LAST_WAIT_IN_WINDOW });
    await clockWaited();
    await clock.advance(LAST_WAIT_IN_WINDOW);
    await loggedAbout(handle.id, 'interaction handler failed');
    expect(clock.pending).toBe(1);
    await clock.advance(FAILURE_ANSWER_WAIT_MS);
    expect(await handle.reply()).toMatchObject({ ephemeral: true, content: SORRY_LATE });
    expect(callbacksOf(handle.id).map((r) => r.status)).toEqual([500, 204]);
    expect(h.fake.immediateRetries).toEqual([]);
  });

  it('a first answer Discord fails when the wait would end past the window: not answered, logged', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.command(h.guild.id, h.channel.id, 'late', { after: LAST_WAIT_IN_WINDOW + 1 });
    await clockWaited();
    await clock.advance(LAST_WAIT_IN_WINDOW + 1);
    await loggedAbout(handle.id, 'could not tell the user about the failure: Discord failed');
    expect(clock.pending).toBe(0);
    expect(callbacksOf(handle.id).map((r) => r.status)).toEqual([500]);
  });

  it('a follow-up Discord fails (500) after a deferral: told after the wait, however late', async () => {
    h.fake.failNext({ method: 'POST', route: FOLLOW_UP }, { kind: 'error', status: 500 });
    const late = 10 * FIRST_ANSWER_WITHIN_MS;
    const handle = h.fake.command(h.guild.id, h.channel.id, 'late', { after: late, deferred: true });
    expect((await handle.callback()).type).toBe(5);
    await clockWaited();
    await clock.advance(late);
    await loggedAbout(handle.id, 'interaction handler failed');
    expect(clock.pending).toBe(1);
    await clock.advance(FAILURE_ANSWER_WAIT_MS - 1);
    expect(followUpsOf(handle.token).map((r) => r.status)).toEqual([500]);
    await clock.advance(1);
    const followUp = await handle.followUp(0);
    expect(followUp.flags & MESSAGE_FLAG_EPHEMERAL).toBe(MESSAGE_FLAG_EPHEMERAL);
    expect(followUp.content).toBe(SORRY_LATE);
    expect(followUpsOf(handle.token).map((r) => r.status)).toEqual([500, 200]);
    expect(h.fake.immediateRetries).toEqual([]);
  });

  it('an autocomplete Discord fails (500) is not answered again: its choices would come too late', async () => {
    h.fake.failNext({ method: 'POST', route: CALLBACK }, { kind: 'error', status: 500 });
    const handle = h.fake.autocomplete(h.guild.id, h.channel.id, 'echo', { text: 'Qh' }, 'text');
    await loggedAbout(handle.id, 'could not tell the user about the failure');
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
