/**
 * A WebSocket that reconnects (with a growing delay) and pings every minute (the market stream closes
 * sockets silent for 5 minutes). `onOpen` runs after every (re)connect so subscriptions are renewed.
 */
export interface SocketHandlers {
  onOpen?: (send: (message: unknown) => void) => void;
  onMessage: (data: unknown) => void;
  onStatus?: (connected: boolean) => void;
}

export class LiveSocket {
  private socket: WebSocket | undefined;
  private closed = false;
  private retry = 500;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private reconnect: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: () => string | Promise<string>,
    private readonly handlers: SocketHandlers,
  ) {
    void this.connect();
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  send(message: unknown): void {
    if (this.open) this.socket?.send(JSON.stringify(message));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnect);
    clearInterval(this.pinger);
    this.socket?.close(1000);
  }

  private async connect(): Promise<void> {
    let url: string;
    try {
      url = await this.url();
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (this.closed) return;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      this.handlers.onStatus?.(true);
      this.handlers.onOpen?.((message) => this.send(message));
      this.pinger = setInterval(() => this.send({ ping: Date.now() }), 60_000);
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handlers.onMessage(data);
    };
    socket.onclose = () => {
      clearInterval(this.pinger);
      this.handlers.onStatus?.(false);
      if (this.socket === socket) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.reconnect = setTimeout(() => void this.connect(), this.retry);
    this.retry = Math.min(this.retry * 2, 15_000);
  }
}

/** Calls `flush` once per animation frame at most, however many times `schedule` is called. */
export function frameBatcher(flush: () => void): () => void {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      flush();
    });
  };
}
