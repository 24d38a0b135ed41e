// Broken on purpose: fails while being imported.
throw new Error('broken at import');
