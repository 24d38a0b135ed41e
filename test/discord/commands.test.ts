import { SlashCommandBuilder } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { buildRegistry, isCommandFile, loadCommands } from '../../src/discord/loader.js';
import { customId, parseCustomId } from '../../src/discord/custom-id.js';
import { BROKEN_COMMANDS, FIXTURE_COMMANDS } from './harness.js';

describe('loadCommands', () => {
  it("loads the project's commands folder, /help included", async () => {
    const result = await loadCommands();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([...result.value.commands.keys()]).toContain('help');
    expect(result.value.bodies().find((b) => b.name === 'help')?.description).toMatch(/every command/);
  });

  it('loads modules with handlers and skips helper files', async () => {
    const result = await loadCommands(FIXTURE_COMMANDS);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([...result.value.commands.keys()]).toEqual(['boom', 'echo', 'late']);
    expect([...result.value.buttons.keys()]).toEqual(['again']);
    expect([...result.value.selectMenus.keys()]).toEqual(['pick']);
    expect(result.value.bodies().map((b) => b.name)).toEqual(['boom', 'echo', 'late']);
  });

  it('reports every broken module at once, by file', async () => {
    const result = await loadCommands(BROKEN_COMMANDS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toHaveLength(4);
    const text = result.error.join('\n');
    expect(text).toContain('throws.ts: cannot be imported: broken at import');
    expect(text).toContain('no-data.ts: must export `data`, a SlashCommandBuilder');
    expect(text).toContain('twin-b.ts: command /twin is already defined in twin-a.ts');
    expect(text).toMatch(/bad-handlers\.ts: .*`buttons\.fine` must be a function/);
    expect(text).toMatch(/bad-handlers\.ts: .*prefix "Bad_Prefix" must be lower-case/);
  });

  it('says so when the folder is missing', async () => {
    const result = await loadCommands(new URL('./no-such-folder/', import.meta.url));
    expect(result.ok || result.error[0]).toMatch(/cannot read the commands folder/);
  });

  it('refuses two commands claiming the same button prefix', () => {
    const command = (name: string) => ({
      data: new SlashCommandBuilder().setName(name).setDescription(name),
      execute: async () => {},
      buttons: { flip: async () => {} },
    });
    const { errors } = buildRegistry([
      { file: 'a.ts', module: command('a') },
      { file: 'b.ts', module: command('b') },
    ]);
    expect(errors).toEqual(['b.ts: button prefix "flip" is already handled in a.ts']);
  });

  it('recognises command files under tsx and once compiled', () => {
    expect(['help.ts', 'help.js', 'help.mjs'].every(isCommandFile)).toBe(true);
    expect(
      ['help.d.ts', 'help.js.map', 'help.test.ts', '_shared.ts', '.hidden.ts', 'README.md'].some(
        isCommandFile,
      ),
    ).toBe(false);
  });
});

describe('custom ids', () => {
  it('round-trips prefix and arguments', () => {
    expect(customId('flip', 42)).toBe('flip:42');
    expect(parseCustomId('flip:42')).toEqual({ prefix: 'flip', args: '42' });
    expect(parseCustomId(customId('follow', 'Alice', 'blitz'))).toEqual({
      prefix: 'follow',
      args: 'Alice:blitz',
    });
    expect(parseCustomId('plain')).toEqual({ prefix: 'plain', args: '' });
  });

  it('refuses ids Discord would refuse', () => {
    expect(() => customId('Flip', 1)).toThrow(/prefix/);
    expect(() => customId('x', 'y'.repeat(100))).toThrow(/longer than 100/);
  });
});
