// Broken on purpose: no `data`.
export async function execute(): Promise<void> {}
