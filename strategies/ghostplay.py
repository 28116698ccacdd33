"""Scripted strategies for Ghost Play (鬼戏).

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action; it reads the observation through the named
offsets in `OBS`, never the game state, and breaks ties at random with its rng.

`people` plays the way the rules note describes people playing, with per-seat memory: it keeps a
belief about each seat being of its own sect (log-odds, in memory), learnt from the public log of
exorcisms (what challenges showed, what the shuffled votes added up to) and fixed by the
identities it looked at. Sect members help hosts they believe are of their sect (with what the
exorcism still lacks) and quietly spoil the others, more warily at a table dealt an evil player
(`wary_trust`); they reciprocate, helping no host that took more than `reciprocity` cards of
help from them without giving back (a ledger read from the public log); hosts challenge the
voters they suspect when their exorcism is at risk; the evil path helps ghosts pile up on one
player; the ghost king keeps its cards and summons when it can.

Two plays from outside that reading, off by default (docs/strategies.md): a host that clears the
ghosts on its own side first and leaves a rival's (`own_side`), and a member that keeps cards for
its own exorcisms and helps others only with the rest (`hoard`).
"""

from simulator.games.base import Layout, StrategyInfo, StrategyParam
from simulator.games.ghostplay.declaration import (
    DECISION, EFFECT, LF, LOG, LOG_ENTRY, MAX_PLAYERS, OBS, OUTCOME, PASS, ROLE, VOTE_BASE,
    WINDOW,
)

from .common import RANDOM, inlined, strategy, uniform_index, uniform_legal

# --- memory layout of `people` -------------------------------------------------------------------
MEMORY = Layout((
    ("seq", 1, "the last log entry read"),
    ("my_seq", 1, "the exorcism of my last vote"),
    ("my_positive", 1, "its positive cards"),
    ("my_negative", 1, "its negative cards"),
    ("target", 1, "evil: 1 + the seat it helps ghosts pile up on (0: none yet)"),
    ("belief", MAX_PLAYERS, "evidence that each seat is of my sect (a score, like log-odds)"),
    ("probability", MAX_PLAYERS, "the same as probabilities, minus 0.5"),
    ("owed", MAX_PLAYERS, "cards I gave each host beyond what it gave me"),
))
M = MEMORY.offsets("Memory")

# parameters of `people` (positions in params)
(P_TRUST, P_DOUBT, P_HELP, P_SPOIL, P_CHALLENGE, P_GUARD, P_LEARN, P_MARGIN, P_EVIL_SPOIL,
 P_RECIPROCITY, P_WARY_TRUST, P_OWN_SIDE, P_HOARD) = range(13)
W_CHALLENGE = 3.0   # evidence of a challenge's result (log-odds)
W_COUNT = 1.5       # evidence of the shuffled count, shared among the unchallenged voters
MAX_BELIEF = 8.0
KING_KEEPS = 4      # cards of a colour the ghost king keeps for its summonings (it draws 1 a night)


# --- what `people` believes -----------------------------------------------------------------------
@inlined
def is_sect(role):
    return role == ROLE.taiping or role == ROLE.tianshi


@inlined
def belief(obs, memory, s):
    """Probability that seat s is of my sect: 1 or 0 for an identity I know, else a sigmoid of
    the evidence in memory, 1/2 + x / (2 (1 + |x|))."""
    me = obs[OBS.me]
    if s == me:
        return 1.0
    known = obs[OBS.known + s]
    if known >= 0:
        return 1.0 if known == obs[OBS.my_role] and is_sect(known) else 0.0
    return memory[M.probability + s] + 0.5  # (memory starts at 0: probability one half)


@inlined
def nudge(memory, s, amount):
    """Add evidence about seat s (log-odds), and keep its probability at hand."""
    value = max(-MAX_BELIEF, min(MAX_BELIEF, memory[M.belief + s] + amount))
    memory[M.belief + s] = value
    memory[M.probability + s] = 0.5 * value / (1.0 + abs(value))  # a cheap sigmoid, minus 0.5


@inlined
def learn_entry(obs, memory, base, weight):
    """One exorcism of the public log: a challenged voter who showed only positive votes is with
    the host, one who had a negative is against it; the votes counted unchallenged (less the
    host's, taken as positive, and my own) are shared among the other voters as weaker evidence.
    Evidence about a voter and a host neither of which is me counts by my belief in the other."""
    me = obs[OBS.me]
    n = obs[OBS.players]
    host = obs[base + LF.host]
    placed = base + len(LF)
    shown = placed + MAX_PLAYERS
    positive = obs[base + LF.positive]
    negative = obs[base + LF.negative]
    if positive >= 0:  # counted: the host's cards are positive, mine I know
        positive -= max(0, obs[placed + host])
        if memory[M.my_seq] == obs[base + LF.seq] and host != me:
            positive -= memory[M.my_positive]
            negative -= memory[M.my_negative]
    unchallenged = 0
    others = 0
    for v in range(n):
        if v != host and v != me and obs[placed + v] > 0:
            others += 1
            if obs[shown + v] < 0:
                unchallenged += obs[placed + v]
    if others == 0:  # only the host (and I) voted: nothing to learn
        return
    host_side = 1.0 if host == me else 2.0 * belief(obs, memory, host) - 1.0
    for v in range(n):
        if v == host or v == me or obs[placed + v] <= 0:
            continue
        if obs[shown + v] == 0:
            evidence = W_CHALLENGE
        elif obs[shown + v] == 1:
            evidence = -W_CHALLENGE
        elif positive >= 0 and unchallenged > 0:
            evidence = W_COUNT * (positive - negative) * obs[placed + v] / \
                (unchallenged * unchallenged)
        else:
            continue
        nudge(memory, v, weight * evidence * host_side)
        if host != me:
            nudge(memory, host, weight * evidence * (2.0 * belief(obs, memory, v) - 1.0))


@inlined
def keep_account(obs, memory, base):
    """Reciprocity's ledger, per seat: the positive cards I placed on its exorcisms, less the
    cards it placed on mine (public: how many cards each voter placed)."""
    me = obs[OBS.me]
    host = obs[base + LF.host]
    placed = base + len(LF)
    if host == me:
        for v in range(obs[OBS.players]):
            if v != me and obs[placed + v] > 0:
                memory[M.owed + v] -= obs[placed + v]
    elif memory[M.my_seq] == obs[base + LF.seq]:
        memory[M.owed + host] += memory[M.my_positive]


@inlined
def rides_free(obs, memory, params, s):
    """Have I given seat s's exorcisms more than `reciprocity` cards beyond what it gave mine?
    People stop helping such a host until it helps back."""
    return memory[M.owed + s] > params[P_RECIPROCITY]


@inlined
def read_log(obs, memory, weight):
    """Learn from every exorcism of the log not read yet (summonings tell nothing)."""
    latest = obs[OBS.ex_seq] - (1 if obs[OBS.ex_host] >= 0 else 0)
    first = max(int(memory[M.seq]) + 1, latest - LOG + 1)
    for seq in range(first, latest + 1):
        base = OBS.log + ((seq - 1) % LOG) * LOG_ENTRY
        if obs[base + LF.seq] != seq:
            continue
        outcome = obs[base + LF.outcome]
        if outcome != OUTCOME.summoned and outcome != OUTCOME.summon_failed:
            keep_account(obs, memory, base)
            if weight > 0:
                learn_entry(obs, memory, base, weight)
    if latest > memory[M.seq]:
        memory[M.seq] = latest


# --- decisions of `people` ------------------------------------------------------------------------
@inlined
def vote_action(legal, positive, negative, rng):
    """The legal vote nearest to (positive, negative): fewer cards if the hand has fewer."""
    for p in range(positive, -1, -1):
        for q in range(negative, -1, -1):
            a = p * VOTE_BASE + q
            if a < legal.size and legal[a]:
                return a
    return uniform_legal(legal, rng)


@inlined
def danger(obs, target):
    """Is the ghost's player close to rising (2 or more ghosts), or are 6 ghosts in play?"""
    return obs[OBS.king] < 0 and (obs[OBS.possessed + target] >= 2 or obs[OBS.in_play] >= 6)


@inlined
def evil_target(obs, memory, rng):
    """The seat the evil path helps ghosts pile up on: the most possessed other than the ghost
    king (ties at random), kept while it stays among the most possessed."""
    n = obs[OBS.players]
    king = obs[OBS.king]
    most = -1
    ties = 0
    for s in range(n):
        if s == king:
            continue
        k = obs[OBS.possessed + s]
        if k > most:
            most = k
            ties = 1
        elif k == most:
            ties += 1
    kept = int(memory[M.target]) - 1
    if kept >= 0 and kept != king and obs[OBS.possessed + kept] == most:
        return kept
    pick = uniform_index(ties, rng)
    for s in range(n):
        if s != king and obs[OBS.possessed + s] == most:
            if pick == 0:
                memory[M.target] = s + 1
                return s
            pick -= 1
    return 0


@inlined
def trust_needed(obs, params):
    """The belief in a host's sect from which a member helps: `trust`, or `wary_trust` at a
    table dealt an evil player (help given to a host of the other sect or to a hidden enemy
    feeds the ghost king's side there)."""
    return params[P_WARY_TRUST] if obs[OBS.evil_dealt] > 0 else params[P_TRUST]


@inlined
def help_needed(obs, memory, params, requirement):
    """Positive cards a helper adds: what the exorcism still lacks, plus one against a spoiler
    still to vote, at most `help`. The host's cards count as positive, so do those of voters I
    trust; those of voters I doubt count against it."""
    me = obs[OBS.me]
    host = obs[OBS.ex_host]
    lacking = requirement - max(0, obs[OBS.placed + host])
    for v in range(obs[OBS.players]):
        placed = obs[OBS.placed + v]
        if v == host or v == me or placed <= 0:
            continue
        if belief(obs, memory, v) >= trust_needed(obs, params):
            lacking -= placed
        else:
            lacking += placed
    return max(0, min(int(params[P_HELP]), lacking + 1))


@inlined
def choose_vote(obs, legal, params, memory, rng):
    me = obs[OBS.me]
    role = obs[OBS.my_role]
    host = obs[OBS.ex_host]
    card = obs[OBS.ex_card]
    colour = obs[OBS.card_colour + card]
    requirement = obs[OBS.card_requirement + card]
    target = obs[OBS.slot_target + obs[OBS.ex_slot]]
    spoil_cards = int(params[P_SPOIL])
    if host == me:  # my own exorcism or summoning: enough to meet the requirement
        extra = 0 if role == ROLE.ghost_king else int(params[P_MARGIN])
        return vote_action(legal, requirement + extra, 0, rng)
    evil_cards = int(params[P_EVIL_SPOIL])
    if role == ROLE.ghost_king:  # keeps its cards for summoning: spoils only with a surplus
        surplus = obs[OBS.colours + 1 - colour] - KING_KEEPS
        if surplus > 0:
            return vote_action(legal, 0, min(evil_cards, surplus), rng)
        return 0
    if role == ROLE.evil:
        if obs[OBS.king] >= 0 or obs[OBS.in_play] >= 5 or target == evil_target(obs, memory,
                                                                                 rng):
            return vote_action(legal, 0, evil_cards, rng)
        return 0
    if params[P_GUARD] > 0 and danger(obs, target):
        return vote_action(legal, help_needed(obs, memory, params, requirement), 0, rng)
    trust = belief(obs, memory, host)
    if trust < 1.0 and rides_free(obs, memory, params, host):  # no free ride on my help
        return 0
    hoard = int(params[P_HOARD])
    if trust >= trust_needed(obs, params):
        cards = help_needed(obs, memory, params, requirement)
        if hoard > 0:  # only what I hold beyond the cards kept for my own exorcisms
            cards = min(cards, obs[OBS.colours + colour] - hoard)
            if cards <= 0:
                return 0
        return vote_action(legal, cards, 0, rng)
    if trust <= params[P_DOUBT]:
        if hoard > 0:
            spoil_cards = min(spoil_cards, obs[OBS.colours + 1 - colour] - hoard)
            if spoil_cards <= 0:
                return 0
        return vote_action(legal, 0, spoil_cards, rng)
    return 0


UNUSABLE = -1.0e18  # a ghost the hand cannot dispel alone (or an illegal slot)


@inlined
def ghost_score(obs, legal, params, memory, slot, me, king):
    """How much `choose_ghost` wants the ghost in `slot`: its points, more for a player close to
    rising and for a player whose identity I do not know, and (`own_side`) more for a ghost on me
    or on a player I believe is of my sect, less for one on a player I believe is not; for the
    ghost king, the lower the requirement the better. UNUSABLE when the hand cannot dispel it
    alone."""
    if not legal[slot]:
        return UNUSABLE
    card = obs[OBS.slot_card + slot]
    requirement = obs[OBS.card_requirement + card]
    if obs[OBS.colours + obs[OBS.card_colour + card]] < requirement:
        return UNUSABLE
    if king:
        return -float(requirement)
    target = obs[OBS.slot_target + slot]
    score = float(obs[OBS.card_points + card])
    if danger(obs, target):
        score += 2.0
    if target != me and obs[OBS.known + target] < 0:
        score += 0.5
    own_side = params[P_OWN_SIDE]
    if own_side > 0.0:  # my side's ghosts first: a rise there costs my sect a member's points
        score += own_side * (2.0 * belief(obs, memory, target) - 1.0)
    return score


@inlined
def choose_ghost(obs, legal, params, memory, rng):
    """Host (or summon) the best ghost the hand can dispel alone (`ghost_score`), ties at random;
    the ghost king summons the lowest requirement it can meet. PASS when none."""
    me = obs[OBS.me]
    role = obs[OBS.my_role]
    if role == ROLE.evil:
        return PASS
    king = role == ROLE.ghost_king
    best = UNUSABLE
    ties = 0
    for slot in range(obs[OBS.in_play]):
        score = ghost_score(obs, legal, params, memory, slot, me, king)
        if score == UNUSABLE:
            continue
        if score > best or ties == 0:
            best = score
            ties = 1
        elif score == best:
            ties += 1
    if ties == 0:
        return PASS
    pick = uniform_index(ties, rng)
    for slot in range(obs[OBS.in_play]):
        if ghost_score(obs, legal, params, memory, slot, me, king) == best:
            if pick == 0:
                return slot
            pick -= 1
    return PASS


@inlined
def choose_challenge(obs, legal, params, memory, rng):
    """Challenge only when the exorcism is at risk (my cards and my trusted voters' cannot outweigh
    the rest), the voter I trust least, if I suspect it enough (ties at random)."""
    me = obs[OBS.me]
    n = obs[OBS.players]
    card = obs[OBS.ex_card]
    requirement = obs[OBS.card_requirement + card]
    safe = obs[OBS.placed + me]
    doubtful = 0
    for v in range(n):
        if v == me or obs[OBS.placed + v] <= 0 or obs[OBS.shown_positive + v] >= 0:
            continue
        if belief(obs, memory, v) >= trust_needed(obs, params):
            safe += obs[OBS.placed + v]
        else:
            doubtful += obs[OBS.placed + v]
    if safe - doubtful >= requirement:
        return PASS
    lowest = 2.0
    ties = 0
    for v in range(n):
        if legal[v] and v < n:
            b = belief(obs, memory, v)
            if b < lowest:
                lowest = b
                ties = 1
            elif b == lowest:
                ties += 1
    if ties == 0 or 1.0 - lowest < params[P_CHALLENGE]:
        return PASS
    pick = uniform_index(ties, rng)
    for v in range(n):
        if legal[v] and belief(obs, memory, v) == lowest:
            if pick == 0:
                return v
            pick -= 1
    return PASS


@inlined
def first_card(legal):
    """The first card type offered (an artifact or another card), or PASS."""
    for t in range(PASS):
        if legal[t]:
            return t
    return PASS


@inlined
def window_card(obs, legal):
    """A spell worth playing in a window before or after a haunting (rules.card_windows =
    "every-window"), or PASS to keep it: a card that draws, after the haunting while a ghost is in
    play (its cards can vote in the exorcism that may follow); a card that gives spirit power,
    after the haunting of the turn before my own (the spirit power buys cards in my day). Other
    moments: keep it (the day plays what is left)."""
    if obs[OBS.card_window] != WINDOW.after_the_haunting:
        return PASS
    me = obs[OBS.me]
    my_day_next = (obs[OBS.turn_player] + 1) % obs[OBS.players] == me
    for t in range(obs[OBS.types]):
        if not legal[t]:
            continue
        effect = obs[OBS.type_effect + t]
        if effect == EFFECT.draw and obs[OBS.in_play] > 0:
            return t
        if effect == EFFECT.spirit and my_day_next:
            return t
    return PASS


@inlined
def most_legal(legal):
    best = 0
    for a in range(legal.size):
        if legal[a]:
            best = a
    return best


@strategy
def people(kind, obs, legal, params, memory, rng):
    """Beliefs in memory from the exorcism log and the identities looked at; sect members help
    hosts they trust and quietly spoil those they doubt, hosts challenge suspected voters when
    at risk, the evil path helps ghosts pile up on one player, the ghost king summons when it
    can."""
    read_log(obs, memory, params[P_LEARN])
    if kind == DECISION.vote:
        action = choose_vote(obs, legal, params, memory, rng)
        memory[M.my_seq] = obs[OBS.ex_seq]
        memory[M.my_positive] = action // VOTE_BASE
        memory[M.my_negative] = action % VOTE_BASE
        return action
    if kind == DECISION.exorcise or kind == DECISION.summon:
        return choose_ghost(obs, legal, params, memory, rng)
    if kind == DECISION.challenge:
        return choose_challenge(obs, legal, params, memory, rng)
    if kind == DECISION.buy:
        return most_legal(legal)
    if kind == DECISION.artifact:
        return first_card(legal) if obs[OBS.artifact + obs[OBS.me]] < 0 else PASS
    if kind == DECISION.spell:
        if obs[OBS.card_window] != WINDOW.day:
            return window_card(obs, legal)
        return first_card(legal)
    return uniform_legal(legal, rng)


@strategy
def helpful(kind, obs, legal, params, memory, rng):
    """No memory and no suspicion: a sect member helps every exorcism with `help` positive cards
    (the evil player and the ghost king help none: a simple player, never a traitor), hosts the
    ghost with most points it can dispel alone, never challenges; the ghost king summons when it
    can. A baseline of trusting play."""
    if kind == DECISION.vote:
        card = obs[OBS.ex_card]
        if obs[OBS.ex_host] == obs[OBS.me]:
            return vote_action(legal, obs[OBS.card_requirement + card] + 1, 0, rng)
        if not is_sect(obs[OBS.my_role]):  # the evil side never helps an exorcism
            return 0
        return vote_action(legal, int(params[0]), 0, rng)
    if kind == DECISION.exorcise or kind == DECISION.summon:
        best = -1
        ties = 0
        for slot in range(obs[OBS.in_play]):
            card = obs[OBS.slot_card + slot]
            if legal[slot] and obs[OBS.colours + obs[OBS.card_colour + card]] >= \
                    obs[OBS.card_requirement + card]:
                points = obs[OBS.card_points + card]
                if points > best:
                    best = points
                    ties = 1
                elif points == best:
                    ties += 1
        if ties == 0:
            return PASS
        pick = uniform_index(ties, rng)
        for slot in range(obs[OBS.in_play]):
            card = obs[OBS.slot_card + slot]
            if legal[slot] and obs[OBS.colours + obs[OBS.card_colour + card]] >= \
                    obs[OBS.card_requirement + card] and obs[OBS.card_points + card] == best:
                if pick == 0:
                    return slot
                pick -= 1
        return PASS
    if kind == DECISION.challenge:
        return PASS
    if kind == DECISION.buy:
        return most_legal(legal)
    if kind == DECISION.artifact or kind == DECISION.spell:
        return first_card(legal)
    return uniform_legal(legal, rng)


def builtin():
    return {
        "random": RANDOM,
        "people": StrategyInfo(
            "people", people,
            "beliefs about each seat in memory (exorcism log, looks); helps trusted hosts with "
            "what the exorcism still lacks (more warily at a table with an evil player), never a "
            "host that does not help back, quietly spoils doubted ones, challenges suspects when "
            "at risk; evil piles ghosts on one player; the ghost king keeps its cards and summons "
            "when it can",
            params=(
                StrategyParam("trust", 0.03, 0.0, 1.0,
                              "belief in the host's sect above which a member helps"),
                StrategyParam("doubt", 0.08, 0.0, 1.0,
                              "belief below which a member quietly spoils"),
                StrategyParam("help", 6, 0, 6, "most positive cards a helper adds (it adds what "
                                                   "the exorcism still lacks, plus one)",
                              integer=True),
                StrategyParam("spoil", 1, 0, 6,
                              "negative cards a sect member adds to an exorcism it doubts",
                              integer=True),
                StrategyParam("challenge", 0.6, 0.0, 1.0,
                              "suspicion (1 - belief) from which a host at risk challenges"),
                StrategyParam("guard", 1, 0, 1,
                              "1: help dispel a ghost whose player is close to rising",
                              integer=True),
                StrategyParam("learn", 1.4, 0.0, 4.0,
                              "weight of the evidence read from the exorcism log (0: none)"),
                StrategyParam("margin", 0, 0, 6,
                              "positive cards a host adds beyond the requirement",
                              integer=True),
                StrategyParam("evil_spoil", 2, 0, 6,
                              "negative cards the evil player and the ghost king add to an "
                              "exorcism they spoil", integer=True),
                StrategyParam("reciprocity", 1, 0, 40,
                              "cards a member gives a host's exorcisms beyond what that host "
                              "gave its own before it stops helping (40: help regardless)",
                              integer=True),
                StrategyParam("wary_trust", 0.6, 0.0, 1.0,
                              "`trust` at a table dealt an evil player (5 and 7 players)"),
                StrategyParam("own_side", 0.0, 0.0, 3.0,
                              "a host's weight for the ghost on itself or on a player it "
                              "believes is of its sect (less for one it believes is not), "
                              "beside the ghost's points: my side's ghosts first, a rival's "
                              "left to rise (0: off; 1 outweighs a point)"),
                StrategyParam("hoard", 0, 0, 6,
                              "cards of each colour a member keeps for its own exorcisms: it "
                              "helps or spoils another host's exorcism only with cards beyond "
                              "them (0: off; a ghost about to raise a ghost king is still "
                              "guarded)", integer=True),
            ),
            memory=MEMORY.size),
        "helpful": StrategyInfo(
            "helpful", helpful,
            "no memory: a sect member helps every exorcism (the evil side helps none), hosts the "
            "most points it can dispel alone, never challenges; the ghost king summons when it "
            "can",
            params=(StrategyParam("help", 1, 0, 6, "positive cards it adds to others' "
                                                   "exorcisms", integer=True),)),
    }

