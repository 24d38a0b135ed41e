// The renderer knows only scenes: the lint configuration refuses any import from src/ in render/,
// type imports included, and every file of render/ passes it.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { HEAVY_TEST_MS } from '../support/bounds.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RULE = '@typescript-eslint/no-restricted-imports';
// The import rule needs no types; without them no TypeScript program is built, and the probes,
// which are not files of the project, can be linted. Only that rule runs (the others are npm
// test's lint).
const probing = new ESLint({
  cwd: root,
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

async function restricted(code: string, filePath: string): Promise<string[]> {
  const [result] = await probing.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('render/ imports nothing from src/', () => {
  it.each([
    ['a value import', "import { rulesFor } from '../src/game/variants.js';\nexport const r = rulesFor;\n"],
    [
      'a type import',
      "import type { GameSnapshot } from '../src/game/snapshot.js';\nexport type S = GameSnapshot;\n",
    ],
    ['a re-export', "export { decodeStyle12 } from '../src/protocol/style12.js';\n"],
  ])('refuses %s', async (_what, code) => {
    const messages = await restricted(code, `${root}render/probe.ts`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('render/ draws scenes only');
  });

  it('allows the same import outside render/ and imports inside render/', async () => {
    const code = "import { rulesFor } from '../src/game/variants.js';\nexport const r = rulesFor;\n";
    expect(await restricted(code, `${root}commands/probe.ts`)).toEqual([]);
    const inside = "import type { BoardScene } from './scene.js';\nexport type B = BoardScene;\n";
    expect(await restricted(inside, `${root}render/probe.ts`)).toEqual([]);
  });

  it('holds for every file in render/', { timeout: HEAVY_TEST_MS }, async () => {
    const files = readdirSync(`${root}render`).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    const results = await probing.lintFiles(files.map((f) => `render/${f}`));
    const found = results.flatMap((r) => r.messages.filter((m) => m.ruleId === RULE));
    expect(found).toEqual([]);
  });
});
