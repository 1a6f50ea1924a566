/* The event lines of the page's log (Holdem.Teller, Holdem.RoomGame): a
   mirror of holdem/clients/telling.py's Teller (no colours) and of the
   room's notices of holdem/clients/room.py's RoomGame (tell, missed, the
   end's places and certificate, a cash session's results), as plain text
   lines.  tests/test_web_page.py feeds both the same room's messages and
   holds them to the same lines; where the terminal's words do not fit a
   page ("type rebuy"), the page's own are in WEB_WORDS below.

   Lines are text: the page writes them with textContent, never as HTML. */
(function (Holdem) {
  "use strict";

  const cards = Holdem.cards;
  const STREETS = { flop: "FLOP", turn: "TURN", river: "RIVER" };
  // (where a board run twice begins its second run, by the street dealt first: telling._RUN_FROM)
  const RUN_FROM = { flop: 0, turn: 3, river: 4 };
  const RUNS = ["first run", "second run"];
  const POSTS = {
    small_blind: "posts the small blind",
    big_blind: "posts the big blind",
    ante: "posts an ante of",
    straddle: "straddles",
    live_post: "posts",
    dead_blind: "posts dead",
  };
  const SECOND_PERSON = { is: "are", has: "have", goes: "go" };
  // (what a terminal could take as a command: telling.escaped shows it as text, and so does the page)
  const CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  const SPECIAL = { 9: "\\t", 10: "\\n", 13: "\\r" };

  /** A number (or a BigInt) as Python's "{:,}" writes it: 1,234,567. */
  function chips(n) {
    const sign = n < 0 ? "-" : "";
    return sign + String(n < 0 ? -n : n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  /** A chip unit's text ("0.5", "25"; null: 1) as an integer over a power of ten,
      its trailing zeros dropped: [5n, 1] is 5 / 10 (units.check_unit's Decimal). */
  function readUnit(unit) {
    const text = unit === null || unit === undefined ? "1" : String(unit);
    let [whole, part = ""] = text.split(".");
    part = part.replace(/0+$/, "");
    return [BigInt(whole + part), part.length];
  }

  /** An amount in the table's money (units.chips_text): whole amounts with
      thousands separators ("1,200"), the others with the unit's decimal
      places ("2.5" for a chip of 0.5); `unit` its text, null: a chip is 1. */
  function money(n, unit = null) {
    const [worth, places] = readUnit(unit);
    // (in BigInts: an amount times its unit may pass a double's 2^53)
    if (places === 0) return chips(BigInt(n) * worth);
    const value = BigInt(n) * worth;
    const scale = 10n ** BigInt(places);
    const sign = value < 0n ? "-" : "";
    const size = value < 0n ? -value : value;
    const whole = chips(size / scale);
    if (size % scale === 0n) return sign + whole;
    return `${sign}${whole}.${String(size % scale).padStart(places, "0")}`;
  }

  /** An amount typed in the table's money ("2.5", "1,000") as whole chips of
      `unit` (units.to_chips); null when it is no amount or no whole number of chips. */
  function toChips(text, unit = null) {
    const typed = String(text).trim().replace(/[,_]/g, "");
    if (!/^\d+(\.\d+)?$/.test(typed)) return null;
    const [whole, part = ""] = typed.split(".");
    const [worth, places] = readUnit(unit);
    // (typed / 10^part, in chips of worth / 10^places)
    const top = BigInt(whole + part) * 10n ** BigInt(places);
    const bottom = worth * 10n ** BigInt(part.length);
    return top % bottom === 0n ? Number(top / bottom) : null;
  }

  /** Whether a unit's text is a chip of 1 (units.ONE: amounts read as chips). */
  const plainUnit = (unit) => {
    const [worth, places] = readUnit(unit);
    return worth === 1n && places === 0;
  };

  /** The second run's board (telling.second_run) once `a`, a deal_board record of run 1, is dealt. */
  function secondRun(board, second, a) {
    const before = second.length ? second : board.slice(0, Object.hasOwn(RUN_FROM, a.street) ? RUN_FROM[a.street] : 0);
    return before.concat(cards.parseAll(a.cards));
  }

  /** The chip unit of a room's table by its settings (telling.table_unit): its
      text, null for a chip of 1 (or a unit that does not read as one). */
  function tableUnit(settings) {
    const unit = settings.unit;
    if (typeof unit !== "string" || !/^\d+(\.\d+)?$/.test(unit) || plainUnit(unit) || readUnit(unit)[0] === 0n) return null;
    return unit;
  }

  /** A chip unit as it is written (units.unit_text): "0.5", "25", "1000". */
  function unitText(unit) {
    const [worth, places] = readUnit(unit);
    const digits = String(worth).padStart(places + 1, "0");
    return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  }

  /** Whether a setting is an amount of chips (an integer of at least `least`). */
  const isChips = (n, least = 0) => Number.isInteger(n) && n >= least;

  /** The first level of a schedule in its wire form (Schedule.from_dict's
      levels[0]: its amounts, hands and the level itself), and whether it is
      the whole schedule and stays; null when it is none (the server's always is). */
  function firstLevel(schedule) {
    if (!schedule || typeof schedule !== "object" || !Array.isArray(schedule.levels)) return null;
    const level = schedule.levels[0];
    if (!level || typeof level !== "object") return null;
    const { small_blind: small, big_blind: big, ante = 0, hands = null } = level;
    if (!isChips(small, 1) || !isChips(big, small) || !isChips(ante) || !(hands === null || isChips(hands, 1))) return null;
    const stays = schedule.levels.length === 1 && schedule.after_last === "stay";
    return { small, big, ante, hands, stays, level };
  }

  /** A table's terms in a line, in its money (room.table_terms, the line
      holdem join and holdem watch greet with: tests/test_web_page.py holds
      the two to the same words): a cash table's blinds and buy-ins, a
      freezeout's stacks and first level; its chip when not 1, and whether
      it runs it twice (R10).  null when the settings (a server's) do not say them. */
  function tableTerms(settings) {
    const unit = tableUnit(settings);
    const said = (n) => money(n, unit);
    let text;
    if (Object.hasOwn(settings, "schedule")) {
      const first = firstLevel(settings.schedule);
      if (!first || !isChips(settings.stack)) return null;
      let blinds = `${said(first.small)}/${said(first.big)}`;
      if (first.ante) blinds += ` ${anteName(first.level)} ${said(first.ante)}`;
      const rising = first.stays ? ", never rising" : first.hands ? ` for ${chips(first.hands)} hands, then rising` : ", then rising";
      text = `Stacks of ${said(settings.stack)}; blinds ${blinds}${rising}`;
    } else {
      const { small_blind: small, big_blind: big, min_buy_in: low, max_buy_in: high } = settings;
      if (![small, big, low, high].every((n) => isChips(n))) return null;
      text = `Blinds ${said(small)}/${said(big)}; buy-in ${said(low)} to ${said(high)}`;
    }
    if (unit !== null) text += `; in chips of ${unitText(unit)}`;
    if (settings.run_it_twice) text += "; runs it twice where everyone left is all in and agrees";
    return `${text}.`;
  }

  // (a listed table's betting as holdem join --list names it: lobby._STRUCTURES)
  const STRUCTURES = { no_limit: "no limit", pot_limit: "pot limit", fixed_limit: "fixed limit" };

  /** A listed table's blinds (a freezeout's now, and its stack) in its money
      (list_tables' amounts are its chips, R9), as holdem join --list says
      them (lobby._stakes): "2.5/5", "25/50 ante 5, 2,000 stack". */
  function stakes(t) {
    const unit = tableUnit(t);
    const listed = (n) => money(n, unit);
    let text = "-";
    if (t.blinds && typeof t.blinds === "object") {
      text = `${listed(t.blinds.small_blind)}/${listed(t.blinds.big_blind)}`;
      if (t.blinds.ante) text += ` ${anteName(t.blinds)} ${listed(t.blinds.ante)}`;
    }
    if (t.stack !== null && t.stack !== undefined) text += `, ${listed(t.stack)} stack`;
    return text;
  }

  /** A listed table's betting as holdem join --list says it (lobby._structure): "pot limit". */
  function structure(t) {
    const s = t.structure || "";
    return Object.hasOwn(STRUCTURES, s) ? STRUCTURES[s] : s || "-";
  }

  /** 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st (telling.ordinal). */
  function ordinal(n) {
    const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
    return `${n}${suffix}`;
  }

  /** Text with its control characters shown as text ("\x1b", "\r": telling.escaped). */
  function escaped(text) {
    return String(text).replace(CONTROLS, (found) => {
      const code = found.charCodeAt(0);
      const hex = code.toString(16);
      return SPECIAL[code] || (code < 0x100 ? `\\x${hex.padStart(2, "0")}` : `\\u${hex.padStart(4, "0")}`);
    });
  }

  // (Python pads and centres by code points: so do these)
  const width = (s) => Array.from(s).length;
  const padEnd = (s, n) => s + " ".repeat(Math.max(0, n - width(s)));
  const padStart = (s, n) => " ".repeat(Math.max(0, n - width(s))) + s;
  function center(s, n) {
    const margin = n - width(s);
    if (margin <= 0) return s;
    const left = Math.floor(margin / 2) + (margin & n & 1); // (CPython's str.center)
    return " ".repeat(left) + s + " ".repeat(margin - left);
  }

  /** What the page says where the terminal's words are its keys or commands
      (the test names each: tests/test_web_page.py, WEB_WORDS). */
  const WEB_WORDS = {
    away: "You are out of the deal: two timeouts in a row. Press Back to be dealt in again.",
    takenOver: (table) => `Your seat at table ${table} was taken over by another page or client ` +
      "of yours (its link opened again, or holdem join): this one stops here, and the seat plays " +
      "on there.",
    busted: (low, high, unit = null) => `You have no chips left: press Rebuy to buy in again for ` +
      `${money(high, unit)} (from ${money(low, unit)} to ${money(high, unit)}), or Leave to go with nothing.`,
  };

  /** Lines for one player (`me`, a table seat, or null: a spectator); `write` takes each line. */
  class Teller {
    constructor(me, { symbols = true, write = null } = {}) {
      this.me = me;
      this._myName = null;
      this.symbols = symbols;
      this._write = write;
      this.names = Object.create(null); // seat -> name (escaped)
      this.labels = Object.create(null); // seat -> what shows after the name ("easy")
      this.board = [];
      this.secondBoard = []; // (a board run twice: the second run's, R10)
      this.hole = [];
      this._side = false;
      this._perRun = 0; // (a board run twice: the pots of each run)
      this._won = new Map(); // pot -> [[seat, chips], ...] of its winners
      this.marks = Object.create(null); // seat -> "D", "SB, BB"
      this.hand = null; // the number of the hand begun last
      this.unit = null; // the table's chip unit as text ("0.5"; null: 1): amounts in its money (R9)
    }

    /** An amount as the player reads it, in the table's money. */
    money(n) { return money(n, this.unit); }

    get myName() { return this._myName; }
    set myName(name) { this._myName = name === null || name === undefined ? null : escaped(name); }

    setName(seat, name) { this.names[seat] = escaped(name); }
    setLabel(seat, label) { this.labels[seat] = escaped(label); }

    say(text = "") {
      if (this._write) this._write(text);
    }

    card(card) {
      const c = cards.parse(card);
      return cards.RANKS[c >> 2] + (this.symbols ? cards.SYMBOLS : cards.SUITS)[c & 3];
    }

    cards(list) {
      return Array.from(list, (c) => this.card(c)).join(" ");
    }

    who(seat) {
      if (seat === null || seat === undefined) return "the dealer";
      if (seat === this.me) return "You";
      return seat in this.names ? this.names[seat] : `seat ${seat + 1}`;
    }

    named(name, you = "You") {
      const shown = escaped(name);
      return this._myName !== null && shown === this._myName ? you : shown;
    }

    tell(seat, doing, { notice = false, hand = null } = {}) {
      if (seat !== null && seat !== undefined && seat === this.me) {
        const space = doing.indexOf(" ");
        let verb = space < 0 ? doing : doing.slice(0, space);
        const rest = space < 0 ? "" : doing.slice(space + 1);
        verb = (Object.hasOwn(SECOND_PERSON, verb) && SECOND_PERSON[verb]) || (verb.endsWith("s") ? verb.slice(0, -1) : verb);
        doing = [verb, rest.replaceAll(" and is ", " and are ")].filter(Boolean).join(" ");
      }
      if (notice) this.notice(`${this.who(seat)} ${doing}`, hand);
      else this.say(`${this.who(seat)} ${doing}`);
    }

    /** A notice with the hand it belongs to: `hand`, else the hand begun last. */
    notice(text, hand = null) {
      const at = hand || this.hand;
      this.say(at === null || at === undefined ? text : `[hand ${at}] ${text}`);
    }

    chat(name, text, hand = null, watching = false) {
      let who = this.named(name);
      if (watching && who !== "You") who += " (watching)";
      this.notice(`${who}: ${escaped(text)}`, hand);
    }

    /** One table event in its wire form (actions go through action()). */
    event(e) {
      const kind = e.event;
      if (kind === "hand_started") this.handStarted(e);
      else if (kind === "hand_ended") this.handEnded(e);
      else if (kind === "level_up") {
        const ante = e.ante ? `, ${anteName(e)} ${this.money(e.ante)}` : "";
        this.notice(`Blinds go up: ${this.money(e.small_blind)}/${this.money(e.big_blind)}${ante} (level ${e.level + 1})`, e.hand);
      } else if (kind === "player_eliminated") {
        const by = (e.by || []).map((n) => this.named(n, "you"));
        const byText = by.length ? `, knocked out by ${by.join(" and ")}` : "";
        this.tell(e.seat, `is out in ${ordinal(e.place)} place${byText}`, { notice: true, hand: e.hand });
      } else if (kind === "chips_added") {
        const when = e.deferred ? " (after this hand)" : "";
        const unit = plainUnit(this.unit) ? " chips" : "";
        this.tell(e.seat, `adds ${this.money(e.chips)}${unit}${when}`, { notice: true });
      } else if (kind === "seat_freed" && e.reason !== "busted") {
        this.tell(e.seat, `leaves the table with ${this.money(e.chips)}`, { notice: true });
      } else if (kind === "sat_out") {
        this.tell(e.seat, "sits out", { notice: true });
      } else if (kind === "cards_shown") {  // (after its hand: told with that hand's number)
        this.tell(e.seat, `shows ${this.cards(e.action.cards)} after the hand`,
          { notice: true, hand: e.hand });
      }
    }

    handStarted(e) {
      this.board = [];
      this.secondBoard = [];
      this.hole = [];
      this._side = false;
      this._perRun = 0;
      this.hand = e.hand;
      this._won = new Map();
      e.seats.forEach((seat, i) => this.setName(seat, e.names[i]));
      const ante = e.ante ? ` ${anteName(e)} ${this.money(e.ante)}` : "";
      this.say();
      this.say(`── Hand #${e.hand} · blinds ${this.money(e.small_blind)}/${this.money(e.big_blind)}${ante} ──`);
      this.marks = Object.create(null);
      for (const [mark, where] of [["D", e.button], ["SB", e.small_blind_seat], ["BB", e.big_blind_seat]]) {
        if (where !== null && where !== undefined) {
          this.marks[where] = where in this.marks ? `${this.marks[where]}, ${mark}` : mark;
        }
      }
      const parts = e.seats.map((seat, i) => {
        const mark = seat in this.marks ? ` (${this.marks[seat]})` : "";
        return `${this.who(seat)} ${this.money(e.stacks[i])}${mark}`;
      });
      this.say("   " + parts.join(" · "));
    }

    /** One record of the hand's log (its wire form); `own`: the player's cards at the deal. */
    action(a, own = null) {
      const kind = a.kind;
      const seat = a.seat === undefined ? null : a.seat;
      const amount = a.amount || 0;
      const to = a.to || 0;
      if (kind === "deal_hole") {
        if (own && own.length) {
          this.hole = cards.parseAll(own);
          this.say(`Your cards: ${this.cards(own)}`);
        }
        return;
      }
      if (kind === "deal_board") {
        const street = Object.hasOwn(STREETS, a.street) ? STREETS[a.street] : a.street;
        if (a.run === 1) { // (the second run's street, R10: the first board is kept)
          this.secondBoard = secondRun(this.board, this.secondBoard, a);
          this.say(`*** SECOND ${street} *** [${this.cards(this.secondBoard)}]`);
          return;
        }
        this.board = this.board.concat(cards.parseAll(a.cards));
        this.say(`*** ${street} *** [${this.cards(this.board)}]`);
        return;
      }
      const allIn = a.all_in ? " and is all in" : "";
      const chips = (n) => this.money(n);
      if (Object.hasOwn(POSTS, kind)) this.tell(seat, `${POSTS[kind]} ${chips(amount)}${allIn}`);
      else if (kind === "fold") this.tell(seat, "folds");
      else if (kind === "check") this.tell(seat, "checks");
      else if (kind === "call") {
        const total = to > amount ? ` (${chips(to)} in all)` : "";
        this.tell(seat, `calls ${chips(amount)}${total}${allIn}`);
      } else if (kind === "bet") this.tell(seat, `bets ${chips(to)}${allIn}`);
      else if (kind === "raise") this.tell(seat, `raises to ${chips(to)}${allIn}`);
      else if (kind === "timeout") this.tell(seat, "times out (protected)");
      else if (kind === "return") this.say(`${chips(amount)} uncalled goes back to ${this.who(seat)}`);
      else if (kind === "show") this.tell(seat, `shows ${this._hand(a.cards)}`);
      else if (kind === "muck") {
        const mine = seat === this.me && this.hole.length ? ` ${this._hand(this.hole)}` : "";
        this.tell(seat, `mucks${mine}`);
      } else if (kind === "win") {
        const potIndex = a.pot === undefined ? -1 : a.pot;
        const pot = this._potName(potIndex);
        if (!this._won.has(potIndex)) this._won.set(potIndex, []);
        const won = this._won.get(potIndex);
        if (amount || !won.length) {
          won.push([seat === null ? -1 : seat, amount]);
          this.tell(seat, `wins ${chips(amount)} from ${pot}`);
          return;
        }
        // (a tie for a pot of fewer chips than winners: this one's share is none, R9)
        const total = won.reduce((sum, [, c]) => sum + c, 0);
        const takers = won.filter(([, c]) => c).map(([s]) => (s === this.me ? "you" : this.who(s))).join(" and ");
        const worth = plainUnit(this.unit) ? "" : ` (${this.money(total)})`;
        this.tell(seat, `ties for ${pot}, but its ${Holdem.tell.chips(total)} chip${total !== 1 ? "s" : ""}${worth} ` +
          `${total !== 1 ? "go" : "goes"} to ${takers}: chips that do not divide go one at a time ` +
          "to the first winners left of the button");
      }
    }

    /** How a win names its pot (telling._pot_name): the pot, the main pot, side
        pot 2; where the board ran twice, with its run ("the main pot, second run"). */
    _potName(pot) {
      let run = "";
      let number = pot;
      let side;
      if (this.secondBoard.length) {
        this._perRun = this._perRun || pot + 1;
        number = pot % this._perRun;
        run = `, ${RUNS[Math.floor(pot / this._perRun)]}`;
        side = this._perRun > 1;
      } else {
        this._side = side = this._side || pot > 0;
      }
      return (number > 0 ? `side pot ${number}` : side ? "the main pot" : "the pot") + run;
    }

    /** Hole cards and, with a board, what they make: "A♣ K♦ (One Pair, Kings)";
        with a board run twice, on each ("(first run: ...; second run: ...)"). */
    _hand(list) {
      let made = "";
      const describe = (board) => cards.describe(cards.evaluate([...cards.parseAll(list), ...board]));
      if (this.board.length >= 3 && this.secondBoard.length >= 3) {
        made = ` (${RUNS[0]}: ${describe(this.board)}; ${RUNS[1]}: ${describe(this.secondBoard)})`;
      } else if (this.board.length >= 3) {
        made = ` (${describe(this.board)})`;
      }
      return `${this.cards(list)}${made}`;
    }

    handEnded(e) {
      const parts = e.seats.map((s, i) => `${this.who(s)} ${this.money(e.stacks[i])}`);
      const rake = e.rake ? ` (rake ${this.money(e.rake)})` : "";
      this.say("   stacks: " + parts.join(" · ") + rake);
    }
  }

  function anteName(e) {
    return e.big_blind_ante ? "big blind ante" : "ante";
  }

  /** A seat_status event as the others at the table read it (room._seat_status). */
  function seatStatus(message, name) {
    const status = message.status;
    if (status === "disconnected") return `${name} is disconnected (the timer checks or folds for them until they are back)`;
    if (status === "away") return `${name} is out of the deal (${message.reason || "the timer"}) until they are back`;
    if (status === "connected") return `${name} is connected again`;
    if (status === "back") return `${name} is dealt in again`;
    return `${name}: ${status}`;
  }

  // (the events a player back in a seat is told again: room._MISSED_TOLD)
  const MISSED_TOLD = new Set(["player_joined", "player_left", "seat_status", "creator",
    "player_eliminated", "level_up", "table_closed", "chat"]);
  const TABLE_EVENTS = new Set(["seat_taken", "seat_freed", "sat_out", "sat_in", "chips_added",
    "hand_started", "hand_ended", "level_up", "player_eliminated", "cards_shown"]);

  /** The lines of one player's game at a room table (room.RoomGame's telling):
      `joined` is a create, join or resume reply (a spectator's: seat -1 and the
      watch reply's state).  It asks nothing of the server: what needs a
      request (a closed cash table's results) it leaves in `wants`. */
  class RoomGame {
    constructor(joined, teller) {
      this.teller = teller;
      this.table = joined.table;
      this.seat = joined.seat;
      this.name = joined.name || "";
      this.creator = Boolean(joined.creator);
      this.turn = null; // the turn being asked (the page acts on it)
      this.over = false;
      this.replaced = false;
      this.away = false;
      this.watching = this.seat < 0;
      this.chips = null; // the stack after the last hand the seat was dealt
      this.busted = false;
      this.started = false;
      this.settings = {};
      this.wants = null; // "results": a closed cash table's (the page asks for its state)
      this.ended = null; // the end: {places, winner, lines} or {results}
      this.today = null; // the certificate's date (a test fixes it)
      teller.me = this.watching ? null : this.seat;
      teller.myName = this.name;
      this.state(joined.state);
    }

    state(state) {
      for (const info of state.seats || []) {
        this.teller.setName(info.seat, info.name);
        if (info.bot) this.teller.setLabel(info.seat, info.bot);
      }
      this.started = state.status !== "waiting";
      this.settings = state.settings || {};
      this.teller.unit = tableUnit(this.settings); // (amounts in the table's money, R9)
    }

    /** The page acted at its turn (the timer's move is not then said to be the timer's). */
    acted() {
      this.turn = null;
    }

    tell(message) {
      const kind = message.event;
      const teller = this.teller;
      if (kind === "action") {
        const a = message.action;
        if (a.seat === this.seat && this.turn !== null && ["check", "fold", "timeout"].includes(a.kind)) {
          this.turn = null;
          // (a protected timeout, R13, is no check or fold)
          const done = a.kind === "timeout" ? "you are protected, all in for what you put in" : "you check or fold";
          teller.say(`Time is up: ${done}.`);
        }
        if (a.kind !== "deal_hole") teller.action(a);
      } else if (kind === "hole_cards" && message.seat === this.seat) {
        teller.hole = cards.parseAll(message.cards);
        teller.say(`Your cards: ${teller.cards(message.cards)}`);
      } else if (kind === "turn" && message.seat === this.seat) {
        this.turn = message;
      } else if (kind === "player_joined") {
        teller.setName(message.seat, message.name);
        let who = teller.names[message.seat];
        if (message.bot) {
          teller.setLabel(message.seat, message.bot);
          who += ` (${teller.labels[message.seat]} bot)`;
        }
        teller.notice(`${who} sits at seat ${message.seat + 1}`, message.hand);
      } else if (kind === "player_left") {
        teller.notice(`${teller.named(message.name)} leaves the table`, message.hand);
      } else if (kind === "chat") {
        teller.chat(message.name, message.text, message.hand, message.seat === null || message.seat === undefined);
      } else if (kind === "table_finished") {
        this.finished(message);
      } else if (kind === "table_closed") {
        teller.say("The table's creator closed it.");
        this.over = true;
        if (this.settings.small_blind !== null && this.settings.small_blind !== undefined) this.wants = "results";
      } else if (kind === "seat_taken_over") {
        teller.say();
        teller.say(WEB_WORDS.takenOver(this.table));
        this.replaced = this.over = true;
      } else if (kind === "seat_status" && message.seat !== this.seat) {
        teller.notice(seatStatus(message, teller.named(message.name)), message.hand);
      } else if (kind === "seated") {
        this.seat = message.seat;
        teller.me = this.seat;
      } else if (kind === "away" && message.seat === this.seat) {
        this.away = true;
        teller.notice(WEB_WORDS.away, message.hand);
      } else if (kind === "creator") {
        this.creator = message.seat === this.seat;
        const who = this.creator ? "You are" : `${teller.named(message.name)} is`;
        teller.notice(`${who} the table's creator now.`, message.hand);
      } else if (TABLE_EVENTS.has(kind)) {
        if (kind === "hand_started") this.started = true;
        teller.event(message);
        this._ownChips(kind, message);
      }
    }

    /** Follows the seat's stack; a cash player busted is told how to rebuy. */
    _ownChips(kind, message) {
      if (kind === "hand_ended" && message.seats.includes(this.seat)) {
        this.chips = message.stacks[message.seats.indexOf(this.seat)];
      } else if (kind === "chips_added" && message.seat === this.seat) {
        this.busted = false;
      } else if (kind === "sat_out" && message.seat === this.seat && this.chips === 0) {
        this.busted = true;
        const low = this.settings.min_buy_in;
        const high = this.settings.max_buy_in;
        if (low !== null && low !== undefined && high !== null && high !== undefined) {
          this.teller.say(WEB_WORDS.busted(low, high, this.teller.unit));
        }
      }
    }

    /** What happened while the player was away (a resume's `missed`). */
    missed(joined) {
      const teller = this.teller;
      const missed = (joined.missed || []).filter((m) => m && typeof m === "object" && !Array.isArray(m));
      const hands = missed.filter((m) => m.event === "hand_ended").map((m) => m.hand);
      if (!hands.length) teller.say("Back in your seat: no hand ended while you were away.");
      else if (hands.length === 1) teller.say(`Back in your seat: hand ${hands[0]} ended while you were away.`);
      else {
        teller.say(`Back in your seat: ${hands.length} hands ended while you were away ` +
          `(hands ${hands[0]} to ${hands[hands.length - 1]}).`);
      }
      if (joined.missed_dropped) teller.say(`  (${chips(joined.missed_dropped)} older events were not kept)`);
      for (const message of missed) if (MISSED_TOLD.has(message.event)) this.tell(message);
      const state = joined.state;
      if (state.seats.some((info) => "chips" in info)) {
        const stacks = state.seats.map((info) => `${teller.named(info.name)} ${teller.money(info.chips)}`).join(", ");
        const when = state.hand ? "as this hand began" : "now";
        teller.say(`Stacks ${when}: ${stacks}`);
      }
    }

    /** The end of the table: a freezeout's places and its winner's certificate;
        a cash session's results. */
    finished(message) {
      const teller = this.teller;
      this.over = true;
      const result = message.result;
      if (result !== null && result !== undefined) {
        const bots = Object.create(null);
        for (const [seat, level] of Object.entries(teller.labels)) if (seat in teller.names) bots[teller.names[seat]] = level;
        const places = this.places(result, bots);
        const label = result.winner in bots ? ` (${bots[result.winner]} bot)` : "";
        const stack = this.settings.stack;
        const unit = plainUnit(teller.unit) ? " chips" : "";
        const each = stack ? ` · ${teller.money(stack)}${unit} each` : "";
        const hands = `${result.hands} hand${result.hands !== 1 ? "s" : ""}`;
        const winner = teller.named(result.winner) + label;
        const lines = [`${result.places.length} players${each} · ${hands}`, `table ${this.table} · ${this.date()}`];
        this.certificate(winner, lines);
        this.ended = { places, winner, lines };
      } else if (message.results !== null && message.results !== undefined) {
        this.cashResults(message.results);
      }
    }

    date() {
      const d = this.today || new Date();
      const two = (n) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
    }

    /** Every place, and how and when each player went out (local.places);
        the places as data, for the page's list. */
    places(result, levels) {
      const teller = this.teller;
      teller.say();
      teller.say("Final places:");
      const out = [];
      for (const placing of result.places) {
        const gone = placing.elimination;
        let how = "";
        if (gone) {
          const by = (gone.eliminated_by || []).map((n) => teller.named(n, "you"));
          how = `out on hand ${gone.hand_number}` + (by.length ? ` by ${by.join(", ")}` : "");
        }
        let who = teller.named(placing.player);
        if (placing.player in levels) who = `${who} (${levels[placing.player]})`;
        teller.say(`  ${padStart(ordinal(placing.place), 5)}  ${padEnd(who, 20)} ${how}`.trimEnd());
        out.push({ place: ordinal(placing.place), who, how });
      }
      return out;
    }

    /** The winner's certificate, framed (local.certificate). */
    certificate(winner, lines) {
      const size = Math.max(width(winner) + 10, ...lines.map(width), 34) + 4;
      const body = ["", "CERTIFICATE OF VICTORY", "", winner, "won the freezeout", "", ...lines, ""];
      const symbols = this.teller.symbols;
      const [top, side, bottom] = symbols
        ? ["╔" + "═".repeat(size) + "╗", "║", "╚" + "═".repeat(size) + "╝"]
        : ["+" + "=".repeat(size) + "+", "|", "+" + "=".repeat(size) + "+"];
      this.teller.say(top);
      for (const line of body) this.teller.say(`${side}${center(line, size)}${side}`);
      this.teller.say(bottom);
    }

    /** A cash session's results (the server's `results`: local.cash_results). */
    cashResults(results) {
      const teller = this.teller;
      const hands = teller.hand || 0;
      teller.say();
      teller.say(`Session over after ${hands} hand${hands !== 1 ? "s" : ""}:`);
      teller.say(`  ${padEnd("player", 12)} ${padStart("bought in", 10)} ${padStart("cashed out", 11)} ` +
        `${padStart("net", 9)} ${padStart("hands", 6)}`);
      const rows = [];
      for (const [name, r] of Object.entries(results)) {
        const who = teller.named(name);
        const net = r.cashed_out - r.bought_in;
        const signed = (net >= 0 ? "+" : "") + teller.money(net);
        teller.say(`  ${padEnd(who, 12)} ${padStart(teller.money(r.bought_in), 10)} ${padStart(teller.money(r.cashed_out), 11)} ` +
          `${padStart(signed, 9)} ${padStart(String(r.hands), 6)}`);
        rows.push({ who, boughtIn: r.bought_in, cashedOut: r.cashed_out, net, hands: r.hands });
      }
      this.ended = { results: rows, hands };
    }
  }

  Holdem.tell = { chips, money, toChips, tableUnit, tableTerms, stakes, structure, anteName, secondRun, ordinal, escaped,
    seatStatus, WEB_WORDS };
  Holdem.Teller = Teller;
  Holdem.RoomGame = RoomGame;
})(globalThis.Holdem = globalThis.Holdem || {});
