// boardgame.io's default server (0.50.2: Koa, socket.io, the in-memory store, its Lobby API
// on the same port) with the bench game.
//
//     node server.js [PORT]      # 0 or nothing: any free port; prints {"port": N} when ready
//
// One route of our own, GET /bench/usage: this process's CPU time (µs) and RSS (bytes), read
// by clients.js at the start and the end of the measured moves. The server stops on SIGTERM,
// SIGINT, or when its stdin, a pipe, closes (the process that started it is gone).
'use strict';

const { Server } = require('boardgame.io/server');
const { Bench } = require('./game');

async function main() {
  const port = Number(process.argv[2] || 0);
  const server = Server({ games: [Bench], origins: ['http://127.0.0.1', 'http://localhost'] });
  server.router.get('/bench/usage', (ctx) => {
    const { user, system } = process.cpuUsage();
    ctx.body = { user, system, rss: process.memoryUsage().rss };
  });
  const running = await server.run({ port });
  const stop = () => {
    server.kill(running);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (require('node:fs').fstatSync(0).isFIFO()) {
    // A pipe from the process that started us (tools/latency.py): its end is ours.
    process.stdin.on('end', stop);
    process.stdin.on('error', stop);
    process.stdin.resume();
  }
  process.stdout.write(JSON.stringify({ port: running.appServer.address().port }) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
