/**
 * The heartbeat texts both streams share (docs/websocket.md "Heartbeat and idle close", "v2
 * heartbeat", "User data stream" "Heartbeat"): the server's `{"ping":<ms>}` on one timer for all
 * sockets, and `{"pong":…}` for a client text containing `ping`.
 */

/** `{"ping":<ms>}`, the server's heartbeat. */
export function serverPingText(nowMs: number): string {
  return JSON.stringify({ ping: nowMs });
}

/** `{"pong":<value>}`: the client's number or the server's time, as the stream decides. */
export function pongText(value: number): string {
  return JSON.stringify({ pong: value });
}

/** The number of a parsed `{"ping":<number>}`; undefined for anything else (a bare `ping`: the stream answers its own time). */
export function clientPingNumber(parsed: unknown): number | undefined {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('ping' in parsed)) return undefined;
  return typeof parsed.ping === 'number' && Number.isFinite(parsed.ping) ? parsed.ping : undefined;
}

/**
 * Calls `beat` every `intervalMs` with the ping text of that moment; the timer does not keep the
 * process alive. Answers the stop.
 */
export function startServerPings(intervalMs: number, clock: () => number, beat: (pingText: string, nowMs: number) => void): () => void {
  const timer = setInterval(() => {
    const nowMs = clock();
    beat(serverPingText(nowMs), nowMs);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
