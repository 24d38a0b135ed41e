import { SlashCommandBuilder } from 'discord.js';

export const data = new SlashCommandBuilder().setName('twin').setDescription('Second twin');
export async function execute(): Promise<void> {}
