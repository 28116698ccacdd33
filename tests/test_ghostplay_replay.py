"""Ghost Play traces replayed against the rules from their TEXT alone.

`fairplay trace --private` prints one game; `Replay` reads nothing but those lines (the header,
the cards named in them, every decision, every draw a seat privately sees, the end of each turn)
and checks them against the rules of docs/rules/ghostplay.md: the Taoist cards and the ghost-deck
cards are conserved, spirit power moves only as a rule says, every action is legal when it is
taken (whose turn, which cards a hand holds, who may be challenged, whom a ghost possesses), a
ghost king rises exactly when rule (a) or (b) says, and the game ends exactly when the ghost deck
is empty at the end of a turn, won as the points or the seal say. It runs over every built-in
config in configs/ghostplay/ (their rule knobs at the defaults), a few seeds each, and over the
example deck with two knobs the replay also follows (every player's card windows, two exorcisms
a turn).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.setup import config
from simulator.run import runner

CONFIGS = sorted(str(p) for p in (Path(__file__).resolve().parent.parent / "configs" /
                                  "ghostplay").glob("*.toml"))
SEEDS = (1, 2, 3)
ARTIFACTS = next(path for path in CONFIGS if path.endswith("artifacts.toml"))

NUM = r"(\d+)"
CARD = r"(\S+) \((.*)\)"  # a card's name and its description in brackets
RE = {name: re.compile(pattern) for name, pattern in {
    "header": r"^PROVISIONAL rules in this game .*ghost deck of (\d+) cards .*Taoist deck of "
              r"(\d+) cards, seal .* lives breaking (when the game ends|at once), the game ends "
              r"when the ghost deck empties, reward '(each|pool)'",
    "changed": r"^setup: changed setting: (.*)$",
    "identity": r"^\(private\) setup: seat (\d+) is dealt \S+ (taiping|tianshi|evil)$",
    "king_card": r"^setup: ghost-king card \d+ is the candidate ghost king: its seal breaks "
                 r"with (\d+) lives$",
    "first": r"^setup: seat (\d+) is the first player$",
    "drawn": r"^ +\(private\) seat (\d+) draws (\d+) x (\S+) \((red|blue), value (\d+), "
             r"([^)]*)\): (\d+) of them in hand$",
    "piles": r"^ +Taoist cards: (\d+) in the draw pile, (\d+) discarded$",
    "reshuffle": r"^ +reshuffle: the discards are shuffled into a new draw pile \((\d+) "
                 r"time\(s\)\)$",
    "turn": r"^== turn (\d+): seat (\d+)( \(the ghost king\))? ==$",
    "draw": r"^ +draw: seat (\d+) draws (\d+) Taoist card\(s\)( \(its artifact gives (\d+) "
            r"spirit power\))?$",
    "buy": r"^ +day: seat (\d+) buys (\d+) Taoist card\(s\) with spirit power \((\d+) left\)$",
    "buy_none": r"^ +day: seat (\d+) buys nothing \((\d+) spirit power\)$",
    "artifact": r"^ +day: seat (\d+) sets the artifact (\S+) \(.*?\) in front of "
                r"itself(, replacing (\S+) .*)?$",
    "spell": r"^ +(day|before the haunting|after the haunting): seat (\d+) plays (\S+) \(.*\)$",
    "declined": r"^ +seat (\d+) passes: (.*)$",
    "reveal": r"^ +haunting: seat (\d+) reveals " + CARD + r" \((\d+) left in the ghost deck\)$",
    "possess": r"^ +haunting: " + CARD + r" possesses seat (\d+): (\d+) ghost\(s\) on it, "
               r"(\d+) in play$",
    "unpossessed": r"^ +haunting: " + CARD + r" finds no eligible player and is set aside$",
    "event": r"^ +event resolved: " + CARD + r" \[(drain|gift|draw|another)\]$",
    "exorcise": r"^ +exorcism: seat (\d+) hosts the exorcism of " + CARD + r" on seat (\d+)$",
    "summon": r"^ +summoning: the ghost king \(seat (\d+)\) summons " + CARD +
              r" on seat (\d+)$",
    "vote": r"^ +vote: seat (\d+) places (\d+) card\(s\) face down$",
    "vote_cards": r"^ +\(private\) seat (\d+) places (\d+) x (\S+) \(.*\): (\d+) of them left "
                  r"in hand$",
    "challenge": r"^ +challenge: seat (\d+) challenges seat (\d+): (\d+) positive, (?:no "
                 r"negative -> the exorcism fails|(\d+) negative -> seat \d+'s cards are "
                 r"discarded)$",
    "shown": r"^ +(?:\(private\) )?seat (\d+)'s vote: (\d+) positive, (\d+) negative \(vote "
             r"value\), (.*)$",
    "count": r"^ +count: net (-?\d+) \((\d+) positive, (\d+) negative, shuffled\) against "
             r"requirement (\d+): (dispelled|the ghost stays)$",
    "dispel": r"^ +dispelled: " + CARD + r" leaves seat (\d+); it goes face down in front of "
              r"seat (\d+) as points \((\d+) in all\)$",
    "life": r"^ +summoned: " + CARD + r" leaves seat (\d+) and becomes a life of the ghost king "
            r"\((\d+) lives\)$",
    "look": r"^ +\(private\) look: seat (\d+) looks at seat (\d+)'s identity: \S+ (\S+)$",
    "reward": r"^ +reward: seat (\d+) gets (\d+) spirit power \((\d+) participant\(s\)\)$",
    "rise": r"^ +RISE: seat (\d+) \(\S+ (\S+)\) becomes the ghost king by rule \((a|b)\)"
            r"(?:: the 7th ghost, (\S+) .*)?.* \((\d+) ghosts on it\)$",
    "prevented": r"^ +a dispel this turn prevented (\d+) rise\(s\) of a ghost king$",
    "seat_end": r"^ +end of turn: seat (\d+) has (\d+) spirit power, (\d+) card\(s\), (\d+) "
                r"ghost\(s\), (\d+) point\(s\), artifact (none|(\S+) .*)$",
    "turn_end": r"^== end of turn (\d+): (\d+) ghost\(s\) in play, (\d+) in the draw pile, "
                r"(\d+) discarded, (\d+) left in the ghost deck, (\d+) lives ==$",
    "seal": r"^ +the seal breaks: the ghost king \(seat (\d+)\) holds (\d+) lives, the seal "
            r"needs (\d+)$",
    "end": r"^END: (.*)$",
    "spent": r"^ +the turn ends: the (\d+) other card\(s\) played in it are discarded$",
}.items()}

GHOST = re.compile(r"^(red|blue) ghost, requirement (\d+), (\d+) point\(s\), possesses the "
                   r"(.*), reward ([\d/]+) or pool (\d+)$")
EVENT_AMOUNT = re.compile(r"(\d+)")
DRAW, CARD_COST, KING_DRAW, START_SPIRIT = 2, 2, 1, 4  # the rules' numbers (no knob changed)


class Replay:
    """The game as the trace tells it; `line(text)` checks one line against the rules."""

    def __init__(self):
        self.n = 0
        self.identity = {}
        self.types = {}        # card type name -> (colour, value, play, effect, amount)
        self.type_order = []   # card types in order of first sight (votes name each type)
        self.hand = {}         # seat -> {type: count}
        self.spirit = {}
        self.points = {}
        self.artifact = {}
        self.in_play = []      # [card name, seat], in arrival order
        self.ghost_info = {}   # card name -> (colour, requirement, points, possess, reward)
        self.pile = self.discard = 0
        self.king = -1
        self.lives = 0
        self.turn = 0
        self.turn_player = -1
        self.first = -1
        self.deck_left = None
        self.expect_end = False
        self.ended = False
        self.exorcism = None
        self.another = 0
        self.spent = 0         # other cards played this turn: out until the turn ends
        self.over = False      # the turn's other cards discarded: only its end is left
        self.per_turn = 1      # rules.exorcisms_per_turn
        self.every_window = False  # rules.card_windows = "every-window"

    # --- helpers ---
    def hand_size(self, s):
        return sum(self.hand[s].values())

    def ghosts_on(self, s):
        return sum(1 for _, seat in self.in_play if seat == s)

    def warded(self, s):
        a = self.artifact[s]
        return a is not None and self.types[a][3] == "ward"

    def ghost(self, name, text):
        match = GHOST.match(text)
        assert match, text
        colour, requirement, points, possess, reward, _pool = match.groups()
        info = (colour, int(requirement), int(points), possess,
                [int(r) for r in reward.split("/")])
        assert self.ghost_info.setdefault(name, info) == info
        return info

    def possession_target(self, possess, p):
        n = self.n
        order = [(p + k) % n for k in range(n)]
        if possess == "turn player":
            chosen = p
        elif possess == "right neighbour":
            chosen = (p + 1) % n
        elif possess == "most spirit":  # ties: the first met going right from p
            chosen = max(order, key=lambda s: (self.spirit[s], -order.index(s)))
        else:
            chosen = min(order, key=lambda s: (self.hand_size(s), order.index(s)))
        for k in range(n):  # not the ghost king, not a warded player: the next to the right
            s = (chosen + k) % n
            if s != self.king and not self.warded(s):
                return s
        return -1

    def take(self, s, name, count):
        assert self.hand[s].get(name, 0) >= count, (s, name, count, self.hand[s])
        self.hand[s][name] -= count

    # --- one line ---
    def line(self, text):
        assert not self.ended, f"a line after the end: {text}"
        for name, pattern in RE.items():
            match = pattern.match(text)
            if match:
                assert not self.over or name in ("seat_end", "turn_end", "seal", "end", "turn"), \
                    f"after the turn's other cards were discarded: {text}"
                getattr(self, f"on_{name}")(*match.groups())
                return
        raise AssertionError(f"a line no rule explains: {text!r}")

    def on_header(self, ghosts, taoist, seal_when, reward):
        self.ghost_size, self.taoist_size = int(ghosts), int(taoist)
        self.deck_left = self.ghost_size
        self.pile = self.taoist_size
        assert seal_when == "when the game ends" and reward == "each"

    def on_changed(self, setting):
        # the built-in configs change decks only; of the rule knobs the replay follows two
        if setting.startswith("rules.exorcisms_per_turn = "):
            self.per_turn = int(setting.rsplit(" ", 1)[1])
        elif setting == 'rules.card_windows = "every-window"':
            self.every_window = True
        else:
            assert not setting.startswith("rules."), setting

    def on_identity(self, s, identity):
        s = int(s)
        assert s == self.n  # every seat in order
        self.n += 1
        self.identity[s] = identity
        self.hand[s] = {}
        self.spirit[s] = START_SPIRIT
        self.points[s] = 0
        self.artifact[s] = None

    def on_king_card(self, seal):
        self.seal = int(seal)

    def on_first(self, s):
        self.first = int(s)

    def on_drawn(self, s, count, name, colour, value, play, in_hand):
        s, count = int(s), int(count)
        play_kind, _, effect = play.partition(": ")
        effect, _, amount = effect.partition(" ")
        info = (colour, int(value), play_kind, effect or None, int(amount or 0))
        assert self.types.setdefault(name, info) == info
        if name not in self.type_order:
            self.type_order.append(name)
        self.hand[s][name] = self.hand[s].get(name, 0) + count
        assert self.hand[s][name] == int(in_hand)
        self.pile -= count
        assert self.pile >= 0

    def on_reshuffle(self, times):
        # the discards become the draw pile (the draws told with it came off both)
        self.pile += self.discard
        self.discard = 0

    def on_piles(self, pile, discard):
        assert (self.pile, self.discard) == (int(pile), int(discard))
        self.check_conservation()

    def check_conservation(self):
        held = sum(self.hand_size(s) for s in range(self.n))
        fronts = sum(1 for s in range(self.n) if self.artifact[s] is not None)
        assert self.pile + self.discard + self.spent + held + fronts == self.taoist_size

    def on_turn(self, turn, p, king):
        turn, p = int(turn), int(p)
        assert not self.expect_end, "a turn after the ghost deck emptied"
        assert turn == self.turn + 1
        expected = self.first if turn == 1 else (self.turn_player + 1) % self.n
        assert p == expected, "turns go to the right-hand neighbour"
        assert bool(king) == (p == self.king)
        self.turn, self.turn_player = turn, p
        self.over = False
        self.hosted = 0
        self.third = set()
        self.cleared = set()
        self.seventh = None
        self.seventh_gone = False
        self.rose = None
        self.phase = "draw"

    def drawable(self):
        return self.pile + self.discard

    def on_draw(self, s, drawn, _gives, gives):
        s, drawn = int(s), int(drawn)
        assert s == self.turn_player
        if s == self.king:
            expected = KING_DRAW
        else:
            assert self.phase == "draw"
            expected = DRAW
            a = self.artifact[s]
            if a is not None and self.types[a][2] == "artifact" and self.types[a][3] == "draw":
                expected += self.types[a][4]
            if a is not None and self.types[a][3] == "spirit":
                assert int(gives or 0) == self.types[a][4]
                self.spirit[s] += self.types[a][4]
            else:
                assert gives is None
        assert drawn == min(expected, self.drawable())
        self.phase = "day"

    def on_buy(self, s, bought, left):
        s, bought = int(s), int(bought)
        assert s == self.turn_player != self.king and self.phase == "day"
        assert bought * CARD_COST <= self.spirit[s] and bought <= self.drawable()
        self.spirit[s] -= bought * CARD_COST
        assert self.spirit[s] == int(left)

    def on_buy_none(self, s, spirit):
        assert int(s) == self.turn_player and self.spirit[int(s)] == int(spirit)

    def on_artifact(self, s, name, _replacing, replaced):
        s = int(s)
        assert s == self.turn_player != self.king and self.types[name][2] == "artifact"
        self.take(s, name, 1)
        assert replaced == self.artifact[s]  # a second replaces the first, discarded
        if replaced is not None:
            self.discard += 1
        self.artifact[s] = name

    def on_spell(self, window, s, name):
        s = int(s)
        assert self.types[name][2] == "spell"
        if window == "day":
            assert s == self.turn_player != self.king and self.phase == "day"
        else:  # every player's windows, just before or just after the haunting
            assert self.every_window and self.exorcism is None and self.hosted == 0
            assert (self.phase == "night") == (window == "after the haunting")
        self.take(s, name, 1)
        self.spent += 1  # out until the turn ends: no reshuffle this turn brings it back
        if self.types[name][3] == "spirit":
            self.spirit[s] += self.types[name][4]

    def on_declined(self, s, what):
        s = int(s)
        if what == "stops challenging":
            assert self.exorcism and s == self.exorcism["host"]
        elif what == "plays no other card" and self.every_window:
            assert self.exorcism is None  # never during an exorcism
        else:
            assert s == self.turn_player, what
        if what in ("hosts no exorcism", "summons nothing"):
            self.close_exorcism()
            assert self.in_play and (what == "summons nothing") == (s == self.king)

    def on_reveal(self, p, name, text, left):
        assert int(p) == self.turn_player
        assert self.another or self.phase in ("day", "draw") or self.turn_player == self.king
        self.another = max(0, self.another - 1)
        self.phase = "night"
        self.deck_left -= 1
        assert self.deck_left == int(left) >= 0
        self.revealed = (name, text)

    def on_possess(self, name, text, s, on_it, total):
        s = int(s)
        assert self.revealed[0] == name
        colour, requirement, points, possess, reward = self.ghost(name, text)
        assert s == self.possession_target(possess, self.turn_player), (name, possess)
        self.in_play.append([name, s])
        assert (self.ghosts_on(s), len(self.in_play)) == (int(on_it), int(total))
        if self.ghosts_on(s) >= 3:  # rule (a): an arrival bringing the player to 3 or more
            self.third.add(s)
        if len(self.in_play) >= 7 and self.seventh is None:  # rule (b): the 7th in play
            self.seventh = name

    def on_unpossessed(self, name, text):
        self.ghost(name, text)
        assert self.possession_target(self.ghost_info[name][3], self.turn_player) == -1

    def on_event(self, name, text, effect):
        assert self.revealed[0] == name
        amount = int((EVENT_AMOUNT.search(text) or [0, 1])[1]) if effect != "another" else 0
        for s in range(self.n):
            if effect == "drain":
                self.spirit[s] = max(0, self.spirit[s] - amount)
            elif effect == "gift":
                self.spirit[s] += amount
        if effect == "another":
            self.another += 1 if self.deck_left > 0 else 0

    def open_exorcism(self, host, name, text, target, summoning):
        host, target = int(host), int(target)
        assert host == self.turn_player and [name, target] in self.in_play
        assert self.hosted < self.per_turn, "at most rules.exorcisms_per_turn exorcisms a turn"
        assert self.exorcism is None
        assert self.phase == "night" or (host == self.king)
        self.hosted += 1
        self.exorcism = {"host": host, "card": name, "target": target, "colour":
                         self.ghost_info[name][0], "summoning": summoning, "voted": [],
                         "cards": {}, "values": {}, "challenged": set(), "failed": False,
                         "counted": set()}

    def on_exorcise(self, host, name, text, target):
        assert int(host) != self.king
        self.close_exorcism()  # (a host's next exorcism of the night)
        self.open_exorcism(host, name, text, target, False)

    def on_summon(self, host, name, text, target):
        assert int(host) == self.king
        self.close_exorcism()
        self.open_exorcism(host, name, text, target, True)

    def on_vote(self, v, placed):
        ex, v = self.exorcism, int(v)
        order = [ex["host"]] if ex["summoning"] else \
            [(ex["host"] + k) % self.n for k in range(self.n)]
        assert v == order[len(ex["voted"])], "votes go round from the host"
        ex["voted"].append(v)
        ex["cards"][v] = {"placed": int(placed), "positive": 0, "negative": 0,
                          "positive_value": 0, "negative_value": 0}

    def on_vote_cards(self, v, count, name, left):
        ex, v, count = self.exorcism, int(v), int(count)
        self.take(v, name, count)
        assert self.hand[v][name] == int(left)
        colour, value = self.types[name][:2]
        side = "positive" if colour == ex["colour"] else "negative"
        ex["cards"][v][side] += count
        ex["cards"][v][side + "_value"] += count * value
        assert ex["cards"][v][side] <= 6  # a vote: at most 6 cards of each colour
        self.discard += count  # every vote card ends in the discards (no draw meanwhile)

    def on_challenge(self, host, v, positive, negative):
        ex, v = self.exorcism, int(v)
        assert int(host) == ex["host"] and v != ex["host"] and v != self.king
        assert v not in ex["challenged"] and ex["cards"][v]["placed"] > 0
        ex["challenged"].add(v)
        cards = ex["cards"][v]
        assert (cards["positive"], cards["negative"]) == (int(positive), int(negative or 0))
        if negative is None:
            ex["failed"] = True  # only positive votes: it fails at once
        else:
            cards["discarded"] = True

    def on_shown(self, v, positive, negative, how):
        ex, v = self.exorcism, int(v)
        cards = ex["cards"][v]
        assert cards["placed"] > 0 and not cards.get("discarded")
        assert (cards["positive_value"], cards["negative_value"]) == (int(positive), int(negative))
        assert ("count" in how) == (not ex["failed"])
        if not ex["failed"]:
            ex["counted"].add(v)

    def on_count(self, net, positive, negative, requirement, outcome):
        ex = self.exorcism
        assert not ex["failed"]
        counted = [ex["cards"][v] for v in ex["counted"]]
        assert int(positive) == sum(c["positive_value"] for c in counted)
        assert int(negative) == sum(c["negative_value"] for c in counted)
        assert int(net) == int(positive) - int(negative)
        assert int(requirement) == self.ghost_info[ex["card"]][1]
        ex["won"] = int(net) >= int(requirement)
        assert ex["won"] == (outcome == "dispelled")
        # who gets a reward: the host and every voter whose cards were counted
        ex["participants"] = sorted(ex["counted"] | {ex["host"]},
                                    key=lambda s: (s - ex["host"]) % self.n)
        ex["paid"] = []

    def remove(self, name, target):
        assert [name, target] in self.in_play
        self.in_play.remove([name, target])
        self.cleared.add(target)
        if name == self.seventh:
            self.seventh_gone = True

    def on_dispel(self, name, text, target, host, total):
        ex = self.exorcism
        assert ex.get("won") and not ex["summoning"] and name == ex["card"]
        self.remove(name, int(target))
        self.points[int(host)] += self.ghost_info[name][2]
        assert self.points[int(host)] == int(total)

    def on_life(self, name, text, target, lives):
        ex = self.exorcism
        assert ex.get("won") and ex["summoning"] and name == ex["card"]
        self.remove(name, int(target))
        self.lives += 1
        assert self.lives == int(lives)

    def on_look(self, host, s, identity):
        ex = self.exorcism
        assert ex.get("won") and int(host) == ex["host"] and int(s) == ex["target"]
        assert identity == self.identity[int(s)]

    def on_reward(self, v, amount, count):
        ex, v = self.exorcism, int(v)
        assert ex.get("won"), "a reward follows a success only"
        assert int(count) == len(ex["participants"])
        assert v == ex["participants"][len(ex["paid"])]
        reward = self.ghost_info[ex["card"]][4]
        assert int(amount) == reward[min(int(count), len(reward)) - 1]
        ex["paid"].append(v)
        self.spirit[v] += int(amount)

    def close_exorcism(self):
        ex = self.exorcism
        if ex is None:
            return
        if ex.get("won"):
            assert len(ex["paid"]) == len(ex["participants"])
        self.exorcism = None

    def expected_rise(self):
        """Who rises at the end of this turn, by which rule (None: nobody)."""
        if self.king >= 0:
            return None
        for k in range(self.n):  # rule (a) first; several: the first going right
            s = (self.turn_player + k) % self.n
            if s in self.third and s not in self.cleared:
                return s, "a"
        if self.seventh is not None and not self.seventh_gone:  # rule (b): most ghosts
            order = [(self.turn_player + k) % self.n for k in range(self.n)]
            return max(order, key=lambda s: (self.ghosts_on(s), -order.index(s))), "b"
        return None

    def on_rise(self, s, identity, rule, seventh, ghosts):
        self.close_exorcism()
        s = int(s)
        assert (s, rule) == self.expected_rise()
        assert identity == self.identity[s] and self.ghosts_on(s) == int(ghosts)
        assert rule == "a" or seventh == self.seventh
        self.king = s
        self.identity[s] = "ghost-king"
        self.rose = s

    def on_prevented(self, count):
        self.close_exorcism()

    def on_seat_end(self, s, spirit, cards, ghosts, points, artifact, name):
        self.close_exorcism()
        s = int(s)
        if s == 0:
            rise = self.expected_rise() if self.rose is None else None
            assert rise is None, f"turn {self.turn}: a ghost king should have risen: {rise}"
        assert self.spirit[s] == int(spirit) and self.hand_size(s) == int(cards)
        assert self.ghosts_on(s) == int(ghosts) and self.points[s] == int(points)
        assert self.artifact[s] == name

    def on_spent(self, count):
        assert int(count) == self.spent > 0
        self.discard += self.spent
        self.spent = 0
        self.over = True

    def on_turn_end(self, turn, in_play, pile, discard, left, lives):
        assert self.spent == 0, "the other cards played this turn are discarded as it ends"
        assert int(turn) == self.turn and len(self.in_play) == int(in_play)
        assert (self.pile, self.discard) == (int(pile), int(discard))
        assert self.deck_left == int(left) and self.lives == int(lives)
        self.check_conservation()
        # every ghost-deck card is in the deck, in play, or revealed and resolved
        assert self.deck_left + len(self.in_play) <= self.ghost_size
        self.expect_end = self.deck_left == 0  # the game ends when the ghost deck is empty

    def on_seal(self, king, lives, seal):
        assert self.expect_end and int(king) == self.king
        assert (self.lives, self.seal) == (int(lives), int(seal)) and self.lives >= self.seal
        self.sealed = True

    def on_end(self, text):
        assert self.expect_end, "the game ended before the ghost deck was empty"
        self.ended = True
        if self.king >= 0 and self.lives >= self.seal:
            assert getattr(self, "sealed", False) and text.startswith("the seal breaks")
            return
        sects = {"taiping": 0, "tianshi": 0}
        for s in range(self.n):  # the ghost king's and the evil path's points: no sect
            if self.identity[s] in sects:
                sects[self.identity[s]] += self.points[s]
        score = f"(taiping {sects['taiping']}, tianshi {sects['tianshi']})"
        if sects["taiping"] == sects["tianshi"]:
            assert text.startswith("the sects tie") and text.endswith(score)
        else:
            winner = max(sects, key=sects.get)
            assert text == f"{winner} wins on ghost points {score}"


def replay(lines):
    game = Replay()
    for text in lines:
        game.line(text)
    assert game.ended
    return game


@pytest.mark.parametrize("path, overrides", [(path, ()) for path in CONFIGS] + [
    (ARTIFACTS, ("rules.card_windows=every-window", "rules.exorcisms_per_turn=2"))],
    ids=[Path(p).stem for p in CONFIGS] + ["artifacts-every-window-two-exorcisms"])
def test_traced_games_replay_against_the_rules_from_the_text_alone(path, overrides):
    cfg = config.load(path, overrides)
    kings = windows = second_exorcisms = 0
    for seed in SEEDS:
        lines = runner.trace_game(cfg, seed, private=True)
        game = replay(lines)
        kings += game.king >= 0
        windows += sum(" haunting: seat " in line and " plays " in line for line in lines)
        second_exorcisms += sum(turn.count("exorcism: seat") + turn.count("summoning: the") > 1
                                for turn in "\n".join(lines).split("== turn "))
        # a plain trace is the same game without the private lines
        plain = runner.trace_game(cfg, seed)
        assert plain == [line for line in lines if not line.lstrip().startswith("(private) ")]
    assert kings > 0  # the rise rules were exercised (a king rises in most games)
    if overrides:  # and the knobs' own steps: a card played in a window, a second exorcism
        assert windows > 0 and second_exorcisms > 0


def test_the_replay_catches_a_broken_rule():
    """A replay that cannot fail checks nothing: an edited trace is refused."""
    lines = runner.trace_game(config.load("ghostplay"), 3, private=True)
    edits = {
        "a spirit power": lambda s: s.replace("gets 2 spirit power", "gets 3 spirit power", 1),
        "a card from nowhere": lambda s: s.replace("Taoist cards: 54 in the draw pile",
                                                   "Taoist cards: 55 in the draw pile", 1),
        "an early end": lambda s: s.replace("== turn 30:", "END: taiping wins on ghost points "
                                            "(taiping 0, tianshi 0)\n== turn 30:", 1),
        "a vote out of turn": lambda s: s.replace("vote: seat 3 places 0", "vote: seat 4 "
                                                  "places 0", 1),
        "a ghost on the wrong player": lambda s: s.replace("possesses seat 1: 1 ghost(s) on it, "
                                                           "1 in play", "possesses seat 2: 1 "
                                                           "ghost(s) on it, 1 in play", 1),
        "a rise left out": lambda s: "\n".join(line for line in s.split("\n")
                                               if "RISE: " not in line),
    }
    text = "\n".join(lines)
    for what, edit in edits.items():
        edited = edit(text)
        assert edited != text, what
        with pytest.raises(AssertionError):
            replay(edited.split("\n"))
    # the other cards played in a turn are discarded as it ends, not before, not never
    lines = runner.trace_game(config.load(ARTIFACTS), 0, private=True)
    spent = next(k for k, line in enumerate(lines) if "other card(s) played in it" in line)
    with pytest.raises(AssertionError):
        replay(lines[:spent] + lines[spent + 1:])
    early = lines[:spent] + lines[spent + 1:]
    early.insert(next(k for k in range(spent, 0, -1) if " plays " in lines[k]) + 1, lines[spent])
    with pytest.raises(AssertionError):
        replay(early)
