// N boardgame.io clients against server.js, one of them toggling the sealed choice: how long
// a move takes to reach EVERY client — the metric of tools/latency.py, for boardgame.io.
//
//     node clients.js --port P [--clients 10] [--players 10] [--rounds 300] [--warmup 30]
//                     [--gap 0.01] [--raw]
//
// Each client is boardgame.io's own `Client` (boardgame.io/client) with its `SocketIO`
// multiplayer transport (socket.io-client over a WebSocket), all in this one process, as
// hubbub's screens are all in tools/latency.py's. Up to --players (default: min(clients,
// 10)) join seats through the Lobby API (create, then join: credentials) and play; the others
// are spectators (a Client without a playerID), as hubbub's watchers. A client "has" a state
// when its subscriber is called with it: the frame was read off the socket, decoded
// (engine.io, socket.io's JSON parser), dispatched into the client's redux store as an
// UPDATE and the client's state rebuilt — what a real client does before it draws. Each is
// stamped there with performance.now(). The last player toggles `token(side)` warmup +
// rounds times, --gap seconds apart; per move: send -> every client has the state with the
// next _stateID. Prints one line of JSON: times in milliseconds, median/p90/p99/max
// (nearest rank), the server's CPU per move (its own GET /bench/usage) and the bytes each
// client received per move; with --raw, every measured time too.
'use strict';

const { performance } = require('node:perf_hooks');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Bench } = require('./game');

const WAIT_MS = 10000; // the longest any one step may take before the run is called broken

function parseArgs(argv) {
  const options = { port: 0, clients: 10, players: 0, rounds: 300, warmup: 30, gap: 0.01 };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (name === 'raw') options.raw = true;
    else if (name in options) options[name] = Number(argv[++i]);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!options.port) throw new Error('--port is required');
  options.players = options.players || Math.min(options.clients, 10);
  if (options.players < 2 || options.players > 10 || options.players > options.clients) {
    throw new Error('2 to 10 players, no more than --clients');
  }
  return options;
}

function percentile(values, q) {
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.max(0, Math.ceil((q / 100) * ordered.length) - 1)];
}

function summary(values) {
  if (!values.length) return {};
  return {
    median: median(values),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: Math.max(...values),
  };
}

function median(values) {
  const ordered = [...values].sort((a, b) => a - b);
  const middle = ordered.length >> 1;
  return ordered.length % 2 ? ordered[middle] : (ordered[middle - 1] + ordered[middle]) / 2;
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function lobby(base, path, body) {
  const response = await fetch(base + path, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** One screen: a boardgame.io Client that stamps each new _stateID when it reaches it. */
class Screen {
  constructor(name, client) {
    this.name = name;
    this.client = client;
    this.stateID = -1;
    this.state = null;
    this.arrived = new Map(); // _stateID -> performance.now() when this client had it
    this.bytesIn = 0;
    this.waiters = [];
    this.join = {};
    client.subscribe((state) => this.onState(state));
  }

  onState(state) {
    if (!state || state._stateID <= this.stateID) return; // connection status, match data
    const now = performance.now();
    this.state = state;
    this.stateID = state._stateID;
    this.arrived.set(this.stateID, now);
    this.waiters = this.waiters.filter(([stateID, resolve]) => {
      if (stateID > this.stateID) return true;
      resolve(now);
      return false;
    });
  }

  reached(stateID) {
    if (this.stateID >= stateID) {
      return Promise.resolve(this.arrived.get(stateID) ?? this.arrived.get(this.stateID));
    }
    return withTimeout(
      new Promise((resolve) => this.waiters.push([stateID, resolve])),
      `${this.name}: state ${stateID} (at ${this.stateID})`
    );
  }

  static async join(name, options) {
    const start = performance.now();
    const client = Client({ ...options, debug: false });
    const screen = new Screen(name, client);
    client.start(); // the transport makes its socket.io socket here; it connects later
    const socket = client.transport.socket;
    const connected = new Promise((resolve) => {
      socket.once('connect', () => {
        screen.join.connect = performance.now() - start;
        // Every packet this client's engine.io socket receives (the frame's payload).
        socket.io.engine.on('packet', (packet) => {
          screen.bytesIn += 1 + Buffer.byteLength(packet.data || '');
        });
        resolve();
      });
    });
    await withTimeout(connected, `${name}: connect`);
    await screen.reached(0);
    screen.join.state = performance.now() - start;
    return screen;
  }

  stop() {
    this.client.stop();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const base = `http://127.0.0.1:${options.port}`;
  const server = `127.0.0.1:${options.port}`;
  const multiplayer = SocketIO({ server, socketOpts: { transports: ['websocket'] } });
  const { matchID } = await lobby(base, '/games/bench/create', { numPlayers: options.players });
  const screens = [];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    for (let seat = 0; seat < options.players; seat++) {
      const playerID = String(seat);
      const name = `P${seat + 1}`;
      const { playerCredentials: credentials } = await lobby(
        base,
        `/games/bench/${matchID}/join`,
        { playerID, playerName: name }
      );
      const opts = { game: Bench, multiplayer, matchID, playerID, credentials };
      screens.push(await Screen.join(name, opts));
    }
    for (let number = options.players; number < options.clients; number++) {
      const opts = { game: Bench, multiplayer, matchID };
      screens.push(await Screen.join(`W${number + 1}`, opts));
    }
    const toggler = screens[options.players - 1];
    const seat = Number(toggler.client.playerID);
    const every = [];
    const own = [];
    let usage, cpu, bytes;
    for (let number = 0; number < options.warmup + options.rounds; number++) {
      if (number === options.warmup) {
        usage = await lobby(base, '/bench/usage');
        cpu = process.cpuUsage();
        bytes = screens.reduce((sum, s) => sum + s.bytesIn, 0);
      }
      const stateID = toggler.stateID + 1;
      const side = number % 2 === 0 ? 'out' : 'in';
      const sent = performance.now();
      toggler.client.moves.token(side);
      const times = await Promise.all(screens.map((s) => s.reached(stateID)));
      if (number >= options.warmup) {
        every.push(Math.max(...times) - sent);
        own.push(toggler.arrived.get(stateID) - sent);
      }
      if (toggler.state.G.tokens[seat] !== side) {
        throw new Error(`the toggle did not take: ${JSON.stringify(toggler.state.G)}`);
      }
      if (screens.some((s) => s.state.G.toggles !== number + 1)) {
        throw new Error('a client missed a move');
      }
      if (options.gap) await sleep(options.gap * 1000);
    }
    const ended = await lobby(base, '/bench/usage');
    const spent = process.cpuUsage(cpu);
    const wire = screens.reduce((sum, s) => sum + s.bytesIn, 0) - bytes;
    const rounds = options.rounds;
    const user = (ended.user - usage.user) / 1000 / rounds;
    const system = (ended.system - usage.system) / 1000 / rounds;
    const result = {
      library: 'boardgame.io',
      version: require('boardgame.io/package.json').version,
      clients: options.clients,
      players: options.players,
      spectators: options.clients - options.players,
      rounds,
      warmup: options.warmup,
      gap: options.gap,
      transport: 'Client + SocketIO (socket.io-client, websocket)',
      every_client_ms: summary(every),
      own_state_ms: summary(own),
      join_ms: {
        connect: summary(screens.map((s) => s.join.connect)),
        state: summary(screens.map((s) => s.join.state)),
      },
      server_cpu_ms_per_move: user + system,
      server_user_cpu_ms_per_move: user,
      server_system_cpu_ms_per_move: system,
      server_rss_mb: ended.rss / 2 ** 20,
      clients_cpu_ms_per_move: (spent.user + spent.system) / 1000 / rounds,
      bytes_per_client_per_move: wire / rounds / options.clients,
      load_average: require('node:os').loadavg()[0],
    };
    if (options.raw) Object.assign(result, { every_ms: every, own_ms: own });
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    for (const screen of screens) screen.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`clients.js: ${error.message}`);
    process.exit(1);
  }
);
