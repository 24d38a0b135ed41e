export const SOURCES: string[];
export function staleness(root: string, entry: string): string | null;
