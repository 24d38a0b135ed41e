// Broken on purpose: a bad prefix and a handler that is not a function.
import { SlashCommandBuilder } from 'discord.js';

export const data = new SlashCommandBuilder().setName('bad').setDescription('Bad handlers');
export async function execute(): Promise<void> {}
export const buttons = { Bad_Prefix: async () => {}, fine: 'not a function' };
