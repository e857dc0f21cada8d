// hubbub's web seat: the player app's terminal (textual-serve's textual.js, xterm.js inside),
// made a seat a guest can keep all evening on a laptop or a phone. Loaded before textual.js.
//
// - The terminal is sized for the device: the largest type (up to 16 px) that gives at least
//   40 columns and 24 rows, so a phone in portrait gets 40 readable columns and one in
//   landscape 24 rows. Turning the phone builds the terminal again at its new size, on the same
//   link (nothing reconnects).
// - xterm.js draws with its DOM renderer: textual.js loads both the WebGL and the canvas
//   renderer, and at a phone's device scale (3) they draw the terminal three times too large
//   (13 of 40 columns on the screen). The DOM renderer is crisp at any scale.
// - The link comes back by itself. textual.js opens one WebSocket and, when it closes, shows
//   nothing more; here the socket it gets is a `SeatLink`, which opens a new connection whenever
//   the old one is lost (a dropped Wi-Fi, a phone asleep, a host killed and resumed) and says so
//   on a line at the top, in the words the terminal player app uses. The new connection starts
//   the player app again on this browser's tokens (its cookie), which takes the seat back.
//   A link that goes quiet (no answer to its pings) is treated as lost.
// - The server says why it closes a page on purpose (a close code, docs/WEB.md): the player
//   left, the seat opened in another page, the host closed the page or this address, the page
//   sat idle. Those are told, not retried; a table that closed (it may be resumed) and a door
//   that is full for now (a place frees) are told and tried again.
// - On a touch screen, a row of keys a phone keyboard lacks (Esc, Tab, arrows, Enter) and a
//   key that shows or hides the phone's keyboard; taps on the terminal are clicks for the app
//   (its footer's keys act on a tap).
// - The app's bell (the table starts waiting for this player) vibrates a phone, and marks the
//   title of a page in the background.
"use strict";

(() => {
  const NativeSocket = window.WebSocket;
  const MIN_COLUMNS = 40;
  const MIN_ROWS = 24;
  const LARGEST_FONT = 16;
  const SMALLEST_FONT = 9;
  const CELL_WIDTH = 0.6; // Roboto Mono's advance, in em
  const CELL_HEIGHT = 1.42; // a terminal line, in em (xterm's DOM renderer: 1.34–1.41)
  const PING_EVERY = 2000; // ms between two looks at the link (a ping, when none is out)
  const ANSWER_LIMIT = 6000; // ms a ping may wait for any word from the server: then it is lost
  const RETRY_FIRST = 500; // ms before the first new try, doubling up to RETRY_MOST
  const RETRY_MOST = 2000;
  const PING_TAG = "seat:"; // our pings' answers are ours, not textual.js's
  const RETRY_STOPPED = 5000; // ms before the player app is started again after it stopped
  const ENDED = 4000;
  const STOPPED = 1011;
  const TOLD = {
    // close code -> the words that say it (data-* of #words), and whether the page comes
    // back: "no"; "later" (a card says why, and the page tries again every RETRY_FULL: a
    // place frees, a flaky Wi-Fi's reconnects are over); "on" (a line at the top, as ever)
    4000: { words: "ended", retry: "no" },
    4001: { words: "idle", retry: "no" },
    4002: { words: "closedByHost", retry: "no" },
    4003: { words: "blocked", retry: "no" },
    4004: { words: "full", retry: "later" },
    4005: { words: "replaced", retry: "no" },
    4006: { words: "tableClosed", retry: "on" },
    4007: { words: "fullHere", retry: "later" },
  };
  const RETRY_FULL = 5000; // ms: the web door lets an address start one page every 5 s

  // --- the renderer: xterm's DOM renderer (see above) ---------------------------------------
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    return kind === "webgl" || kind === "webgl2" ? null : getContext.call(this, kind, ...rest);
  };

  // --- the size of the type -----------------------------------------------------------------
  let tallest = { width: 0, height: 0 };

  function fontSize() {
    // The phone's keyboard makes the window shorter, not narrower: the tallest height seen at
    // this width is the screen's, and the type does not shrink while someone types.
    const width = window.innerWidth;
    const height = terminalHeight();
    if (width !== tallest.width || height > tallest.height) tallest = { width, height };
    const byWidth = width / (MIN_COLUMNS * CELL_WIDTH);
    const byHeight = tallest.height / (MIN_ROWS * CELL_HEIGHT);
    const size = Math.floor(Math.min(LARGEST_FONT, byWidth, byHeight));
    return Math.max(SMALLEST_FONT, size);
  }

  function terminalHeight() {
    const keys = document.getElementById("touch-keys");
    const bar = keys && getComputedStyle(keys).display !== "none" ? keys.offsetHeight : 0;
    return window.innerHeight - bar;
  }

  // --- the link -----------------------------------------------------------------------------
  let link = null; // the one SeatLink of this page

  class SeatLink extends EventTarget {
    constructor(url) {
      super();
      this.url = new URL(url, window.location.href);
      this.binaryType = "arraybuffer";
      this.readyState = NativeSocket.CONNECTING;
      this.socket = null;
      this.retry = RETRY_FIRST;
      this.asked = null; // when the ping that waits for an answer went (null: none waits)
      this.told = null; // the close code that ended this page for good
      this.timer = null;
      setInterval(() => this.keepAlive(), PING_EVERY);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") this.wake();
      });
      window.addEventListener("online", () => this.wake());
      this.open();
    }

    open() {
      clearTimeout(this.timer);
      this.timer = null;
      const socket = new NativeSocket(this.url.href);
      socket.binaryType = "arraybuffer";
      this.socket = socket;
      socket.addEventListener("open", () => {
        if (socket !== this.socket) return;
        this.readyState = NativeSocket.OPEN;
        this.asked = null;
        this.retry = RETRY_FIRST;
        say(null);
        this.dispatchEvent(new Event("open")); // textual.js: fits and sends the size
      });
      socket.addEventListener("message", (event) => {
        if (socket !== this.socket) return;
        this.asked = null; // any word from the server: the link is alive
        if (typeof event.data === "string" && event.data.includes(PING_TAG)) {
          return; // the answer to our own ping
        }
        if (typeof event.data !== "string") bell.hear(new Uint8Array(event.data));
        this.dispatchEvent(new MessageEvent("message", { data: event.data }));
      });
      socket.addEventListener("close", (event) => {
        if (socket === this.socket) this.lost(event.code);
      });
    }

    lost(code) {
      this.socket = null;
      this.readyState = NativeSocket.CONNECTING;
      const told = TOLD[code] || { words: "reconnecting", retry: "on" };
      say(told.words, told.retry !== "on");
      if (told.retry === "no") {
        this.told = code;
        this.readyState = NativeSocket.CLOSED;
        return;
      }
      // a player app that stops at once would otherwise be started every two seconds
      let wait = code === STOPPED ? RETRY_STOPPED : this.retry;
      if (told.retry === "later") wait = RETRY_FULL;
      this.timer = setTimeout(() => this.open(), wait);
      this.retry = Math.min(RETRY_MOST, this.retry * 2);
    }

    wake() {
      // Back from sleep or from no network: try at once, or ask the old socket afresh (a
      // ping sent before the phone slept says nothing about the link now).
      if (this.told !== null) return;
      if (this.timer !== null) {
        this.open();
      } else {
        this.asked = null;
        this.keepAlive();
      }
    }

    keepAlive() {
      const socket = this.socket;
      if (socket === null || socket.readyState !== NativeSocket.OPEN) return;
      const now = Date.now();
      if (this.asked !== null && now - this.asked > ANSWER_LIMIT) {
        this.socket = null; // quiet too long: a link that vanished (TCP would wait minutes)
        socket.close();
        this.lost(1006);
        return;
      }
      if (this.asked === null) {
        this.asked = now;
        socket.send(JSON.stringify(["ping", PING_TAG + now]));
      }
    }

    send(data) {
      const socket = this.socket;
      if (socket !== null && socket.readyState === NativeSocket.OPEN) {
        this.remember(data);
        socket.send(data);
      }
    }

    remember(data) {
      // The size the app was last told: a new connection starts the app at that size.
      if (typeof data !== "string" || !data.startsWith('["resize"')) return;
      try {
        const size = JSON.parse(data)[1];
        this.url.searchParams.set("width", size.width);
        this.url.searchParams.set("height", size.height);
      } catch (error) {
        // not ours to judge: the server checks every message
      }
    }

    close() {
      this.told = ENDED;
      if (this.socket !== null) this.socket.close();
    }

    adopt() {
      // A new terminal (the phone was turned) takes this link over: it hears "open" as if
      // new, so it fits itself and tells the app its size.
      if (this.readyState === NativeSocket.OPEN) {
        setTimeout(() => this.dispatchEvent(new Event("open")), 0);
      }
      return this;
    }
  }

  // --- the bell: the app rings when the table starts waiting for this player ----------------
  // A page has no terminal bell: a phone vibrates instead, and a page in the background says
  // so in its title. A BEL inside an OSC sequence (ESC ] … BEL) ends that sequence: no ring.
  // The app also says, in an OSC sequence of its own (KEYBOARD_OFF in tui/client/app.py),
  // when its player left the last text field: the phone's keyboard goes down.
  const KEYBOARD_OFF = "7770;hubbub;keyboard-off";
  const bell = {
    inOsc: false,
    afterEscape: false,
    osc: "",
    hear(bytes) {
      let rang = false;
      for (const byte of bytes) {
        if (this.afterEscape) {
          this.afterEscape = false;
          if (byte === 0x5d) {
            this.inOsc = true; // ESC ]
            this.osc = "";
          } else if (byte === 0x5c && this.inOsc) this.endOsc(); // ESC \ (string terminator)
        } else if (byte === 0x1b) {
          this.afterEscape = true;
        } else if (byte === 0x07) {
          if (this.inOsc) this.endOsc();
          else rang = true;
        } else if (this.inOsc && this.osc.length <= KEYBOARD_OFF.length) {
          this.osc += String.fromCharCode(byte);
        }
      }
      if (rang) this.ring();
    },
    endOsc() {
      this.inOsc = false;
      if (this.osc === KEYBOARD_OFF && keyboardWanted) {
        keyboardWanted = false;
        hideKeyboard(true);
      }
    },
    ring() {
      if (navigator.vibrate) navigator.vibrate(200);
      if (document.visibilityState === "hidden" && !document.title.startsWith("● ")) {
        const title = document.title;
        document.title = "● " + title;
        const back = () => {
          if (document.visibilityState !== "visible") return;
          document.title = title;
          document.removeEventListener("visibilitychange", back);
        };
        document.addEventListener("visibilitychange", back);
      }
    },
  };

  function SeatSocket(url) {
    if (link === null) link = new SeatLink(url);
    return link.adopt();
  }
  SeatSocket.CONNECTING = NativeSocket.CONNECTING;
  SeatSocket.OPEN = NativeSocket.OPEN;
  SeatSocket.CLOSING = NativeSocket.CLOSING;
  SeatSocket.CLOSED = NativeSocket.CLOSED;
  window.WebSocket = SeatSocket;

  // --- what the page says about the link ----------------------------------------------------
  function say(words, final = false) {
    const banner = document.getElementById("link");
    const card = document.getElementById("ended");
    if (!banner || !card) return;
    const text = words ? document.getElementById("words").dataset[words] : "";
    document.body.classList.toggle("-down", Boolean(words) && !final);
    document.body.classList.toggle("-closed", final);
    if (final) {
      card.querySelector("p").textContent = text;
    } else {
      banner.textContent = text;
    }
  }

  // --- the terminal, built for this device (and again when it turns) -------------------------
  let built = null; // the font size the terminal was built with
  let start = null; // textual.js's own start (it builds every .textual-terminal)

  function build() {
    const old = document.getElementById("terminal");
    const size = fontSize();
    if (built === size && old.childElementCount) return;
    built = size;
    let element = old;
    if (old.childElementCount) {
      // a terminal is there: a fresh element, the old one and its listeners go
      element = old.cloneNode(false);
      old.replaceWith(element);
      if (link !== null) {
        for (const kind of ["open", "message", "close"]) link.listeners(kind);
      }
    }
    element.dataset.fontSize = String(size);
    // the socket is on the address this page came from (the table may have several)
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    element.dataset.sessionWebsocketUrl = scheme + window.location.host + "/ws";
    start();
    hideKeyboard(!keyboardWanted);
  }

  // textual.js adds listeners to the link and never removes them: a rebuilt terminal must not
  // share it with the one it replaced. The link keeps the listeners it was given per kind.
  const addListener = EventTarget.prototype.addEventListener;
  SeatLink.prototype.addEventListener = function (kind, listener, options) {
    this.registered = this.registered || {};
    (this.registered[kind] = this.registered[kind] || []).push(listener);
    addListener.call(this, kind, listener, options);
  };
  SeatLink.prototype.listeners = function (kind) {
    for (const listener of (this.registered || {})[kind] || []) {
      this.removeEventListener(kind, listener);
    }
    if (this.registered) this.registered[kind] = [];
  };

  // --- touch: the keys a phone keyboard lacks, and the keyboard itself ----------------------
  const SEQUENCES = {
    escape: "\x1b",
    tab: "\t",
    left: "\x1b[D",
    up: "\x1b[A",
    down: "\x1b[B",
    right: "\x1b[C",
    enter: "\r",
  };
  let keyboardWanted = false;

  function helper() {
    return document.querySelector("#terminal .xterm-helper-textarea");
  }

  function hideKeyboard(hidden) {
    // inputmode "none": the terminal keeps the keys (a hardware keyboard, our touch keys)
    // without the phone's keyboard covering half of it.
    const input = helper();
    if (!input || !touchScreen()) return;
    input.setAttribute("inputmode", hidden ? "none" : "text");
    document.body.classList.toggle("-typing", !hidden);
  }

  function touchScreen() {
    return window.matchMedia("(pointer: coarse)").matches;
  }

  function setUpTouchKeys() {
    const keys = document.getElementById("touch-keys");
    keys.addEventListener("pointerdown", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      event.preventDefault(); // the terminal keeps the focus (and the phone its keyboard)
      const key = button.dataset.key;
      if (key === "keyboard") {
        keyboardWanted = !keyboardWanted;
        const input = helper();
        hideKeyboard(!keyboardWanted);
        if (input) {
          input.blur();
          input.focus();
        }
        return;
      }
      if (link !== null) link.send(JSON.stringify(["stdin", SEQUENCES[key]]));
    });
  }

  // --- start ----------------------------------------------------------------------------------
  window.addEventListener("DOMContentLoaded", () => {
    start = window.onload; // textual.js's: builds the terminal and connects
    window.onload = null;
    setUpTouchKeys();
    // The card of a page that ended: Enter or a tap comes back (keyboard only, as everywhere)
    document.getElementById("again").addEventListener("click", () => window.location.reload());
    window.addEventListener("keydown", (event) => {
      if (document.body.classList.contains("-closed") && event.key === "Enter") {
        window.location.reload();
      }
    });
  });

  window.addEventListener("load", () => {
    build();
    // Keys go to the terminal from the start: nobody has to click it first.
    setTimeout(() => {
      const input = helper();
      if (input) input.focus();
    }, 0);
    let pending = null;
    window.addEventListener("resize", () => {
      clearTimeout(pending);
      pending = setTimeout(build, 250); // a turned phone settles, then the type follows
    });
  });

  window.hubbubSeat = {
    // for the tests: the link's state, and a way to lose it as a dropped Wi-Fi would
    state: () => ({
      open: link !== null && link.readyState === NativeSocket.OPEN,
      told: link === null ? null : link.told,
      fontSize: built,
    }),
    drop: () => link !== null && link.socket !== null && link.socket.close(),
  };
})();
