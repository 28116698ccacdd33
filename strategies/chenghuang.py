"""Scripted strategies for 城隍神與夜冥將軍 (Chenghuang).

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action (none of them uses `memory`); it reads the
observation through the named offsets in `OBS` and scores holdings with the game's own scoring
function over the scoring table carried in the observation, never the game state.

* ``random``   – uniform over the legal actions; blind (FLAG_BLIND): it is not shown an
  observation.
* ``greedy``   – drafts and plays for its own highest round score and ignores the vote: it always
  denies, votes for the highest score it can see, hides cards at random.
* ``balanced`` – drafts for value the same way, but keeps what the others can see of it low (its
  most valuable cards go face down; 文判 copies a face-down card when that is as good), estimates
  every player's round score from what its seat has seen, votes for the most likely leader and,
  when accused, admits if that is expected to cost less than denying, weighing its estimated
  chance of really being the highest (shaded by `risk`). Two ways of playing it cannot otherwise
  express, off by default: `target_leader` (votes and steals from the game's leader) and `lure`
  (hides its cheapest cards, a bluff to draw the accusation).
"""

import math

import numpy as np

from simulator.games.base import StrategyInfo, StrategyParam
from simulator.games.chenghuang.declaration import (
    ANSWER, DECISION, FACE_DOWN, HAND, N_KINDS, NO_THEFT, OBS, ROLE, S_MODE, SET_LEN, T, TIE,
)
from simulator.games.chenghuang.rules import PRINTED, kind_score, showdown_score

from .common import (
    RANDOM, compiled, inlined, random_double, strategy, uniform_index, uniform_legal,
)


NEG = -(1 << 60)
# Players lay their most valuable cards face down, so a face-down card is worth more than an
# average card nobody has seen (the unseen cards include the pile's discards, the cards their
# owners wanted least). Among `balanced` players the two face-down cards are worth about 2.5
# points more each (measured: the estimate's mean error per face-down card, 5 players);
# 柳將軍's third face-down card is an ordinary one. `estimate` adds this premium.
HIDDEN_PREMIUM = 2.5


# balanced's parameters, in the order it declares them (`builtin`).
P_HOPE, P_RISK, P_TARGET_LEADER, P_LURE = range(4)


# A seat that was accused, denied and shown not the highest laid cards face down that were not
# what the table took them for: a careful player no longer reads its face-down cards as its best
# (the premium is multiplied by SHOWN_DISCOUNT for each such round). Without it, hiding junk
# (`lure`) drew the whole table's accusation round after round (docs/strategies.md).
SHOWN_DISCOUNT = 0.0


@inlined
def hidden_premium(obs, seat, hidden):
    """What `hidden` face-down cards of `seat` are worth above as many average unseen cards:
    HIDDEN_PREMIUM each for the two most valuable, unless the seat was shown to hide others."""
    premium = HIDDEN_PREMIUM * min(hidden, 2)
    for _ in range(obs[OBS.denied_right + seat]):
        premium *= SHOWN_DISCOUNT
    return premium

# The strategies and their helpers never allocate, so they are compiled without reference counting
# (`compiled`; every array they touch is a view owned by the kernel): a call then costs no
# incref/decref of the observation, the legal mask and the parameters. The few helpers called in
# the innermost loops (every kind of every candidate) are `inlined`.


# --- ties -----------------------------------------------------------------------------------------
# Every choice of "the best" option breaks ties uniformly at random from the strategy's rng, never
# by seat number or kind code: a table of identical strategies must not favour a seat.
@inlined
def tie_step(ties, rng):
    """Reservoir sampling of a tie: the ties-th equally good option (ties counts it) replaces the
    one kept with chance 1/ties, so each of the tied options is kept with the same chance. Draws
    from the rng only when there is a tie."""
    return uniform_index(ties, rng) == 0


# --- scoring what a seat holds, from the observation ----------------------------------------------
@compiled
def count_with(obs, c0, kind, add, remove, remove2):
    """obs[c0 + kind] with one card of `add` gained and one of `remove` and of `remove2` lost
    (-1: none); the observation itself is read-only."""
    return (obs[c0 + kind] + (1 if kind == add else 0) - (1 if kind == remove else 0)
            - (1 if kind == remove2 else 0))


@compiled
def score_with(obs, c0, role, add, remove, remove2):
    """Showdown score of the count vector at obs[c0:c0+6], adjusted as `count_with` says, for a
    player holding `role`, with the kind 武判 named this round (or, before it names one, the best
    kind for it)."""
    judge = obs[OBS.judge_kind]
    total = 0
    if role == ROLE.martial_judge and judge < 0:
        # naming kind j replaces its printed points by T.judge per card: take the best j
        best = 0
        for k in range(N_KINDS):
            count = count_with(obs, c0, k, add, remove, remove2)
            printed = kind_score(obs, OBS.table, k, count, role, -1)
            total += printed
            best = max(best, obs[OBS.table + T.judge] * count - printed)
        return total + best
    for k in range(N_KINDS):
        total += kind_score(obs, OBS.table, k, count_with(obs, c0, k, add, remove, remove2),
                            role, judge)
    if role == ROLE.lord_of_implements:
        total += obs[OBS.table + T.implements]
    return total


@compiled
def score_at(obs, c0, role):
    """Showdown score of the count vector at obs[c0:c0+6] for a player holding `role`."""
    return score_with(obs, c0, role, -1, -1, -1)


@compiled
def my_score_with(obs, add, remove):
    """My score if I gained a card of kind `add` and lost one of kind `remove` (-1: none)."""
    return score_with(obs, OBS.mine, obs[OBS.my_role], add, remove, -1)


@inlined
def gain_with(obs, c0, role, add, remove):
    """How the score of the count vector at obs[c0:c0+6] changes with a card of kind `add` gained
    and one of kind `remove` lost (-1: none), for a player holding `role`. A score is a sum over
    kinds, so only the kinds involved are rescored, except for a 武判 that has not named its kind
    yet (its best kind can change)."""
    judge = obs[OBS.judge_kind]
    if role == ROLE.martial_judge and judge < 0:
        return (score_with(obs, c0, role, add, remove, -1)
                - score_with(obs, c0, role, -1, -1, -1))
    if add == remove:
        return 0
    change = 0
    if add >= 0:
        c = obs[c0 + add]
        change += (kind_score(obs, OBS.table, add, c + 1, role, judge)
                   - kind_score(obs, OBS.table, add, c, role, judge))
    if remove >= 0:
        c = obs[c0 + remove]
        change += (kind_score(obs, OBS.table, remove, c - 1, role, judge)
                   - kind_score(obs, OBS.table, remove, c, role, judge))
    return change


@inlined
def my_gain(obs, add, remove):
    """How much my score changes if I gain a card of kind `add` and lose one of kind `remove`
    (-1: none)."""
    return gain_with(obs, OBS.mine, obs[OBS.my_role], add, remove)


@inlined
def seat_gain(obs, seat, add, remove):
    """`gain_with` for the cards of `seat` that I know."""
    return gain_with(obs, OBS.known + seat * N_KINDS, obs[OBS.roles + seat], add, remove)


@compiled
def seat_score_with(obs, seat, add, remove):
    """The score of `seat`'s cards that I know, with one card added / removed (-1: none)."""
    return score_with(obs, OBS.known + seat * N_KINDS, obs[OBS.roles + seat], add, remove, -1)


@inlined
def draft_kind_value(obs, kind, role, c):
    """Points `c` cards of a kind are worth to me while drafting (武判 may name any kind later)."""
    value = kind_score(obs, OBS.table, kind, c, role, -1)
    if role == ROLE.martial_judge:
        value = max(value, kind_score(obs, OBS.table, kind, c, role, kind))
    return value


@inlined
def draft_value(obs, kind, hope):
    """What keeping one more card of `kind` is worth: its immediate gain, blended with weight
    `hope` with the best average gain per card if the next picks brought more of the kind (how a
    set kind is valued before the set is complete)."""
    role = obs[OBS.my_role]
    c = obs[OBS.mine + kind]
    picks_left = HAND - obs[OBS.pick] + 1
    now = draft_kind_value(obs, kind, role, c)
    gain = draft_kind_value(obs, kind, role, c + 1) - now
    if not is_set_kind(obs, kind):
        return float(gain)  # points per card: every card adds the same
    # The best of (value of t more cards - now) / t, compared as fractions (exact, no division
    # per t); the quotient of the best is the same float as the best of the quotients.
    best, per = gain, 1
    for t in range(2, min(picks_left, SET_LEN) + 1):
        more = draft_kind_value(obs, kind, role, c + t) - now
        if more * per > best * t:
            best, per = more, t
    rate = best / per
    return (1.0 - hope) * gain + hope * rate


@inlined
def is_set_kind(obs, kind):
    """Does the kind score by a set table (not just points per card)?"""
    return obs[OBS.table + T.set_kind + kind] == 1


@compiled
def best_draft(obs, legal, hope, rng):
    """The legal kind with the highest `draft_value` (ties at random)."""
    best = -1
    best_value = -1e18
    ties = 0
    for k in range(N_KINDS):
        if legal[k]:
            value = draft_value(obs, k, hope)
            if value > best_value:
                best_value, best, ties = value, k, 1
            elif value == best_value:
                ties += 1
                if tie_step(ties, rng):
                    best = k
    return best


@compiled
def best_change(obs, legal, gain, sign, rng):
    """The legal kind k whose `sign` x my_gain (a card of k gained if `gain`, else lost) is the
    highest (ties at random)."""
    best = -1
    best_score = NEG
    ties = 0
    for k in range(N_KINDS):
        if legal[k]:
            score = sign * (my_gain(obs, k, -1) if gain else my_gain(obs, -1, k))
            if score > best_score:
                best_score, best, ties = score, k, 1
            elif score == best_score:
                ties += 1
                if tie_step(ties, rng):
                    best = k
    return best


@compiled
def cheapest_card(obs, legal, rng):
    """The legal kind whose loss lowers my score the least (ties at random)."""
    return best_change(obs, legal, False, 1, rng)


@compiled
def dearest_card(obs, legal, rng):
    """The legal kind whose loss lowers my score the most (ties at random)."""
    return best_change(obs, legal, False, -1, rng)


@compiled
def best_gain(obs, legal, rng):
    """The legal kind that raises my score the most (gain a card of it; ties at random)."""
    return best_change(obs, legal, True, 1, rng)


@compiled
def best_judge(obs, rng):
    """The kind whose naming gives 武判 the highest score (ties at random)."""
    best = 0
    best_score = NEG
    ties = 0
    for j in range(N_KINDS):
        score = showdown_score(obs, OBS.table, obs, OBS.mine, ROLE.martial_judge, j)
        if score > best_score:
            best_score, best, ties = score, j, 1
        elif score == best_score:
            ties += 1
            if tie_step(ties, rng):
                best = j
    return best


@inlined
def scribe_gain(obs, source, target_kind):
    """How my score changes if I move the card of `source` and copy a card of `target_kind`."""
    return my_gain(obs, target_kind, source % FACE_DOWN)


@compiled
def kinds_known_elsewhere(obs):
    """The kinds I know a card of on another seat, as bits (bit k: kind k)."""
    me = obs[OBS.me]
    kinds = 0
    for s in range(obs[OBS.players]):
        if s != me:
            for k in range(N_KINDS):
                if obs[OBS.known + s * N_KINDS + k] > 0:
                    kinds |= 1 << k
    return kinds


@inlined
def visible_elsewhere(obs, kind, source, elsewhere):
    """Could a card of `kind` be copied as a face-up card? (seen on another seat: `elsewhere`,
    from `kinds_known_elsewhere`; or face up on my layout other than the moved card)."""
    if (elsewhere >> kind) & 1 == 1:
        return True
    mine_up = obs[OBS.my_up + kind] - (1 if source == kind else 0)
    return mine_up > 0


@compiled
def best_scribe_source(obs, legal, prefer_hidden, rng):
    """The source whose best copy scores the most (ties: a face-down source if prefer_hidden,
    then at random)."""
    elsewhere = kinds_known_elsewhere(obs)
    best = -1
    best_key = NEG
    ties = 0
    for a in range(2 * N_KINDS):
        if not legal[a]:
            continue
        score = NEG
        for b in range(N_KINDS):
            down_left = obs[OBS.my_down + b] - (1 if a == FACE_DOWN + b else 0)
            if not (visible_elsewhere(obs, b, a, elsewhere) or down_left > 0):
                continue
            score = max(score, scribe_gain(obs, a, b))
        if score == NEG:
            continue
        key = 2 * score + (1 if prefer_hidden and a >= FACE_DOWN else 0)
        if key > best_key:
            best_key, best, ties = key, a, 1
        elif key == best_key:
            ties += 1
            if tie_step(ties, rng):
                best = a
    return best if best >= 0 else first_legal(legal)


@compiled
def first_legal(legal):
    for a in range(legal.size):
        if legal[a]:
            return a
    return -1


@compiled
def best_scribe_target(obs, legal, prefer_hidden, rng):
    """The copy that scores the most (ties: an own face-down card if prefer_hidden, then at
    random)."""
    source = obs[OBS.source]
    best = -1
    best_key = NEG
    ties = 0
    for b in range(2 * N_KINDS):
        if not legal[b]:
            continue
        key = 2 * scribe_gain(obs, source, b % FACE_DOWN) + (
            1 if prefer_hidden and b >= FACE_DOWN else 0)
        if key > best_key:
            best_key, best, ties = key, b, 1
        elif key == best_key:
            ties += 1
            if tie_step(ties, rng):
                best = b
    return best


@compiled
def theft_choice(obs, legal, rng):
    """The victim whose gift (the card it will give: its cheapest) is worth most to me; ties: the
    victim who loses most by it, then the one with the highest total, then at random. Declines
    (NO_THEFT) when no gift would raise my score and none would lower a victim's."""
    me = obs[OBS.me]
    best = NO_THEFT
    best_gain_ = 0
    best_loss = 0
    best_total = NEG
    ties = 0
    for v in range(obs[OBS.players]):
        if not legal[v] or v == NO_THEFT:
            continue
        give = predicted_gift(obs, v, me)
        gain = my_gain(obs, give, -1)
        loss = -seat_gain(obs, v, -1, give)
        total = obs[OBS.totals + v]
        if gain < 0 or (gain == 0 and loss <= 0):
            continue  # not worth taking
        if (gain > best_gain_ or (gain == best_gain_ and (loss > best_loss or (
                loss == best_loss and total > best_total)))):
            best_gain_, best_loss, best_total, best, ties = gain, loss, total, v, 1
        elif gain == best_gain_ and loss == best_loss and total == best_total:
            ties += 1
            if tie_step(ties, rng):
                best = v
    return best


@compiled
def predicted_gift(obs, victim, thief):
    """The card a victim gives: the least loss to itself, then the least gain to the thief."""
    best = -1
    best_left = NEG
    best_gift = -NEG
    for k in range(N_KINDS):
        if obs[OBS.known + victim * N_KINDS + k] == 0:
            continue
        left = seat_gain(obs, victim, -1, k)  # what it keeps, less its (constant) score
        gift = seat_gain(obs, thief, k, -1)
        if left > best_left or (left == best_left and gift < best_gift):
            best_left = left
            best_gift = gift
            best = k
    return best


@compiled
def give_choice(obs, legal, rng):
    """The card to give the thief: the least loss to me, then the least gain to the thief, then
    at random."""
    me = obs[OBS.me]
    thief = obs[OBS.thief]
    best = -1
    best_left = NEG
    best_gift = -NEG
    ties = 0
    for k in range(N_KINDS):
        if not legal[k]:
            continue
        left = my_gain(obs, -1, k)  # what I keep, less my (constant) score
        gift = seat_gain(obs, thief, k, -1) if thief >= 0 and thief != me else 0
        if left > best_left or (left == best_left and gift < best_gift):
            best_left, best_gift, best, ties = left, gift, k, 1
        elif left == best_left and gift == best_gift:
            ties += 1
            if tie_step(ties, rng):
                best = k
    return best


@compiled
def fan_choice(obs, legal, rng):
    """The other player with the highest standing (total plus this round's known score; ties at
    random)."""
    best = -1
    best_value = NEG
    ties = 0
    for s in range(obs[OBS.players]):
        if legal[s]:
            value = obs[OBS.totals + s] + seat_score_with(obs, s, -1, -1)
            if value > best_value:
                best_value, best, ties = value, s, 1
            elif value == best_value:
                ties += 1
                if tie_step(ties, rng):
                    best = s
    return best


@compiled
def visible_leader(obs, legal, exclude, rng):
    """The legal seat (other than `exclude`; -1 excludes none) whose known cards score the most
    (ties at random)."""
    best = -1
    best_value = NEG
    ties = 0
    for s in range(obs[OBS.players]):
        if legal[s] and s != exclude:
            value = seat_score_with(obs, s, -1, -1)
            if value > best_value:
                best_value, best, ties = value, s, 1
            elif value == best_value:
                ties += 1
                if tie_step(ties, rng):
                    best = s
    return best


@compiled
def own_tie(obs, legal, rng):
    """Captain's tie-break outside the vote: itself when it is tied, otherwise at random."""
    me = obs[OBS.me]
    if legal[me]:
        return me
    return uniform_legal(legal, rng)


# --- estimates from what the seat has seen (balanced) ---------------------------------------------
@compiled
def unseen_of(obs, kind):
    """Cards of a kind whose place I do not know: the deck less what I know on the table and in
    the pile (the set-aside cards are among them)."""
    left = obs[OBS.deck + kind] - obs[OBS.pile_known + kind]
    for s in range(obs[OBS.players]):
        left -= obs[OBS.known + s * N_KINDS + kind]
    return max(left, 0)


@compiled
def unseen_counts(obs):
    """The unseen cards of each kind, as a tuple (no allocation)."""
    return (unseen_of(obs, 0), unseen_of(obs, 1), unseen_of(obs, 2), unseen_of(obs, 3),
            unseen_of(obs, 4), unseen_of(obs, 5))


@compiled
def choose(n, k):
    """The binomial coefficient as a float (0 outside 0 <= k <= n)."""
    if k < 0 or k > n:
        return 0.0
    result = 1.0
    for i in range(k):
        result = result * (n - i) / (i + 1)
    return result


# The probability that x of `hidden` unknown cards are of a kind with `u` of the `total` unseen
# cards (hypergeometric) is what the estimates spend most of their time on: a chain of divisions
# per kind and seat. The values for the sizes a game meets are tabled once, by the same functions
# (so they are the same numbers); larger sizes are computed as they come.
@compiled
def hyper_zero(total, u, hidden):
    """P(none of the `hidden` cards is of the kind)."""
    p = 1.0
    for i in range(hidden):
        p *= max(total - u - i, 0) / (total - i)
    return p


@compiled
def hyper_next(p, direct, total, u, hidden, x):
    """P(x + 1 of them are of the kind), from p = P(x) by the ratio recurrence, or directly
    (`direct`) when P(0) is 0 and the ratios are undefined."""
    if direct:
        return choose(u, x + 1) * choose(total - u, hidden - x - 1) / choose(total, hidden)
    return p * (u - x) * (hidden - x) / ((x + 1) * (total - u - hidden + x + 1))


HYPER_TOTAL, HYPER_KIND, HYPER_HIDDEN = 48, 12, 6


def hyper_table():
    """[total, u, hidden, x] -> P(x + 1 of the hidden cards are of the kind), x < min(u, hidden)."""
    table = np.zeros((HYPER_TOTAL, HYPER_KIND, HYPER_HIDDEN, HYPER_HIDDEN))
    for total in range(HYPER_TOTAL):
        for u in range(min(total, HYPER_KIND - 1) + 1):
            for hidden in range(min(total, HYPER_HIDDEN - 1) + 1):
                p = hyper_zero(total, u, hidden)
                direct = p == 0.0
                for x in range(min(u, hidden)):
                    p = hyper_next(p, direct, total, u, hidden, x)
                    table[total, u, hidden, x] = p
    return table


HYPER = hyper_table()


@compiled
def share_and_variance(total, u, hidden):
    """The kind's share of the unseen cards, and the variance of how many of the `hidden` cards
    are of the kind (hypergeometric)."""
    share = u / total
    return share, hidden * share * (1.0 - share) * (total - hidden) / max(total - 1, 1)


def share_tables():
    """[total, u] -> share and [total, u, hidden] -> variance, as `share_and_variance` gives."""
    shares = np.zeros((HYPER_TOTAL, HYPER_KIND))
    variances = np.zeros((HYPER_TOTAL, HYPER_KIND, HYPER_HIDDEN))
    for total in range(1, HYPER_TOTAL):
        for u in range(min(total, HYPER_KIND - 1) + 1):
            for hidden in range(min(total, HYPER_HIDDEN - 1) + 1):
                shares[total, u], variances[total, u, hidden] = share_and_variance(total, u,
                                                                                   hidden)
    return shares, variances


SHARE, SHARE_VARIANCE = share_tables()


@inlined
def kind_share(tabled, total, u, hidden):
    """`share_and_variance`, read from its tables when `hyper_start` found the sizes tabled."""
    if tabled:
        return SHARE[total, u], SHARE_VARIANCE[total, u, hidden]
    return share_and_variance(total, u, hidden)


@inlined
def hyper_start(total, u, hidden):
    """(tabled, P(0), direct): what `hyper_at` needs for one kind (u <= total, hidden <= total)."""
    if total < HYPER_TOTAL and u < HYPER_KIND and hidden < HYPER_HIDDEN:
        return True, 0.0, False
    p = hyper_zero(total, u, hidden)
    return False, p, p == 0.0


@inlined
def hyper_at(tabled, p, direct, total, u, hidden, x):
    """P(x + 1 of the hidden cards are of the kind); p is P(x) (unused when tabled)."""
    if tabled:
        return HYPER[total, u, hidden, x]
    return hyper_next(p, direct, total, u, hidden, x)


@compiled
def estimate(obs, seat, unseen):
    """(mean, variance) of `seat`'s showdown score: its known cards plus its unknown cards drawn
    from the cards I have not seen. Kind by kind, the number of unknown cards of that kind is
    hypergeometric, so a set's synergy is counted (two unknown 忠信 are worth 10, not 2 + 2). The
    mean is exact; the variance takes the kinds as independent except for their linear parts,
    whose covariance (the unknown cards are a fixed number) is counted exactly."""
    c0 = OBS.known + seat * N_KINDS
    role = obs[OBS.roles + seat]
    judge = obs[OBS.judge_kind]
    hidden = obs[OBS.unknown + seat]
    total = 0
    for k in range(N_KINDS):
        total += unseen[k]
    if hidden == 0 or total == 0 or (role == ROLE.martial_judge and judge < 0):
        base = score_at(obs, c0, role)
        if hidden == 0 or total == 0:
            return float(base), 0.0
    else:
        base = 0  # the kinds' points are added below, one kind at a time
        if role == ROLE.lord_of_implements:
            base = obs[OBS.table + T.implements]
    hidden = min(hidden, total)
    mean = float(base)
    var = 0.0
    independent_linear = 0.0
    lin1 = 0.0
    lin2 = 0.0
    for k in range(N_KINDS):
        u = unseen[k]
        c = obs[c0 + k]
        now = kind_score(obs, OBS.table, k, c, role, judge)
        if not (role == ROLE.martial_judge and judge < 0):
            mean += now
        if u == 0:
            continue
        # P(x of the hidden cards are of this kind), hypergeometric
        tabled, p, direct = hyper_start(total, u, hidden)
        m1 = 0.0
        m2 = 0.0
        for x in range(0, min(u, hidden)):
            p = hyper_at(tabled, p, direct, total, u, hidden, x)
            g = kind_score(obs, OBS.table, k, c + x + 1, role, judge) - now
            m1 += p * g
            m2 += p * g * g
        mean += m1
        var += max(m2 - m1 * m1, 0.0)
        # the linear part of this kind (points per card on average), for the covariance below
        share, var_x = kind_share(tabled, total, u, hidden)
        per_card = m1 / (hidden * share)
        independent_linear += per_card * per_card * var_x
        lin1 += share * per_card
        lin2 += share * per_card * per_card
    # The kinds are not independent: the unknown cards number exactly `hidden`. Swap the linear
    # part's variance summed kind by kind for its exact value under that constraint.
    exact_linear = hidden * (lin2 - lin1 * lin1) * (total - hidden) / max(total - 1, 1)
    variance = max(var - independent_linear + exact_linear, 0.0)
    return mean + hidden_premium(obs, seat, hidden), variance


@compiled
def expected_score(obs, seat, unseen):
    """The mean of `estimate` alone, faster: a kind scored per card adds its points times the
    expected number of its cards among the unknown ones; only set kinds need the distribution."""
    c0 = OBS.known + seat * N_KINDS
    role = obs[OBS.roles + seat]
    judge = obs[OBS.judge_kind]
    if role == ROLE.martial_judge and judge < 0:
        return estimate(obs, seat, unseen)[0]
    hidden = obs[OBS.unknown + seat]
    total = 0
    for k in range(N_KINDS):
        total += unseen[k]
    hidden = min(hidden, total)
    mean = float(obs[OBS.table + T.implements]) if role == ROLE.lord_of_implements else 0.0
    for k in range(N_KINDS):
        c = obs[c0 + k]
        now = kind_score(obs, OBS.table, k, c, role, judge)
        mean += now
        u = unseen[k]
        if u == 0 or hidden == 0:
            continue
        if is_set_kind(obs, k) and not (role == ROLE.martial_judge and judge == k):
            tabled, p, direct = hyper_start(total, u, hidden)
            for x in range(0, min(u, hidden)):
                p = hyper_at(tabled, p, direct, total, u, hidden, x)
                mean += p * (kind_score(obs, OBS.table, k, c + x + 1, role, judge) - now)
        else:
            slope = kind_score(obs, OBS.table, k, c + 1, role, judge) - now
            mean += slope * hidden * u / total
    return mean + hidden_premium(obs, seat, hidden)


@compiled
def chance_not_above(mine, mean, var):
    """P(a score with this mean and variance is <= mine), normal approximation."""
    if var <= 0.0:
        return 1.0 if mean <= mine else 0.0
    z = (mine + 0.5 - mean) / math.sqrt(var)
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


@compiled
def chance_highest(obs, unseen):
    """My estimated chance of really having the top showdown score (a tie counts)."""
    me = obs[OBS.me]
    mine = my_score_with(obs, -1, -1)
    p = 1.0
    for s in range(obs[OBS.players]):
        if s != me:
            mean, var = estimate(obs, s, unseen)
            p *= chance_not_above(mine, mean, var)
    return p


@compiled
def pair_losses(obs):
    """(cheapest, dearest): the least and the most my score drops when two of my cards go,
    evaluated exactly over all pairs. (A score is a sum over kinds, so a pair's loss is what each
    kind loses; a 武判 that has not named its kind is rescored whole.)"""
    role = obs[OBS.my_role]
    judge = obs[OBS.judge_kind]
    mine = my_score_with(obs, -1, -1)
    cheapest = -NEG
    dearest = NEG
    for a in range(N_KINDS):
        count_a = obs[OBS.mine + a]
        if count_a == 0:
            continue
        now_a = kind_score(obs, OBS.table, a, count_a, role, judge)
        loss_a = now_a - kind_score(obs, OBS.table, a, count_a - 1, role, judge)
        for b in range(a, N_KINDS):
            count_b = count_with(obs, OBS.mine, b, -1, a, -1)
            if count_b == 0:
                continue
            if role == ROLE.martial_judge and judge < 0:
                loss = mine - score_with(obs, OBS.mine, role, -1, a, b)
            elif b == a:
                loss = now_a - kind_score(obs, OBS.table, a, count_a - 2, role, judge)
            else:
                loss = loss_a + (kind_score(obs, OBS.table, b, count_b, role, judge)
                                 - kind_score(obs, OBS.table, b, count_b - 1, role, judge))
            cheapest = min(cheapest, loss)
            dearest = max(dearest, loss)
    if dearest == NEG:
        return 0, 0
    return cheapest, dearest


@compiled
def compensation_hope(obs, unseen):
    """What a card from the pile would add to my score: the best kind I know is there, or what an
    unseen card adds on average, whichever is more."""
    best = 0.0
    total = 0
    average = 0.0
    for k in range(N_KINDS):
        gain = my_gain(obs, k, -1)
        if obs[OBS.pile_known + k] > 0:
            best = max(best, float(gain))
        total += unseen[k]
        average += unseen[k] * gain
    if total > 0:
        best = max(best, average / total)
    return best


@compiled
def s_bonus(obs):
    """What my S ability (牛頭, 謝將軍) adds to my score now (0 for any other role)."""
    role = obs[OBS.my_role]
    if role != ROLE.ox_head and role != ROLE.general_xie:
        return 0
    return score_at(obs, OBS.mine, role) - score_at(obs, OBS.mine, PRINTED)


@compiled
def admits(obs, risk):
    """Admit when it costs less than denying is expected to: admitting loses my two cheapest
    cards (and, when the S abilities count only at a showdown, my S bonus); denying loses my two
    dearest if I really am the highest (chance p) and otherwise wins a card from the pile. `risk`
    shades p: 0.5 takes it as estimated, 0 doubles it, 1 ignores it."""
    unseen = unseen_counts(obs)
    p = min(chance_highest(obs, unseen) * 2.0 * (1.0 - risk), 1.0)
    cheapest, dearest = pair_losses(obs)
    if obs[OBS.table + T.s_mode] == S_MODE.showdown_only:
        cheapest += s_bonus(obs)
    gain = compensation_hope(obs, unseen)
    return p * dearest - (1.0 - p) * gain > cheapest


@compiled
def likely_leader(obs, legal, spread, exclude, rng):
    """The legal seat (other than `exclude`; -1 excludes none) with the highest estimated score
    (plus `spread` standard deviations; ties at random)."""
    unseen = unseen_counts(obs)
    best = -1
    best_value = -1e18
    ties = 0
    for s in range(obs[OBS.players]):
        if legal[s] and s != exclude:
            if spread == 0.0:
                value = expected_score(obs, s, unseen)
            else:
                mean, var = estimate(obs, s, unseen)
                value = mean + spread * math.sqrt(var)
            if value > best_value:
                best_value, best, ties = value, s, 1
            elif value == best_value:
                ties += 1
                if tie_step(ties, rng):
                    best = s
    return best


@compiled
def standings_leader(obs, legal, exclude, rng):
    """The legal seat (other than `exclude`; -1 excludes none) leading the game: the highest
    total before this round plus its estimated score this round (`expected_score`; ties at
    random). In the first round every total is 0, so it is `likely_leader`'s choice."""
    unseen = unseen_counts(obs)
    best = -1
    best_value = -1e18
    ties = 0
    for s in range(obs[OBS.players]):
        if legal[s] and s != exclude:
            value = obs[OBS.totals + s] + expected_score(obs, s, unseen)
            if value > best_value:
                best_value, best, ties = value, s, 1
            elif value == best_value:
                ties += 1
                if tie_step(ties, rng):
                    best = s
    return best


@compiled
def captain_or(choice, me, legal):
    """The captain breaking a vote tie: the pick among the other tied seats (the pick was made
    excluding him), or himself where he is the only one; a captain not tied takes the pick."""
    if legal[me] and choice < 0:
        return me
    return choice


@compiled
def standings_leader_not_me(obs, legal, rng):
    """`standings_leader` for the captain breaking a vote tie: another tied seat if there is one."""
    me = obs[OBS.me]
    return captain_or(standings_leader(obs, legal, me if legal[me] else -1, rng), me, legal)


@compiled
def rob_the_leader(obs, legal, rng):
    """The thief names the game's leader among the players it may rob (`standings_leader`), or
    declines when it may rob nobody."""
    victim = standings_leader(obs, legal, obs[OBS.me], rng)
    return victim if victim >= 0 else NO_THEFT


@compiled
def visible_leader_not_me(obs, legal, rng):
    me = obs[OBS.me]
    return captain_or(visible_leader(obs, legal, me if legal[me] else -1, rng), me, legal)


@compiled
def likely_leader_not_me(obs, legal, rng):
    me = obs[OBS.me]
    return captain_or(likely_leader(obs, legal, 0.0, me if legal[me] else -1, rng), me, legal)


# --- the strategies -------------------------------------------------------------------------------
@compiled
def value_play(kind, obs, legal, hope, rng):
    """The decisions greedy and balanced make alike (drafting and cards for value)."""
    if kind == DECISION.draft:
        return best_draft(obs, legal, hope, rng)
    if kind == DECISION.discard or kind == DECISION.admit_discard:
        return cheapest_card(obs, legal, rng)
    if kind == DECISION.judge:
        return best_judge(obs, rng)
    if kind == DECISION.gan_keep or kind == DECISION.compensation:
        return best_gain(obs, legal, rng)
    if kind == DECISION.theft_target:
        return theft_choice(obs, legal, rng)
    if kind == DECISION.theft_give:
        return give_choice(obs, legal, rng)
    if kind == DECISION.fan_target:
        return fan_choice(obs, legal, rng)
    return uniform_legal(legal, rng)


@strategy
def greedy(kind, obs, legal, params, memory, rng):
    """For its own highest round score: drafts for value, keeps its best cards, names / keeps /
    copies / steals what scores most, gives away its cheapest card; always denies, votes for the
    highest score it can see, hides cards at random."""
    if kind == DECISION.draft:  # the most frequent decision first
        return best_draft(obs, legal, params[0], rng)
    if kind == DECISION.hide or kind == DECISION.peek:
        return uniform_legal(legal, rng)
    if kind == DECISION.scribe_source:
        return best_scribe_source(obs, legal, False, rng)
    if kind == DECISION.scribe_target:
        return best_scribe_target(obs, legal, False, rng)
    if kind == DECISION.vote:
        return visible_leader(obs, legal, -1, rng)
    if kind == DECISION.admit:
        return ANSWER.deny
    if kind == DECISION.tie_break:
        if obs[OBS.tie] == TIE.vote:
            return visible_leader_not_me(obs, legal, rng)
        return own_tie(obs, legal, rng)
    return value_play(kind, obs, legal, params[0], rng)


@compiled
def table_hope(obs, hope):
    """`hope` at five players and more; at fewer each player drafts more of the deck, so a set
    is likelier to fill: the weight rises to 1 at three players (a best response over `hope` at
    three players found 0.99, +7 points over 0.75; at five and six 0.6 to 0.75:
    docs/strategies.md)."""
    fewer = 5 - obs[OBS.players]
    if fewer <= 0:
        return hope
    return hope + (1.0 - hope) * (1.0 if fewer >= 2 else 0.5)


@strategy
def balanced(kind, obs, legal, params, memory, rng):
    """Drafts for value but keeps what the others see of it low; reads the table for the vote.

    params: hope (weight of set potential while drafting, at five players and more: see
    `table_hope`), risk (0.5: admit when that is expected to cost less than denying, by its
    estimated chance of really being the highest; lower admits more, 1 always denies), and two
    ways of playing from outside the family, both off (0) by default: target_leader (chance a
    vote, a tied vote's pick and a theft go to the game's leader) and lure (chance a card laid
    face down is the cheapest, not the dearest). At 0 they draw nothing from the rng, so the
    default play is the same, draw for draw."""
    if kind == DECISION.draft:  # the most frequent decision first
        return best_draft(obs, legal, table_hope(obs, params[0]), rng)
    if kind == DECISION.hide:
        # `lure`: the cheapest card goes face down instead, a bluff
        lure = params[P_LURE]
        if lure > 0.0 and random_double(rng) < lure:
            return cheapest_card(obs, legal, rng)
        return dearest_card(obs, legal, rng)  # the most valuable cards go face down
    if kind == DECISION.peek:
        return likely_leader(obs, legal, 1.0, -1, rng)
    if kind == DECISION.scribe_source:
        return best_scribe_source(obs, legal, True, rng)
    if kind == DECISION.scribe_target:
        return best_scribe_target(obs, legal, True, rng)
    # `target_leader`: the vote, the captain's pick in a tied vote and the theft go to the game's
    # leader instead
    leader = params[P_TARGET_LEADER]
    if kind == DECISION.vote:
        if leader > 0.0 and random_double(rng) < leader:
            return standings_leader(obs, legal, -1, rng)
        return likely_leader(obs, legal, 0.0, -1, rng)
    if kind == DECISION.admit:
        return ANSWER.admit if admits(obs, params[1]) else ANSWER.deny
    if kind == DECISION.tie_break:
        if obs[OBS.tie] == TIE.vote:
            if leader > 0.0 and random_double(rng) < leader:
                return standings_leader_not_me(obs, legal, rng)
            return likely_leader_not_me(obs, legal, rng)
        return own_tie(obs, legal, rng)
    if kind == DECISION.theft_target and leader > 0.0 and random_double(rng) < leader:
        return rob_the_leader(obs, legal, rng)
    return value_play(kind, obs, legal, table_hope(obs, params[0]), rng)


HOPE = StrategyParam("hope", 0.5, 0.0, 1.0,
                     "weight of a set kind's potential (the best average gain per card more "
                     "cards of it could bring) against its immediate gain, while drafting")
# balanced's defaults are calibrated against single-parameter variants of itself
# (benchmarks/chenghuang_scan.py; docs/rules/chenghuang.md, "Calibration of balanced").
BALANCED_HOPE = StrategyParam("hope", 0.68, 0.0, 1.0, HOPE.meaning + " (at five players and "
                               "more; at three it is 1, at four halfway to 1)")
RISK = StrategyParam("risk", 0.65, 0.0, 1.0,
                     "shades the estimated chance of really being the highest when accused: 0.5 "
                     "takes it as estimated, 0 doubles it, 1 ignores it (always deny)")
# Play from outside the family (docs/strategies.md, "### chenghuang"): off by default.
TARGET_LEADER = StrategyParam(
    "target_leader", 0.0, 0.0, 1.0,
    "chance each vote, each pick of the accused in a tied vote (as captain) and each theft goes "
    "to the player leading the game (its total plus its estimated score this round) instead of "
    "this round's likely top scorer and the victim whose card is worth most: bashing the leader, "
    "since only the winner counts (0: off)")
LURE = StrategyParam(
    "lure", 0.0, 0.0, 1.0,
    "chance each card it lays face down is its cheapest instead of its most valuable: a bluff "
    "that shows its strength face up and hides junk, so the table (which takes face-down cards "
    "for valuable ones) accuses it when it is not the highest and it wins a pile card by "
    "denying (0: off)")


def builtin():
    return {
        "random": RANDOM,
        "greedy": StrategyInfo(
            "greedy", greedy,
            "plays for its own highest round score and ignores the vote: drafts for value (`hope` "
            "weighs set potential), always denies, votes for the highest visible score",
            params=(HOPE,)),
        "balanced": StrategyInfo(
            "balanced", balanced,
            "drafts for value but lays its best cards face down; estimates every score from what "
            "it has seen, votes for the likely leader, admits when that is expected to cost less "
            "than denying (`risk` shades its chance of really being the highest); off by "
            "default, it may bash the game's leader with votes and thefts (`target_leader`) or "
            "hide its junk to draw the accusation (`lure`)",
            params=(BALANCED_HOPE, RISK, TARGET_LEADER, LURE)),
    }
