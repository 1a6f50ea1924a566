/* The page (Holdem.app): the WebSocket to the room server (the room
   protocol of docs/rooms.md, one message a frame), the lobby, the table
   drawn from the model (model.js), the log of tell.js's lines, the controls
   and the keys.  docs/web.md says what each part does.

   Nothing a player or the server sends is written as HTML: every name,
   line and card is put in with textContent and createElement. */
(function (Holdem) {
  "use strict";

  const cards = Holdem.cards;
  const { chips, escaped } = Holdem.tell;
  /** An amount in the table's money (R9: a chip of 0.5 makes 5 chips read 2.5). */
  const money = (n) => Holdem.tell.money(n, page.model ? page.model.unit : null);
  /** An amount as a number field holds it: its money, no thousands separators. */
  const moneyField = (n) => money(n).replace(/,/g, "");
  /** An amount typed in the table's money as whole chips (null: not one). */
  const typedChips = (text) => Holdem.tell.toChips(text, page.model ? page.model.unit : null);
  const $ = (selector) => document.querySelector(selector);
  const TITLE = "holdem";
  const TURN_TITLE = "Your turn — holdem";
  const LOG_LINES = 600;
  const SEAT_KEY = (code) => `holdem.seat.${code}`;
  const TABLE_ID = /^[tT][1-9][0-9]{0,8}$/;
  const SPEAK = { fold: "fold", check: "check", call: "call", bet: "bet", raise: "raise", all_in: "go all in" };

  /** An element with its text (never HTML) and attributes. */
  function make(tag, { text = null, cls = null, attrs = null } = {}, ...children) {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== null) el.textContent = text;
    if (attrs) for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
    el.append(...children);
    return el;
  }

  function storage(key, value) {
    try {
      if (value === undefined) return JSON.parse(localStorage.getItem(key) || "null");
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      return null; // (storage refused: a private window; the page plays on without it)
    }
    return null;
  }

  /** The fields that name a table: a public table's id ("t3"), else a join code. */
  function tableFields(code) {
    const text = code.trim();
    return TABLE_ID.test(text) ? { table: text.toLowerCase() } : { code: text };
  }

  // ------------------------------------------------------------ the connection

  /** The room server over a WebSocket: requests with ids, their replies as
      promises (an error reply rejects with {code, message}), events to `onEvent`. */
  class Connection {
    constructor(onEvent, onOpen, onLost) {
      this.onEvent = onEvent;
      this.onOpen = onOpen;
      this.onLost = onLost;
      this.pending = new Map();
      this.next = 1;
      this.hello = null;
      this.ws = null;
      this.stopped = false;
      this.tries = 0;
    }

    open() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      const ws = (this.ws = new WebSocket(`${scheme}${location.host}/ws`));
      ws.addEventListener("open", async () => {
        try {
          this.hello = await this.request("hello", { version: 1, client: "web" });
          this.tries = 0;
          this.onOpen();
        } catch (error) {
          showError(error.message);
        }
      });
      ws.addEventListener("message", (e) => {
        let message;
        try {
          message = JSON.parse(e.data);
        } catch (error) {
          return; // (the server sends JSON: a frame that is not is dropped)
        }
        this.receive(message);
      });
      ws.addEventListener("close", () => this.lost());
    }

    receive(message) {
      if (message && typeof message.event === "string") {
        this.onEvent(message);
        return;
      }
      const waiting = message && this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        if (message.error) waiting.reject(message.error);
        else waiting.resolve(message.result);
      } else if (message && message.error) {
        showError(message.error.message); // (idle, a rate limit: said to nobody's request)
      }
    }

    request(type, fields = {}) {
      return new Promise((resolve, reject) => {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
          reject({ code: "connection", message: "not connected to the server: wait a moment and try again" });
          return;
        }
        const id = this.next++;
        this.pending.set(id, { resolve, reject });
        this.ws.send(JSON.stringify({ id, type, ...fields }));
      });
    }

    lost() {
      for (const waiting of this.pending.values()) {
        waiting.reject({ code: "connection", message: "the connection to the server was lost" });
      }
      this.pending.clear();
      if (this.stopped) return;
      const wait = Math.min(15, 2 ** this.tries);
      this.tries += 1;
      this.onLost(wait);
      if (!this.stopped) setTimeout(() => this.open(), wait * 1000);
    }

    stop() {
      this.stopped = true;
      if (this.ws) this.ws.close();
    }
  }

  // ------------------------------------------------------------ what the page holds

  const page = {
    route: { kind: "lobby", code: "" },
    conn: null,
    table: null, // the table's id
    code: null, // the code it was reached by (the seat's key)
    seat: null,
    name: null,
    token: null,
    watching: false,
    game: null, // Holdem.RoomGame (the lines)
    teller: null,
    model: null, // Holdem.TableModel (what is drawn)
    view: null, // the seat's last view in this hand (a turn's delta continues it)
    settings: {},
    maxSeats: 6,
    link: null,
    watchLink: null,
    queued: [], // events come before the table is set up
    away: false, // out of the deal (sat out, or timeouts): Back deals in again
    eliminated: false, // out of the freezeout: watching to its end
    turnSeconds: null,
    over: false,
    muting: [],
    dealtLast: false, // dealt in the last hand that ended: a show after it is yours to make
  };

  // ------------------------------------------------------------ errors and words

  let errorTimer = null;

  function showError(text) {
    const box = $("#error");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => {
      box.hidden = true;
    }, 12000);
  }

  function clearError() {
    $("#error").hidden = true;
  }

  /** A refusal as a player reads it: the server's message, without the
      request's field ("request.text: ") that the player typed no request for. */
  function said(error) {
    return String(error && error.message ? error.message : error).replace(/^request\.\w+: /, "");
  }

  function announce(text) {
    const region = $("#announce");
    region.textContent = "";
    setTimeout(() => {
      region.textContent = text;
    }, 50);
  }

  // ------------------------------------------------------------ the log and chat

  function logLine(line) {
    if (!line) return;
    const list = $("#log");
    const item = make("li", { text: line });
    if (line.startsWith("── Hand #")) item.className = "hand-head";
    else if (/^\*\*\* /.test(line)) item.className = "street";
    else if (/^[╔║╚+|]/.test(line)) item.className = "frame";
    list.append(item);
    while (list.children.length > LOG_LINES) list.firstElementChild.remove();
    const box = list.parentElement;
    box.scrollTop = box.scrollHeight;
    list.scrollTop = list.scrollHeight;
  }

  function chatLine(line, note = false) {
    const list = $("#chat-lines");
    list.append(make("li", { text: line, cls: note ? "note" : null }));
    while (list.children.length > 200) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
  }

  // ------------------------------------------------------------ sound and title

  let audio = null;

  function wakeAudio() {
    if (audio || !window.AudioContext) return;
    try {
      audio = new AudioContext();
    } catch (e) {
      audio = null;
    }
  }

  function beep() {
    if (!$("#sound").checked || !audio) return;
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [at, pitch] of [[0, 660], [0.16, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + at);
      tone.stop(now + at + 0.15);
    }
  }

  // ------------------------------------------------------------ views

  function show(which) {
    $("#entry").hidden = !(which === "lobby" || which === "join");
    $("#lobby").hidden = which !== "lobby";
    $("#table").hidden = which !== "table";
    $("#join-button").hidden = which !== "join";
    document.body.dataset.view = which;
  }

  function where(text) {
    $("#where").textContent = text;
  }

  // ------------------------------------------------------------ the lobby

  function lobby() {
    show("lobby");
    where("");
    $("#entry-title").textContent = "Texas Hold'em with friends";
    $("#entry-note").textContent = "Make a table, share its link, fill the empty seats with bots.";
    gameFields();
    listTables();
  }

  /** The form's fields for the game and the betting chosen: a cash game's or a
      freezeout's, a fixed-limit table's cap (R8), lifted as the game has it
      by default until the player chooses. */
  function gameFields() {
    const cash = $("#create-game").value === "cash";
    for (const el of document.querySelectorAll(".cash-only")) el.hidden = !cash;
    for (const el of document.querySelectorAll(".tournament-only")) el.hidden = cash;
    const fixed = $("#create-structure").value === "fixed_limit";
    for (const el of document.querySelectorAll(".fixed-limit-only")) el.hidden = !fixed;
    const lifted = $("#create-heads-up-cap");
    if (!lifted.dataset.chosen) lifted.value = cash ? "two_left" : "never"; // (the server's defaults)
  }

  function playerName() {
    const name = $("#name").value.trim();
    if (!name) {
      showError("Type your name first (1 to 40 characters): the others see it at the table.");
      $("#name").focus();
      return null;
    }
    storage("holdem.name", name);
    return name;
  }

  function number(selector) {
    const text = $(selector).value.trim();
    return text === "" ? null : Number(text);
  }

  async function createTable() {
    clearError();
    const name = playerName();
    if (!name) return;
    const game = $("#create-game").value;
    const fields = { name, game, seats: number("#create-seats") || 6, public: $("#create-public").checked,
      chat: $("#create-chat").value, structure: $("#create-structure").value,
      run_it_twice: $("#create-twice").checked, show_after_hand: $("#create-show").checked,
      aggressor_may_muck: $("#create-muck").checked };
    const seconds = number("#create-timer");
    const bank = number("#create-bank");
    const protect = game === "cash" && $("#create-protect").checked; // (R13: a cash table's)
    if (seconds !== null || bank !== null || protect) {
      fields.timer = {};
      if (seconds !== null) fields.timer.seconds = seconds;
      if (bank !== null) fields.timer.time_bank = bank;
      if (protect) fields.timer.policy = "protect";
    }
    for (const [selector, field] of [["#create-pace", "pace"], ["#create-pause", "pause"]]) {
      if (number(selector) !== null) fields[field] = number(selector);
    }
    if (fields.structure === "fixed_limit") {
      if (number("#create-raise-cap") !== null) fields.raise_cap = number("#create-raise-cap");
      const lifted = $("#create-heads-up-cap");
      if (lifted.dataset.chosen) fields.heads_up_cap = lifted.value;
    }
    if (game === "tournament") {
      if (number("#create-stack") !== null) fields.stack = number("#create-stack");
      const schedule = $("#create-schedule").value.trim();
      if (schedule) fields.schedule = schedule;
    } else {
      // (amounts typed in the table's money: the request's are its chips, R9)
      const chip = $("#create-chip").value.trim();
      if (chip && (!/^\d+(\.\d+)?$/.test(chip) || Holdem.tell.toChips(chip) === 0)) {
        showError(`Chip "${chip}": a chip is a positive number, e.g. 0.5 or 25.`);
        $("#create-chip").focus();
        return;
      }
      const unit = chip ? Holdem.tell.tableUnit({ unit: chip }) : null; // (null: a chip of 1)
      if (unit) fields.unit = unit;
      const of = unit ? ` of ${unit}` : " of 1";
      const blinds = $("#create-blinds").value.trim();
      if (blinds) {
        const found = /^([\d.]+)\s*\/\s*([\d.]+)$/.exec(blinds);
        if (!found) {
          showError(`Blinds "${blinds}": write them small/big, e.g. 1/2.`);
          $("#create-blinds").focus();
          return;
        }
        const [small, big] = [Holdem.tell.toChips(found[1], unit), Holdem.tell.toChips(found[2], unit)];
        if (small === null || big === null) {
          showError(`Blinds "${blinds}": each is a whole number of chips${of}` +
            (unit ? "." : ": set the chip, e.g. 0.5 for 2.5/5."));
          $("#create-blinds").focus();
          return;
        }
        fields.small_blind = small;
        fields.big_blind = big;
      }
      for (const [selector, field, what] of [["#create-min-buy-in", "min_buy_in", "The smallest buy-in"],
        ["#create-max-buy-in", "max_buy_in", "The largest buy-in"], ["#create-buy-in", "buy_in", "Your buy-in"]]) {
        const text = $(selector).value.trim();
        if (!text) continue;
        const chips = Holdem.tell.toChips(text, unit);
        if (chips === null) {
          showError(`${what} "${text}": a whole number of chips${of}.`);
          $(selector).focus();
          return;
        }
        fields[field] = chips;
      }
      if (number("#create-hands") !== null) fields.max_hands = number("#create-hands");
      // (the session's time in the server's seconds, as holdem join --minutes sends it)
      if (number("#create-minutes") !== null) fields.max_seconds = number("#create-minutes") * 60;
    }
    $("#create-button").disabled = true;
    try {
      const made = await page.conn.request("create_table", fields);
      made.name = name;
      made.creator = true;
      history.replaceState(null, "", `/t/${made.code}`);
      page.route = { kind: "seat", code: made.code };
      seated(made, made.code, { link: made.link, watchLink: made.watch_link });
    } catch (error) {
      showError(`The table was not made: ${error.message}`);
    } finally {
      $("#create-button").disabled = false;
    }
  }

  /** A public table as the lobby lists it, in holdem join --list's words:
      "t1 · Cash · 2.5/5 · pot limit · runs it twice". */
  function tableLine(t) {
    const game = t.game === "tournament" ? "Freezeout" : "Cash";
    const twice = t.run_it_twice ? " · runs it twice" : ""; // (R10)
    return `${t.table} · ${game} · ${Holdem.tell.stakes(t)} · ${Holdem.tell.structure(t)}${twice}`;
  }

  let listing = null;

  async function listTables() {
    clearTimeout(listing);
    if (page.route.kind !== "lobby" || !page.conn || !page.conn.hello) return;
    let tables;
    try {
      tables = (await page.conn.request("list_tables")).tables;
    } catch (error) {
      showError(error.message);
      return;
    }
    const list = $("#tables");
    list.replaceChildren();
    if (!tables.length) list.append(make("li", { cls: "none", text: "No public table now: make one above and tick Public." }));
    for (const t of tables) {
      const full = t.players >= t.max_seats;
      const why = !t.joinable ? `not joinable (${t.status})` : full ? "full" : "";
      const item = make("li", { attrs: { "data-table": t.table } },
        make("span", { cls: "what", text: tableLine(t) }),
        make("span", { cls: "count", text: `${t.players}/${t.max_seats} seated · ${chips(t.hands_played || 0)} hands` }));
      const join = make("button", { text: "Join", attrs: { type: "button", "aria-label": `Join table ${t.table}` } });
      join.disabled = Boolean(why);
      if (why) join.title = why;
      join.addEventListener("click", () => joinPublic(t.table));
      const watch = make("a", { text: "Watch", cls: "button", attrs: { href: `/w/${t.table}` } });
      item.append(join, watch);
      if (why) item.append(make("span", { cls: "why", text: why }));
      list.append(item);
    }
    listing = setTimeout(listTables, 15000);
  }

  async function joinPublic(ident) {
    clearError();
    const name = playerName();
    if (!name) return;
    try {
      const joined = await page.conn.request("join", { table: ident, name });
      joined.name = name;
      history.replaceState(null, "", `/t/${ident}`);
      page.route = { kind: "seat", code: ident };
      seated(joined, ident);
    } catch (error) {
      showError(`Not seated: ${error.message}`);
    }
  }

  // ------------------------------------------------------------ coming to a table

  function askName(code, note) {
    show("join");
    where(code);
    $("#entry-title").textContent = `Table ${code}`;
    $("#entry-note").textContent = note || "Type the name the others will see, and sit down.";
    $("#name").focus();
  }

  async function joinTable(event) {
    event.preventDefault();
    if (page.route.kind !== "seat") return;
    clearError();
    const name = playerName();
    if (!name) return;
    const code = page.route.code;
    $("#join-button").disabled = true;
    try {
      const joined = await page.conn.request("join", { ...tableFields(code), name });
      joined.name = name;
      seated(joined, code);
    } catch (error) {
      showError(`Not seated: ${error.message}`);
    } finally {
      $("#join-button").disabled = false;
    }
  }

  /** At /t/CODE: back to the seat whose token this browser keeps, else the name asked. */
  async function enterSeat(code) {
    const kept = storage(SEAT_KEY(code));
    if (!kept || !kept.token || kept.ended) {
      if (kept && kept.name) $("#name").value = kept.name;
      askName(code, kept && kept.ended ? "You left this table. Sit down again?" : null);
      return;
    }
    try {
      const back = await page.conn.request("resume", { token: kept.token });
      back.creator = back.state.creator === back.seat;
      seated(back, code, { resumed: true });
    } catch (error) {
      if (error.code === "token_expired" || error.code === "unknown_token") {
        storage(SEAT_KEY(code), { ...kept, token: error.code === "token_expired" ? kept.token : null, ended: true });
        $("#name").value = kept.name || "";
        askName(code, `Your seat here is gone (${said(error)}). Sit down again?`);
      } else {
        showError(error.message);
        askName(code);
      }
    }
  }

  async function enterWatch(code) {
    const name = storage("holdem.name");
    let state;
    try {
      state = await page.conn.request("watch", { ...tableFields(code), ...(name ? { name } : {}) });
    } catch (error) {
      if (error.code !== "name_taken") {
        show("lobby");
        showError(`Cannot watch ${code}: ${error.message}`);
        listTables();
        return;
      }
      state = await page.conn.request("watch", tableFields(code)).catch((again) => {
        showError(`Cannot watch ${code}: ${again.message}`);
        return null;
      });
      if (!state) return;
    }
    begin({ table: state.table, seat: -1, token: "", state, name: "" }, code,
      `Watching table ${state.table}: the public events only, no cards before they are shown.`);
    drawHand(state.hand);
    draw();
  }

  /** A seat taken (create, join, resume): the token kept, the table drawn. */
  function seated(reply, code, { resumed = false, link = null, watchLink = null } = {}) {
    page.token = reply.token;
    page.name = reply.name || page.name;
    storage(SEAT_KEY(code), { table: reply.table, token: reply.token, name: page.name });
    if (link) page.link = link;
    if (watchLink) page.watchLink = watchLink;
    begin(reply, code);
    if (resumed) page.game.missed(reply);
    const view = reply.view;
    if (view && view.hole_cards) {
      page.model.hole = page.teller.hole = cards.parseAll(view.hole_cards);
      const mine = page.model.seats.get(page.seat);
      if (mine) mine.cards = page.model.hole;
    }
    drawHand(resumed && view ? view : reply.state.hand); // (a hand under way: drawn as it stands)
    if (!resumed && reply.creator) page.teller.say("Your table is made: share its link, add bots, and start when everyone is in.");
    draw();
    hands();
  }

  /** The table's game begun from a reply (a spectator's: seat -1), its log
      begun with `header` (a spectator's line) and, where the log begins here,
      the table's terms as holdem join and holdem watch greet with them
      (tell.js's tableTerms: a friend who opens a link learns the blinds before
      the first hand); then the events that came before it. */
  function begin(reply, code, header = null) {
    const again = page.table === reply.table; // (the connection came back: the log goes on)
    page.code = code;
    page.table = reply.table;
    page.seat = reply.seat;
    page.watching = reply.seat < 0;
    page.over = false;
    page.away = false;
    page.eliminated = false;
    page.view = null;
    page.muting = [];
    const state = reply.state;
    page.settings = state.settings || {};
    page.maxSeats = state.max_seats || page.settings.seats || 6;
    page.teller = new Holdem.Teller(null, { symbols: true, write: logLine });
    page.game = new Holdem.RoomGame(reply, page.teller);
    page.model = new Holdem.TableModel(page.watching ? null : page.seat);
    page.model.state(state);
    for (const info of state.seats || []) if (info.seat === page.seat && info.status === "away") page.away = true;
    page.agreeTwice = !(state.seats || []).some((info) => info.seat === page.seat && info.run_twice === false);
    if (!again) {
      $("#log").replaceChildren();
      $("#chat-lines").replaceChildren();
    }
    $("#seats").replaceChildren();
    show("table");
    where(`${page.watching ? "Watching" : "Table"} ${reply.table}`);
    invite();
    if (header) page.teller.say(header);
    const terms = again ? null : Holdem.tell.tableTerms(page.settings);
    if (terms) page.teller.say(terms);
    const queued = page.queued.splice(0);
    for (const message of queued) onEvent(message);
  }

  /** The hand under way when the page came in (a view: the seat's, or the
      public one of a table's state), drawn until the next hand's events. */
  function drawHand(view) {
    if (!view || !view.config) return;
    const model = page.model;
    const seats = Holdem.seatNumbers(view.config);
    model.playing = view.phase !== "complete" && !view.outcome;
    model.hand = view.config.hand_id || model.hand;
    model.button = seats[view.config.button] === undefined ? null : seats[view.config.button];
    model.board = cards.parseAll(view.board);
    model.blinds = [view.config.small_blind, view.config.big_blind, view.config.ante || 0];
    model.bigBlindAnte = Boolean(view.config.big_blind_ante);
    model.actor = view.actor === undefined ? null : view.actor;
    model.currentBet = view.current_bet || 0;
    seats.forEach((seat, i) => {
      const info = model.seat(seat, view.config.names[i] || `seat ${seat + 1}`, view.stacks[i]);
      info.bet = view.bets[i];
      info.putIn = view.contributions[i];
      info.status = view.statuses[i];
    });
    for (const shown of view.shown || []) {
      const info = model.seats.get(shown.seat);
      if (info) info.cards = cards.parseAll(shown.cards);
    }
    if (view.hole_cards) {
      model.hole = cards.parseAll(view.hole_cards);
      const mine = model.seats.get(page.seat);
      if (mine) mine.cards = model.hole;
    }
    page.teller.board = model.board.slice();
    page.teller.hand = model.hand || null;
  }

  // ------------------------------------------------------------ events

  function onEvent(message) {
    if (!page.game) {
      page.queued.push(message);
      return;
    }
    if (message.table && page.table && message.table !== page.table) return;
    const kind = message.event;
    page.model.message(message);
    const before = $("#log").children.length;
    const game = page.game;
    game.tell(message);
    if (kind === "chat") {
      const lines = [...$("#log").children].slice(before).map((li) => li.textContent);
      for (const line of lines) chatLine(line);
    }
    if (kind === "seated") {
      page.seat = message.seat;
      page.model.me = message.seat;
    } else if (kind === "turn" && message.seat === page.seat && !page.watching) {
      yourTurn(message);
    } else if (kind === "hand_started") {
      page.view = null;
    } else if (kind === "hand_ended") {
      // (the last hand ended is the one a show after it is of: were you dealt in?)
      page.dealtLast = (message.seats || []).includes(page.seat);
      handsSoon();
    } else if (kind === "player_eliminated" && message.seat === page.seat && !page.watching) {
      page.eliminated = true;
      announce(`You are out in ${Holdem.tell.ordinal(message.place)} place.`);
    } else if (kind === "away" && message.seat === page.seat) {
      page.away = true;
    } else if (kind === "seat_status" && message.seat === page.seat) {
      if (message.status === "back") page.away = false;
      if (message.status === "away") page.away = true;
    } else if (kind === "sat_in" && message.seat === page.seat) {
      page.away = false;
    } else if (kind === "table_finished") {
      finished();
    } else if (kind === "table_closed") {
      if (game.wants === "results") {
        game.wants = null;
        page.conn.request("state", { table: page.table }).then((state) => {
          if (state.results) game.cashResults(state.results);
          finished();
        }, () => finished());
      } else finished();
    } else if (kind === "seat_taken_over") {
      page.conn.stop();
      page.over = true;
      showError("This seat plays on in another page or client of yours: this page stops here.");
    } else if (kind === "table_stopped") {
      showError(`The server stopped this table: ${message.reason || "it could not store its game"}.`);
    }
    if (game.turn === null && page.model.legal) endTurn();
    draw();
  }

  // ------------------------------------------------------------ your turn

  let ticking = null;

  function yourTurn(message) {
    let view;
    try {
      view = Holdem.joinView(message.view, message.view.log_start ? page.view : null);
    } catch (error) {
      // (a delta this page cannot continue: the whole view asked for)
      page.conn.request("view", { table: page.table }).then((whole) => {
        yourTurn({ ...message, view: whole.view || whole });
      }, (again) => showError(again.message));
      return;
    }
    page.view = view;
    const seconds = message.seconds;
    const deadline = seconds === undefined || seconds === null ? null : performance.now() + seconds * 1000;
    page.model.turn(view, deadline, message.bank === undefined ? null : message.bank);
    page.turnSeconds = seconds;
    const legal = view.legal;
    if (legal.show || legal.muck) {
      act(showOrMuck(view, legal)); // (a showdown: shown, or a beaten hand mucked, as holdem join does)
      return;
    }
    drawActions();
    $("#actions").hidden = false;
    document.title = TURN_TITLE;
    beep();
    announce(`Your turn. ${spokenMenu(legal)}${seconds ? ` ${Math.round(seconds)} seconds.` : ""}`);
    clearInterval(ticking);
    ticking = setInterval(drawCountdown, 250);
    drawCountdown();
  }

  /** Shows, or mucks a hand a hand already shown beats (commands.show_or_muck). */
  function showOrMuck(view, legal) {
    if (!legal.muck || !view.hole_cards || view.board.length < 5) return { kind: "show" };
    const mine = cards.evaluate([...view.hole_cards, ...view.board]);
    let best = -1;
    for (const shown of view.shown || []) best = Math.max(best, cards.evaluate([...shown.cards, ...view.board]));
    return best > mine ? { kind: "muck" } : { kind: "show" };
  }

  function endTurn() {
    page.model.endTurn();
    $("#actions").hidden = true;
    document.title = TITLE;
    clearInterval(ticking);
  }

  function mine() {
    const view = page.view;
    if (!view) return 0;
    const at = Holdem.seatNumbers(view.config).indexOf(page.seat);
    return at < 0 ? 0 : view.bets[at];
  }

  /** The menu said for a screen reader: "call 40, raise to 80 to 1,500, or fold". */
  function spokenMenu(legal) {
    const parts = [];
    const put = mine();
    if (legal.check) parts.push("check");
    if (legal.call !== null) parts.push(`call ${money(legal.call - put)}`);
    if (legal.wager) parts.push(`${legal.wager === "bet" ? "bet" : "raise to"} ${money(legal.min_to)} to ${money(legal.max_to)}`);
    if (legal.all_in !== null && !(legal.call !== null && legal.all_in <= legal.call)) parts.push(`all in ${money(legal.all_in)}`);
    if (legal.fold) parts.push("fold");
    return parts.length > 1 ? `${parts.slice(0, -1).join(", ")}, or ${parts[parts.length - 1]}.` : `${parts[0] || ""}.`;
  }

  function drawActions() {
    const legal = page.model.legal;
    if (!legal) return;
    const put = mine();
    const button = (kind) => $(`#actions button[data-action="${kind}"]`);
    const callAllIn = legal.call !== null && legal.all_in !== null && legal.all_in <= legal.call;
    const shown = {
      fold: legal.fold,
      check: legal.check,
      call: legal.call !== null,
      bet: legal.wager === "bet",
      raise: legal.wager === "raise",
      all_in: legal.all_in !== null && !callAllIn,
    };
    for (const [kind, on] of Object.entries(shown)) {
      button(kind).hidden = !on;
      button(kind).disabled = !on;
    }
    button("fold").textContent = "Fold";
    button("check").textContent = "Check";
    if (legal.call !== null) button("call").textContent = `Call ${money(legal.call - put)}${callAllIn ? " (all in)" : ""}`;
    if (legal.all_in !== null) button("all_in").textContent = `All in ${money(legal.all_in)}`;
    const sizing = $("#actions .sizing");
    sizing.hidden = !legal.wager;
    if (legal.wager) {
      const range = $("#amount");
      const field = $("#amount-value");
      range.min = legal.min_to;
      range.max = legal.max_to;
      range.step = 1;
      field.min = moneyField(legal.min_to); // (the field in the table's money, R9)
      field.max = moneyField(legal.max_to);
      field.step = page.model.unit || "1";
      field.inputMode = page.model.unit ? "decimal" : "numeric";
      setAmount(legal.min_to);
      for (const preset of document.querySelectorAll("#actions [data-size]")) {
        preset.disabled = legal.min_to === legal.max_to;
      }
    }
    drawWager();
  }

  function setAmount(value) {
    const legal = page.model.legal;
    if (!legal || !legal.wager) return;
    const to = Math.max(legal.min_to, Math.min(legal.max_to, Math.round(Number(value) || legal.min_to)));
    $("#amount").value = String(to);
    $("#amount-value").value = moneyField(to); // (in the table's money: its chips read as money, R9)
    drawWager();
  }

  function drawWager() {
    const legal = page.model.legal;
    if (!legal || !legal.wager) return;
    const to = typedChips($("#amount-value").value) || legal.min_to;
    const button = $(`#actions button[data-action="${legal.wager}"]`);
    const all = legal.all_in !== null && to === legal.all_in ? " (all in)" : "";
    button.textContent = `${legal.wager === "bet" ? "Bet" : "Raise to"} ${money(to)}${all}`;
  }

  /** A preset's amount: min, half the pot, the pot (a pot-sized bet: the call,
      then a raise by the pot after the call, as commands.py sizes "r pot"), all in. */
  function presetAmount(size) {
    const legal = page.model.legal;
    const pot = page.view ? page.view.pot : page.model.pot;
    const afterCall = pot + legal.bet - mine();
    if (size === "min") return legal.min_to;
    if (size === "all_in") return legal.max_to;
    const part = size === "half" ? Math.floor(afterCall / 2) : afterCall;
    return Math.min(legal.max_to, Math.max(legal.min_to, legal.bet + part));
  }

  function drawCountdown() {
    const model = page.model;
    const box = $("#countdown");
    if (!model || model.deadline === null) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const left = Math.max(0, (model.deadline - performance.now()) / 1000);
    const bank = model.bank || 0;
    const own = Math.max(0, left - bank);
    const inBank = bank > 0 && left <= bank;
    box.querySelector(".own").textContent = inBank ? "Time bank" : `${Math.ceil(own)} s`;
    box.querySelector(".bank").textContent = inBank ? `${Math.ceil(left)} s left` : bank ? `+ time bank ${Math.ceil(bank)} s` : "";
    box.classList.toggle("in-bank", inBank);
    box.classList.toggle("hurry", left <= 5);
    const whole = page.turnSeconds || 1;
    box.querySelector(".fill").style.setProperty("--left", String(Math.min(1, left / whole)));
    const seat = $(`.seat[data-seat="${page.seat}"] .seat-timer`);
    if (seat) seat.style.setProperty("--left", String(Math.min(1, left / whole)));
  }

  async function act(decision) {
    const game = page.game;
    const turn = game.turn;
    if (!turn) return;
    const { deadline, bank } = page.model;
    game.acted();
    endTurn();
    try {
      const done = await page.conn.request("act", { table: page.table, action: decision });
      if (done.in_time === false) page.teller.say("Too late: the timer checked or folded for you.");
    } catch (error) {
      showError(`Not taken: ${error.message}`);
      if (error.code !== "not_your_turn" && error.code !== "no_hand" && error.code !== "connection") {
        game.turn = turn; // (the turn is still the player's: asked again)
        page.model.turn(page.view, deadline, bank);
        yourTurnAgain();
      }
    }
    draw();
  }

  function yourTurnAgain() {
    drawActions();
    $("#actions").hidden = false;
    document.title = TURN_TITLE;
    clearInterval(ticking);
    ticking = setInterval(drawCountdown, 250);
  }

  function decide(kind) {
    const legal = page.model && page.model.legal;
    if (!legal || !page.game.turn) return;
    if (kind === "bet" || kind === "raise") {
      const to = typedChips($("#amount-value").value);
      if (to === null || to < legal.min_to || to > legal.max_to) {
        showError(`${kind === "bet" ? "A bet" : "A raise"} goes to ${money(legal.min_to)} to ${money(legal.max_to)}, not ${$("#amount-value").value || "nothing"}.`);
        $("#amount-value").focus();
        return;
      }
      if (legal.all_in !== null && to === legal.all_in && to > legal.bet) act({ kind: "all_in" });
      else act({ kind, to });
      return;
    }
    act({ kind });
  }

  // ------------------------------------------------------------ drawing

  let drawing = false;

  function draw() {
    if (drawing) return;
    drawing = true;
    requestAnimationFrame(() => {
      drawing = false;
      drawNow();
    });
  }

  function drawNow() {
    if (!page.model) return;
    drawSeats();
    drawCenter();
    drawHole();
    drawControls();
    drawNames();
    if (page.model.legal) drawCountdown();
  }

  /** Where seat `seat` sits on the oval: the player's own at the bottom. */
  function place(seat) {
    const count = page.maxSeats;
    const me = page.watching || page.seat === null || page.seat < 0 ? 0 : page.seat;
    const k = (seat - me + count) % count;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / count;
    return [50 + 45 * Math.cos(angle), 50 + 40 * Math.sin(angle), angle];
  }

  function seatElement(seat) {
    let el = $(`#seats .seat[data-seat="${seat}"]`);
    if (el) return el;
    el = make("div", { cls: "seat", attrs: { "data-seat": String(seat), role: "group" } },
      make("div", { cls: "seat-box" },
        make("div", { cls: "name" }),
        make("div", { cls: "label" }),
        make("div", { cls: "stack" }),
        make("div", { cls: "state" }),
        make("div", { cls: "seat-timer", attrs: { "aria-hidden": "true" } })),
      make("div", { cls: "cards" }),
      make("div", { cls: "bet" }));
    $("#seats").append(el);
    return el;
  }

  function drawSeats() {
    const model = page.model;
    const count = Math.max(page.maxSeats, ...[...model.seats.keys()].map((s) => s + 1));
    page.maxSeats = count;
    document.querySelector("#felt").dataset.seats = String(count);
    const best = winningFive();
    for (let seat = 0; seat < count; seat += 1) {
      const el = seatElement(seat);
      const [x, y, angle] = place(seat);
      el.style.setProperty("--x", `${x.toFixed(2)}%`);
      el.style.setProperty("--y", `${y.toFixed(2)}%`);
      el.style.setProperty("--ux", (-Math.cos(angle)).toFixed(3)); // (the bet lies toward the middle)
      el.style.setProperty("--uy", (-Math.sin(angle)).toFixed(3));
      el.classList.toggle("top-half", y < 50);
      const info = model.seats.get(seat);
      const mine = !page.watching && seat === page.seat;
      el.classList.toggle("empty", !info);
      el.classList.toggle("me", mine);
      el.classList.toggle("to-act", Boolean(info) && model.actor === seat && model.playing);
      el.classList.toggle("folded", Boolean(info) && (info.status === "folded" || info.status === "mucked"));
      el.classList.toggle("out", Boolean(info) && ((info.status === "waiting" && model.hand > 0) || Boolean(info.presence)));
      el.classList.toggle("winner", Boolean(info) && model.won.some(([s, c]) => s === seat && c > 0) && !model.playing);
      const name = info ? (mine ? `${info.name} (you)` : info.name) : "Empty seat";
      el.querySelector(".name").textContent = name;
      el.querySelector(".label").textContent = info && info.label ? `${info.label} bot` : "";
      // (a room's lobby: no chips before the start, as the full screen says it)
      const dealt = Boolean(info) && (info.stack > 0 || model.hand > 0);
      const stack = el.querySelector(".stack");
      stack.textContent = info ? (dealt ? money(info.stack) : "waiting for the start") : "";
      stack.classList.toggle("not-dealt", Boolean(info) && !dealt);
      el.setAttribute("aria-label", !info ? `Seat ${seat + 1}: empty`
        : `Seat ${seat + 1}: ${name}, ${dealt ? `${money(info.stack)} chips` : "waiting for the start"}`);
      el.querySelector(".state").textContent = info ? seatState(info) : "";
      const bet = el.querySelector(".bet");
      bet.textContent = info && info.bet ? money(info.bet) : "";
      bet.classList.toggle("none", !(info && info.bet));
      if (info && info.bet) bet.setAttribute("aria-label", `bet ${money(info.bet)}`);
      else bet.removeAttribute("aria-label");
      drawSeatCards(el.querySelector(".cards"), info, mine, best);
      let button = el.querySelector(".dealer-button");
      if (info && model.button === seat && model.hand > 0) {
        if (!button) {
          button = make("span", { cls: "dealer-button", text: "D", attrs: { title: "The button", "aria-label": "the button" } });
          el.append(button);
        }
      } else if (button) button.remove();
    }
  }

  function seatState(info) {
    if (info.presence === "away") return "sitting out";
    if (info.presence === "disconnected") return "disconnected";
    if (info.presence === "out") return "out";
    return { folded: "folded", all_in: "all in", mucked: "mucked", protected: "timed out" }[info.status] || info.last;
  }

  function drawSeatCards(box, info, mine, best) {
    const want = [];
    if (info && info.cards.length) {
      for (const c of info.cards) want.push(cards.text(c));
    } else if (info && (info.status === "active" || info.status === "all_in" || info.status === "protected") && page.model.playing) {
      want.push("back", "back");
    }
    const key = want.join(" ") + (best ? best.key : "");
    if (box.dataset.drawn === key) return;
    box.dataset.drawn = key;
    box.replaceChildren(...want.map((c) => {
      if (c === "back") return cards.back({ small: true });
      const card = cards.element(c, { small: true });
      if (best) card.classList.add(best.cards.has(c) ? "best" : "dim");
      return card;
    }));
    box.classList.toggle("mine", mine);
  }

  /** The five cards of the hand that won the most at the showdown (the
      cards drawn highlighted), or null. */
  function winningFive() {
    const shown = page.model.shown;
    if (!shown.length || page.model.playing) return null;
    const top = shown.reduce((a, b) => (b.won > a.won ? b : a));
    if (!top.won) return null;
    const texts = top.best.map(cards.text);
    return { cards: new Set(texts), key: ` best:${texts.join(" ")}` };
  }

  function drawCenter() {
    const model = page.model;
    const [small, big, ante] = model.blinds;
    const info = $("#hand-info");
    if (model.hand) {
      const anted = ante ? ` ${Holdem.tell.anteName({ big_blind_ante: model.bigBlindAnte })} ${money(ante)}` : "";
      info.textContent = `Hand #${model.hand} · blinds ${money(small)}/${money(big)}${anted}`;
    } else info.textContent = page.game && page.game.started ? "The next hand is dealt soon" : "Waiting for the start";
    const best = winningFive();
    const boardKey = model.board.map(cards.text).join(" ") + (best ? best.key : "");
    const board = $("#board");
    if (board.dataset.drawn !== boardKey) {
      board.dataset.drawn = boardKey;
      const drawn = model.board.map((c) => {
        const card = cards.element(c);
        if (best) card.classList.add(best.cards.has(cards.text(c)) ? "best" : "dim");
        return card;
      });
      while (drawn.length < 5) drawn.push(make("span", { cls: "slot", attrs: { "aria-hidden": "true" } }));
      board.replaceChildren(...drawn);
    }
    const second = $("#board2"); // (a board run twice, R10: the second run's under the first)
    second.hidden = !model.secondBoard.length;
    const secondKey = model.secondBoard.map(cards.text).join(" ");
    if (second.dataset.drawn !== secondKey) {
      second.dataset.drawn = secondKey;
      second.replaceChildren(make("span", { cls: "run-label", text: "Second run" }),
        ...model.secondBoard.map((c) => cards.element(c)));
    }
    const pots = model.pots;
    let text = "";
    if (pots.length === 1) text = `Pot ${money(pots[0][0])}`;
    else if (pots.length > 1) {
      text = pots.map(([c], i) => (i === 0 ? `Main pot ${money(c)}` : `Side pot ${i}: ${money(c)}`)).join(" · ");
    } else if (!model.playing && model.won.length) {
      const total = model.won.reduce((s, [, c]) => s + c, 0);
      text = total ? `Pot ${money(total)} won` : "";
    }
    $("#pots").textContent = text;
    drawShown();
    const waiting = page.game && !page.game.started && !page.over;
    $("#waiting").hidden = !waiting;
    if (waiting) {
      const creator = page.game.creator && !page.watching;
      $("#creator-controls").hidden = !creator;
      const seatedCount = model.seats.size;
      $("#waiting-note").textContent = creator
        ? `${seatedCount} of ${page.maxSeats} seats taken. Share the link, fill empty seats with bots, and start.`
        : page.watching ? "The game has not begun yet." : "Waiting for the table's creator to start the game.";
    }
  }

  function drawShown() {
    const list = $("#shown");
    const shown = page.model.playing ? [] : page.model.shown;
    const key = shown.map((h) => `${h.seat}:${h.run}:${h.best.join(",")}:${h.won}`).join("|");
    const runs = page.model.secondBoard.length > 0;
    if (list.dataset.drawn === key) return;
    list.dataset.drawn = key;
    list.replaceChildren(...shown.map((h) => {
      const who = (!page.watching && h.seat === page.seat ? "You" : h.name) +
        (runs ? (h.run ? " (second run)" : " (first run)") : "");
      const five = make("span", { cls: "five", attrs: { "aria-label": `best five: ${h.best.map(cards.spoken).join(", ")}` } },
        ...h.best.map((c) => {
          const card = cards.element(c, { small: true });
          card.classList.add("best");
          return card;
        }));
      const words = `${who}: ${h.description}${h.kicker ? `, ${h.kicker} kicker decided` : ""}${h.won ? ` · wins ${money(h.won)}` : ""}`;
      return make("li", { cls: h.won ? "won" : null }, make("span", { cls: "words", text: words }), five);
    }));
  }

  function drawHole() {
    const model = page.model;
    const box = $("#hole");
    const out = page.eliminated && !model.hole.length;
    const key = page.watching ? "watching" : out ? "out" : model.hole.map(cards.text).join(" ");
    if (box.dataset.drawn !== key) {
      box.dataset.drawn = key;
      if (page.watching) box.replaceChildren(make("span", { cls: "note", text: "Watching: no cards of yours." }));
      else if (out) box.replaceChildren(make("span", { cls: "note", text: "You are out of the freezeout: watching it to its end." }));
      else box.replaceChildren(...model.hole.map((c) => cards.element(c)));
    }
    let made = "";
    if (!page.watching && model.hole.length && model.board.length >= 3) {
      made = cards.describe(cards.evaluate([...model.hole, ...model.board]));
    }
    if (made && model.secondBoard.length >= 3) {
      made += ` · second run: ${cards.describe(cards.evaluate([...model.hole, ...model.secondBoard]))}`;
    }
    $("#made").textContent = made;
  }

  function drawControls() {
    const game = page.game;
    const controls = $("#seat-controls");
    controls.hidden = page.watching || !game || page.over || page.eliminated;
    if (controls.hidden) return;
    const cash = page.settings.small_blind !== null && page.settings.small_blind !== undefined;
    $("#sit-out").hidden = !game.started || page.away || game.busted;
    // (R10: after a hand the player folded or won uncontested, where the table allows it)
    $("#show-cards").hidden = !page.dealtLast || page.settings.show_after_hand === false;
    // (R10: a table that runs it twice; a freezeout's once it has begun, its seats dealt)
    const twice = $("#run-twice");
    twice.hidden = !page.settings.run_it_twice || (!cash && !game.started);
    twice.textContent = `Run it twice: ${page.agreeTwice ? "yes" : "no"}`;
    twice.setAttribute("aria-pressed", String(page.agreeTwice));
    $("#back").hidden = !game.started || !page.away || game.busted;
    $("#chips-controls").hidden = !cash;
    $("#rebuy").hidden = !game.busted;
    $("#close-table").hidden = !game.creator;
    $("#add-chips").hidden = game.busted;
    const chat = page.settings.chat || "players";
    const input = $("#chat-input");
    const closed = chat === "off" || (page.watching && chat === "players");
    input.disabled = $("#chat-send").disabled = closed;
    input.placeholder = chat === "off" ? "The table's chat is off" : closed ? "Spectators read here; the players write" : "Say something";
  }

  function drawNames() {
    const list = $("#names");
    const names = [...page.model.seats.values()].map((s) => s.name).filter((n) => n !== page.name);
    const key = names.join("\n");
    if (list.dataset.drawn === key) return;
    list.dataset.drawn = key;
    list.replaceChildren(...names.map((n) => make("option", { attrs: { value: n } })));
  }

  function invite() {
    const box = $("#invite");
    box.hidden = page.watching;
    const code = page.code;
    const link = page.link && page.link.endsWith(`/t/${code}`) ? page.link : `${location.origin}/t/${code}`;
    const watch = page.watchLink && page.watchLink.endsWith(`/w/${code}`) ? page.watchLink : `${location.origin}/w/${code}`;
    $("#share-link").value = link;
    $("#watch-link").href = watch;
    $("#watch-link").textContent = watch;
  }

  // ------------------------------------------------------------ the end

  function finished() {
    page.over = true;
    endTurn();
    const ended = page.game.ended;
    const panel = $("#end");
    const places = $("#places");
    places.replaceChildren();
    const certificate = $("#certificate");
    certificate.hidden = true;
    $("#results").hidden = true;
    if (ended && ended.places) {
      $("#end-title").textContent = "The freezeout is over";
      for (const p of ended.places) {
        places.append(make("li", {}, make("span", { cls: "place", text: p.place }), make("span", { cls: "who", text: p.who }),
          make("span", { cls: "how", text: p.how })));
      }
      certificate.replaceChildren(make("p", { cls: "title", text: "Certificate of victory" }),
        make("p", { cls: "winner", text: ended.winner }), make("p", { text: "won the freezeout" }),
        ...ended.lines.map((line) => make("p", { cls: "line", text: line })));
      certificate.hidden = false;
    } else if (ended && ended.results) {
      $("#end-title").textContent = `The session is over after ${ended.hands} hand${ended.hands !== 1 ? "s" : ""}`;
      const body = $("#results tbody");
      body.replaceChildren(...ended.results.map((r) => make("tr", {},
        make("th", { text: r.who, attrs: { scope: "row" } }), make("td", { text: money(r.boughtIn) }),
        make("td", { text: money(r.cashedOut) }), make("td", { text: (r.net >= 0 ? "+" : "") + money(r.net), cls: r.net >= 0 ? "up" : "down" }),
        make("td", { text: String(r.hands) }))));
      $("#results").hidden = false;
    } else {
      $("#end-title").textContent = "The table is closed";
    }
    const kept = storage(SEAT_KEY(page.code));
    if (kept && !page.watching) storage(SEAT_KEY(page.code), { ...kept, ended: true });
    panel.hidden = false;
    announce($("#end-title").textContent);
    $("#end-close").focus();
    draw();
    hands();
  }

  // ------------------------------------------------------------ your hands

  let handsAsked = null;

  /** The list asked for again a moment after a hand ends (once, however
      many hands end meanwhile: a table of bots without pauses ends many). */
  function handsSoon() {
    if (handsAsked === null) handsAsked = setTimeout(hands, 1500);
  }

  async function hands() {
    clearTimeout(handsAsked);
    handsAsked = null;
    if (!page.table || !page.conn) return;
    let got;
    try {
      got = await page.conn.request("hands", { table: page.table });
    } catch (error) {
      return; // (nothing to list yet, or the table is gone: the list stays as it was)
    }
    const list = $("#hands");
    const latest = got.hands.slice(-20).reverse();
    list.replaceChildren(...latest.map((h) => {
      const net = h.net === null || h.net === undefined ? "" : ` · ${h.net >= 0 ? "+" : ""}${money(h.net)}`;
      const replay = make("button", { text: "Replay", attrs: { type: "button", "aria-label": `Replay hand ${h.hand}` } });
      replay.addEventListener("click", () => replayHand(h.hand));
      const phh = make("button", { text: "PHH", attrs: { type: "button", "aria-label": `Download hand ${h.hand} as PHH` } });
      phh.addEventListener("click", () => downloadHand(h.hand, "phh"));
      const text = make("button", { text: "Text", attrs: { type: "button", "aria-label": `Download hand ${h.hand} as PokerStars text` } });
      text.addEventListener("click", () => downloadHand(h.hand, "pokerstars"));
      return make("li", { attrs: { "data-hand": String(h.hand) } },
        make("span", { cls: "what", text: `Hand ${h.hand}${net}` }), replay, phh, text);
    }));
    if (!latest.length) list.append(make("li", { cls: "none", text: "No hand finished yet." }));
  }

  function save(text, filename) {
    const blob = new Blob([text], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = make("a", { attrs: { href: url, download: filename } });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  const FORMS = { phh: ".phhs", pokerstars: ".txt" };

  async function downloadHand(hand, form) {
    try {
      const got = await page.conn.request("history", { table: page.table, hand, format: form });
      save(got.text, `holdem-${page.table}-hand-${hand}${form === "phh" ? ".phh" : ".txt"}`);
    } catch (error) {
      showError(`Not written: ${said(error)}.`);
    }
  }

  /** Every hand of the seat's (a watcher's: the table's), read a request's
      most at a time at the server's rate, as one text (clients/hands.py). */
  async function downloadAll(form) {
    const limits = (page.conn.hello && page.conn.hello.limits) || {};
    const most = limits.history_hands || 100;
    const rate = limits.hands_per_second || 50;
    try {
      let listed = [];
      let before = {};
      for (;;) {
        const got = await page.conn.request("hands", { table: page.table, ...before });
        listed = got.hands.concat(listed);
        if (!got.more || !got.hands.length) break;
        before = { before: got.hands[0].hand };
      }
      if (!listed.length) {
        showError("No hand has finished yet: nothing to download.");
        return;
      }
      const numbers = listed.map((h) => h.hand);
      const texts = [];
      for (let start = 0; start < numbers.length; start += most) {
        const batch = numbers.slice(start, start + most);
        for (;;) {
          try {
            texts.push((await page.conn.request("history", { table: page.table, hands: batch, format: form })).text);
            break;
          } catch (error) {
            if (error.code !== "rate_limited") throw error;
            await new Promise((done) => setTimeout(done, (batch.length / rate) * 1000));
          }
        }
      }
      const kept = texts.filter((t) => t.trim());
      let text;
      if (form === "pokerstars") text = kept.map((t) => t.replace(/\n+$/, "")).join("\n\n") + "\n";
      else {
        let count = 0;
        text = kept.join("").replace(/^\[\d+\]$/gm, () => `[${++count}]`);
      }
      save(text, `holdem-${page.table}${FORMS[form]}`);
      const whose = page.watching ? "of table" : "of yours at table";
      chatLine(`${chips(numbers.length)} hand${numbers.length !== 1 ? "s" : ""} ${whose} ${page.table} downloaded.`, true);
    } catch (error) {
      showError(`Not written: ${said(error)}.`);
    }
  }

  // ------------------------------------------------------------ the replay

  const replay = { hand: null, steps: [], at: 0 };

  async function replayHand(hand) {
    let got;
    try {
      got = await page.conn.request("history", { table: page.table, hand, format: "pokerstars" });
    } catch (error) {
      showError(`Cannot replay hand ${hand}: ${said(error)}.`);
      return;
    }
    const steps = [[]];
    for (const line of got.text.replace(/\s+$/, "").split("\n")) {
      if (/^\*\*\* (FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) \*\*\*/.test(line)) steps.push([]);
      steps[steps.length - 1].push(line);
    }
    replay.hand = hand;
    replay.steps = steps;
    replay.at = 0;
    $("#replay").hidden = false;
    drawReplay();
    $("#replay-next").focus();
  }

  function drawReplay() {
    const shown = replay.steps.slice(0, replay.at + 1).flat();
    $("#replay-title").textContent = `Hand ${replay.hand} · step ${replay.at + 1} of ${replay.steps.length}`;
    $("#replay-lines").replaceChildren(...shown.map((line) => make("li", { text: line })));
    let board = [];
    for (const line of shown) {
      const found = /^\*\*\* (?:FLOP|TURN|RIVER) \*\*\* (.*)$/.exec(line);
      if (found) board = (found[1].match(/[2-9TJQKA][cdhs]/g) || []);
    }
    $("#replay-board").replaceChildren(...board.map((c) => cards.element(c, { small: true })));
    $("#replay-prev").disabled = replay.at === 0;
    $("#replay-next").disabled = replay.at >= replay.steps.length - 1;
    const list = $("#replay-lines");
    list.scrollTop = list.scrollHeight;
  }

  function stepReplay(step) {
    replay.at = Math.max(0, Math.min(replay.steps.length - 1, replay.at + step));
    drawReplay();
  }

  // ------------------------------------------------------------ the seat's requests

  async function ask(type, fields, refused = "Not taken") {
    try {
      return await page.conn.request(type, { table: page.table, ...fields });
    } catch (error) {
      showError(`${refused}: ${said(error)}.`);
      return null;
    }
  }

  const BACK_SAID = {
    playing: "You are dealt in again from the next hand.",
    waiting: "You are back, waiting for the big blind: blinds passed you while you were out, and you are dealt in when the big blind reaches you.",
    posting: "You post the blinds you missed and are dealt in at the next hand.",
  };

  /** Whether a button's second click in four seconds (the first asks "Sure?"). */
  function sure(button, asking) {
    if (button.classList.contains("confirm")) return true;
    const was = button.textContent;
    button.classList.add("confirm");
    button.textContent = asking;
    setTimeout(() => {
      button.classList.remove("confirm");
      button.textContent = was;
    }, 4000);
    return false;
  }

  async function close() {
    if (!sure($("#close-table"), "Sure? Close it")) return;
    const closed = await ask("close", {});
    if (closed && !closed.closed) page.teller.say("The table closes at the end of this hand.");
  }

  async function leave() {
    if (!sure($("#leave"), "Sure? Leave")) return;
    const left = await ask("leave", {});
    if (left === null) return;
    const kept = storage(SEAT_KEY(page.code));
    if (kept) storage(SEAT_KEY(page.code), { ...kept, ended: true }); // (its token still reads the seat's hands)
    page.teller.say("You left the table.");
    page.over = true;
    endTurn();
    draw();
  }

  // ------------------------------------------------------------ keys

  function typing(target) {
    return target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
      && !(target.type === "range");
  }

  function onKey(event) {
    wakeAudio();
    if (event.key === "Escape") {
      if (!$("#replay").hidden) $("#replay").hidden = true;
      else if (!$("#end").hidden) $("#end").hidden = true;
      return;
    }
    if (!$("#replay").hidden) {
      if (event.key === "ArrowRight" || event.key === " ") stepReplay(1);
      else if (event.key === "ArrowLeft") stepReplay(-1);
      else return;
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const legal = page.model && page.model.legal;
    if (!legal || !page.game || !page.game.turn) return;
    const key = event.key.toLowerCase();
    if (key === "f" && legal.fold) decide("fold");
    else if (key === "c" && legal.call !== null) decide("call");
    else if ((key === "c" || key === "k" || key === "x") && legal.check) decide("check");
    else if ((key === "b" || key === "r") && legal.wager) {
      const field = $("#amount-value");
      field.focus();
      field.select();
    } else if (key === "a" && legal.all_in !== null) decide("all_in");
    else if (event.key === "Enter" && legal.wager && event.target.tagName !== "BUTTON") decide(legal.wager);
    else return;
    event.preventDefault();
  }

  // ------------------------------------------------------------ wiring

  function wire() {
    $("#join-form").addEventListener("submit", joinTable);
    $("#create-form").addEventListener("submit", (event) => {
      event.preventDefault();
      createTable();
    });
    $("#create-game").addEventListener("change", gameFields);
    $("#create-structure").addEventListener("change", gameFields);
    $("#create-heads-up-cap").addEventListener("change", () => {
      $("#create-heads-up-cap").dataset.chosen = "yes";
    });
    $("#refresh-tables").addEventListener("click", listTables);
    $("#four-colour").addEventListener("change", () => {
      document.body.classList.toggle("four-colour", $("#four-colour").checked);
      storage("holdem.fourColour", $("#four-colour").checked);
    });
    $("#sound").addEventListener("change", () => {
      wakeAudio();
      storage("holdem.sound", $("#sound").checked);
    });
    for (const button of document.querySelectorAll("#actions [data-action]")) {
      button.addEventListener("click", () => decide(button.dataset.action));
    }
    for (const preset of document.querySelectorAll("#actions [data-size]")) {
      preset.addEventListener("click", () => setAmount(presetAmount(preset.dataset.size)));
    }
    $("#amount").addEventListener("input", () => {
      $("#amount-value").value = moneyField(Number($("#amount").value));
      drawWager();
    });
    $("#amount-value").addEventListener("input", () => {
      const typed = typedChips($("#amount-value").value);
      if (typed !== null) $("#amount").value = String(typed);
      drawWager();
    });
    $("#amount-value").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && page.model && page.model.legal && page.model.legal.wager) {
        event.preventDefault();
        decide(page.model.legal.wager);
      } else if (event.key === "Escape") event.target.blur();
    });
    $("#add-bots").addEventListener("click", async () => {
      const wanted = Math.max(1, Number($("#bot-count").value) || 1);
      const added = await ask("add_bots", { count: wanted, level: $("#bot-level").value });
      if (added && added.seats.length < wanted) {
        const n = added.seats.length;
        showError(`${n} bot${n !== 1 ? "s" : ""} added, not ${wanted}: the table had ${n} empty seat${n !== 1 ? "s" : ""}.`);
      }
    });
    $("#start-button").addEventListener("click", async () => {
      if (await ask("start", {})) {
        page.game.started = true;
        draw();
      }
    });
    $("#copy-link").addEventListener("click", async () => {
      const field = $("#share-link");
      try {
        await navigator.clipboard.writeText(field.value);
        $("#copy-link").textContent = "Copied";
      } catch (error) {
        field.select(); // (no clipboard here: the link is selected to copy by hand)
        $("#copy-link").textContent = "Selected";
      }
      setTimeout(() => {
        $("#copy-link").textContent = "Copy";
      }, 2000);
    });
    $("#run-twice").addEventListener("click", async () => {
      const said = await ask("run_twice", { agree: !page.agreeTwice });
      if (said) {
        page.agreeTwice = said.agree;
        page.teller.say(said.agree ? "You agree to run it twice from the next hand (where everyone left is all in and agrees)."
          : "You said no to running it twice: from the next hand, the board is run once.");
        draw();
      }
    });
    $("#show-cards").addEventListener("click", async () => {
      await ask("show", {}, "Not shown"); // (cards_shown tells it, to everyone)
    });
    $("#sit-out").addEventListener("click", async () => {
      if (await ask("sit_out", {})) {
        page.away = true;
        page.teller.say("You sit out from the next hand: your seat is kept, the blinds pass you by. Press Back to be dealt in again.");
        draw();
      }
    });
    $("#back").addEventListener("click", async () => {
      const back = await ask("back", {});
      if (back) {
        page.away = false;
        page.teller.say(BACK_SAID[back.status] || "You are back in your seat.");
        draw();
      }
    });
    $("#add-chips").addEventListener("click", async () => {
      const amount = typedChips($("#chips-amount").value);
      if (amount === null || amount <= 0) {
        showError(page.model.unit === null ? "Type how many chips to add (a whole number)."
          : `Type how much to add (a whole number of chips of ${page.model.unit}).`);
        $("#chips-amount").focus();
        return;
      }
      await ask("add_chips", { chips: amount });
    });
    $("#rebuy").addEventListener("click", async () => {
      const typed = typedChips($("#chips-amount").value);
      const amount = typed !== null && typed > 0 ? typed : page.settings.max_buy_in;
      if (await ask("add_chips", { chips: amount })) {
        page.game.busted = false;
        draw();
      }
    });
    $("#leave").addEventListener("click", leave);
    $("#close-table").addEventListener("click", close);
    $("#chat-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("#chat-input");
      const text = input.value.trim();
      if (!text) return;
      const most = page.conn.hello && page.conn.hello.limits && page.conn.hello.limits.chat_chars;
      if (Number.isInteger(most) && text.length > most) {
        showError(`Not said: a chat line is at most ${most} characters, and this one has ${chips(text.length)}.`);
        return;
      }
      const done = await ask("chat", { text }, "Not said");
      if (done) {
        input.value = "";
        if (page.watching && typeof done.name === "string") page.teller.myName = done.name; // (a spectator's own lines: You)
      }
    });
    $("#mute-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = $("#mute-name").value.trim();
      if (!name) return;
      const done = await ask("mute", { name, muted: true });
      if (done) {
        $("#mute-name").value = "";
        chatLine(`${escaped(name)}'s chat lines no longer reach you (Unmute below: they do again).`, true);
        drawMuted(done.muting || []);
      }
    });
    $("#download-phh").addEventListener("click", () => downloadAll("phh"));
    $("#download-pokerstars").addEventListener("click", () => downloadAll("pokerstars"));
    $("#replay-prev").addEventListener("click", () => stepReplay(-1));
    $("#replay-next").addEventListener("click", () => stepReplay(1));
    $("#replay-close").addEventListener("click", () => {
      $("#replay").hidden = true;
    });
    $("#end-close").addEventListener("click", () => {
      $("#end").hidden = true;
    });
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", wakeAudio);
  }

  function drawMuted(names) {
    $("#muted").replaceChildren(...names.map((name) => {
      const unmute = make("button", { text: "Unmute", attrs: { type: "button", "aria-label": `Unmute ${name}` } });
      unmute.addEventListener("click", async () => {
        const done = await ask("mute", { name, muted: false });
        if (done) {
          chatLine(`${escaped(name)}'s chat lines reach you again.`, true);
          drawMuted(done.muting || []);
        }
      });
      return make("li", {}, make("span", { text: name }), unmute);
    }));
  }

  // ------------------------------------------------------------ the start

  function route() {
    const path = location.pathname;
    const found = /^\/([tw])\/([^/]+)\/?$/.exec(path);
    if (!found) return { kind: "lobby", code: "" };
    return { kind: found[1] === "t" ? "seat" : "watch", code: decodeURIComponent(found[2]) };
  }

  /** The connection is open (again): to the lobby, back to the seat, or watching. */
  function opened() {
    $("#connection").textContent = "";
    document.body.classList.remove("offline");
    const r = page.route;
    if (page.table && !page.over) {
      // (the connection came back: the seat resumed with its token, or the table watched again)
      page.queued = [];
      if (page.watching) enterWatch(page.code);
      else enterSeat(page.code);
      return;
    }
    if (r.kind === "seat") enterSeat(r.code);
    else if (r.kind === "watch") enterWatch(r.code);
    else lobby();
  }

  function lost(wait) {
    if (page.over) {
      page.conn.stopped = true; // (the game is over: the page stays as it ended)
      $("#connection").textContent = "Disconnected: the game is over.";
      return;
    }
    document.body.classList.add("offline");
    $("#connection").textContent = `Connection lost: trying again in ${wait} s…`;
    if (page.game) {
      page.game = null; // (the events after the connection comes back begin a new telling)
      page.queued = [];
    }
    endTurnQuietly();
  }

  function endTurnQuietly() {
    $("#actions").hidden = true;
    document.title = TITLE;
    clearInterval(ticking);
  }

  function start() {
    $("#name").value = storage("holdem.name") || "";
    const four = storage("holdem.fourColour");
    $("#four-colour").checked = Boolean(four);
    document.body.classList.toggle("four-colour", Boolean(four));
    const sound = storage("holdem.sound");
    $("#sound").checked = sound === null ? true : Boolean(sound);
    page.route = route();
    wire();
    gameFields();
    page.conn = new Connection(onEvent, opened, lost);
    page.conn.open();
  }

  Holdem.app = { page, tableFields, showOrMuck, presetAmount };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(globalThis.Holdem = globalThis.Holdem || {});
