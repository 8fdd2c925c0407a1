/** Resolves once the clock (the server's too: same machine) has moved past `ms`, so the next command gets a later time. */
export async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
}
