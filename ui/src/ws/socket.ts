// The one websocket connection, outside React: connects with the token, sends a heartbeat every
// 10 s, reconnects 2 s after a close or error (counting attempts), follows the browser's
// offline/online events, and after a reconnect asks the open chat and the session list to resync
// (as push 60 does).
// It keeps the highest log position it has seen; after a reconnect the realtime list hands it what
// it missed since then, and it acknowledges where it got (docs/api-notices.md).
import type { AuthSession } from '../auth/authState';
import { t } from '../i18n';
import { connectionAtom, type ConnectionState } from '../state/connection';
import { appStore } from '../state/store';
import { showToast } from '../state/toast';
import { ackDelivered, catchUp, fetchRealtime, positionOf } from '../notices/realtime';
import { createFrameCipher, type FrameCipher } from './codec';
import { absorbMissed, handlePush, type Frame } from './handlers';
import { resync } from './resync';

export const HEARTBEAT_MS = 10_000;
export const RECONNECT_DELAY_MS = 2_000;

export const CMD_HEARTBEAT = 13;

function patchConnection(patch: Partial<ConnectionState>): void {
  appStore.set(connectionAtom, (state) => ({ ...state, ...patch }));
}

export function socketUrl(token: string, location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/message-ws?token=${encodeURIComponent(token)}`;
}

class SocketClient {
  private ws: WebSocket | null = null;
  private readonly cipher: Promise<FrameCipher>;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private inbound: Promise<void> = Promise.resolve();
  private stopped = false;
  private openedBefore = false;
  /** the highest log position of a push or of the realtime list; null until the first catch-up */
  private position: number | null = null;
  private catchingUp: Promise<void> = Promise.resolve();

  constructor(readonly auth: AuthSession) {
    this.cipher = createFrameCipher(auth.wsKey);
    window.addEventListener('offline', this.onOffline);
    window.addEventListener('online', this.onOnline);
  }

  connect(): void {
    if (this.stopped) return;
    patchConnection({ status: 'connecting' });
    const ws = new WebSocket(socketUrl(this.auth.token, window.location));
    this.ws = ws;
    ws.onopen = () => this.opened(ws);
    ws.onmessage = (event) => {
      if (typeof event.data === 'string') this.receive(event.data);
    };
    ws.onclose = () => this.closed(ws);
    ws.onerror = () => ws.close();
  }

  async send(cmd: number, data?: unknown): Promise<boolean> {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    const frame = await (await this.cipher).encrypt(JSON.stringify(data === undefined ? { cmd } : { cmd, data }));
    if (ws.readyState !== WebSocket.OPEN) return false;
    ws.send(frame);
    return true;
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    window.removeEventListener('offline', this.onOffline);
    window.removeEventListener('online', this.onOnline);
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    patchConnection({ status: 'idle', attempts: 0 });
  }

  private opened(ws: WebSocket): void {
    if (ws !== this.ws) return;
    patchConnection({ status: 'open', attempts: 0 });
    this.heartbeat = setInterval(() => void this.send(CMD_HEARTBEAT), HEARTBEAT_MS);
    if (this.openedBefore) resync();
    this.openedBefore = true;
    this.catchUp();
  }

  /**
   * Asks the realtime list for what this client missed: after a reconnect, since the last position
   * it saw; on the first open, since this device's acknowledgement (only to learn where it stands,
   * the lists it loads hold the rest). Then acknowledges the position reached.
   */
  private catchUp(): void {
    const me = this.auth.user.id;
    const first = this.position === null;
    this.catchingUp = this.catchingUp.then(async () => {
      try {
        const reached = await catchUp(this.position, fetchRealtime, (m) => {
          if (!first) absorbMissed(m, me);
        });
        if (this.stopped) return;
        this.position = Math.max(this.position ?? 0, reached);
        if (this.position > 0) await ackDelivered(this.position);
      } catch {
        // Offline again or signed out: the next open tries again.
      }
    });
  }

  private closed(ws: WebSocket): void {
    if (ws !== this.ws || this.stopped) return;
    this.clearTimers();
    const attempts = appStore.get(connectionAtom).attempts + 1;
    patchConnection({ status: 'closed', attempts });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, RECONNECT_DELAY_MS);
  }

  private receive(text: string): void {
    this.inbound = this.inbound.then(async () => {
      let frame: Frame;
      try {
        frame = JSON.parse(await (await this.cipher).decrypt(text)) as Frame;
      } catch {
        showToast(t('net.decryptError'), 'error');
        return;
      }
      if (!this.stopped && frame && typeof frame.cmd === 'number') {
        if (this.position !== null && !('id' in frame)) this.position = positionOf(frame.data, this.position);
        handlePush(frame, this.auth.user.id);
      }
    });
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.heartbeat = null;
    this.reconnectTimer = null;
  }

  private readonly onOffline = () => {
    patchConnection({ online: false });
    this.ws?.close();
  };

  private readonly onOnline = () => {
    patchConnection({ online: true });
    if (this.ws?.readyState === WebSocket.OPEN) return;
    this.clearTimers();
    this.connect();
  };
}

let client: SocketClient | null = null;

export function startSocket(auth: AuthSession): void {
  if (client && client.auth.token === auth.token) return;
  client?.stop();
  client = new SocketClient(auth);
  client.connect();
}

export function stopSocket(): void {
  client?.stop();
  client = null;
}

/** Sends one command; false when the socket is not open (the caller retries when it is). */
export function sendFrame(cmd: number, data?: unknown): Promise<boolean> {
  return client ? client.send(cmd, data) : Promise.resolve(false);
}
