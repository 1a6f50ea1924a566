/* Cards for the page (Holdem.cards): parsed from "As", drawn as cards, and a
   hand evaluator that mirrors holdem's: the best five of 5 to 7 cards, its
   category, its description worded as holdem.describe(holdem.evaluate(cards))
   and the kicker that decided, as holdem/clients/model.py computes it
   (tests/test_web_page.py holds it to the Python on thousands of hands).

   A card is an integer 0..51, rank * 4 + suit (ranks 2..A = 0..12, suits
   c d h s = 0..3), as in holdem.cards.  A hand value is an integer, higher
   is better and equal values tie: the category times 13^5 plus the five
   ranks in the order players read them (13^4, 13^3 ... 1). */
(function (Holdem) {
  "use strict";

  const RANKS = "23456789TJQKA";
  const SUITS = "cdhs";
  const SYMBOLS = "\u2663\u2666\u2665\u2660"; // ♣ ♦ ♥ ♠
  const RANK_NAMES = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace"];
  const PLURAL = RANK_NAMES.map((name) => name + (name === "Six" ? "es" : "s"));
  const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
  const LABELS = [null, "High Card", "One Pair", "Two Pair", "Three of a Kind", "Straight",
    "Flush", "Full House", "Four of a Kind", "Straight Flush"];
  const CATEGORY = { HIGH_CARD: 1, ONE_PAIR: 2, TWO_PAIR: 3, THREE_OF_A_KIND: 4, STRAIGHT: 5,
    FLUSH: 6, FULL_HOUSE: 7, FOUR_OF_A_KIND: 8, STRAIGHT_FLUSH: 9 };
  const BASE = 13 ** 5;
  // (the places of a value's ranks that are kickers, by category: holdem.evaluator._KICKS)
  const KICKS = { 8: 4, 4: 3, 3: 4, 2: 2, 6: 1, 1: 1 };

  /** The card of its text ("As", "Td"; "10d" too); an Error naming it otherwise. */
  function parse(text) {
    if (typeof text === "number") {
      if (Number.isInteger(text) && text >= 0 && text < 52) return text;
      throw new Error(`card ${text} is out of range 0..51`);
    }
    const t = String(text).trim();
    const body = t.startsWith("10") ? "T" + t.slice(2) : t;
    const rank = RANKS.indexOf(body.charAt(0).toUpperCase());
    const suit = SUITS.indexOf(body.charAt(1).toLowerCase());
    if (body.length !== 2 || rank < 0 || suit < 0) throw new Error(`unknown card "${t}"`);
    return rank * 4 + suit;
  }

  /** The cards of a list of texts or ints. */
  function parseAll(cards) {
    return Array.from(cards || [], parse);
  }

  /** The text of a card: 51 -> "As". */
  function text(card) {
    const c = parse(card);
    return RANKS[c >> 2] + SUITS[c & 3];
  }

  /** The value of exactly five cards (ints). */
  function valueOfFive(c) {
    const counts = new Array(13).fill(0);
    for (const card of c) counts[card >> 2] += 1;
    const groups = []; // [count, rank], most cards first, then the higher rank
    for (let r = 12; r >= 0; r -= 1) if (counts[r]) groups.push([counts[r], r]);
    groups.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    const flush = c.every((card) => (card & 3) === (c[0] & 3));
    let top = -1;
    if (groups.length === 5) {
      if (groups[0][1] - groups[4][1] === 4) top = groups[0][1];
      else if (groups[0][1] === 12 && groups[1][1] === 3) top = 3; // (the wheel: five high)
    }
    let ranks;
    if (top >= 0) ranks = top === 3 && groups[0][1] === 12 ? [3, 2, 1, 0, 12] : [top, top - 1, top - 2, top - 3, top - 4];
    else ranks = groups.flatMap(([count, rank]) => new Array(count).fill(rank));
    let category;
    if (top >= 0 && flush) category = CATEGORY.STRAIGHT_FLUSH;
    else if (groups[0][0] === 4) category = CATEGORY.FOUR_OF_A_KIND;
    else if (groups[0][0] === 3 && groups[1][0] === 2) category = CATEGORY.FULL_HOUSE;
    else if (flush) category = CATEGORY.FLUSH;
    else if (top >= 0) category = CATEGORY.STRAIGHT;
    else if (groups[0][0] === 3) category = CATEGORY.THREE_OF_A_KIND;
    else if (groups[0][0] === 2 && groups[1][0] === 2) category = CATEGORY.TWO_PAIR;
    else if (groups[0][0] === 2) category = CATEGORY.ONE_PAIR;
    else category = CATEGORY.HIGH_CARD;
    return category * BASE + ranks.reduce((sum, r) => sum * 13 + r, 0);
  }

  /** Calls back with every five of the cards, in itertools.combinations' order. */
  function eachFive(cards, visit) {
    const n = cards.length;
    for (let a = 0; a < n - 4; a += 1)
      for (let b = a + 1; b < n - 3; b += 1)
        for (let c = b + 1; c < n - 2; c += 1)
          for (let d = c + 1; d < n - 1; d += 1)
            for (let e = d + 1; e < n; e += 1)
              if (visit([cards[a], cards[b], cards[c], cards[d], cards[e]]) === false) return;
  }

  function checked(cards) {
    const parsed = parseAll(cards);
    if (parsed.length < 5 || parsed.length > 7) throw new Error(`a hand has 5 to 7 cards, got ${parsed.length}`);
    if (new Set(parsed).size !== parsed.length) throw new Error("a card is there twice");
    return parsed;
  }

  /** The value of the best five of 5, 6 or 7 cards (texts or ints). */
  function evaluate(cards) {
    let best = 0;
    eachFive(checked(cards), (five) => {
      best = Math.max(best, valueOfFive(five));
    });
    return best;
  }

  /** The category of a value: 1 (high card) .. 9 (straight flush). */
  function category(value) {
    return Math.floor(value / BASE);
  }

  /** The five ranks of a value in the order players read them (a wheel ends with its ace). */
  function ranks(value) {
    const out = [];
    let rest = value % BASE;
    for (let i = 0; i < 5; i += 1) {
      out.unshift(rest % 13);
      rest = Math.floor(rest / 13);
    }
    return out;
  }

  /** A value as players say it: "Two Pair, Kings and Nines" (holdem.describe). */
  function describe(value) {
    const r = ranks(value);
    switch (category(value)) {
      case CATEGORY.STRAIGHT_FLUSH:
        return r[0] === 12 ? "Royal Flush" : `Straight Flush, ${RANK_NAMES[r[0]]} high`;
      case CATEGORY.FOUR_OF_A_KIND:
        return `Four of a Kind, ${PLURAL[r[0]]}`;
      case CATEGORY.FULL_HOUSE:
        return `Full House, ${PLURAL[r[0]]} full of ${PLURAL[r[3]]}`;
      case CATEGORY.FLUSH:
        return `Flush, ${RANK_NAMES[r[0]]} high`;
      case CATEGORY.STRAIGHT:
        return `Straight, ${RANK_NAMES[r[0]]} high`;
      case CATEGORY.THREE_OF_A_KIND:
        return `Three of a Kind, ${PLURAL[r[0]]}`;
      case CATEGORY.TWO_PAIR:
        return `Two Pair, ${PLURAL[r[0]]} and ${PLURAL[r[2]]}`;
      case CATEGORY.ONE_PAIR:
        return `One Pair, ${PLURAL[r[0]]}`;
      default:
        return `High Card, ${RANK_NAMES[r[0]]}`;
    }
  }

  /** The five cards that make the hand, in the order players read them
      (holdem.best_five: the first five, in the cards' order, that make the
      value; within a rank spades first). */
  function bestFive(cards) {
    const parsed = checked(cards);
    const value = evaluate(parsed);
    let five = null;
    eachFive(parsed, (some) => {
      if (valueOfFive(some) !== value) return true;
      five = some;
      return false;
    });
    const left = five.slice().sort((a, b) => b - a);
    return ranks(value).map((rank) => left.splice(left.findIndex((c) => c >> 2 === rank), 1)[0]);
  }

  /** The rank (0..12) of the kicker by which `value` beats `other`, or null
      when no kicker decides (holdem.deciding_kicker). */
  function decidingKicker(value, other) {
    if (value <= other || category(value) !== category(other)) return null;
    const first = KICKS[category(value)];
    if (first === undefined) return null;
    const mine = ranks(value);
    const theirs = ranks(other);
    for (let i = 0; i < first; i += 1) if (mine[i] !== theirs[i]) return null;
    for (let i = first; i < 5; i += 1) if (mine[i] !== theirs[i]) return mine[i];
    return null;
  }

  /** "Ace of spades": a card as a screen reader says it. */
  function spoken(card) {
    const c = parse(card);
    return `${RANK_NAMES[c >> 2]} of ${SUIT_NAMES[c & 3]}`;
  }

  /** A card drawn as a card: its rank and suit symbol, coloured by its suit
      (the CSS: red and black, or four colours); data-card its text. */
  function element(card, { small = false } = {}) {
    const c = parse(card);
    const el = document.createElement("span");
    el.className = `card suit-${SUITS[c & 3]}` + (small ? " small" : "");
    el.dataset.card = text(c);
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", spoken(c));
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = RANKS[c >> 2] === "T" ? "10" : RANKS[c >> 2];
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SYMBOLS[c & 3];
    rank.setAttribute("aria-hidden", "true");
    suit.setAttribute("aria-hidden", "true");
    el.append(rank, suit);
    return el;
  }

  /** A card face down (no data-card: nobody's card is in the page). */
  function back({ small = false } = {}) {
    const el = document.createElement("span");
    el.className = "card back" + (small ? " small" : "");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", "a card face down");
    return el;
  }

  Holdem.cards = {
    RANKS, SUITS, SYMBOLS, RANK_NAMES, SUIT_NAMES, LABELS, CATEGORY,
    parse, parseAll, text, evaluate, category, ranks, describe, bestFive, decidingKicker,
    spoken, element, back,
  };
})(globalThis.Holdem = globalThis.Holdem || {});
