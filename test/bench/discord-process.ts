// The fake Discord in a process of its own, for the edit bench (edit.ts): its CPU (schema checks,
// the HTTP server) stays out of the bench's figures. Prints one JSON line (where it listens, its
// token, the channels made) and stops when its parent does.
import { FakeDiscord } from '../fake-discord/index.js';

const channels = Number(process.argv[2] ?? '1');
const UNLIMITED = { limit: 1_000_000_000, windowMs: 1_000 };
const fake = await FakeDiscord.start({
  rateLimits: { messageEdit: UNLIMITED, messageCreate: UNLIMITED, default: UNLIMITED, global: UNLIMITED },
});
const guild = fake.createGuild({ name: 'Bench' });
const made = Array.from({ length: channels }, (_, i) => fake.createChannel(guild.id, { name: `c${i}` }).id);
process.stdout.write(
  `${JSON.stringify({ apiBase: fake.apiBase, token: fake.token, guild: guild.id, channels: made })}\n`,
);
process.on('disconnect', () => void fake.stop().then(() => process.exit(0)));
