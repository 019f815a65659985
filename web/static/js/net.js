// The websocket to the server: one per page, reconnecting with backoff. Screens register
// what they follow (the lobby, games with their last event version) and it is asked for
// again after every reconnection, so a cut socket loses nothing.

/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').ClientMsg} ClientMsg */
/** @typedef {import('./types.js').UserInfo} UserInfo */

// Where earlier versions kept the session token. The session is now the server's HTTP-only
// cookie (set on the socket's upgrade), never in the socket's URL or readable here; a token
// left from before becomes the cookie once, so nobody loses their games.
const OLD_TOKEN_KEY = 'cannonade_token';

function adoptOldToken() {
  const token = localStorage.getItem(OLD_TOKEN_KEY);
  if (token === null) return;
  localStorage.removeItem(OLD_TOKEN_KEY);
  if (/^[0-9a-f]{64}$/.test(token)) document.cookie = `cannonade_session=${token}; path=/; samesite=lax`;
}

/** @typedef {'connecting'|'open'|'reconnecting'} NetStatus */

export class Net {
  /** @param {string} url */
  constructor(url) {
    this.url = url;
    /** @type {WebSocket|null} */
    this.ws = null;
    /** @type {NetStatus} */
    this.status = 'connecting';
    /** @type {UserInfo|null} */
    this.user = null;
    /** @type {Set<(msg: ServerMsg) => void>} */
    this.listeners = new Set();
    /** @type {Set<(status: NetStatus) => void>} */
    this.statusListeners = new Set();
    /** @type {Set<() => ClientMsg[]>} what to ask for again after a reconnection */
    this.resubscribers = new Set();
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval>|null} */
    this.pingTimer = null;
    this.closedByUs = false;
    /** @type {WebSocket|null} a socket let go of by `detach`, closed by `renew` */
    this.detached = null;
  }

  connect() {
    adoptOldToken();
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.attempt = 0;
      this.pingTimer = setInterval(() => this.send({ t: 'ping', n: Date.now() }), 20000);
    });
    ws.addEventListener('message', (ev) => {
      // A socket let go of (`detach`, `renew`) says nothing more to this page.
      if (this.ws !== ws) return;
      /** @type {ServerMsg} */
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        console.warn('unreadable frame', ev.data);
        return;
      }
      // A login or registration in this page replaced the socket's anonymous session: the
      // page connects again with the new one, and that is not news to the player.
      if (msg.t === 'error' && msg.code === 'session_replaced') return;
      if (msg.t === 'welcome') {
        this.user = msg.user;
        this.setStatus('open');
        for (const again of this.resubscribers) for (const m of again()) this.send(m);
      }
      for (const l of this.listeners) l(msg);
    });
    ws.addEventListener('close', () => {
      // A socket replaced by `renew` closes after its successor opened: its close is not
      // this page's, and must not stop the new socket's pings.
      if (this.ws !== ws) return;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.ws = null;
      this.setStatus('reconnecting');
      const delay = Math.min(5000, 300 * 2 ** this.attempt);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  /**
   * Stops hearing the current socket before its session is ended (a logout): the server
   * closes every socket of an ended session at once with a `forbidden`, which is no news to
   * the page that asked. `renew` then opens the next socket (and closes this one if the
   * server did not).
   */
  detach() {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.detached = this.ws;
    this.ws = null;
  }

  /**
   * Opens a new socket at once, dropping the current one: after a login, registration or
   * logout the cookie names another session, and the server takes the session from the
   * socket's upgrade. What the page follows is asked for again on the new `welcome`.
   */
  renew() {
    const old = this.ws ?? this.detached;
    this.detached = null;
    this.ws = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.user = null;
    this.setStatus('connecting');
    old?.close();
    this.connect();
  }

  /** Cuts the socket as a network failure would (tests and the "reconnect" check). */
  cut() {
    this.ws?.close();
  }

  /** @param {NetStatus} status */
  setStatus(status) {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  /**
   * Runs `f` once the socket is open: at once when it is, or when it opens within
   * `waitMs` (a click in the moment the page is still connecting is not lost); otherwise
   * calls `failed` (the caller says the page is not connected).
   * @param {() => void} f @param {() => void} failed @param {number} [waitMs]
   */
  whenOpen(f, failed, waitMs = 5000) {
    if (this.status === 'open') return f();
    const stop = this.onStatus((s) => {
      if (s !== 'open') return;
      stop();
      clearTimeout(timer);
      f();
    });
    const timer = setTimeout(() => {
      stop();
      failed();
    }, waitMs);
  }

  /**
   * Sends a message; false when the socket is not open (the caller shows why).
   * @param {ClientMsg} msg
   */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** @param {(msg: ServerMsg) => void} f */
  on(f) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  /** @param {(status: NetStatus) => void} f */
  onStatus(f) {
    this.statusListeners.add(f);
    return () => this.statusListeners.delete(f);
  }

  /**
   * Registers what to send after every (re)connection; also sends it now when open.
   * @param {() => ClientMsg[]} f
   */
  follow(f) {
    this.resubscribers.add(f);
    if (this.status === 'open') for (const m of f()) this.send(m);
    return () => this.resubscribers.delete(f);
  }
}

/** The server's websocket address for this page. */
export function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws`;
}
