// Files starting with "_" are helpers, not commands: the loader must skip this one.
export const skipped = true;
