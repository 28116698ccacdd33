"""Vita Mors Conspiro's kernel: whole games, read back through their traces and tallies (the rules
one by one are in test_vitamors_rules.py)."""

from __future__ import annotations

import re

import numpy as np

from simulator.setup import config
from simulator.games import driver
from simulator.games.vitamors import GAME
from simulator.games.vitamors.declaration import DECISION, END, EV, OBS, SCROLL
from simulator.games.vitamors.observation import legal_offer
from simulator.games.vitamors.rules import deal


def games_of(overrides=(), games=60, seed=3, players=7):
    """The decoded traces of `games` games, one list of lines per game, and the tallies."""
    cfg = config.load("vitamors", list(overrides), players)
    tallies, rows = driver.play(GAME, cfg.params, cfg.lineup, games, np.random.default_rng(seed),
                                trace_rows=200_000)
    lines = GAME.decode_trace(rows, cfg.params)
    out, game = [], None
    for line in lines[1:]:
        if line.startswith("Setup:"):
            game = []
            out.append(game)
        game.append(line)
    assert len(out) == games
    return out, tallies


def test_the_trace_shows_every_step_of_a_game():
    traces, _ = games_of()
    text = "\n".join(line for game in traces for line in game)
    for needed in ("holds rank", "is the starting player", "Jesters' night",
                   "in place of the scythe at position", "is the sacrificer", "offers a card",
                   "draws rank", "announces rank", "removes the scroll", "discards its feather",
                   "flips it", "votes life", "votes death", "the card goes to the",
                   "altars: Life [", "to the ritual", "ritual vote:", "the ritual starts",
                   "reveals: ", "the altars are revealed", "win:"):
        assert needed in text, needed
    for game in traces:  # each game: the night first, an outcome last, the altars every turn
        assert game[-1].startswith("The ") and " win: " in game[-1]
        turns = sum(line.startswith("Turn ") for line in game)
        assert sum(line.startswith("  altars:") for line in game) >= turns - 1


def test_expert_jesters_keep_one_of_prolong_life_and_requiem():
    traces, tallies = games_of(['rules.mode="expert"'], games=30)
    for game in traces:
        kept = [line for line in game if "the jesters keep" in line and "discard" in line]
        assert len(kept) == 1
        placed = [line for line in game if "in place of the scythe" in line]
        assert len(placed) == 3  # Veil, Swap and the kept one, 7 players
        keeps_prolong = "keep 續命 Prolong Life" in kept[0]
        assert any(("續命" in line) == keeps_prolong and ("安魂" in line) != keeps_prolong
                   for line in placed)


def test_an_offer_is_forced_when_no_scroll_is_left():
    cfg = config.load("vitamors")
    st = driver.new_state(GAME, cfg.params, cfg.lineup)
    deal(st, np.random.default_rng(0))
    legal_offer(st, 2)
    assert st.legal_count == 2
    st.obs[OBS.scroll_state:OBS.scroll_state + st.n_scrolls] = SCROLL.removed
    legal_offer(st, 2)
    assert st.legal_count == 1 and st.legal[0]


def test_a_veiled_card_skips_the_judgement():
    # every seat judges every card but the veiled ones (random strategies: never forced)
    _, t = games_of(['strategies.all="random"'], games=400)
    judged = t["events"][EV.cards_played] - t["events"][EV.veiled]
    assert t["events"][EV.veiled] > 0
    assert t["decisions"][DECISION.judgement] + t["forced"][DECISION.judgement] == 7 * judged


def test_how_games_end_agrees_with_the_altars():
    traces, tallies = games_of(games=80)
    limit = 0
    for game in traces:
        last_altars = [line for line in game if line.startswith("  altars:")][-1]  # (public)
        cards = sum(int(count) for count in re.findall(r"\d+", last_altars))
        if "card limit reached" in game[-1]:
            limit += 1
            assert cards == 9
            assert "the ritual starts" not in "\n".join(game)
        else:
            assert "the ritual starts" in "\n".join(game) and cards <= 9
    assert limit == tallies["end_counts"][END.card_limit] > 0


def test_spells_per_card_one_ends_the_proposals_after_the_first_spell():
    """rules.spells_per_card: with "any" (the default) several spells may follow one played card
    (random players propose often); with "one" never more than one. Read from the traces: the
    feathers discarded between a card offered and the next turn."""
    def most_spells_after_a_card(overrides):
        traces, _ = games_of(['strategies.all="random"', *overrides], games=200)
        most = 0
        for game in traces:
            count = 0
            for line in game:
                if line.startswith("Turn "):
                    count = 0
                elif "discards its feather" in line:
                    count += 1
                    most = max(most, count)
        return most

    assert most_spells_after_a_card([]) >= 2
    assert most_spells_after_a_card(['rules.spells_per_card="one"']) == 1


def test_the_trace_says_a_removed_scroll_was_shown_under_the_knob():
    traces, _ = games_of(['rules.removed_scroll="shown"'], games=20)
    removals = [line for game in traces for line in game if "removes the scroll" in line]
    assert removals and all("shown to everyone: the " in line for line in removals)
    traces, _ = games_of([], games=20)
    assert all(line.endswith("unseen") for game in traces for line in game
               if "removes the scroll" in line)


def test_the_trace_says_where_the_replaced_scythes_went_under_the_knob():
    """rules.replaced_scythes: "unseen" (the default) or "shown", said on every scheme's line."""
    for value, words in (("unseen", "  a scythe leaves the game unseen"),
                         ("shown", "  a scythe is set aside face up")):
        traces, _ = games_of([f'rules.replaced_scythes="{value}"'], games=10)
        for game in traces:  # Veil and Swap each replace one, privately; where it goes is public
            placed = [i for i, line in enumerate(game) if "in place of the scythe" in line]
            assert len(placed) == 2 and all(game[i + 1].startswith(words) for i in placed)


def test_the_starting_player_is_random_or_seat_0_by_the_knob():
    """rules.starting_player: "random" (the default) draws the first sacrificer uniformly (over 140
    games each of 7 seats starts 20 times on average; P(a seat never starts) = (6/7)^140 < 1e-9,
    so every seat starting at least once is certain at this fixed seed); "seat-0" always starts
    with seat 0."""
    def starters(overrides):
        traces, _ = games_of(list(overrides), games=140)
        return [int(re.search(r"seat (\d+) is the starting player", "\n".join(game)).group(1))
                for game in traces]

    assert set(starters([])) == set(range(7))
    assert set(starters(['rules.starting_player="seat-0"'])) == {0}
    traces, _ = games_of(['rules.starting_player="seat-0"'], games=5)
    assert all(any(line.startswith("Turn 1: seat 0 is the sacrificer") for line in game)
               for game in traces)


def test_the_header_names_every_changed_setting():
    cfg = config.load("vitamors")
    assert GAME.decode_trace(np.zeros((0, 6), np.int64), cfg.params)[0].endswith(
        "every setting at its default)")
    changed = ['rules.mode="expert"', "deck.ranks=[5, 5, 5, 5, 5]", "scrolls.expert.7.veil=0",
               'rules.removed_scroll="shown"', 'rules.starting_player="seat-0"',
               'effects.gaze="see-faction"', "rules.card_limit=10"]
    header = GAME.decode_trace(np.zeros((0, 6), np.int64), config.load("vitamors", changed).params)
    for words in ("rules.mode = expert", "deck.ranks = [5, 5, 5, 5, 5]",
                  "scrolls.expert.7.veil = 0", "rules.removed_scroll = shown",
                  "rules.starting_player = seat-0", "effects.gaze = see-faction",
                  "rules.card_limit = 10"):
        assert words in header[0], words
    assert "rules.spells_per_card" not in header[0]  # what is not changed is not named


def test_a_plain_trace_is_what_the_table_saw():
    """Without --private, no line tells a hidden rank, faction or scroll; the proposals declined
    and the Reaper's passes are there."""
    from simulator.run import runner
    from simulator.games.base import PRIVATE_MARK

    cfg = config.load("vitamors")
    full = runner.trace_game(cfg, seed=3, private=True)
    plain = runner.trace_game(cfg, seed=3)
    assert [line for line in full if PRIVATE_MARK not in line] == plain
    assert len(plain) < len(full)
    text = "\n".join(plain)
    for needed in ("keeps its feather (no spell)", "the Reaper passes to seat",
                   "scroll positions: 0-2 under", "the character deck: 24 cards"):
        assert needed in text, needed
    for hidden in ("holds rank", "draws rank", "a lie", "the truth", "in place of the scythe",
                   "altars: Life ["):
        assert hidden not in text, hidden
