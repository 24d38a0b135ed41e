// The edit scheduler's cost per turn with many posts waiting (src/relay/schedule.ts): at 1,000 games
// nearly every post waits for its turn, 40 turns a second. Each post's edit, once sent, is followed
// by the next move's (it waits again, as a busy game's post does). CPU time, so the figure stays the
// code's when other work shares the cores.
import { EditScheduler } from '../../src/relay/schedule.js';
import { ManualClock } from '../support/manual-clock.js';

const PACE = { perSecond: 40, burst: 2, perBucket: { limit: 5, windowMs: 5250 }, inFlight: 40 };

/** CPU µs per turn, `waiting` posts in their own channels, over `turns` turns. */
async function usPerTurn(waiting: number, turns: number): Promise<number> {
  const clock = new ManualClock();
  const scheduler = new EditScheduler(PACE, clock);
  let given = 0;
  const wait = (post: number): void => {
    const since = clock.now();
    void scheduler.run(
      { bucket: () => `channel ${post}`, standing: () => ({ since, urgent: false }) },
      async () => {
        given++;
        wait(post);
      },
    );
  };
  for (let post = 0; post < waiting; post++) wait(post);
  await clock.advance(1000); // warm
  const start = process.cpuUsage();
  const from = given;
  while (given - from < turns) await clock.advance(25);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (given - from);
}

export async function benchSchedule(): Promise<Record<string, number>> {
  return {
    schedule_turn_us_10_waiting: Math.round((await usPerTurn(10, 4000)) * 10) / 10,
    schedule_turn_us_1000_waiting: Math.round((await usPerTurn(1000, 4000)) * 10) / 10,
  };
}

if (process.argv[1]?.endsWith('schedule.ts'))
  process.stdout.write(`${JSON.stringify(await benchSchedule())}\n`);
