export { openStorage } from './storage.js';
export type { Storage, StorageHealth, StorageOptions, OpenStorageResult } from './storage.js';
export { IN_MEMORY, migrateSqlite } from './sqlite.js';
export { migratePostgres } from './postgres.js';
export { isPostgresUrl, StorageError } from './sql.js';
export { migrations } from './migrations.js';
export type { Migration, MigrateResult } from './migrations.js';
export type {
  LivePost,
  LivePostOptions,
  LivePostState,
  NewLivePost,
  CreateLivePostResult,
} from './live-posts.js';
export type { Follow, NewFollow, AddFollowResult } from './follows.js';
export type { GuildSettings, GuildSettingsPatch } from './guild-settings.js';
export type { FinishedGame, FinishedGameQuery } from './finished-games.js';
export type { Club, ClubGame, ClubSettings, ClubSettingsPatch, NewClubGame } from './clubs.js';
export type { TvChannel, NewTvChannel } from './tv.js';
