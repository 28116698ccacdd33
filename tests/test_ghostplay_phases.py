"""Ghost Play turn steps (kernel.py phases) on hand-built positions with scripted strategies.

Each seat plays `prefer`: the action a test names for a decision kind when it is legal, else the
first legal action (test_ghostplay_positions.py). Votes are encoded positive * 7 + negative.
"""

from __future__ import annotations

import numpy as np

from simulator.games import driver
from simulator.games.ghostplay import GAME
from simulator.games.ghostplay import kernel as K
from simulator.games.ghostplay.declaration import (
    CARD_STATE, DECISION, END, EV, LF, OBS, OUTCOME, PACKED, PASS, RISE, ROLE, TEAM, TR,
    UNKNOWN, VOTE_BASE, WINDOW,
)
from simulator.games.ghostplay.params import default_params

from test_ghostplay_positions import (
    KING, PARAMS, TP, TS, ghost, ghosts, give, haunt, position, tallies, bind,
)
from test_ghostplay_rules import artifact_params

SIX = [TP, TS, TP, TS, TP, TS]
VOTE, CHALLENGE = DECISION.vote, DECISION.challenge
NO = {CHALLENGE: PASS}


def vote(positive, negative=0):
    return positive * VOTE_BASE + negative


def run_phase(phase, st, wanted, *extra, seed=0):
    """Run one kernel step; returns (its result, the tallies it added, the trace rows)."""
    trace = bind(st, wanted)
    rng = np.random.default_rng(seed)
    out = phase(st, *extra, rng)
    return out, tallies(driver.read_tallies(GAME, st)), trace[:st.trace_rows]


# what the trace adds for a reader (cards drawn, pile sizes, passes, the end of a turn), left out
# where a test follows the rules' steps
BOOKKEEPING = {TR.drawn, TR.piles, TR.reshuffle, TR.vote_cards, TR.declined, TR.seat_at_end,
               TR.turn_end}


def codes(trace):
    return [int(c) for c in trace[:, 1] if int(c) not in BOOKKEEPING]


def red_ghost_on_3(requirement=3):
    st = position(SIX)
    card = ghost(PARAMS, colour="red", requirement=requirement)
    slot = haunt(st, card, 3)
    return st, card, slot


# --- the exorcism ---------------------------------------------------------------------------------
def test_exorcism_votes_go_round_from_the_host_and_a_met_requirement_dispels():
    st, card, slot = red_ghost_on_3(requirement=3)
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted = [{VOTE: vote(3)} | NO, {VOTE: vote(1)}, {VOTE: vote(0, 1)}, {}, {}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    assert won == 1  # 3 + 1 red, 1 blue: net 3 meets 3
    votes = trace[trace[:, 1] == TR.vote]
    assert list(votes[:, 2]) == [0, 1, 2, 3, 4, 5]  # from the host, going round
    assert list(votes[:, 4]) == [3, 1, 1, 0, 0, 0]  # cards placed
    assert st.points[0] == 2 and st.card_state[card] == CARD_STATE.dispelled
    assert st.in_play == 0 and st.possessed[3] == 0
    assert st.known[0, 3] == TS  # the host looked
    rewards = trace[trace[:, 1] == TR.reward]
    assert list(rewards[:, 2]) == [0, 1, 2] and list(rewards[:, 4]) == [1, 1, 1]  # 3 take part
    assert list(st.spirit[:6]) == [5, 5, 5, 4, 4, 4]
    assert st.discard_size == 5 and st.hand_size[0] == 3  # every vote card discarded
    assert t.events[EV.exorcisms] == 1 and t.events[EV.exorcisms_won] == 1
    log = OBS.log  # the public record: counted 4 positive, 1 negative
    assert st.obs[log + LF.outcome] == OUTCOME.dispelled
    assert (st.obs[log + LF.positive], st.obs[log + LF.negative]) == (4, 1)
    assert list(st.obs[log + len(LF):log + len(LF) + 6]) == [3, 1, 1, 0, 0, 0]


def test_an_unmet_requirement_leaves_the_ghost_and_pays_nothing():
    st, card, slot = red_ghost_on_3(requirement=4)
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted = [{VOTE: vote(3)} | NO, {VOTE: vote(1, 1)}, {}, {}, {}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    assert won == 0 and st.in_play == 1 and st.points[0] == 0
    assert TR.reward not in codes(trace) and TR.look not in codes(trace)
    assert st.discard_size == 5 and list(st.spirit[:6]) == [4] * 6
    assert st.known[0, 3] == UNKNOWN
    assert st.obs[OBS.log + LF.outcome] == OUTCOME.failed


def test_a_challenge_showing_only_positive_votes_fails_the_exorcism_at_once():
    st, card, slot = red_ghost_on_3(requirement=2)
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted = [{VOTE: vote(3), CHALLENGE: 1}, {VOTE: vote(2)}, {VOTE: vote(1)}, {}, {}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    assert won == 0 and st.in_play == 1
    assert TR.count not in codes(trace)  # no count: it failed at once
    assert t.events[EV.challenges] == 1 and t.events[EV.challenges_backfired] == 1
    assert st.discard_size == 6  # every vote discarded (seat 2's unseen)
    assert st.obs[OBS.log + LF.outcome] == OUTCOME.challenge_failed
    assert st.obs[OBS.log + LF.positive] == -1
    # the trace says the challenged voter's cards were shown, the others' discarded unseen
    shown = {row[2]: row[5] for row in trace[trace[:, 1] == TR.shown]}
    assert shown == {0: 0, 1: 2, 2: 0}
    lines = GAME.decode_trace(trace, default_params(6))
    assert any("seat 1's vote: 2 positive, 0 negative (vote value), shown by the challenge, "
               "then discarded" in line for line in lines), lines
    assert any("seat 2's vote" in line and "discarded unseen" in line for line in lines), lines


def test_a_challenge_catching_a_negative_vote_discards_it_then_the_rest_is_counted():
    st, card, slot = red_ghost_on_3(requirement=3)
    for s in range(6):
        give(st, s, red=3, blue=3)
    # seat 0 hosts with 3 red, challenges seat 2 (2 blue), then stops (seat 4 is next legal)
    wanted = [{VOTE: vote(3), CHALLENGE: 2}, {VOTE: vote(1)}, {VOTE: vote(0, 2)}, {},
              {VOTE: vote(0, 1)}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    challenged = trace[trace[:, 1] == TR.challenge]
    assert list(challenged[:, 3]) == [2, 1]  # seat 2 (a negative), then seat 1 (all positive)
    assert won == 0  # seat 1's all-positive vote failed it
    st, card, slot = red_ghost_on_3(requirement=3)
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted[1] = {VOTE: vote(0)}  # seats 1 and 4 abstain: after seat 2 nobody may be challenged
    wanted[4] = {VOTE: vote(0)}
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    assert won == 1  # seat 2's 2 blue are discarded: 3 red against 3
    assert t.events[EV.challenges_caught] == 1 and t.events[EV.challenged_won] == 1
    assert st.points[0] == 2
    assert list(trace[trace[:, 1] == TR.reward][:, 2]) == [0]  # seat 2 is no participant
    assert st.spirit[0] == 6


def test_the_ghost_king_votes_but_is_never_challenged():
    st, card, slot = red_ghost_on_3(requirement=2)
    st.king = 1
    st.role[1] = KING
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted = [{VOTE: vote(2), CHALLENGE: 1}, {VOTE: vote(0, 1)}, {}, {}, {}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 0, slot, False)
    assert TR.challenge not in codes(trace)  # the only other voter is the king: none asked
    assert won == 0  # 2 red - 1 blue = 1 < 2


def test_summoning_only_the_ghost_king_votes_and_a_success_is_a_life():
    st, card, slot = red_ghost_on_3(requirement=2)
    st.king = 1
    st.role[1] = KING
    for s in range(6):
        give(st, s, red=3, blue=3)
    wanted = [{}, {VOTE: vote(2)}, {}, {}, {}, {}]
    won, t, trace = run_phase(K.exorcism, st, wanted, 1, slot, True)
    assert won == 1 and st.lives == 1 and st.card_state[card] == CARD_STATE.life
    assert list(trace[trace[:, 1] == TR.vote][:, 2]) == [1]
    assert st.points[1] == 0 and TR.look not in codes(trace)
    assert t.events[EV.summonings_won] == 1 and t.events[EV.exorcisms] == 0
    assert st.spirit[1] == 6  # the ghost's reward, 1 participant: 2


# --- the night ------------------------------------------------------------------------------------
def test_haunting_reveals_and_another_reveals_one_more():
    st = position(SIX)
    cards = PARAMS.ghost_cards()
    another = next(c for c, card in enumerate(cards) if card.effect == "another")
    drain = next(c for c, card in enumerate(cards) if card.effect == "drain")
    right = ghost(PARAMS, possess_rule="right-neighbour")
    st.ghost_order[:3] = [another, drain, right]
    st.ghost_order[3:40] = [c for c in range(40) if c not in (another, drain, right)]
    _, t, trace = run_phase(K.haunting, st, [{}] * 6, 2)
    assert codes(trace) == [TR.reveal, TR.event, TR.reveal, TR.event]  # another, then drain
    assert list(st.spirit[:6]) == [3] * 6 and st.in_play == 0
    _, t, trace = run_phase(K.haunting, st, [{}] * 6, 2)
    assert codes(trace) == [TR.reveal, TR.possess] and st.slot_target[0] == 3
    st.ghost_next = 39
    st.ghost_order[39] = another
    _, t, trace = run_phase(K.haunting, st, [{}] * 6, 2)
    assert codes(trace) == [TR.reveal, TR.event]  # nothing left to reveal: nothing happens


def test_night_the_ghost_king_draws_one_then_reveals_and_may_summon():
    st = position(SIX)
    st.king = 4
    st.role[4] = KING
    st.pile[:5] = 0
    st.pile_size = 5
    give(st, 4, red=2)
    turn = ghost(PARAMS, colour="red", requirement=2, possess_rule="turn-player")
    st.ghost_order[0] = turn
    wanted = [{}] * 6
    wanted[4] = {DECISION.summon: 0, VOTE: vote(2)}
    _, t, trace = run_phase(K.night, st, wanted, 4)
    assert codes(trace)[:2] == [TR.draw, TR.reveal]
    # a ghost whose rule picks the ghost king goes to the next eligible player to the right
    assert st.card_state[turn] == CARD_STATE.life and st.lives == 1
    assert list(trace[trace[:, 1] == TR.possess][:, 2]) == [5]
    assert st.hand_size[4] == 1  # 2 + 1 drawn - 2 voted


def test_night_a_turn_player_may_host_no_exorcism():
    st = position(SIX)
    st.ghost_order[0] = ghost(PARAMS)
    _, t, trace = run_phase(K.night, st, [{DECISION.exorcise: PASS}] * 6, 0)
    assert TR.exorcise not in codes(trace) and st.in_play == 1


# --- the draw and the day -------------------------------------------------------------------------
def test_draw_and_day_buy_set_an_artifact_and_play_a_card():
    params = artifact_params()
    st = position(SIX, params)
    from simulator.games.ghostplay.rules import build_taoist_pile
    build_taoist_pile(st, np.random.default_rng(0))
    st.pile[:st.pile_size] = 0  # plain red cards to draw and buy
    CHARM, ELIXIR = 2, 4
    st.hand[1, CHARM] = st.hand[1, ELIXIR] = 1
    st.colours[1] = [2, 0]
    st.hand_size[1] = 2
    wanted = [{}] * 6
    wanted[1] = {DECISION.buy: 2, DECISION.artifact: CHARM, DECISION.spell: ELIXIR}
    run_phase(K.draw_phase, st, wanted, 1)
    assert st.hand_size[1] == 4
    _, t, trace = run_phase(K.day, st, wanted, 1)
    assert codes(trace) == [TR.buy, TR.artifact, TR.spell]
    assert st.artifact[1] == CHARM and st.hand[1, CHARM] == 0
    assert st.spirit[1] == 4 - 4 + 2  # two cards bought, then the elixir's 2
    assert st.hand_size[1] == 4 + 2 - 2
    assert t.events[EV.cards_bought] == 2 and t.events[EV.artifacts] == 1
    assert t.events[EV.spells] == 1


def talisman_params():
    """A deck with 2 talismans (blue spells: draw 2) beside 30 red and 30 blue vote cards."""
    from simulator.games.ghostplay.params import read_taoist_card
    deck = {"red": {"colour": "red", "count": 30}, "blue": {"colour": "blue", "count": 30},
            "talisman": {"colour": "blue", "count": 2, "play": "spell", "effect": "draw",
                         "amount": 2}}
    return default_params(6, taoist_deck=tuple(read_taoist_card(k, v) for k, v in deck.items()))


def test_a_played_card_stays_out_until_the_turn_ends_so_cards_that_draw_cannot_loop():
    """Every vote card in hands, the draw pile empty, one talisman discarded and one in seat 0's
    hand. Were a played card discarded at once, each talisman would draw the other back from the
    reshuffled discards, for ever; out until the turn ends, the second draws nothing."""
    st = position(SIX, talisman_params())
    TALISMAN = 2
    give(st, 1, red=30, blue=30)
    st.hand[0, TALISMAN] = 1
    st.colours[0] = [0, 1]
    st.hand_size[0] = 1
    st.discard[TALISMAN] = st.discard_size = 1
    wanted = [{}] * 6
    wanted[0] = {DECISION.spell: TALISMAN}  # plays a talisman whenever it holds one
    _, t, trace = run_phase(K.play_spells, st, wanted, 0, WINDOW.day)
    assert codes(trace) == [TR.spell, TR.spell] and t.events[EV.spells] == 2
    assert list(trace[trace[:, 1] == TR.drawn][:, 4]) == [1]  # the first drew the other back
    assert st.hand_size[0] == 0 and st.spent[TALISMAN] == 2 and st.spent_size == 2
    assert st.pile_size == 0 and st.discard_size == 0  # nothing left to draw
    _, _, trace = run_phase(lambda st, turn, rng: K.turn_ends(st, turn), st, wanted, 5)
    assert list(trace[trace[:, 1] == TR.spent][:, 4]) == [2]
    assert st.discard[TALISMAN] == 2 and st.spent_size == 0  # discarded as the turn ends


# --- the rise and the end -------------------------------------------------------------------------
def test_end_of_turn_raises_the_ghost_king_and_counts_how():
    st = position(SIX)
    cards = ghosts(PARAMS)
    for c in cards[:2]:
        haunt(st, c, 4)
    from simulator.games.ghostplay.rules import start_turn
    start_turn(st, 0, 7)
    haunt(st, cards[2], 4)
    _, t, trace = run_phase(lambda st, p, turn, rng: K.end_of_turn(st, p, turn, rng), st, [{}] * 6,
                            0, 7)
    assert st.king == 4 and st.role[4] == KING and st.rise_turn == 7
    assert t.events[EV.rises] == 1 and t.events[EV.rise_by_three] == 1
    assert t.king_rises[0] == 1 and t.rise_turn_sum[0] == 7 and t.rise_turn_hist[7] == 1
    row = trace[trace[:, 1] == TR.rise][0]
    assert row[2] == 4 and row[4] == TP and row[5] // 64 == RISE.three


def full_run(params, games=300, strategy="people", seed=4):
    t, _ = driver.simulate(GAME, params, [strategy] * params.players, games, seed)
    return tallies(t)


def test_the_seal_breaks_at_the_end_or_at_once_and_the_evil_path_wins_with_it():
    at_end = full_run(default_params(5, seals=(1,)))
    assert at_end.end_counts[END.seal] > 0 and at_end.end_counts[END.seal_at_once] == 0
    assert at_end.team_wins[TEAM.evil] == at_end.end_counts[END.seal]
    assert at_end.events[EV.seal_breaks] == at_end.end_counts[END.seal]
    assert at_end.role_wins[ROLE.evil] > 0  # the evil path wins with the ghost king
    at_once = full_run(default_params(5, seals=(1,), seal="at-once"))
    assert at_once.end_counts[END.seal_at_once] > 0 and at_once.end_counts[END.seal] == 0
    # at once, a game ends at the first life: shorter games than at the end
    lengths = np.arange(len(at_end.length_hist))
    assert (lengths * at_once.length_hist).sum() < (lengths * at_end.length_hist).sum()


def test_games_end_when_the_ghost_deck_is_empty():
    t = full_run(default_params(6), games=200, strategy="random")
    # 40 cards, one a turn, and each of the 4 "reveal one more" reveals one more in its turn
    # unless it is the last card: 36 or 37 turns
    lengths = np.flatnonzero(t.length_hist)
    assert set(lengths) <= {36, 37}
    assert t.events[EV.possessions] + t.events[EV.unpossessed] == 32 * 200
    rounds = full_run(default_params(6, end="round"), games=200, strategy="random")
    assert (np.flatnonzero(rounds.length_hist) % 6 == 0).all()  # whole rounds


# --- the trace ------------------------------------------------------------------------------------
def test_a_traced_game_tells_every_haunting_exorcism_vote_challenge_rise_and_the_end():
    params = default_params(6)
    t, rows = driver.simulate(GAME, params, ["people"] * 6, 1, seed=3, trace_rows=20_000)
    lines = GAME.decode_trace(rows, params)
    assert lines[0].startswith("PROVISIONAL")
    text = "\n".join(lines)
    for piece in ("setup: seat", "== turn 1:", "haunting: seat", "possesses seat", "exorcism: seat",
                  "vote: seat", "count: net", "dispelled:", "look: seat", "reward: seat",
                  "RISE: seat", "END: "):
        assert piece in text, piece
    assert t["events"][EV.possessions] == sum("possesses seat" in line for line in lines)
    assert t["events"][EV.exorcisms] == sum("exorcism: seat" in line for line in lines)
    # every exorcism asks every player for a vote, and each vote left on the table is shown
    assert sum("vote: seat" in line for line in lines) == 6 * t["events"][EV.exorcisms] + \
        t["events"][EV.summonings]
    assert sum("challenge: seat" in line for line in lines) == t["events"][EV.challenges]


def test_trace_rows_pack_large_values():
    shown = 36 * PACKED.shown.positive + 5 * PACKED.shown.negative
    possess = 3 * PACKED.possess.on_seat + 40 * PACKED.possess.in_play
    rows = np.array([[1, TR.shown, 0, 1, shown, 1], [1, TR.possess, 2, 0, 0, possess]])
    shown_line, possess_line = GAME.decode_trace(rows, PARAMS)[-2:]
    assert "36 positive, 5 negative" in shown_line
    assert "3 ghost(s) on it, 40 in play" in possess_line
