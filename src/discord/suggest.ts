// Autocomplete answers for game-number and handle options, from what Kibitz already holds (its
// live posts, finished games, follows, club): no FICS request per keystroke. Discord takes at
// most 25 choices, each name and string value of 1 to 100 characters.
import type { AutocompleteInteraction } from 'discord.js';
import { truncate } from '../text.js';
import type { GameId } from '../game/game-id.js';

export const MAX_CHOICES = 25;

/** A game as suggested: its number, named by its players. */
export interface SuggestedGame {
  game: GameId;
  white: string;
  black: string;
}

/** The handles starting with what was typed (case ignored), each once, in order. */
export async function suggestHandles(
  interaction: AutocompleteInteraction,
  handles: readonly string[],
): Promise<void> {
  const typed = String(interaction.options.getFocused()).toLowerCase();
  const matching = [...new Set(handles)].filter((h) => h.toLowerCase().startsWith(typed)).sort();
  await interaction.respond(
    matching.slice(0, MAX_CHOICES).map((h) => ({ name: truncate(h, 100), value: truncate(h, 100) })),
  );
}

/** The games whose number starts with the digits typed, each once, named `12: Alice vs Bob`. */
export async function suggestGames(
  interaction: AutocompleteInteraction,
  games: readonly SuggestedGame[],
): Promise<void> {
  const typed = String(interaction.options.getFocused()).trim();
  const seen = new Set<number>();
  const choices: { name: string; value: number }[] = [];
  for (const g of games) {
    if (choices.length === MAX_CHOICES) break;
    if (seen.has(g.game) || !String(g.game).startsWith(typed)) continue;
    seen.add(g.game);
    choices.push({ name: truncate(`${g.game}: ${g.white} vs ${g.black}`, 100), value: g.game });
  }
  await interaction.respond(choices);
}
