// The game both sides of the comparison play: one move toggles a sealed choice.
//
// Like Tally Up!'s sealed token (`token {side}` in tools/latency.py): any seated player may
// make it at any time (every player is active, as in hubbub's "choice" phase), it sets that
// player's side, and each player sees only their own side: the others' are sealed
// (`playerView`, so the server builds one state per player, as hubbub builds one view per
// seat). `client: false`: the mover's client does not apply the move itself; like hubbub's
// screens, it waits for the server's state.
'use strict';

const { ActivePlayers } = require('boardgame.io/core');

const Bench = {
  name: 'bench',
  minPlayers: 2,
  maxPlayers: 10,
  setup: ({ ctx }) => ({ tokens: Array(ctx.numPlayers).fill('in'), toggles: 0 }),
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    token: {
      move: ({ G, playerID }, side) => {
        G.tokens[Number(playerID)] = side;
        G.toggles += 1;
      },
      client: false,
    },
  },
  playerView: ({ G, playerID }) => ({
    ...G,
    tokens: G.tokens.map((side, seat) => (String(seat) === playerID ? side : 'sealed')),
  }),
};

module.exports = { Bench };
