"""Vita Mors Conspiro replayed from its trace TEXT alone, against the rules.

Each built-in config (configs/vitamors/*.toml) plays a handful of games, with its own players and
with random ones (who take the rare actions: Veil, Brink, Swap, a peek at anyone); the trace
with its private lines (`fairplay trace --private`) is read back line by line by `Table`, which
knows nothing of the simulator but the trace's sentences and the item names, and checks every
rule: the deal and the night, card conservation (every rank dealt, drawn, offered, exchanged and
placed comes out of the deck, a card exchanged back is the next one drawn), token conservation
(each scroll present, removed or flipped once; each feather discarded once), the legality of each
action (whose turn, a forced offer, a present scroll, a scheme only on a scythe, proposals in turn
order from the sacrificer), every judgement's majority, the altars in order of arrival, a ritual
vote exactly when an altar is full enough, the initiator, the success rule, and an end exactly
when a victory rule is met.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from simulator.setup import config
from simulator.games import driver
from simulator.games.base import PRIVATE_MARK
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import ITEM_LABELS, ITEMS, N_TILES

CONFIGS = sorted(Path(__file__).resolve().parent.parent.glob("configs/vitamors/*.toml"))
ITEM_OF = {label: item for item, label in zip(ITEMS, ITEM_LABELS)}
ALTAR_OF = {"Life Altar 活祭壇": 0, "Death Altar 死祭壇": 1}
LABEL = "|".join(re.escape(label) for label in ITEM_LABELS)
ALTAR = "|".join(re.escape(label) for label in ALTAR_OF)
EFFECT_OF = {"gaze": "see-sacrifice", "peek": "see-faction", "brink": "swap-adjacent",
             "veil": "veil", "swap": "exchange-sacrifice", "prolong": "card-limit",
             "requiem": "ritual-votes"}  # the default effects (every built-in config keeps them)


def life_pattern(cards: list[int]) -> bool:
    """Three consecutive cards of one rank."""
    return any(cards[i] == cards[i + 1] == cards[i + 2] for i in range(len(cards) - 2))


def death_pattern(cards: list[int]) -> bool:
    """Two separate pairs of consecutive same-rank cards, of different ranks."""
    pairs = [i for i in range(len(cards) - 1) if cards[i] == cards[i + 1]]
    return any(j >= i + 2 and cards[i] != cards[j] for i in pairs for j in pairs)


class Table:
    """One game rebuilt from its trace lines; every method checks the rule its line follows."""

    def __init__(self):
        self.turn = 0
        self.sacrificer = None
        self.next_seat = None
        self.sacrifice = None          # the rank in the sacrifice area
        self.altars = ([], [])
        self.votes: dict[int, int] = {}
        self.ritual_ballots: dict[int, int] = {}
        self.asked: list[int] = []     # the seats asked to propose after this card, in order
        self.spells_this_card = 0
        self.ritual_due = False
        self.started = False
        self.over = False
        self.on_top = None             # a rank an exchange put back on top of the draw pile

    # --- the setup ------------------------------------------------------------------------------
    def setup(self, m):
        self.n, self.jesters, self.mode, self.limit = int(m[1]), int(m[2]), m[3], int(m[4])

    def deck(self, m):
        self.pool = [int(count) for count in re.findall(r"(\d+) of rank \d+", m[2])]
        assert sum(self.pool) == int(m[1])

    def layout(self, m):
        self.tile = []  # the tile above each scroll position, in order
        for first, last, label in re.findall(rf"(\d+)(?:-(\d+))? under ({LABEL})", m[1]):
            assert int(first) == len(self.tile)
            self.tile += [ITEM_OF[label]] * (int(last or first) - int(first) + 1)
        self.content = list(self.tile)      # what each scroll performs (a scheme replaces one)
        self.state = ["present"] * len(self.tile)

    def schemes(self, m):
        self.setup_schemes = {ITEM_OF[label]: int(count)
                              for count, label in re.findall(rf"(\d+) ({LABEL})", m[1])}
        self.placed = []

    def limits(self, m):
        self.life_cards, self.death_cards, self.needed = int(m[1]), int(m[2]), int(m[3])
        self.feathers = [1] * self.n
        self.role, self.hand = {}, {}

    def draw_rank(self, rank):
        """A card leaves the draw pile: the one an exchange put on top, if any."""
        if self.on_top is not None:
            assert rank == self.on_top, "the card exchanged back is the next one drawn"
            self.on_top = None
        assert self.pool[rank] > 0, f"a card of rank {rank + 1} that the deck no longer holds"
        self.pool[rank] -= 1

    def dealt(self, m):
        seat, role, rank = int(m[1]), m[2], int(m[3]) - 1
        assert seat == len(self.role), "each seat is dealt once, in order"
        self.role[seat], self.hand[seat] = role, rank
        self.draw_rank(rank)
        if len(self.role) == self.n:
            assert list(self.role.values()).count("jester") == self.jesters

    def start(self, m):
        self.start_seat = self.next_seat = int(m[1])

    def night(self, m):
        jesters = [int(s) for s in m[1].split(", ")]
        assert jesters == sorted(s for s, r in self.role.items() if r == "jester")
        for seat, rank in re.findall(r"seat (\d+) holds rank (\d+)", m[2]):
            assert self.hand[int(seat)] == int(rank) - 1
        speaker = int(m[3])
        order = [(self.start_seat + k) % self.n for k in range(self.n)]
        assert speaker == next(s for s in order if self.role[s] == "jester")

    def keep(self, m):
        kept, other = ITEM_OF[m[1]], ITEM_OF[m[2]]
        assert {kept, other} == {"prolong", "requiem"} and self.setup_schemes.get(other)
        self.setup_schemes[other] = 0

    def scheme(self, m):
        item, position, tile = ITEM_OF[m[1]], int(m[2]), ITEM_OF[m[3]]
        assert self.tile[position] == tile and self.content[position] in ("gaze", "peek", "brink")
        self.content[position] = item
        self.placed.append(item)
        assert self.placed.count(item) <= self.setup_schemes.get(item, 0)

    # --- a turn ---------------------------------------------------------------------------------
    def new_turn(self, m):
        assert not self.over, "no turn after the end"
        turn, seat = int(m[1]), int(m[2])
        assert turn == self.turn + 1 and seat == self.next_seat
        self.turn, self.sacrificer = turn, seat
        if self.turn == 1:
            schemes = sum(v for k, v in self.setup_schemes.items())
            assert len(self.placed) == schemes, "every scheme of the setup replaces a scythe"
        self.sacrifice = None
        self.asked, self.spells_this_card, self.veiled = [], 0, False
        self.votes, self.ritual_ballots, self.ritual_due = {}, {}, False

    def present(self):
        return [p for p, state in enumerate(self.state) if state == "present"]

    def remove(self, m):
        seat, position, tile = int(m[1]), int(m[2]), ITEM_OF[m[3]]
        assert seat == self.sacrificer and self.sacrifice is None
        assert self.state[position] == "present" and self.tile[position] == tile
        self.state[position] = "removed"
        self.removed = position

    def removed_was(self, m):
        assert ITEM_OF[m[1]] == self.content[self.removed]

    def offer(self, m):
        seat = int(m[1])
        assert seat == self.sacrificer and self.sacrifice is None and self.hand[seat] is not None
        self.offered = True

    def offered_rank(self, m):
        seat, rank = int(m[1]), int(m[2]) - 1
        assert rank == self.hand[seat], "the card offered is the one in hand"
        self.sacrifice, self.hand[seat] = rank, None

    def draws(self, m):
        assert int(m[1]) == self.sacrificer

    def drawn(self, m):
        seat, rank = int(m[1]), int(m[2]) - 1
        self.draw_rank(rank)
        self.hand[seat] = rank

    def empty_pile(self, m):
        assert sum(self.pool) == 0 and self.on_top is None
        self.hand[int(m[1])] = None

    def claim(self, m):
        assert int(m[1]) == self.sacrificer and self.sacrifice is not None
        self.said = int(m[2]) - 1

    def truth(self, m):
        seat, known, verdict = int(m[1]), m[2], m[3]
        said = self.said
        truth = int(known.split()[-1]) - 1 if known.startswith("rank") else known.split()[-1]
        if known.startswith("rank"):
            assert truth == self.sacrifice, "the speaker knows the card"
        else:
            assert truth == self.role[self.peeked]
        assert (verdict == "the truth") == (said == truth)

    def ask_next(self, seat):
        """Proposals are asked once, in turn order from the sacrificer, of seats with a feather,
        while a scroll is left (and, under one spell per card, until one is cast)."""
        order = [(self.sacrificer + k) % self.n for k in range(self.n)]
        later = order[order.index(self.asked[-1]) + 1:] if self.asked else order
        assert seat in later and self.feathers[seat] == 1 and self.present()
        for skipped in later[:later.index(seat)]:  # nobody with a feather was passed over
            assert self.feathers[skipped] == 0 or not self.present()
        assert self.sacrifice is not None and not self.veiled
        self.asked.append(seat)

    def decline(self, m):
        self.ask_next(int(m[1]))

    def propose(self, m):
        seat, position, tile, caster = int(m[1]), int(m[2]), ITEM_OF[m[3]], int(m[4])
        self.ask_next(seat)
        assert self.state[position] == "present" and self.tile[position] == tile
        assert 0 <= caster < self.n
        self.feathers[seat] = 0
        self.position, self.caster = position, caster

    def flip(self, m):
        caster, item, effect = int(m[1]), ITEM_OF[m[2]], m[4]
        assert caster == self.caster and self.content[self.position] == item
        assert (m[3] == "scythe") == (item in ITEMS[:N_TILES]) and EFFECT_OF[item] == effect
        self.state[self.position] = "flipped"
        self.spells_this_card += 1
        self.effect = effect

    def gaze(self, m):
        assert self.effect == "see-sacrifice" and int(m[1]) == self.caster
        assert int(m[2]) == self.sacrificer

    def gazed(self, m):
        assert int(m[2]) - 1 == self.sacrifice

    def report_rank(self, m):
        assert int(m[1]) == self.caster and int(m[2]) == self.sacrificer
        self.said = int(m[3]) - 1

    def peek(self, m):
        assert self.effect == "see-faction" and int(m[1]) == self.caster and int(m[2]) != self.caster
        self.peeked = int(m[2])

    def peeked_faction(self, m):
        assert int(m[2]) == self.peeked and m[3] == self.role[self.peeked]

    def report_faction(self, m):
        assert int(m[1]) == self.caster and int(m[2]) == self.peeked
        self.said = m[3]

    def brink(self, m):
        caster, i, altar = int(m[1]), int(m[2]) - 1, ALTAR_OF[m[4]]
        assert self.effect == "swap-adjacent" and caster == self.caster and int(m[3]) == i + 2
        cards = self.altars[altar]
        assert i + 1 < len(cards)
        cards[i], cards[i + 1] = cards[i + 1], cards[i]

    def no_brink(self, m):
        assert self.effect == "swap-adjacent" and all(len(a) < 2 for a in self.altars)

    def veil(self, m):
        assert self.effect == "veil" and int(m[1]) == self.caster
        self.veil_altar = ALTAR_OF[m[2]]

    def veiled_rank(self, m):
        assert int(m[1]) - 1 == self.sacrifice
        self.place(self.veil_altar)
        self.veiled = True

    def exchange(self, m):
        assert self.effect == "exchange-sacrifice"

    def exchanged(self, m):
        old, new, top = int(m[1]) - 1, int(m[2]) - 1, int(m[3]) - 1
        assert old == self.sacrifice and top == old
        self.draw_rank(new)
        self.pool[old] += 1
        self.on_top, self.sacrifice = old, new

    def no_exchange(self, m):
        assert self.effect == "exchange-sacrifice" and sum(self.pool) == 0

    def limit_moves(self, m):
        assert self.effect == "card-limit"
        self.limit = int(m[2])

    def needed_moves(self, m):
        assert self.effect == "ritual-votes"
        self.needed = int(m[2])

    def vote(self, m):
        seat, altar = int(m[1]), 0 if m[2] == "life" else 1
        assert not self.veiled and self.sacrifice is not None
        if not self.votes:  # the proposals are over: nobody who could propose was left out
            order = [(self.sacrificer + k) % self.n for k in range(self.n)]
            for left in order[order.index(self.asked[-1]) + 1:] if self.asked else order:
                assert self.feathers[left] == 0 or not self.present()
        assert seat == len(self.votes), "everyone votes once, at the same time"
        self.votes[seat] = altar

    def judged(self, m):
        assert len(self.votes) == self.n
        death = sum(self.votes.values())
        life = self.n - death
        expected = 0 if life > death else 1 if death > life else self.votes[self.sacrificer]
        assert ALTAR_OF[m[1]] == expected and bool(m[2]) == (life == death)
        self.place(expected)

    def place(self, altar):
        self.altars[altar].append(self.sacrifice)
        self.sacrifice = None
        self.ritual_due = len(self.altars[0]) >= self.life_cards or \
            len(self.altars[1]) >= self.death_cards

    def altar_counts(self, m):
        assert (int(m[1]), int(m[2])) == tuple(len(a) for a in self.altars)

    def altar_ranks(self, m):
        shown = [[int(r) - 1 for r in group.split()] for group in (m[1], m[2])]
        assert shown == [list(a) for a in self.altars]

    def ritual_vote(self, m):
        seat = int(m[1])
        assert self.ritual_due and seat == len(self.ritual_ballots)
        self.ritual_ballots[seat] = m[2] == "yes"

    def ritual(self, m):
        yes, needed, verdict = int(m[1]), int(m[2]), m[3]
        assert len(self.ritual_ballots) == self.n and yes == sum(self.ritual_ballots.values())
        assert needed == self.needed and (verdict == "the ritual starts") == (yes >= needed)
        self.ritual_due = False
        self.started = yes >= needed
        self.revealed = []

    def reveal(self, m):
        seat = int(m[1])
        assert self.started and self.ritual_ballots[seat] and m[2] == self.role[seat]
        self.revealed.append(seat)

    def outcome(self, m):
        assert self.started
        assert sorted(self.revealed) == [s for s, yes in self.ritual_ballots.items() if yes]
        shown = [[int(r) - 1 for r in group.split()] for group in (m[1], m[2])]
        assert shown == [list(a) for a in self.altars]
        roles = [self.role[s] for s in self.revealed]
        initiator = "jesters" if roles.count("jester") > roles.count("exile") else "exiles"
        assert m[3] == initiator
        success = life_pattern(self.altars[0]) or death_pattern(self.altars[1])
        assert (m[4].startswith("succeeds")) == success
        assert ("three of a rank" in m[4]) == life_pattern(self.altars[0])
        assert ("two pairs" in m[4]) == death_pattern(self.altars[1])
        self.winner = initiator if success else ({"exiles", "jesters"} - {initiator}).pop()

    def passes(self, m):
        assert not self.ritual_due, "a ritual vote follows a card that fills an altar enough"
        assert not self.started and sum(map(len, self.altars)) < self.limit
        assert int(m[1]) == (self.sacrificer + 1) % self.n
        self.next_seat = int(m[1])

    def win(self, m):
        assert not self.ritual_due
        cards = sum(map(len, self.altars))
        if self.started:
            assert m[1] == self.winner
        else:  # the card limit: the jesters win, and only then
            assert cards >= self.limit and m[1] == "jesters" and "card limit" in m[2]
        self.over = True


SENTENCES = [(re.compile(pattern), method) for pattern, method in (
    (r"Setup: (\d+) players, (\d+) jesters, (\w+) mode, card limit (\d+)$", Table.setup),
    (r"  the character deck: (\d+) cards: (.*)$", Table.deck),
    (r"  scroll positions: (.*); each holds a Death's Scythe, face up$", Table.layout),
    (r"  schemes set aside face up: (.*)$", Table.schemes),
    (r"  a ritual vote follows (\d+) Life or (\d+) Death Altar cards; (\d+) yes votes start it; "
     r"each player has one feather$", Table.limits),
    (r"  seats are numbered in turn order: the Reaper passes to the right \(counter-clockwise\), "
     r"from seat s to seat s \+ 1$", None),
    (r"  seat (\d+) draws a faction card and a character card$", None),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+): \S+ (exile|jester), holds rank (\d+)$",
     Table.dealt),
    (r"  seat (\d+) is the starting player and takes the Reaper \((?:drawn at random|seat 0 by "
     r"rules.starting_player)\)$", Table.start),
    (r"Jesters' night: everyone closes their eyes; the \d+ jesters open theirs$", None),
    (rf"  {re.escape(PRIVATE_MARK)}the jesters are seats ([\d, ]+); they see each other's cards "
     r"\((.*)\); seat (\d+) speaks for them$", Table.night),
    (rf"  {re.escape(PRIVATE_MARK)}the jesters keep ({LABEL}) and discard ({LABEL}) face down$",
     Table.keep),
    (rf"  {re.escape(PRIVATE_MARK)}the jesters put ({LABEL}) in place of the scythe at position "
     rf"(\d+) \(under ({LABEL})\)$", Table.scheme),
    (r"  a scythe leaves the game unseen$", None),
    (rf"  a scythe is set aside face up: everyone sees one came from under ({LABEL})$", None),
    (r"Turn (\d+): seat (\d+) is the sacrificer$", Table.new_turn),
    (rf"  seat (\d+) does not offer and removes the scroll at position (\d+) \(under ({LABEL})\)"
     rf"(?:, unseen|, shown to everyone: the .*)$", Table.remove),
    (rf"  {re.escape(PRIVATE_MARK)}it was the ({LABEL}) (?:scythe|scheme) \(the jesters knew\)$",
     Table.removed_was),
    (r"  seat (\d+) offers a card face down to the sacrifice area$", Table.offer),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+)'s card is rank (\d+)$", Table.offered_rank),
    (r"  seat (\d+) draws a card$", Table.draws),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+) draws rank (\d+)$", Table.drawn),
    (r"  seat (\d+) cannot draw: the draw pile is empty$", Table.empty_pile),
    (r"  seat (\d+) announces rank (\d+)$", Table.claim),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+) knows it is (rank \d+|an exile|a jester): "
     r"(the truth|a lie)$", Table.truth),
    (r"  seat (\d+) keeps its feather \(no spell\)$", Table.decline),
    (rf"  seat (\d+) discards its feather: the scroll at position (\d+) \(under ({LABEL})\), "
     r"cast by seat (\d+)$", Table.propose),
    (rf"  seat (\d+) flips it: the ({LABEL}) (scythe|scheme), ([\w-]+)$", Table.flip),
    (r"  seat (\d+) looks at seat (\d+)'s card in secret$", Table.gaze),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+) sees rank (\d+)$", Table.gazed),
    (r"  seat (\d+) says seat (\d+)'s card is rank (\d+)$", Table.report_rank),
    (r"  seat (\d+) looks at seat (\d+)'s faction card in secret$", Table.peek),
    (rf"  {re.escape(PRIVATE_MARK)}seat (\d+) sees seat (\d+) is an? (exile|jester)$",
     Table.peeked_faction),
    (r"  seat (\d+) says seat (\d+) is an? (exile|jester)$", Table.report_faction),
    (rf"  seat (\d+) swaps cards (\d+) and (\d+) of the ({ALTAR})$", Table.brink),
    (r"  seat (\d+): no altar holds two cards, nothing to swap$", Table.no_brink),
    (rf"  seat (\d+) puts the card on the ({ALTAR}) without a vote$", Table.veil),
    (rf"  {re.escape(PRIVATE_MARK)}the card is rank (\d+)$", Table.veiled_rank),
    (r"  the card is exchanged, unseen, with the top card of the draw pile$", Table.exchange),
    (rf"  {re.escape(PRIVATE_MARK)}the card was rank (\d+), now rank (\d+); rank (\d+) is on top "
     r"of the draw pile$", Table.exchanged),
    (r"  the draw pile is empty: nothing to exchange$", Table.no_exchange),
    (r"  the card limit moves by (-?\d+): now (\d+)$", Table.limit_moves),
    (r"  the ritual's yes votes move by (-?\d+): now (\d+)$", Table.needed_moves),
    (r"  seat (\d+) votes (life|death)$", Table.vote),
    (rf"  the card goes to the ({ALTAR})( \(a tie: the sacrificer's vote\))?$", Table.judged),
    (r"  altars: (\d+) on the Life Altar, (\d+) on the Death Altar$", Table.altar_counts),
    (rf"  {re.escape(PRIVATE_MARK)}altars: Life \[([\d ]*)\], Death \[([\d ]*)\]$",
     Table.altar_ranks),
    (r"  seat (\d+) votes (yes|no) to the ritual$", Table.ritual_vote),
    (r"  ritual vote: (\d+) yes of (\d+) needed: (the ritual starts|no ritual)$", Table.ritual),
    (r"  seat (\d+) voted yes and reveals: (exile|jester)$", Table.reveal),
    (r"  the altars are revealed \(Life \[([\d ]*)\], Death \[([\d ]*)\]\); the (exiles|jesters) "
     r"initiated the ritual, which (succeeds \(.*\)|fails)$", Table.outcome),
    (r"  the Reaper passes to seat (\d+)$", Table.passes),
    (r"The (exiles|jesters) win: (.*)\.$", Table.win),
)]


def replay(lines: list[str]) -> Table:
    """Read one game's lines back; every line must be a known sentence and obey its rule."""
    table = Table()
    for number, line in enumerate(lines):
        for pattern, method in SENTENCES:
            match = pattern.match(line)
            if match:
                try:
                    if method is not None:
                        method(table, match)
                except AssertionError as error:
                    context = "\n".join(lines[max(0, number - 12):number + 1])
                    raise AssertionError(f"{error}\n{context}") from None
                break
        else:
            raise AssertionError(f"a line no rule reads: {line!r}")
    assert table.over, "the game ends with a winner"
    for position, state in enumerate(table.state):  # a scroll is removed or flipped at most once
        assert state in ("present", "removed", "flipped"), position
    return table


def traced_games(path, overrides=(), games=6, seed=0):
    """The private trace lines of `games` games of a config, one list per game."""
    cfg = config.load(str(path), list(overrides))
    _, rows = driver.play(GAME, cfg.params, cfg.lineup, games, np.random.default_rng(seed),
                          trace_rows=600 * games)
    lines = GAME.decode_trace(rows, cfg.params)
    out = []
    for line in lines[1:]:
        if line.startswith("Setup:"):
            out.append([])
        out[-1].append(line)
    assert len(out) == games
    return out


@pytest.mark.parametrize("players", ["conspirator", "random"])
@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_every_traced_game_obeys_the_rules(path, players):
    for seed in range(3):
        for game in traced_games(path, [f'strategies.all="{players}"'], seed=seed):
            replay(game)


def test_the_replay_catches_a_broken_rule():
    """The reader is not a rubber stamp: each altered trace fails on the rule it breaks."""
    game = traced_games(CONFIGS[0], ['strategies.all="random"'], games=1)[0]
    broken = {
        "a card of another rank offered": (r"(\(private\) seat \d+'s card is rank )(\d+)",
                                           lambda m: m[1] + str(int(m[2]) % 6 + 1)),
        "a vote's majority ignored": (r"the card goes to the Life Altar 活祭壇",
                                      lambda m: "the card goes to the Death Altar 死祭壇"),
        "a turn out of order": (r"the Reaper passes to seat (\d+)",
                                lambda m: f"the Reaper passes to seat {int(m[1])}0"),
    }
    for what, (pattern, change) in broken.items():
        for i, line in enumerate(game):
            if re.search(pattern, line):
                altered = game[:i] + [re.sub(pattern, change, line, count=1)] + game[i + 1:]
                with pytest.raises(AssertionError):
                    replay(altered)
                break
        else:
            pytest.fail(f"no line to alter for {what}")
