"""Salem games replayed from their trace TEXT alone (`fairplay trace --private`), against the
rules: the test keeps its own table (hands, the cards in front of each player, the discard pile,
the deck in its order, every tryal row by slot) from the printed lines only, and checks that

* every card and every tryal is conserved (each card kind, wherever it lies, adds up to the
  deck in the header; each seat's row changes only by the reveals and passes printed);
* every action is legal: the right player's turn, a card played from the hand, on another living
  player, red cards not on Piety, a draw is the top card of the printed deck, a trial exactly when
  the accusations reach the threshold (recomputed here from the cards and the characters), a
  revealed slot face down and of the kind the deal and the passes put there, the constable
  protecting another player, Ann Putnam drawing exactly for the reveals that earned it, the dead
  never acting;
* the game ends exactly when a victory rule is met: no decision is printed after it, and the
  winner's line names the team the rule gives.

It covers every built-in config in configs/salem/ with the people-like players and with random
ones (random players play the rare cards people seldom choose), a few seeds each, and a few rule
knobs. The rules are written here again on purpose, from docs/rules/salem.md, not imported: only
the names of cards, tryals and characters come from the declaration.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from simulator.setup import config
from simulator.run import runner
from simulator.games.base import PRIVATE_MARK
from simulator.games.salem.declaration import CHARACTERS, FRONT_LABELS, TRYAL_LABELS

CONFIGS = sorted(str(p) for p in (Path(__file__).parent.parent / "configs" / "salem")
                 .glob("*.toml"))
SEEDS = (1, 2, 3)

RED = {"Accusation": 1, "Evidence": 3, "Witness": 7, "Alibi as a Witness": 7}
CARD_LABELS = FRONT_LABELS[:-1]
NIGHT, CONSPIRACY, CAT = "Night 夜晚", "Conspiracy 傳染", "Black Cat 黑貓"
ALIBI, STOCKS, SCAPEGOAT, ARSON, ROBBERY, CURSE = (
    "Alibi 辯護", "Stocks 拘留", "Scapegoat 嫁禍", "Arson 縱火", "Robbery 搶劫", "Curse 詛咒")
ASYLUM, PIETY, MATCHMAKER = "Asylum 避難", "Piety 信徒", "Matchmaker 情侶"
BLUE = {ASYLUM, PIETY, MATCHMAKER, CAT}
WITCH, CONSTABLE = "Witch", "Constable"
# Lines that follow from a victory already met (deaths and what they bring, the passes of the
# Conspiracy that met it); any other line after a victory means the game went on.
CONSEQUENCES = re.compile(
    r"(† |to the discard pile |seat \d+'s slot \d+ is turned up|seat \d+'s \d+ face-down"
    r"|seat \d+ takes .* \(John Proctor\)|seat \d+ (takes|gets) .* \(into its slot|seat \d+ joins "
    r"|seat \d+ takes no more cards \(John Proctor\)|two players left|The \w+ team wins"
    r"|" + re.escape(PRIVATE_MARK) + ")")
DISCARDS = re.compile(r"to the discard pile ")
AFTER_A_DEATH = re.compile(r"(to the discard pile |seat \d+'s slot \d+ is turned up|seat \d+'s \d+ "
                           r"face-down|.*\(John Proctor\)|" + re.escape(PRIVATE_MARK) + ")")


class Replay:
    """The table as the trace's text tells it."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.at = 0
        self.parse_header()
        n = self.players
        self.chars = [""] * n
        self.rows: list[list[list]] = [[] for _ in range(n)]  # [kind, face up]
        self.alive = [True] * n
        self.witch = [False] * n
        self.hand = [Counter() for _ in range(n)]
        self.front = [Counter() for _ in range(n)]
        self.discard = Counter()
        self.deck: list[str] = []
        self.limbo = Counter({CAT: self.composition[CAT]})  # set aside, or drawn and resolving
        self.uses = [Counter() for _ in range(n)]
        self.two_left = False
        self.turn_seat = -1
        self.turn_number = 0
        self.phase = "deal"
        self.pending_trial = None   # (placer, accused): the next line must be its trial
        self.dying = None           # the seat whose death's cards and tryals are being settled
        self.deaths_expected = []   # seats a reveal or a partner's death must kill next
        self.passes = []            # a Conspiracy's passes, applied together
        self.snapshot = None
        self.votes = Counter()
        self.victim = self.guard = -1
        self.confessed = set()
        self.won_at = None
        self.turn_draws = 0
        self.turn_reds = []
        self.interrupted = False
        self.first = None
        self.checks = []            # (lines that may come first, a check due after them)
        self.giles_shown = -1
        self.after_card = ("", -1, -1)
        self.drawer = -1
        self.partner_due = -1
        self.ann_owed = Counter()   # the reveals that earn Ann Putnam's draws, per seat

    # --- the header ---------------------------------------------------------------------------
    def parse_header(self):
        head = re.match(r"Salem 1692: (\d+) players, (\d+) tryals each \((\d+) Not a Witch, "
                        r"(\d+) Witch, (\d+) Constable\)", self.lines[0])
        assert head, self.lines[0]
        self.players, self.each = int(head[1]), int(head[2])
        self.tryal_counts = Counter({"Not a Witch": int(head[3]), WITCH: int(head[4]),
                                     CONSTABLE: int(head[5])})
        assert sum(self.tryal_counts.values()) == self.players * self.each
        deck = re.match(r"  the deck \((\d+) cards\): (.*)$", self.lines[1])
        self.composition = Counter()
        for part in deck[2].split(", "):
            count, label = part.split(" x ", 1)
            self.composition[label] = int(count)
        assert sum(self.composition.values()) == int(deck[1])
        settings = self.lines[2]
        assert settings.startswith("  settings changed from the published game: ")
        found = re.search(r"rules\.accusations = (\d+)", settings)
        self.threshold = int(found[1]) if found else 7
        found = re.search(r"rules\.starting_hand = (\d+)", settings)
        self.starting_hand = int(found[1]) if found else 3
        self.piety_double = "rules.piety = double_threshold" in settings
        self.silent = "variants.dead_silent" in settings
        self.middle = "variants.conspiracy = middle" in settings
        self.by_drawer = "rules.black_cat_chooser = drawer" in settings
        self.resume = "rules.night_resumes_turn" in settings
        self.replaced = "rules.black_draw_replaced" in settings
        self.ann_at_once = "rules.ann_putnam = at_once" in settings
        self.ann_at_draw = "rules.ann_putnam_held = at_draw" in settings
        self.at = 4

    # --- helpers --------------------------------------------------------------------------------
    def right_living(self, s):
        for step in range(1, self.players):
            r = (s - step) % self.players
            if self.alive[r]:
                return r
        return -1

    def next_living(self, s):
        for step in range(1, self.players):
            r = (s + step) % self.players
            if self.alive[r]:
                return r
        return -1

    def has(self, s, character):
        if self.chars[s] == character:
            return True
        if self.chars[s] == "martha-corey":
            r = self.right_living(s)
            return r >= 0 and self.chars[r] == character
        return False

    def accusations(self, s):
        total = 0
        for label, value in RED.items():
            if label == "Evidence" and self.has(s, "cotton-mather"):
                value = 1
            total += value * self.front[s][label]
        return total

    def threshold_of(self, s, placer):
        needed = self.threshold + (1 if self.has(s, "george-burroughs") else 0)
        if self.piety_double and self.front[s][PIETY]:
            needed *= 2
        if placer >= 0 and self.has(placer, "thomas-danforth"):
            needed -= 1
        return max(needed, 1)

    def face_down(self, s):
        return [slot for slot, (_, up) in enumerate(self.rows[s]) if not up]

    def victory(self):
        hidden = sum(1 for s in range(self.players) if self.alive[s]
                     for kind, up in self.rows[s] if kind == WITCH and not up)
        if hidden == 0:
            return "town"
        if all(self.witch[s] for s in range(self.players) if self.alive[s]):
            return "witch"
        return None

    def conserved(self, line):
        """Every card kind adds up to the deck's composition."""
        counted = Counter(self.deck) + self.discard + self.limbo
        for s in range(self.players):
            counted += self.hand[s]
            front = Counter(self.front[s])
            front[ALIBI] += front.pop("Alibi as a Witness", 0)
            counted += front
        assert +counted == +self.composition, (line, counted - self.composition,
                                              self.composition - counted)
        for s in range(self.players):
            assert all(v >= 0 for v in self.hand[s].values()), (line, s, self.hand[s])
            assert all(v >= 0 for v in self.front[s].values()), (line, s, self.front[s])
        tryals = Counter(kind for row in self.rows for kind, _ in row)
        if self.phase != "deal" and not self.passes:
            assert tryals == self.tryal_counts, (line, tryals)

    def play_from_hand(self, s, label):
        assert self.alive[s] and s == self.turn_seat and self.phase == "play", (s, label)
        if label == "Alibi as a Witness":
            assert self.has(s, "will-griggs")
            label = ALIBI
        assert self.hand[s][label] > 0, (s, label, self.hand[s])
        self.hand[s][label] -= 1

    def reveal(self, s, slot, kind):
        assert self.rows[s][slot] == [kind, False], (s, slot, kind, self.rows[s])
        self.rows[s][slot][1] = True
        if kind == WITCH or not self.face_down(s):
            self.deaths_expected.append(s)

    # --- the replay -----------------------------------------------------------------------------
    def due(self, allowed, check):
        """`check` runs at the first line that `allowed` does not match."""
        self.checks.append((allowed, check))

    def run(self):
        for line in self.lines[self.at:]:
            self.current = line  # (for a failure's message)
            text = line.strip()
            if self.won_at is not None:
                assert CONSEQUENCES.match(text), f"the game went on after a victory: {line!r}"
            if self.pending_trial and not text.startswith("TRIAL"):
                raise AssertionError(f"a trial was due before {line!r}")
            if self.deaths_expected and not text.startswith("† "):
                raise AssertionError(f"a death was due before {line!r}")
            waiting = []
            for allowed, check in self.checks:
                if allowed.match(text):
                    waiting.append((allowed, check))
                else:
                    check()
            self.checks = waiting
            if self.passes and not ("into its slot" in text
                                    or text.startswith(PRIVATE_MARK)
                                    or text.endswith("joins the witches")):
                self.apply_passes()
            if self.dying is not None and not (text.startswith("to the discard pile")
                                               or "is turned up" in text or "leave the game" in text
                                               or "John Proctor" in text):
                self.settle_death()
            if text.startswith(PRIVATE_MARK):  # what a seat learns, or nobody sees
                secret = re.sub(r"^(nobody sees|nobody else sees|Tituba sees): ", "",
                                text[len(PRIVATE_MARK):])
                if not self.private(secret):
                    self.step(secret)
            else:
                self.step(text)
            if self.phase != "deal" or self.deck:
                self.conserved(line)
            if self.won_at is None and self.phase != "deal" and self.victory() \
                    and not self.passes:
                self.won_at = line
        assert self.lines[-1].startswith("The "), self.lines[-1]

    def private(self, text) -> bool:
        """A line of what a seat learns that only checks what the table knows; False for the
        secret facts that `step` replays (a card drawn, a vote, the deck's order...)."""
        m = re.match(r"it is (.+?)(, seat (\d+)'s slot (\d+))?$", text)
        if m:  # the kind of the tryal just passed (through the middle: whose it was, too)
            g, r, _, slot, into = self.passes[-1]
            if m[2]:
                assert self.middle
                g, slot = int(m[3]), int(m[4])
                assert self.alive[g]
            self.passes[-1] = (g, r, m[1], slot, into)
            return True
        m = re.match(r"the witch team opens its eyes: seat\(s\) ([\d, ]+) see each other$", text)
        if m:
            seen = {int(x) for x in m[1].split(", ")}
            assert seen == {s for s in range(self.players) if self.alive[s] and self.witch[s]}
            return True
        m = re.match(r"seat (\d+) sees the tryal it (takes from seat (\d+)|gets back from the "
                     r"middle): (.+)$", text)
        if m:  # through the middle it does not learn whose it was
            r, kind = int(m[1]), m[4]
            assert (m[3] is None) == self.middle
            assert any(p[1] == r and p[2] == kind and (m[3] is None or p[0] == int(m[3]))
                       for p in self.passes), text
            return True
        m = re.match(r"seat (\d+) knows which of its tryals (seat (\d+) took|went to the "
                     r"middle): (.+)$", text)
        if m:
            g, kind = int(m[1]), m[4]
            assert (m[3] is None) == self.middle
            assert any(p[0] == g and p[2] == kind and (m[3] is None or p[1] == int(m[3]))
                       for p in self.passes), text
            return True
        m = re.match(r"seat (\d+) looks at its (\d+) tryals$", text)
        if m:
            assert len(self.rows[int(m[1])]) == int(m[2]) == self.each
            return True
        m = re.match(r"seat (\d+) looks through the top (\d+) cards of the deck \(Tituba\)$", text)
        if m:
            assert int(m[2]) <= len(self.deck)
            self.before_tituba = list(self.deck)
            self.tituba_depth = int(m[2])
            self.tituba_picks = []
            return True
        m = re.match(r"seat (\d+) sees the (\d+) card\(s\) it receives from the hand of seat (\d+)$",
                     text)
        if m:
            assert sum(self.hand[int(m[3])].values()) == int(m[2])
            return True
        m = re.match(r"seat (\d+) looks through the (\d+) card\(s\) in the hand of seat (\d+) "
                     r"\(John Proctor\)$", text)
        if m:
            assert sum(self.hand[int(m[3])].values()) == int(m[2])
            assert self.has(int(m[1]), "john-proctor")
            return True
        return False

    def draw(self, s, label, why):
        assert self.deck and self.deck[0] == label, (s, label, self.deck[:3])
        self.deck.pop(0)
        if label in (NIGHT, CONSPIRACY):
            self.limbo[label] += 1
        else:
            self.hand[s][label] += 1
        if why == "" and s == self.turn_seat and self.phase in ("draw", "play"):
            counts = not (label in (NIGHT, CONSPIRACY) and self.replaced)
            if counts and not (self.two_left and self.voided(label)):
                self.turn_draws += 1
                self.turn_reds.append(label in RED)

    def voided(self, label):
        return label in BLUE or label in (SCAPEGOAT, ROBBERY)

    def end_turn_checks(self):
        """A draw turn drew 2 cards (Giles Corey a third after two red ones), unless the Night,
        a death or the end cut it short; Ann Putnam drew for the reveals that earned it."""
        s = self.turn_seat
        if not self.ann_at_once and self.alive[s] and (not self.ann_at_draw
                                                       or self.has(s, "ann-putnam")):
            assert not self.ann_owed[s], f"seat {s} did not draw for its reveals (Ann Putnam)"
        if self.phase == "draw" and not self.interrupted and self.alive[s]:
            assert self.turn_draws == 2, (s, self.turn_draws)
            if self.has(s, "giles-corey") and self.turn_reds == [True, True]:
                assert self.giles_shown == s, "Giles Corey showed no two red cards"

    def settle_death(self):
        s = self.dying
        assert not +self.hand[s] and not +self.front[s], (s, self.hand[s], self.front[s])
        if not self.silent:
            assert not self.face_down(s), (s, self.rows[s])
        self.dying = None

    def apply_passes(self):
        taken = {}
        for giver, receiver, kind, slot, into in self.passes:
            assert giver not in taken
            taken[giver] = slot
            assert self.snapshot[giver][slot] == [kind, False], (giver, slot, kind)
        assert set(taken) == {s for s in range(self.players) if self.alive[s]}
        for giver, slot in taken.items():
            del self.rows[giver][slot]
        for giver, receiver, kind, slot, into in self.passes:
            assert into == len(self.rows[receiver]), (receiver, into)
            self.rows[receiver].append([kind, False])
            if kind == WITCH:
                self.witch[receiver] = True
        self.passes = []
        self.snapshot = None
        self.limbo[CONSPIRACY] -= 1  # resolved: to the discard pile
        self.discard[CONSPIRACY] += 1

    def step(self, text):
        m = re.match(r"seat (\d+) is dealt (\d+) tryals face down$", text)
        if m:  # what the table sees of the deal (the private line says which)
            assert int(m[2]) == self.each
            return
        if re.match(r"(the playing cards are shuffled and each seat|the draw deck is shuffled "
                    r"\(\d+ cards|Tituba puts the deck back|seat \d+ draws a card|seat \d+ takes "
                    r"a card from the hand of seat \d+ \(John Proctor\))", text):
            return  # the table's view of a secret fact its private line gives
        m = re.match(r"seat (\d+) (takes|gets) a tryal from (seat (\d+)'s slot (\d+)|the middle) "
                     r"\(into its slot (\d+)\)$", text)
        if m:  # its kind (and through the middle, whose it was) follow in a private line
            r, into = int(m[1]), int(m[6])
            g, slot = (int(m[4]), int(m[5])) if m[4] else (-1, -1)
            assert self.alive[r] and (m[2] == "gets") == self.middle
            if not self.middle:
                assert self.alive[g] and g == self.next_living(r), (r, g)
            if not self.passes:
                self.snapshot = [[list(t) for t in row] for row in self.rows]
                self.was_witch = list(self.witch)
            self.passes.append((g, r, None, slot, into))
            return
        m = re.match(r"seat (\d+) is ([a-z-]+)( \(of .*\))?$", text)
        if m:
            assert m[2] in CHARACTERS
            self.chars[int(m[1])] = m[2]
            return
        m = re.match(r"seat (\d+) is dealt, slot by slot: (.*)$", text)
        if m:
            s = int(m[1])
            self.rows[s] = [[kind, False] for kind in m[2].split(", ")]
            assert len(self.rows[s]) == self.each and all(k in TRYAL_LABELS for k, _ in
                                                           self.rows[s])
            self.witch[s] = any(k == WITCH for k, _ in self.rows[s])
            return
        m = re.match(r"the playing cards shuffled for the deal .*top first \((\d+) cards\): (.*)$",
                     text)
        if m:
            self.deal_order = m[2].split(", ")
            expected = self.composition - Counter({CAT: self.composition[CAT],
                                                   NIGHT: self.composition[NIGHT],
                                                   CONSPIRACY: self.composition[CONSPIRACY]})
            assert Counter(self.deal_order) == +expected
            self.deck = list(self.deal_order)  # the hands come off its top
            self.limbo[NIGHT] += self.composition[NIGHT]
            self.limbo[CONSPIRACY] += self.composition[CONSPIRACY]
            self.dealt_from = 0
            return
        m = re.match(r"seat (\d+) is dealt (\d+) x (.+)$", text)
        if m:
            s, count, label = int(m[1]), int(m[2]), m[3]
            for _ in range(count):
                self.deck.remove(label)
                self.hand[s][label] += 1
            return
        m = re.match(r"the draw deck after (the shuffle|Tituba's arrangement), top first "
                     r"\((\d+) cards\): (.*)$", text)
        if m:
            order = m[3].split(", ")
            assert len(order) == int(m[2])
            if m[1] == "the shuffle":  # Night at the bottom (Tituba may move it up)
                assert order[-1] == NIGHT
                if self.phase == "deal":  # the hands came off the top of the deal's order
                    for s in range(self.players):
                        start = s * self.starting_hand
                        assert Counter(self.deal_order[start:start + self.starting_hand]) == \
                            +self.hand[s], s
                pool = Counter(self.deck) + self.discard + self.limbo
                pool[CAT] -= self.limbo[CAT]
                assert Counter(order) == +pool, (Counter(order), pool)
                self.discard = Counter()
                self.limbo = Counter({CAT: self.limbo[CAT]})
            else:
                depth, picks = self.tituba_depth, self.tituba_picks
                top = list(self.before_tituba[:depth])
                for p in picks:
                    top.remove(p)
                assert order == picks + top + self.before_tituba[depth:], "Tituba's order"
            self.deck = order
            return
        m = re.match(r"First night: the (\d+) witch\(es\) see each other$", text)
        if m:
            assert int(m[1]) == sum(self.witch)
            self.phase = "first night"
            self.votes = Counter()
            return
        m = re.match(r"witch seat (\d+) votes for seat (\d+)( \(the Black Cat\))?$", text)
        if m:
            w, t = int(m[1]), int(m[2])
            assert self.alive[w] and self.witch[w] and self.alive[t]
            assert bool(m[3]) == (self.phase == "first night")
            self.votes[t] += 1
            return
        m = re.match(r"the witches put the Black Cat in front of seat (\d+) \((\d+) vote\(s\).*; "
                     r"seat (\d+) starts$", text)
        if m:
            t = int(m[1])
            assert int(m[3]) == t and self.votes[t] == int(m[2]) == max(self.votes.values())
            self.limbo[CAT] -= 1
            self.front[t][CAT] += 1
            self.first = t
            return
        if text.startswith("First night") is False and self.first is None and \
                self.composition[CAT] == 0 and text.startswith("Turn 1:"):
            self.first = int(text.split("seat ")[1])
        m = re.match(r"Turn (\d+): seat (\d+)$", text)
        if m:
            if self.turn_number:
                self.end_turn_checks()
            s = int(m[2])
            assert int(m[1]) == self.turn_number + 1
            expected = self.first if self.turn_number == 0 else self.next_living(self.turn_seat)
            assert s == expected and self.alive[s], (s, expected)
            self.turn_number += 1
            self.turn_seat = s
            self.phase = "turn"
            self.turn_draws, self.turn_reds, self.interrupted = 0, [], False
            self.ann_owed.clear()
            return
        m = re.match(r"seat (\d+) is in the Stocks and skips the turn \((\d+) Stocks left\)$", text)
        if m:
            s = int(m[1])
            assert s == self.turn_seat and self.front[s][STOCKS] > 0
            self.front[s][STOCKS] -= 1
            self.discard[STOCKS] += 1
            assert self.front[s][STOCKS] == int(m[2])
            self.phase = "skipped"
            return
        m = re.match(r"seat (\d+) chooses to (.*)$", text)
        if m:
            s, what = int(m[1]), m[2]
            assert s == self.turn_seat and self.phase == "turn" and self.front[s][STOCKS] == 0
            if what == "play cards":
                self.phase = "play"
            elif what.startswith("draw from the discard pile"):
                assert self.has(s, "samuel-parris") and self.uses[s]["parris"] < 2
                self.uses[s]["parris"] += 1
                self.phase = "parris"
            else:
                if what.startswith("arrange the deck"):
                    assert self.has(s, "tituba") and self.uses[s]["tituba"] < 1
                    self.uses[s]["tituba"] += 1
                else:
                    assert what == "draw 2 cards", what
                self.phase = "draw"
            return
        m = re.match(r"seat (\d+) draws (.+?)( \((Giles Corey's third card|Ann Putnam|"
                     r"Rebecca Nurse)\))?$", text)
        if m and not text.endswith("cards for her reveals (Ann Putnam)"):
            s, label, why = int(m[1]), m[2], m[4] or ""
            assert self.alive[s]
            if why == "Rebecca Nurse":
                assert self.has(s, "rebecca-nurse")
            if why == "Giles Corey's third card":
                assert self.giles_shown == s
            self.draw(s, label, why)
            return
        m = re.match(r"seat (\d+) discards the (.+) drawn \(two players left\) and draws again$",
                     text)
        if m:
            label = m[2]
            assert self.two_left and self.voided(label)
            self.hand[int(m[1])][label] -= 1
            self.discard[label] += 1
            return
        m = re.match(r"seat (\d+) shows two red cards and draws a third \(Giles Corey\)$", text)
        if m:
            s = int(m[1])
            assert self.has(s, "giles-corey") and self.turn_reds == [True, True]
            self.giles_shown = s
            return
        m = re.match(r"seat (\d+) plays (.+?) on seat (\d+), discarding its (.+)$", text)
        if m:  # Curse
            s, t, blue = int(m[1]), int(m[3]), m[4]
            assert m[2] == CURSE and t != s and self.alive[t] and self.front[t][blue] > 0
            assert blue in BLUE
            self.play_from_hand(s, CURSE)
            self.discard[CURSE] += 1
            self.front[t][blue] -= 1
            self.discard[blue] += 1
            return
        m = re.match(r"seat (\d+) plays (.+?): the (cards in front of|hand of) seat (\d+) go to "
                     r"seat (\d+)$", text)
        if m:
            s, label, t, u = int(m[1]), m[2], int(m[4]), int(m[5])
            assert len({s, t, u}) == 3 and self.alive[t] and self.alive[u]
            self.play_from_hand(s, label)
            self.discard[label] += 1
            if label == SCAPEGOAT:
                self.front[u] += self.front[t]
                self.front[t] = Counter()
                self.after_card = ("scapegoat", s, u)
            else:
                assert label == ROBBERY
                self.robbery = (t, u)
                self.due(re.compile(r"(.* has no effect|" + re.escape(PRIVATE_MARK) + ")"),
                         self.rob)
            return
        m = re.match(r"seat (\d+) plays (.+?) on seat (\d+)$", text)
        if m:
            s, label, t = int(m[1]), m[2], int(m[3])
            assert t != s and self.alive[t]
            self.play_from_hand(s, label)
            if label in RED:
                if label != "Alibi as a Witness":
                    assert self.piety_double or self.front[t][PIETY] == 0, "red card on Piety"
                self.front[t][label] += 1
                self.after_card = ("red", s, t)
            elif label == ALIBI:
                self.discard[ALIBI] += 1
                self.after_card = ("alibi", s, t)
            elif label == ARSON:
                self.discard[ARSON] += 1
                self.due(re.compile(r"(.* has no effect|to the discard pile from the hand)"),
                         lambda: self.emptied(t))
            else:
                assert label == STOCKS or label in BLUE, label
                self.front[t][label] += 1
            return
        m = re.match(r"(.+?) has no effect: seat (\d+) has Sarah Good's ability$", text)
        if m:
            assert self.has(int(m[2]), "sarah-good")
            if m[1] == ROBBERY:
                self.robbery = None
            return
        m = re.match(r"the Alibi removes (\d+) x Accusation and (\d+) x Evidence from in front "
                     r"of seat (\d+)$", text)
        if m:
            a, e, t = int(m[1]), int(m[2]), int(m[3])
            evidence = 1 if self.has(t, "cotton-mather") else 3
            best = max(((x + y * evidence, x, y) for x in range(self.front[t]["Accusation"] + 1)
                        for y in range(self.front[t]["Evidence"] + 1)
                        if x + y * evidence <= 3), key=lambda v: (v[0], v[1]))
            assert (a, e) == best[1:], ((a, e), best)
            self.front[t]["Accusation"] -= a
            self.front[t]["Evidence"] -= e
            self.discard["Accusation"] += a
            self.discard["Evidence"] += e
            return
        m = re.match(r"accusations on seat (\d+): (\d+) of (\d+) \(placed by seat (\d+)\)$", text)
        if m:
            t, count, needed, placer = (int(x) for x in m.groups())
            assert count == self.accusations(t), (t, count, self.front[t])
            assert needed == self.threshold_of(t, placer)
            what = self.after_card[0]
            if what in ("red", "scapegoat") and count >= needed and self.alive[t]:
                self.pending_trial = (placer, t)
            return
        m = re.match(r"TRIAL of seat (\d+): seat (\d+) reveals slot (\d+): (.+)$", text)
        if m:
            t, placer, slot, kind = int(m[1]), int(m[2]), int(m[3]), m[4]
            assert self.pending_trial == (placer, t), (self.pending_trial, text)
            self.pending_trial = None
            # Ann Putnam's draws: a reveal made while holding her ability (read before the death
            # it causes); with rules.ann_putnam_held = at_draw every reveal, the ability read as
            # she draws
            if self.ann_at_draw or self.has(placer, "ann-putnam"):
                self.ann_owed[placer] += 1
            self.reveal(t, slot, kind)
            if t not in self.deaths_expected:  # its red cards go to the discard pile
                self.due(DISCARDS, lambda: self.no_red(t))
            return
        m = re.match(r"the Black Cat: seat (\d+) reveals slot (\d+): (.+?)( \(chosen by seat "
                     r"(\d+)\))?$", text)
        if m:
            h, slot, kind = int(m[1]), int(m[2]), m[3]
            chooser = int(m[5]) if m[5] else h
            assert self.alive[h] and self.front[h][CAT] and not self.has(h, "mary-warren")
            assert chooser == (self.drawer if self.by_drawer and self.alive[self.drawer] else h)
            self.reveal(h, slot, kind)
            return
        m = re.match(r"to the discard pile from (the hand of|in front of) seat (\d+): (\d+) x (.+)$",
                     text)
        if m:
            s, count, label = int(m[2]), int(m[3]), m[4]
            place = self.hand[s] if m[1] == "the hand of" else self.front[s]
            assert place[label] == count, (s, label, count, place)
            place[label] = 0
            self.discard[ALIBI if label == "Alibi as a Witness" else label] += count
            return
        m = re.match(r"† seat (\d+) dies \((.+?)\), (on the (town|witch) team|silent about their "
                     r"team)$", text)
        if m:
            s, cause = int(m[1]), m[2]
            assert self.alive[s]
            if cause == "matchmaker":
                assert s == self.partner_due, (s, self.partner_due)
                self.partner_due = -1
            else:  # the other Matchmaker's holder dies too, unless Mary Warren's ability (read
                # before anyone leaves: Martha Corey's right is still the one dying) saves it
                partner = next((p for p in range(self.players) if p != s and self.front[p][
                    MATCHMAKER]), -1) if self.front[s][MATCHMAKER] else -1
                if partner >= 0 and self.alive[partner] and not self.has(partner, "mary-warren"):
                    self.partner_due = partner
                    self.due(AFTER_A_DEATH, self.partner_dies)
            if cause == "night":
                assert s == self.victim
            elif cause != "matchmaker":
                assert self.deaths_expected and self.deaths_expected[0] == s, (s, cause)
                self.deaths_expected.pop(0)
            if self.silent:
                assert m[4] is None
            else:
                assert m[4] == ("witch" if self.witch[s] else "town")
            self.alive[s] = False
            self.dying = s
            self.interrupted = True
            return
        m = re.match(r"seat (\d+)'s slot (\d+) is turned up: (.+)$", text)
        if m:
            s, slot, kind = int(m[1]), int(m[2]), m[3]
            assert self.rows[s][slot] == [kind, False]
            self.rows[s][slot][1] = True
            return
        m = re.match(r"seat (\d+)'s (\d+) face-down tryal\(s\) leave the game unseen$", text)
        if m:
            s = int(m[1])
            assert self.silent and len(self.face_down(s)) == int(m[2])
            for slot in self.face_down(s):  # out of the game, never shown
                self.rows[s][slot][1] = "out"
            return
        m = re.match(r"seat (\d+) takes (.+) from the hand of seat (\d+) \(John Proctor\)$", text)
        if m:
            p, label, dead = int(m[1]), m[2], int(m[3])
            assert self.has(p, "john-proctor") and self.alive[p] and not self.alive[dead]
            assert self.hand[dead][label] > 0
            self.hand[dead][label] -= 1
            self.hand[p][label] += 1
            return
        m = re.match(r"seat (\d+) (discards|keeps) the accusations in front of herself \(Abigail "
                     r"Williams\)$", text)
        if m:
            assert self.has(int(m[1]), "abigail-williams")
            if m[2] == "discards":
                self.due(DISCARDS, lambda: self.no_red(int(m[1])))
            return
        m = re.match(r"seat (\d+) draws (\d+) cards for her reveals \(Ann Putnam\)$", text)
        if m:
            s, cards = int(m[1]), int(m[2])
            assert self.alive[s] and self.ann_owed[s], \
                f"seat {s} draws for reveals that earned no draws (Ann Putnam)"
            if self.ann_at_draw:
                assert self.has(s, "ann-putnam")
            if self.ann_at_once:
                assert cards == 2
                self.ann_owed[s] -= 1
            else:
                assert s == self.turn_seat and cards == 2 * self.ann_owed[s], (s, self.ann_owed)
                self.ann_owed[s] = 0
            return
        m = re.match(r"seat (\d+) takes (?!no second card)(.+) from the discard pile \(Samuel "
                     r"Parris\)$", text)
        if m:
            s, label = int(m[1]), m[2]
            assert self.phase == "parris" and label not in (NIGHT, CONSPIRACY)
            assert self.discard[label] > 0
            self.discard[label] -= 1
            self.hand[s][label] += 1
            return
        m = re.match(r"seat (\d+) puts (.+) at position (\d+) from the top \(Tituba\)$", text)
        if m:
            assert int(m[3]) == len(self.tituba_picks) + 1
            self.tituba_picks.append(m[2])
            return
        m = re.match(r"seat (\d+) (stops playing cards|takes no second card from the discard "
                     r"pile \(Samuel Parris\)|takes no more cards \(John Proctor\)|leaves the rest "
                     r"of the deck in its order \(Tituba\)|does not confess)$", text)
        if m:
            s = int(m[1])
            assert self.alive[s] or "John Proctor" in text
            if m[2] == "stops playing cards":
                assert self.phase == "play" and s == self.turn_seat
            return
        m = re.match(r"CONSPIRACY #(\d+), drawn by seat (\d+)$", text)
        if m:
            self.drawer = int(m[2])
            assert self.limbo[CONSPIRACY] >= 1
            self.in_conspiracy = True
            return
        m = re.match(r"seat (\d+) joins the witches$", text)
        if m:
            r = int(m[1])
            assert not self.was_witch[r] and any(p[1] == r and p[2] == WITCH for p in self.passes)
            return
        m = re.match(r"NIGHT (\d+)$", text)
        if m:
            assert self.limbo[NIGHT] == 1
            self.votes = Counter()
            self.victim = self.guard = -1
            self.confessed = set()
            self.interrupted = True
            return
        m = re.match(r"the witches choose seat (\d+) \((\d+) vote\(s\)", text)
        if m:
            v = int(m[1])
            assert self.votes[v] == int(m[2]) == max(self.votes.values()) and self.alive[v]
            self.victim = v
            return
        m = re.match(r"the constable, seat (\d+), protects seat (\d+)$", text)
        if m:
            c, p = int(m[1]), int(m[2])
            assert self.alive[c] and c != p and self.alive[p]
            assert any(k == CONSTABLE and not up for k, up in self.rows[c])
            self.guard = p
            return
        m = re.match(r"seat (\d+) confesses(: reveals (.+) \(slot (\d+)\)| without revealing a "
                     r"tryal \(William Phips\))$", text)
        if m:
            s = int(m[1])
            assert self.alive[s]
            if m[3]:
                self.reveal(s, int(m[4]), m[3])
            else:
                assert self.has(s, "william-phips") and self.uses[s]["phips"] == 0
                self.uses[s]["phips"] += 1
            self.confessed.add(s)
            return
        m = re.match(r"dawn: the witches' victim seat (\d+) (.+)$", text)
        if m:
            v, outcome = int(m[1]), m[2]
            assert v == self.victim
            if not self.alive[v]:
                expected = "is already dead"
            elif v == self.guard:
                expected = "was protected by the constable"
            elif v in self.confessed:
                expected = "confessed and survives"
            elif self.front[v][ASYLUM]:
                expected = "is safe in the Asylum"
            else:
                expected = "dies"
            assert outcome == expected, (outcome, expected)
            return
        m = re.match(r"the discard pile becomes the new deck \((\d+) cards, Night at the bottom\)$",
                     text)
        if m:
            assert int(m[1]) == len(self.deck) + sum(self.discard.values()) + self.limbo[NIGHT]
            return
        if text.startswith("two players left"):
            assert sum(self.alive) == 2 and not self.two_left
            self.two_left = True
            self.due(DISCARDS, self.purged)
            return
        m = re.match(r"The (town|witch) team wins", text)
        if m:
            assert self.victory() == m[1], (self.victory(), text)
            return
        raise AssertionError(f"a line the replay does not know: {text!r}")

    # --- checks due after the lines of an effect ------------------------------------------------
    def partner_dies(self):
        assert self.current.strip().startswith(f"† seat {self.partner_due} dies (matchmaker)"), \
            f"the Matchmaker partner's death was due before {self.current!r}"

    def rob(self):
        if self.robbery:  # the whole hand moves (unless Sarah Good made it fail)
            t, u = self.robbery
            self.hand[u] += self.hand[t]
            self.hand[t] = Counter()
            self.robbery = None

    def emptied(self, s):
        assert not +self.hand[s] or self.has(s, "sarah-good"), (s, self.hand[s])

    def no_red(self, s):
        assert self.accusations(s) == 0, (s, self.front[s])

    def purged(self):
        for s in range(self.players):
            assert not any(self.hand[s][k] for k in BLUE | {SCAPEGOAT, ROBBERY}), self.hand[s]
            assert not any(self.front[s][k] for k in BLUE), self.front[s]


def replay(lines: list[str]) -> Replay:
    table = Replay(lines)
    table.run()
    return table


def traced(spec: str, seed: int, sets=()) -> list[str]:
    cfg = config.load(spec, list(sets), None)
    return runner.trace_game(cfg, seed, private=True)


@pytest.mark.parametrize("spec", CONFIGS, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("players", ["people", "random"])
def test_traced_games_replay_by_the_rules_from_their_text(spec, players):
    sets = () if players == "people" else ('strategies={all="random"}',)
    for seed in SEEDS:
        table = replay(traced(spec, seed, sets))
        assert table.won_at is not None and table.turn_number > 0


KNOBS = [
    ("variants.dead_silent=true", 'variants.conspiracy="middle"'),
    ('rules.black_cat_chooser="drawer"', "rules.night_resumes_turn=true",
     "rules.black_draw_replaced=true", 'rules.ann_putnam_held="at_draw"'),
    ('rules.piety="double_threshold"', "rules.accusations=5", "rules.starting_hand=2",
     "deck.accusation=30", 'rules.ann_putnam="at_once"'),
]


@pytest.mark.parametrize("sets", KNOBS, ids=lambda sets: "+".join(s.split("=")[0] for s in sets))
def test_knobs_replay_by_their_rules_from_the_text(sets):
    for seed in SEEDS:
        replay(traced("salem", seed, sets + ('strategies={all="random"}',)))


def test_the_replay_catches_a_broken_rule():
    """The replay fails a trace whose text breaks a rule: a draw that is not the deck's top card,
    an accusation on its own player, a trial left out, a game that goes on after its victory."""
    lines = traced("salem", 1)
    replay(lines)

    def first(pattern):
        return next(i for i, line in enumerate(lines) if re.search(pattern, line))

    draw = first(r"seat \d+ draws Accusation$")
    play = first(r"seat \d+ plays Accusation on seat \d+$")
    own = re.search(r"seat (\d+) plays", lines[play])[1]
    trial = first(r"TRIAL of seat")
    for broken in (
        lines[:draw] + [lines[draw].replace("Accusation", "Witness")] + lines[draw + 1:],
        lines[:play] + [re.sub(r"on seat \d+$", f"on seat {own}", lines[play])] + lines[play + 1:],
        lines[:trial] + lines[trial + 1:],
        lines[:-1] + ["Turn 999: seat 0"] + lines[-1:],
    ):
        with pytest.raises(AssertionError):
            replay(broken)


def test_the_replay_holds_ann_putnams_draws_to_the_reveals_that_earned_them():
    """Seed 900, 10 players, turn 67: Martha Corey's reveal kills Rebecca Nurse, her right, and
    Ann Putnam becomes her right. With rules.ann_putnam_held = at_draw she draws 2 cards for it,
    and that trace replays under its knob; read as a trace of the default rule (the reveal was not
    made with Ann Putnam's ability) it fails."""
    sets = ("players=10", 'rules.ann_putnam_held="at_draw"')
    lines = traced("salem", 900, sets)
    assert "  seat 0 draws 2 cards for her reveals (Ann Putnam)" in lines
    replay(lines)
    replay(traced("salem", 900, sets[:1]))
    default = [line.replace("game: rules.ann_putnam_held = at_draw", "game: none")
               for line in lines]
    assert default != lines
    with pytest.raises(AssertionError, match="earned no draws"):
        replay(default)


def test_a_plain_trace_holds_only_what_the_table_saw():
    """The secret facts (tryals by slot, hands, the cards drawn, the deck's order, the witches'
    votes and victim, the constable's protection, the tryals passed) are private lines only: a
    plain trace is the full one without them."""
    cfg = config.load("salem", [], None)
    plain = runner.trace_game(cfg, 1)
    full = runner.trace_game(cfg, 1, private=True)
    assert plain == [line for line in full if not line.strip().startswith(PRIVATE_MARK)]
    cards = "|".join(re.escape(label) for label in CARD_LABELS if label not in (NIGHT, CONSPIRACY))
    secrets = [r"slot by slot", rf"draws ({cards})", r"is dealt \d+ x", r"top first",
               r"votes for", r"the witches choose", r"protects", r"it is (Not a Witch|Witch|"
               r"Constable)$", r"sees the tryal it takes"]
    for secret in secrets:
        assert not any(re.search(secret, line) for line in plain), secret
        assert any(re.search(secret, line) for line in full), secret
