/* The table as the page draws it (Holdem.TableModel): a mirror of
   holdem/clients/model.py's TableModel, fed a room's event messages and the
   player's turns: the seats (names, stacks, bets, folded, all in, sitting
   out), the button and blinds, whose turn it is, the board, every pot (main
   and side pots, built from what each seat put in as holdem.pots.build_pots
   builds them), the player's own cards and the hands shown at showdown
   (their best five and the kicker that decided).  It holds no card the
   player may not see: its own come from hole_cards and turns, another
   seat's only as shown.  Holdem.joinView puts a turn's delta view together
   as PlayerView.from_dict(view, previous) does. */
(function (Holdem) {
  "use strict";

  const cards = Holdem.cards;
  const escaped = Holdem.tell.escaped;
  const REVIEWS = 10;
  const BETS = new Set(["call", "bet", "raise"]);
  const POSTS = new Set(["small_blind", "big_blind", "ante", "straddle", "live_post", "dead_blind"]);
  const TABLE_EVENTS = new Set(["seat_taken", "seat_freed", "sat_out", "sat_in", "chips_added",
    "hand_started", "hand_ended", "level_up", "player_eliminated"]);
  const LAST = { fold: "fold", check: "check", call: "call", bet: "bet", raise: "raise", timeout: "timeout" };

  /** The pots of what each put in: [[chips, [indexes that can win it]], ...],
      the main pot first (holdem.pots.build_pots, R9). */
  function buildPots(contributions, inHand, allIn) {
    const levels = [...new Set(contributions.filter((c, i) => inHand[i] && allIn[i]))].sort((a, b) => a - b);
    const total = contributions.reduce((s, c) => s + c, 0);
    const pots = [];
    const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
    let prev = 0;
    for (const level of levels) {
      let amount = 0;
      for (const c of contributions) if (c > prev) amount += (c < level ? c : level) - prev;
      const eligible = contributions.map((c, p) => p).filter((p) => inHand[p] && (contributions[p] >= level || !allIn[p]));
      if (amount) {
        if (pots.length && same(pots[pots.length - 1][1], eligible)) pots[pots.length - 1][0] += amount;
        else pots.push([amount, eligible]);
      }
      prev = level;
    }
    const rest = total - pots.reduce((s, [a]) => s + a, 0);
    if (rest) {
      const eligible = contributions.map((c, p) => p).filter((p) => inHand[p] && (contributions[p] > prev || !allIn[p]));
      if (!eligible.length && pots.length) pots[pots.length - 1][0] += rest;
      else if (pots.length && same(pots[pots.length - 1][1], eligible)) pots[pots.length - 1][0] += rest;
      else {
        const live = inHand.map((here, p) => p).filter((p) => inHand[p]);
        pots.push([rest, eligible.length ? eligible : live]);
      }
    }
    return pots;
  }

  /** A turn's view made whole: a delta (log_start > 0) continues `previous`'s
      log and configuration; an Error when it does not fit (PlayerView.from_dict). */
  function joinView(data, previous) {
    const start = data.log_start || 0;
    if (start && (!previous || previous.log.length < start)) {
      const have = previous ? `${previous.log.length} records` : "no view";
      throw new Error(`view.log_start: a delta from record ${start}, but ${have}`);
    }
    const view = Object.assign({}, data);
    if (start) {
      view.config = data.config || previous.config;
      view.log = previous.log.slice(0, start).concat(data.log);
    }
    view.log_start = 0;
    return view;
  }

  /** The seat numbers of a view's configuration (HandConfig.seat_numbers). */
  function seatNumbers(config) {
    return config.seats && config.seats.length ? config.seats : config.stacks.map((s, i) => i);
  }

  class SeatState {
    constructor(seat, name, label = "") {
      this.seat = seat;
      this.name = name;
      this.label = label;
      this.stack = 0;
      this.bet = 0;
      this.putIn = 0;
      this.status = "waiting"; // waiting, active, folded, all_in, protected, mucked
      this.presence = ""; // away, disconnected, out, or ""
      this.cards = [];
      this.acted = false;
      this.last = "";
    }

    get inHand() {
      return this.status === "active" || this.status === "all_in" || this.status === "protected";
    }
  }

  /** The table as the player at seat `me` (null: a spectator) sees it. */
  class TableModel {
    constructor(me) {
      this.me = me;
      this.seats = new Map(); // seat -> SeatState (iterated in seat order where it matters)
      this.hand = 0;
      this.playing = false;
      this.button = null;
      this.smallBlindSeat = null;
      this.bigBlindSeat = null;
      this.blinds = [0, 0, 0];
      this.bigBlindAnte = false; // (the ante is the big blind's, not each player's)
      this.level = 0;
      this.board = [];
      this.secondBoard = []; // (a board run twice: the second run's, R10)
      this.unit = null; // (the table's chip unit as text, null: 1; amounts read in its money, R9)
      this.hole = [];
      this.actor = null;
      this.currentBet = 0;
      this.legal = null;
      this.view = null;
      this.deadline = null; // (performance.now()'s clock, milliseconds)
      this.bank = null;
      this.shown = [];
      this.reviews = [];
      this.won = []; // [seat, chips, pot] of this hand's awards
      this.result = null;
    }

    name(seat) {
      if (seat === null || seat === undefined) return "the dealer";
      const info = this.seats.get(seat);
      return info ? info.name : `seat ${seat + 1}`;
    }

    /** The seats in seat order. */
    sorted() {
      return [...this.seats.values()].sort((a, b) => a.seat - b.seat);
    }

    /** Every pot of the hand, the main pot first: [[chips, [seats]], ...]. */
    get pots() {
      const dealt = [...this.seats.values()].filter((s) => s.status !== "waiting");
      if (!dealt.some((s) => s.putIn)) return [];
      const pots = buildPots(dealt.map((s) => s.putIn), dealt.map((s) => s.inHand),
        dealt.map((s) => s.status === "all_in" || s.status === "protected" || s.stack === 0));
      return pots.map(([chips, where]) => [chips, where.map((i) => dealt[i].seat)]);
    }

    /** Chips in the middle: every pot and the bets of the round. */
    get pot() {
      let sum = 0;
      for (const s of this.seats.values()) sum += s.putIn;
      return sum;
    }

    /** What a call adds for the player at their turn (0: none). */
    toCall() {
      const mine = this.me === null ? undefined : this.seats.get(this.me);
      if (!this.legal || this.legal.call === null || !mine) return 0;
      return Math.max(0, this.legal.call - mine.bet);
    }

    seat(seat, name, chips = null, label = "") {
      name = escaped(name);
      label = escaped(label || "");
      let info = this.seats.get(seat);
      if (!info || info.name !== name) {
        info = new SeatState(seat, name, label);
        this.seats.set(seat, info);
      }
      if (chips !== null && chips !== undefined) info.stack = chips;
      if (label) info.label = label;
      return info;
    }

    /** A room's table `state` (the seats, their chips and presence). */
    state(state) {
      for (const data of state.seats || []) {
        const info = this.seat(data.seat, data.name, data.chips, data.bot || "");
        if (data.connected === false) info.presence = "disconnected";
        else if (data.status === "away") info.presence = "away";
      }
      if (state.settings) this.unit = Holdem.tell.tableUnit(state.settings);
    }

    /** One table event in its wire form. */
    event(e) {
      const kind = e.event;
      if (kind === "hand_started") this._handStarted(e);
      else if (kind === "hand_ended") this._handEnded(e);
      else if (kind === "seat_taken") this.seat(e.seat, e.name, e.chips);
      else if (kind === "seat_freed") this.seats.delete(e.seat);
      else if (kind === "sat_out") this.seat(e.seat, e.name).presence = "away";
      else if (kind === "sat_in") this.seat(e.seat, e.name).presence = "";
      else if (kind === "chips_added") {
        if (!e.deferred) {
          const info = this.seat(e.seat, e.name);
          if (info.presence === "away" && !info.stack) info.presence = ""; // (a busted seat bought in again)
          info.stack = e.stack;
        }
      } else if (kind === "level_up") {
        this.level = e.level;
        this.blinds = [e.small_blind, e.big_blind, e.ante || 0];
        this.bigBlindAnte = Boolean(e.big_blind_ante);
      } else if (kind === "player_eliminated") {
        const info = this.seats.get(e.seat);
        if (info) {
          info.status = "waiting";
          info.presence = "out";
        }
      }
    }

    /** One event message of a room server (docs/rooms.md). */
    message(message) {
      const kind = message.event;
      if (kind === "action") this.action(message.action);
      else if (kind === "hole_cards" && message.seat === this.me && this.me !== null) {
        this.hole = cards.parseAll(message.cards);
        const mine = this.seats.get(this.me);
        if (mine) mine.cards = this.hole;
      } else if (TABLE_EVENTS.has(kind)) this.event(message);
      else if (kind === "player_joined") this.seat(message.seat, message.name, null, message.bot || "");
      else if (kind === "player_left") {
        if (Number.isInteger(message.seat) && this.seats.has(message.seat) && !this.playing) this.seats.delete(message.seat);
      } else if (kind === "seat_status") {
        const info = this.seats.get(message.seat);
        if (info) info.presence = message.status === "away" || message.status === "disconnected" ? message.status : "";
      } else if (kind === "seated") this.me = message.seat;
      else if (kind === "table_finished") {
        this.result = {};
        for (const key of ["result", "results"]) if (message[key]) this.result[key] = message[key];
      }
    }

    /** One record of the hand's log (its wire form). */
    action(a) {
      const kind = a.kind;
      const seat = a.seat === undefined ? null : a.seat;
      const amount = a.amount || 0;
      const to = a.to || 0;
      const info = seat === null ? undefined : this.seats.get(seat);
      if (kind === "deal_hole") return;
      if (kind === "deal_board" && a.run === 1) { // (the second run's street, R10)
        this.secondBoard = Holdem.tell.secondRun(this.board, this.secondBoard, a);
        return;
      }
      if (kind === "deal_board") {
        this.board = this.board.concat(cards.parseAll(a.cards));
        this.currentBet = 0;
        for (const s of this.seats.values()) {
          s.bet = 0;
          s.acted = false;
          if (s.inHand && s.status === "active") s.last = "";
        }
        this.actor = this._next(this.button);
        return;
      }
      if (!info) return;
      if (POSTS.has(kind) || BETS.has(kind)) {
        info.stack -= amount;
        info.putIn += amount;
        info.bet = to ? to : info.bet + amount;
        this.currentBet = Math.max(this.currentBet, info.bet);
        if (a.all_in) info.status = "all_in";
      }
      if (kind === "fold") info.status = "folded";
      else if (kind === "timeout") info.status = "protected";
      else if (kind === "return") {
        info.stack += amount;
        info.putIn -= amount;
        info.bet = Math.max(0, info.bet - amount);
      } else if (kind === "show") info.cards = cards.parseAll(a.cards);
      else if (kind === "muck") {
        info.status = "mucked";
        if (seat !== this.me) info.cards = [];
      } else if (kind === "win") {
        info.stack += amount;
        this.won.push([info.seat, amount, a.pot === undefined ? -1 : a.pot]);
      }
      if (BETS.has(kind) || kind === "fold" || kind === "check" || kind === "timeout") {
        info.acted = true;
        info.last = LAST[kind] + (a.all_in ? " (all in)" : "");
        if (kind === "bet" || kind === "raise") {
          for (const other of this.seats.values()) other.acted = other === info; // (a raise reopens the round)
        }
        this.actor = this._next(info.seat);
      } else if (kind === "big_blind" || kind === "straddle") {
        this.actor = this._next(info.seat);
      } else if (kind === "show" || kind === "muck" || kind === "win" || kind === "return") {
        this.actor = null;
      }
    }

    /** The player's turn: its whole view (joinView), the deadline and the
        time bank's seconds in it. */
    turn(view, deadline = null, bank = null) {
      this.view = view;
      this.legal = view.legal;
      this.deadline = deadline;
      this.bank = bank;
      this.actor = view.actor;
      seatNumbers(view.config).forEach((seat, i) => {
        const info = this.seats.get(seat);
        if (info) {
          info.stack = view.stacks[i];
          info.bet = view.bets[i];
          info.putIn = view.contributions[i];
        }
      });
      if (view.hole_cards && view.hole_cards.length) this.hole = cards.parseAll(view.hole_cards);
    }

    endTurn() {
      this.legal = this.view = null;
      this.deadline = this.bank = null;
    }

    _handStarted(e) {
      this.hand = e.hand;
      this.playing = true;
      this.button = e.button;
      this.smallBlindSeat = e.small_blind_seat === undefined ? null : e.small_blind_seat;
      this.bigBlindSeat = e.big_blind_seat;
      this.blinds = [e.small_blind, e.big_blind, e.ante || 0];
      this.bigBlindAnte = Boolean(e.big_blind_ante);
      this.board = [];
      this.secondBoard = [];
      this.hole = [];
      this.shown = [];
      this.won = [];
      this.currentBet = 0;
      for (const info of this.seats.values()) {
        info.status = "waiting";
        info.bet = info.putIn = 0;
        info.cards = [];
        info.acted = false;
        info.last = "";
      }
      const names = new Set(e.names.map(escaped));
      for (const [seat, info] of [...this.seats]) {
        if (!e.seats.includes(seat) && names.has(info.name)) this.seats.delete(seat); // (seated again elsewhere)
      }
      e.seats.forEach((seat, i) => {
        this.seat(seat, e.names[i], e.stacks[i]).status = "active";
      });
      this.actor = null;
    }

    /** The seat to act after `after` (null: the round is over). */
    _next(after) {
      const able = [...this.seats.keys()].sort((a, b) => a - b).filter((s) => this.seats.get(s).status === "active");
      if (after === null || after === undefined || !able.length) return null;
      const owing = able.filter((s) => !this.seats.get(s).acted || this.seats.get(s).bet < this.currentBet);
      if (!owing.length || (able.length === 1 && this.seats.get(able[0]).bet >= this.currentBet)) return null;
      const later = owing.filter((s) => s > after);
      return later.length ? later[0] : owing[0];
    }

    _handEnded(e) {
      this.playing = false;
      this.actor = null;
      e.seats.forEach((seat, i) => {
        const info = this.seats.get(seat);
        if (info) info.stack = e.stacks[i];
      });
      this.shown = this._showdown(e.outcome);
      const dealt = this.me !== null && e.seats.includes(this.me);
      const net = dealt ? e.outcome.net[e.seats.indexOf(this.me)] : null;
      const won = this.won.filter(([, chips]) => chips).map(([seat, chips]) => [this.name(seat), chips]);
      this.reviews.unshift({ hand: e.hand, cards: this.hole, board: this.board, won, net, shown: this.shown,
        secondBoard: this.secondBoard });
      this.reviews.length = Math.min(this.reviews.length, REVIEWS);
      for (const info of this.seats.values()) info.bet = info.putIn = 0;
    }

    /** The hands shown, each with its best five and the kicker that decided a
        pot it won (against the best hand it beat there); where the board ran
        twice, each hand on each run's board (R10). */
    _showdown(outcome) {
      const boards = [this.board, this.secondBoard];
      if (this.board.length < 5 || !outcome.shown || !outcome.shown.length) return [];
      const key = (seat, run) => `${seat}/${run || 0}`;
      const values = new Map(outcome.shown.map((h) => [key(h.seat, h.run),
        cards.evaluate([...cards.parseAll(h.cards), ...boards[h.run || 0]])]));
      const won = new Map();
      const kickers = new Map();
      for (const pot of outcome.pots) {
        const winners = pot.winners || [];
        const shares = pot.shares || [];
        const run = pot.run || 0;
        winners.forEach((seat, i) => {
          if (i < shares.length) won.set(key(seat, run), (won.get(key(seat, run)) || 0) + shares[i]);
        });
        const beaten = pot.eligible.filter((s) => values.has(key(s, run)) && !winners.includes(s))
          .map((s) => values.get(key(s, run)));
        for (const seat of winners) {
          const at = key(seat, run);
          if (values.has(at) && beaten.length && !kickers.has(at)) {
            const rank = cards.decidingKicker(values.get(at), Math.max(...beaten));
            if (rank !== null) kickers.set(at, cards.RANK_NAMES[rank]);
          }
        }
      }
      return outcome.shown.map((h) => {
        const run = h.run || 0;
        const all = [...cards.parseAll(h.cards), ...boards[run]];
        return {
          seat: h.seat,
          name: this.name(h.seat),
          cards: cards.parseAll(h.cards),
          best: cards.bestFive(all),
          description: cards.describe(cards.evaluate(all)),
          kicker: kickers.has(key(h.seat, run)) ? kickers.get(key(h.seat, run)) : null,
          won: won.get(key(h.seat, run)) || 0,
          run,
        };
      });
    }
  }

  Holdem.TableModel = TableModel;
  Holdem.buildPots = buildPots;
  Holdem.joinView = joinView;
  Holdem.seatNumbers = seatNumbers;
})(globalThis.Holdem = globalThis.Holdem || {});
