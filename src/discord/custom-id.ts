// Component custom ids are `<prefix>:<args>` (e.g. `flip:42`): the prefix picks the handler, the
// rest is the handler's own argument text. Discord caps custom ids at 100 characters.
export const MAX_CUSTOM_ID_LENGTH = 100;

export interface ParsedCustomId {
  prefix: string;
  args: string;
}

export function parseCustomId(customId: string): ParsedCustomId {
  const colon = customId.indexOf(':');
  return colon === -1
    ? { prefix: customId, args: '' }
    : { prefix: customId.slice(0, colon), args: customId.slice(colon + 1) };
}

/** Builds `<prefix>:<part>:<part>`; throws on an id Discord would refuse (a programming error). */
export function customId(prefix: string, ...parts: (string | number)[]): string {
  if (!/^[a-z][a-z0-9-]*$/.test(prefix)) throw new Error(`bad custom id prefix "${prefix}"`);
  const id = [prefix, ...parts.map(String)].join(':');
  if (id.length > MAX_CUSTOM_ID_LENGTH)
    throw new Error(`custom id longer than ${MAX_CUSTOM_ID_LENGTH}: ${id}`);
  return id;
}
