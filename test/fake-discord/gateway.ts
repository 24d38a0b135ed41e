// The fake gateway: Discord's WebSocket protocol as discord.js 14 drives it, JSON encoding, no
// compression. HELLO -> IDENTIFY -> READY + one GUILD_CREATE per guild; heartbeats are ACKed;
// a dropped connection can RESUME (missed events are replayed, then RESUMED) unless the session
// was invalidated, in which case the client is told so (op 9) and identifies afresh. A session
// that identified as a shard ([id, count]) gets only the events of its guilds, as Discord routes
// them: guild (id >> 22) % count.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord.js';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';

export interface DispatchEvent {
  t: string;
  d: unknown;
}

export interface GatewayLogEntry {
  at: number;
  direction: 'in' | 'out';
  sessionId: string | null;
  op: number;
  t: string | null;
  /** The shard an IDENTIFY names (`d.shard[0]`); null for other frames and unsharded clients. */
  shard: number | null;
}

export interface GatewaySession {
  readonly id: string;
  intents: number;
  /** Last sequence number sent. */
  seq: number;
  /** False once the client closed normally or the fake invalidated it: RESUME is refused. */
  valid: boolean;
  socket: WebSocket | null;
  /** Every dispatch of the session, for replay on RESUME. */
  readonly sent: { s: number; t: string; d: unknown }[];
  /** `[id, count]` from IDENTIFY; null for an unsharded client (every guild). */
  readonly shard: readonly [number, number] | null;
}

export interface GatewayOptions {
  /** The token IDENTIFY and RESUME must carry (read at each, so it can be revoked). */
  token: () => string;
  heartbeatIntervalMs: number;
  resumeUrl: () => string;
  /** READY's payload (without session_id/resume_gateway_url) and the GUILD_CREATEs that follow. */
  identify: () => { ready: Record<string, unknown>; guilds: unknown[] };
  onChange: () => void;
  /** GET /gateway/bot's session_start_limit.max_concurrency: IDENTIFYs allowed per 5 s, one per key. */
  maxConcurrency: number;
  /** The fake's clock (Date.now() plus what a test moved it by), for the identify window. */
  now: () => number;
}

/** Discord takes one IDENTIFY per rate-limit key (shard id % max_concurrency) per 5 s. */
export const IDENTIFY_WINDOW_MS = 5_000;

/** Events that only reach a session which asked for the Guilds intent. */
const GUILDS_INTENT_EVENTS = new Set<string>([
  GatewayDispatchEvents.GuildCreate,
  GatewayDispatchEvents.GuildDelete,
  GatewayDispatchEvents.GuildRoleCreate,
  GatewayDispatchEvents.GuildRoleUpdate,
  GatewayDispatchEvents.ChannelCreate,
  GatewayDispatchEvents.ChannelUpdate,
  GatewayDispatchEvents.ChannelDelete,
  GatewayDispatchEvents.ThreadCreate,
  GatewayDispatchEvents.ThreadUpdate,
  GatewayDispatchEvents.ThreadDelete,
]);

export class Gateway {
  readonly log: GatewayLogEntry[] = [];
  readonly sessions: GatewaySession[] = [];
  readonly #options: GatewayOptions;
  readonly #server = new WebSocketServer({ noServer: true });
  #sessionCounter = 0;
  /**
   * When set, every IDENTIFY is answered by closing with this code (4004, 4013, 4014...), or with
   * the code the function gives for the IDENTIFY's shard (null: that shard is let in).
   */
  refuseIdentify: number | null | ((shard: number | null) => number | null) = null;
  /**
   * IDENTIFYs answered with Invalid Session (op 9) because another of the same rate-limit key came
   * less than 5 s before, as Discord answers them ("Rate Limiting" in its gateway documentation).
   */
  readonly refusedIdentifies: { at: number; shard: number | null }[] = [];
  /** When each rate-limit key last identified (the fake's clock). */
  readonly #identifiedAt = new Map<number, number>();
  /** READY is held until this many IDENTIFYs were let in (holdReady). */
  #readyAfter = 0;
  readonly #heldReady: (() => void)[] = [];

  constructor(options: GatewayOptions) {
    this.#options = options;
  }

  get maxConcurrency(): number {
    return this.#options.maxConcurrency;
  }

  /**
   * Holds every READY until `count` IDENTIFYs were let in, then sends them all: a client that waits
   * for one session's READY before identifying the next never gets there.
   */
  holdReady(count: number): void {
    this.#readyAfter = count;
  }

  /** True when some session is identified and connected. */
  get connected(): boolean {
    return this.sessions.some((s) => s.valid && s.socket !== null);
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#server.handleUpgrade(req, socket, head, (ws) => this.#accept(ws));
  }

  /** Sends an event to every valid session (buffered for replay while one is disconnected). */
  dispatch(event: DispatchEvent): void {
    for (const session of this.sessions) {
      if (!session.valid || !forShard(session, event)) continue;
      if (GUILDS_INTENT_EVENTS.has(event.t) && (session.intents & GatewayIntentBits.Guilds) === 0) continue;
      this.#send(session, event);
    }
  }

  /**
   * Cuts every connection without a close frame, as a network failure would. With `resumable`
   * the sessions stay valid and the client's RESUME succeeds; without, the client is told the
   * session is invalid and must IDENTIFY again.
   */
  drop(options: { resumable: boolean }): void {
    for (const session of this.sessions) {
      if (!options.resumable) session.valid = false;
      session.socket?.terminate();
      session.socket = null;
    }
    this.#options.onChange();
  }

  /** Closes every connection with a close frame carrying `code`; their sessions end. */
  closeAll(code: number, reason: string): void {
    for (const session of this.sessions) {
      session.valid = false;
      session.socket?.close(code, reason);
      session.socket = null;
    }
    this.#options.onChange();
  }

  async close(): Promise<void> {
    for (const ws of this.#server.clients) ws.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(ws: WebSocket): void {
    let session: GatewaySession | null = null;
    this.#write(ws, null, {
      op: GatewayOpcodes.Hello,
      d: { heartbeat_interval: this.#options.heartbeatIntervalMs },
    });

    ws.on('message', (data) => {
      let frame: { op?: unknown; d?: unknown };
      try {
        frame = JSON.parse(String(data)) as { op?: unknown; d?: unknown };
      } catch {
        ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      const op = typeof frame.op === 'number' ? frame.op : -1;
      const d = (frame.d ?? {}) as Record<string, unknown>;
      const shard =
        op === GatewayOpcodes.Identify && Array.isArray(d.shard) && typeof d.shard[0] === 'number'
          ? d.shard[0]
          : null;
      this.#record('in', session?.id ?? null, op, null, shard);
      switch (op) {
        case GatewayOpcodes.Heartbeat:
          this.#write(ws, session?.id ?? null, { op: GatewayOpcodes.HeartbeatAck });
          return;
        case GatewayOpcodes.Identify: {
          if (session !== null) {
            ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'You sent more than one identify payload.');
            return;
          }
          if (d.token !== this.#options.token()) {
            ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
            return;
          }
          const key = (shard ?? 0) % this.#options.maxConcurrency;
          const last = this.#identifiedAt.get(key);
          const now = this.#options.now();
          if (last !== undefined && now - last < IDENTIFY_WINDOW_MS) {
            this.refusedIdentifies.push({ at: now, shard });
            this.#write(ws, null, { op: GatewayOpcodes.InvalidSession, d: false });
            return;
          }
          this.#identifiedAt.set(key, now);
          const refusal =
            typeof this.refuseIdentify === 'function' ? this.refuseIdentify(shard) : this.refuseIdentify;
          if (refusal !== null) {
            ws.close(refusal, 'Identify refused by the fake.');
            return;
          }
          const shardOf =
            Array.isArray(d.shard) && d.shard.length === 2 && d.shard.every((n) => Number.isSafeInteger(n))
              ? ([d.shard[0], d.shard[1]] as [number, number])
              : null;
          session = this.#identify(ws, typeof d.intents === 'number' ? d.intents : 0, shardOf);
          return;
        }
        case GatewayOpcodes.Resume: {
          const found = this.sessions.find((s) => s.id === d.session_id);
          if (d.token !== this.#options.token() || found === undefined || !found.valid) {
            this.#write(ws, null, { op: GatewayOpcodes.InvalidSession, d: false });
            return;
          }
          session = found;
          this.#resume(ws, found, typeof d.seq === 'number' ? d.seq : 0);
          return;
        }
        case GatewayOpcodes.PresenceUpdate:
        case GatewayOpcodes.VoiceStateUpdate:
        case GatewayOpcodes.RequestGuildMembers:
          if (session === null) ws.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated.');
          return;
        default:
          ws.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
      }
    });

    ws.on('close', (code) => {
      if (session === null || session.socket !== ws) return;
      session.socket = null;
      // A client closing with 1000/1001 ends its session; any other code may resume.
      if (code === 1000 || code === 1001) session.valid = false;
      this.#options.onChange();
    });
  }

  #identify(ws: WebSocket, intents: number, shard: readonly [number, number] | null): GatewaySession {
    this.#sessionCounter += 1;
    const session: GatewaySession = {
      id: `fake-session-${this.#sessionCounter}`,
      intents,
      seq: 0,
      valid: true,
      socket: ws,
      sent: [],
      shard,
    };
    this.sessions.push(session);
    const identified = this.sessions.length;
    const send = (): void => this.#ready(session);
    if (identified < this.#readyAfter) this.#heldReady.push(send);
    else {
      for (const held of this.#heldReady.splice(0)) held();
      send();
    }
    this.#options.onChange();
    return session;
  }

  /** READY, then one GUILD_CREATE per guild of the session's shard. */
  #ready(session: GatewaySession): void {
    const { shard } = session;
    const { ready, guilds } = this.#options.identify();
    // READY names the session's guilds only, and its shard.
    const readyGuilds = Array.isArray(ready.guilds) ? (ready.guilds as unknown[]) : [];
    this.#send(session, {
      t: GatewayDispatchEvents.Ready,
      d: {
        ...ready,
        guilds: readyGuilds.filter((d) => forShard(session, { t: GatewayDispatchEvents.GuildCreate, d })),
        shard: shard ?? ready.shard,
        session_id: session.id,
        resume_gateway_url: this.#options.resumeUrl(),
      },
    });
    for (const guild of guilds) {
      const event = { t: GatewayDispatchEvents.GuildCreate, d: guild };
      if (forShard(session, event)) this.#send(session, event);
    }
  }

  #resume(ws: WebSocket, session: GatewaySession, seq: number): void {
    session.socket?.terminate();
    session.socket = ws;
    for (const event of session.sent) {
      if (event.s > seq)
        this.#write(ws, session.id, { op: GatewayOpcodes.Dispatch, s: event.s, t: event.t, d: event.d });
    }
    this.#send(session, { t: GatewayDispatchEvents.Resumed, d: { _trace: ['fake-discord'] } });
    this.#options.onChange();
  }

  #send(session: GatewaySession, event: DispatchEvent): void {
    session.seq += 1;
    const s = session.seq;
    session.sent.push({ s, t: event.t, d: event.d });
    if (session.sent.length > 1000) session.sent.shift();
    if (session.socket !== null) {
      this.#write(session.socket, session.id, { op: GatewayOpcodes.Dispatch, s, t: event.t, d: event.d });
    }
  }

  #write(
    ws: WebSocket,
    sessionId: string | null,
    frame: { op: number; d?: unknown; s?: number; t?: string },
  ): void {
    this.#record('out', sessionId, frame.op, frame.t ?? null, null);
    ws.send(JSON.stringify({ s: null, t: null, d: null, ...frame }));
  }

  #record(
    direction: 'in' | 'out',
    sessionId: string | null,
    op: number,
    t: string | null,
    shard: number | null,
  ): void {
    this.log.push({ at: Date.now(), direction, sessionId, op, t, shard });
    this.#options.onChange();
  }
}

/** Whether Discord would send the event to the session: a guild's events go to its shard only. */
function forShard(session: GatewaySession, event: DispatchEvent): boolean {
  if (session.shard === null) return true;
  const d = event.d as { id?: unknown; guild_id?: unknown } | null;
  const guildId =
    typeof d?.guild_id === 'string'
      ? d.guild_id
      : event.t === GatewayDispatchEvents.GuildCreate || event.t === GatewayDispatchEvents.GuildDelete
        ? d?.id
        : undefined;
  if (typeof guildId !== 'string' || !/^\d{1,20}$/.test(guildId)) return true;
  const [id, count] = session.shard;
  return count < 1 || Number((BigInt(guildId) >> 22n) % BigInt(count)) === id;
}
