// Tests that need a real component (a browser, the engine, the shared fixtures, PostgreSQL) say
// so through `describeWith`. Where the component is missing they are skipped, visibly; where
// KIBITZ_REQUIRE lists it (CI sets all four) they fail instead, saying what is missing and how to
// get it, so that a run can never test less than it claims.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';
import { locateEngine } from '../../src/engine/locate.js';
import { err, ok, type Result } from '../../src/result.js';
import { FREECHESS_FIXTURES } from './fixtures.js';

export const COMPONENTS = ['chromium', 'stockfish', 'postgres', 'fixtures'] as const;
export type Component = (typeof COMPONENTS)[number];

/** The switch's longest sensible value is a few names: anything longer is a mistake. */
const MAX_REQUIRE_LENGTH = 200;

/** `chromium,stockfish` (commas, spaces allowed; empty means none) as a set of components. */
export function parseRequired(text: string | undefined): Result<ReadonlySet<Component>> {
  if (text === undefined || text.trim() === '') return ok(new Set());
  if (text.length > MAX_REQUIRE_LENGTH)
    return err(`KIBITZ_REQUIRE is ${text.length} characters long, at most ${MAX_REQUIRE_LENGTH}`);
  const names = text.split(',').map((n) => n.trim().toLowerCase());
  const unknown = names.filter((n) => !(COMPONENTS as readonly string[]).includes(n));
  if (unknown.length > 0)
    return err(
      `KIBITZ_REQUIRE names ${unknown.map((n) => `"${n}"`).join(', ')}; it takes a comma-separated list of ${COMPONENTS.join(', ')}`,
    );
  return ok(new Set(names as Component[]));
}

function required(): ReadonlySet<Component> {
  const parsed = parseRequired(process.env.KIBITZ_REQUIRE);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** A component a block of tests needs, and why it cannot be used (null: it can). */
export interface Need {
  component: Component;
  missing: { what: string; fix: string } | null;
}

/**
 * `describe` for tests that need components. All there: the block runs. One missing that
 * KIBITZ_REQUIRE lists: one failing test in place of the block, saying what is missing and how to
 * get it. Otherwise missing: the block is skipped and a warning printed.
 */
export function describeWith(...needs: Need[]): (name: string, body: () => void) => void {
  const absent = needs.filter((n) => n.missing !== null);
  if (absent.length === 0) return (name, body) => describe(name, body);
  const messages = absent.map((n) => `${n.component} is missing: ${n.missing!.what}. ${n.missing!.fix}`);
  const listed = absent.filter((n) => required().has(n.component));
  if (listed.length > 0)
    return (name) =>
      describe(name, () => {
        it(`needs ${listed.map((n) => n.component).join(' and ')} (KIBITZ_REQUIRE lists it)`, () => {
          throw new Error(messages.join('\n'));
        });
      });
  for (const message of messages)
    console.warn(`SKIPPED: ${message} (KIBITZ_REQUIRE=${absent[0]!.component} makes this a failure.)`);
  return (name, body) => describe.skip(name, body);
}

/** The system's Chromium: CHROMIUM_PATH, else `chromium` or `chromium-browser` on PATH. */
export function findChromium(): string | null {
  const given = process.env.CHROMIUM_PATH;
  const candidates = given
    ? [given]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .flatMap((dir) => ['chromium', 'chromium-browser'].map((name) => join(dir, name)));
  return candidates.find(executable) ?? null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function chromiumNeed(): Need {
  return {
    component: 'chromium',
    missing:
      findChromium() === null
        ? {
            what: process.env.CHROMIUM_PATH
              ? `CHROMIUM_PATH (${process.env.CHROMIUM_PATH}) is not an executable`
              : 'no chromium or chromium-browser on PATH',
            fix: 'Install Debian\'s "chromium" package (apt-get install chromium) or set CHROMIUM_PATH.',
          }
        : null,
  };
}

export function stockfishNeed(): Need {
  return {
    component: 'stockfish',
    missing: !locateEngine({
      path: process.env.KIBITZ_ENGINE_PATH ?? null,
      searchPath: process.env.PATH ?? '',
    }).ok
      ? {
          what: 'no Stockfish engine found',
          fix: 'Install Debian\'s "stockfish" package (apt-get install stockfish), or set KIBITZ_ENGINE_PATH to a UCI engine.',
        }
      : null,
  };
}

export function fixturesNeed(): Need {
  return {
    component: 'fixtures',
    missing: existsSync(FREECHESS_FIXTURES)
      ? null
      : {
          what: `the shared freechess.org fixtures are not at ${FREECHESS_FIXTURES}`,
          fix: 'Put the shared folder (fixtures/freechess) beside the repository, as CI has it.',
        },
  };
}
