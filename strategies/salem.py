"""Scripted strategies for Salem 1692.

Each strategy is compiled by `strategies.common.strategy` with the platform's one signature
(kind, obs, legal, params, memory, rng) -> action; it reads the observation through the named
offsets in `OBS`, never the game state.

`people` plays the way people play, from one seat's view, for either team (a townsperson who
joins the witches at a Conspiracy goes on with the same memory when one strategy plays both
teams; a config that gives the witches a strategy of their own gives it its own memory, which
starts from the events still in the log's ring):

* it reads the public event log (the observation's `log`) into its memory: who accused, burnt,
  robbed or put in the Stocks whom (attacks), who used Alibi, Asylum, Piety or Scapegoat for whom
  (defences), whose attackers were later shown to be witches, whom the witches went for at night;
* as a townsperson it suspects the players whose behaviour looks like a witch's (attacking
  known townsfolk and the witches' night victims' targets, defending witches) and who still
  hold many face-down tryals; it accuses the one it suspects most (probability `focus`), plays
  Alibi, Asylum and Piety on those it trusts, and confesses at dawn when it fears the night
  (`fear`: the more it has accused, the likelier it is the witches' next victim);
* as a witch it accuses the townsfolk who threaten the witches most (the players who accused
  witches), never a fellow witch, keeps a low profile (`profile`: draws rather than plays when
  no trial is within reach), kills the player who accuses the witches most and defends its own;
  on the first night it weighs the Black Cat's start against exposing a witch (`cat_keep`),
  and as a townsperson it reads the Cat's first holder by `cat_suspicion`;
* as the constable it protects the most-accused player it trusts (a witch constable: a witch).

Three plays from outside that reading, off by default (docs/strategies.md): a town that piles
its red cards on the player with the most accusations already in front of it (`pile_on`), a
townsperson who confesses at dawn as insurance whenever it can spare a tryal (`confess`), and
witches who go for the kill, striking the townsfolk with the fewest tryals left (`finish`).

Ties are broken at random, from the strategy's rng.
"""

from simulator.games.base import Layout, StrategyInfo, StrategyParam
from simulator.games.salem.declaration import (
    ABIGAIL_CLEAR, ALIBI_WITNESS, CARD, CHAR, DECISION, HAND_KINDS, KNOWN, LOG, LOG_LEN,
    LOG_WIDTH, MAX_PLAYERS, N_CHARACTERS, N_FRONT, OBS, PHIPS, STOP, TOWN, TRYAL, TURN,
    WITCH,
)

from .common import (
    RANDOM, inlined, random_double, strategy, uniform_index, uniform_legal,
)

# --- memory (float64 words, zeroed at the start of each game) ----------------------------------
PACK = 3  # whole numbers to a word in `given`
MEMORY = Layout((
    ("seen", 1, "public events read so far"),
    ("target", 1, "the target planned for the card being played (seat + 1; 0: none)"),
    ("second", 1, "the second target planned (Scapegoat, Robbery), seat + 1"),
    ("blue", 1, "the blue card a planned Curse discards, kind + 1"),
    ("tituba", 1, "cards Tituba placed so far in her arrangement"),
    ("mean", 1, "scratch: the mean suspicion of the others I know nothing certain about"),
    ("suspicion", MAX_PLAYERS, "suspicion read from the events (witch-like behaviour)"),
    ("received", MAX_PLAYERS, "accusations each seat received"),
    ("score", MAX_PLAYERS, "scratch: how much I would strike each"),
    ("help", MAX_PLAYERS, "scratch: how much I would help each"),
    ("given", (MAX_PLAYERS * MAX_PLAYERS + PACK - 1) // PACK,
     "given[a, t] = a's attacks on t, net: whole numbers, PACK to a word"),
))
M = MEMORY.offsets("Memory")
FIELD = 1 << 17                          # each field holds a whole number in (-2^16, 2^16)
HALF = FIELD // 2

# params
(P_FOCUS, P_AGGRESSION, P_FEAR, P_PROFILE, P_INSIGHT, P_WITCH_AGGRESSION,
 P_SHORT_AGGRESSION, P_CAT_KEEP, P_CAT_SUSPICION, P_PILE_ON, P_CONFESS, P_FINISH) = range(12)

# What a card in hand is worth to the one who holds it (Parris, Proctor, Tituba, the draft).
CARD_VALUE = (1.0, 3.0, 7.0, 2.5, 2.0, 2.5, 1.5, 1.5, 1.0, 2.5, 2.0, 0.5, 0.5, 0.0, 0.0)
# How much a character helps its holder (the draft): a reading of the abilities, no more.
CHARACTER_VALUE = (2.0, 3.0, 2.0, 2.5, 2.0, 2.0, 1.5, 1.5, 2.5, 2.5, 1.0, 2.0, 2.0, 2.5, 3.0)
BIG = 1000.0


# --- reading the event log ------------------------------------------------------------------------
@inlined
def given(memory, actor, target):
    """given[actor, target]: the attacks are whole numbers (accusations, +-1, +-2), kept three
    to a float64 word in balanced base 2^17 (word = f0 + f1 * 2^17 + f2 * 2^34, each field in
    (-2^16, 2^16); exact, as the word stays below 2^53), so two people strategies fit in a seat's
    memory. A zeroed word holds three zeros."""
    index = actor * MAX_PLAYERS + target
    word = int(memory[M.given + index // PACK])
    for _ in range(index % PACK):
        low = (word + HALF) % FIELD - HALF
        word = (word - low) // FIELD
    return float((word + HALF) % FIELD - HALF)


@inlined
def add_given(memory, actor, target, amount):
    if actor >= 0 and target >= 0:
        index = actor * MAX_PLAYERS + target
        memory[M.given + index // PACK] += amount * float(FIELD ** (index % PACK))


@inlined
def shown_witch(memory, n, seat, weight):
    """`seat` turned out to be a witch: its attackers look like townsfolk, its defenders like
    witches."""
    for j in range(n):
        memory[M.suspicion + j] -= weight * given(memory, j, seat)


@inlined
def read_log(obs, params, memory):
    """Read the public events not read yet into the memory (the ring keeps the last LOG_LEN)."""
    count = obs[OBS.log_count]
    seen = int(memory[M.seen])
    if seen < count - LOG_LEN:
        seen = count - LOG_LEN
    n = obs[OBS.players]
    for e in range(seen, count):
        at = OBS.log + (e % LOG_LEN) * LOG_WIDTH
        code, actor, target, value = obs[at], obs[at + 1], obs[at + 2], obs[at + 3]
        if code == LOG.accuse:
            add_given(memory, actor, target, value)
            memory[M.received + target] += value
        elif code == LOG.alibi:
            add_given(memory, actor, target, -2.0)
        elif code == LOG.stocks or code == LOG.arson or code == LOG.curse:
            add_given(memory, actor, target, 1.0)
        elif code == LOG.robbery:
            add_given(memory, actor, target, 1.0)
            add_given(memory, actor, value, -1.0)
        elif code == LOG.scapegoat:
            add_given(memory, actor, target, -2.0)
            add_given(memory, actor, value, 2.0)
        elif code == LOG.blue:
            if actor < 0:  # the witches placed the Black Cat: they may have kept it
                memory[M.suspicion + target] += params[P_CAT_SUSPICION]
            elif value == CARD.asylum or value == CARD.piety:
                add_given(memory, actor, target, -2.0)
            else:
                add_given(memory, actor, target, 1.0)
        elif code == LOG.trial:
            if value == TRYAL.witch:
                shown_witch(memory, n, target, 0.1)
        elif code == LOG.night:
            # the witches went for `target`: the players it attacked look suspicious
            for j in range(n):
                attack = given(memory, target, j)
                if attack > 0:
                    memory[M.suspicion + j] += 0.1 * attack
        elif code == LOG.death:
            if value == WITCH:
                shown_witch(memory, n, actor, 0.1)
            elif value == TOWN:
                for j in range(n):
                    attack = given(memory, j, actor)
                    if attack > 0:
                        memory[M.suspicion + j] += 0.03 * attack
    memory[M.seen] = count


# --- beliefs ----------------------------------------------------------------------------------------
@inlined
def is_witch_known(obs, seat):
    return obs[OBS.known_team + seat] == WITCH or obs[OBS.known_witch + seat] > 0


@inlined
def suspicion(obs, memory, seat, insight):
    """How witch-like `seat` looks to a townsperson: certain when known, else its share of the
    face-down tryals and (weighted by `insight`) its behaviour: attacks on known townsfolk count
    against it, attacks on known witches for it (the weights of each target are in M.help,
    see score_all)."""
    if is_witch_known(obs, seat):
        return BIG
    if obs[OBS.known_team + seat] == TOWN:
        return -BIG
    n = obs[OBS.players]
    behaviour = memory[M.suspicion + seat]
    for k in range(n):
        behaviour += memory[M.help + k] * given(memory, seat, k)
    dealt = max(obs[OBS.tryals_dealt], 1)
    return obs[OBS.face_down + seat] / dealt + insight * behaviour


@inlined
def threat(obs, memory, seat):
    """How dangerous `seat` is to the witches: its attacks on known witches, and how far the
    accusations already on it are (a trial there costs the town a tryal)."""
    n = obs[OBS.players]
    danger = 0.0
    for k in range(n):
        if is_witch_known(obs, k) or k == obs[OBS.me]:
            attack = given(memory, seat, k)
            if attack > 0:
                danger += attack
    return danger


@inlined
def pick_best(memory, candidates_mask, rng, region=M.score):
    """The candidate seat with the highest scratch score (memory[region + seat]); ties at
    random. `candidates_mask` has a bit per candidate. -1 when there is none."""
    best = -1e300
    ties = 0
    for s in range(MAX_PLAYERS):
        if candidates_mask & (1 << s):
            score = memory[region + s]
            if score > best + 1e-9:
                best = score
                ties = 1
            elif score > best - 1e-9:
                ties += 1
    if ties == 0:
        return -1
    if ties == 1:
        for s in range(MAX_PLAYERS):
            if candidates_mask & (1 << s) and memory[region + s] > best - 1e-9:
                return s
    pick = uniform_index(ties, rng)
    for s in range(MAX_PLAYERS):
        if candidates_mask & (1 << s):
            score = memory[region + s]
            if score > best - 1e-9:
                if pick == 0:
                    return s
                pick -= 1
    return -1


@inlined
def uniform_bit(mask, rng):
    count = 0
    for s in range(MAX_PLAYERS):
        if mask & (1 << s):
            count += 1
    if count == 0:
        return -1
    pick = uniform_index(count, rng)
    for s in range(MAX_PLAYERS):
        if mask & (1 << s):
            if pick == 0:
                return s
            pick -= 1
    return -1


@inlined
def others(obs):
    """The living seats other than me, as a bit mask."""
    mask = 0
    me = obs[OBS.me]
    for s in range(obs[OBS.players]):
        if s != me and obs[OBS.alive + s]:
            mask |= 1 << s
    return mask


@inlined
def score_all(obs, memory, params, witch):
    """Scratch scores of every seat: a townsperson's suspicion, or a witch's wish to strike
    (minus infinity for a fellow witch)."""
    n = obs[OBS.players]
    if not witch:  # what an attack on each seat says about the attacker
        for k in range(n):
            team = obs[OBS.known_team + k]
            if team == WITCH or obs[OBS.known_witch + k] > 0:
                memory[M.help + k] = -0.15
            elif team == TOWN:
                memory[M.help + k] = 0.1
            else:
                memory[M.help + k] = 0.0
    for s in range(n):
        if witch:
            if is_witch_known(obs, s):
                memory[M.score + s] = -BIG
            else:
                near = obs[OBS.accusations + s] / max(obs[OBS.needed + s], 1)
                score = threat(obs, memory, s) + 2.0 * near
                finish = params[P_FINISH]
                if finish > 0.0:  # a trial that reveals the last tryal kills
                    score += finish / max(obs[OBS.face_down + s], 1)
                memory[M.score + s] = score
        else:
            memory[M.score + s] = suspicion(obs, memory, s, params[P_INSIGHT])
    if not witch:
        total, count = 0.0, 0
        me = obs[OBS.me]
        for s in range(n):
            score = memory[M.score + s]
            if s != me and obs[OBS.alive + s] and -BIG < score < BIG:
                total += score
                count += 1
        memory[M.mean] = total / count if count else 0.0


@inlined
def trusted(obs, memory, seat):
    """A townsperson trusts a known townsperson and anyone less suspect than the average (after
    score_all)."""
    return memory[M.score + seat] < memory[M.mean] or obs[OBS.known_team + seat] == TOWN


@inlined
def enemy(obs, memory, params, witch, rng):
    """The player to strike: the top score (probability `focus`), else a random other who is
    not known to be a friend."""
    mask = others(obs)
    friends = 0
    for s in range(obs[OBS.players]):
        if mask & (1 << s):
            if witch and is_witch_known(obs, s):
                friends |= 1 << s
            if not witch and obs[OBS.known_team + s] == TOWN:
                friends |= 1 << s
    if mask & ~friends == 0:
        return -1
    if random_double(rng) < params[P_FOCUS]:
        pile_on = params[P_PILE_ON]
        if not witch and pile_on > 0.0:
            # pile on: the accusations already in front of each (its share of the threshold)
            # add to my suspicion, so the table's red cards go on one player (scratch: M.help,
            # which `friend` rewrites before it reads it)
            for s in range(obs[OBS.players]):
                near = obs[OBS.accusations + s] / max(obs[OBS.needed + s], 1)
                memory[M.help + s] = memory[M.score + s] + pile_on * near
            return pick_best(memory, mask & ~friends, rng, M.help)
        return pick_best(memory, mask & ~friends, rng)
    return uniform_bit(mask & ~friends, rng)


@inlined
def friend(obs, memory, witch, rng, need_accused):
    """The player to help: a fellow witch, or the townsperson trusted most (lowest suspicion);
    with `need_accused`, only players with accusations on them. -1 if none."""
    mask = others(obs)
    best_mask = 0
    for s in range(obs[OBS.players]):
        if not mask & (1 << s):
            continue
        if need_accused and obs[OBS.accusations + s] == 0:
            continue
        if witch:
            if is_witch_known(obs, s):
                best_mask |= 1 << s
        elif trusted(obs, memory, s) and not is_witch_known(obs, s):
            best_mask |= 1 << s
    if best_mask == 0:
        return -1
    # the one most in danger: most accusations, then (town) least suspected
    for s in range(obs[OBS.players]):
        memory[M.help + s] = obs[OBS.accusations + s] - 0.01 * memory[M.score + s]
    return pick_best(memory, best_mask, rng, M.help)


@inlined
def red_points(obs, target):
    """Accusations my red cards in hand would put on `target` (Cotton Mather's Evidence: 1)."""
    evidence = 3
    character = obs[OBS.character + target]
    if character == CHAR.cotton_mather:
        evidence = 1
    return (obs[OBS.hand + CARD.accusation] + evidence * obs[OBS.hand + CARD.evidence]
            + 7 * obs[OBS.hand + CARD.witness])


@inlined
def red_ok(obs, target):
    """May I play red cards from my hand on `target` (Piety)?"""
    return obs[OBS.piety_blocks] == 0 or obs[OBS.front + target * N_FRONT + CARD.piety] == 0


@inlined
def gap(obs, target):
    """Accusations still missing before `target`'s trial, when I place the last."""
    return obs[OBS.needed + target] - obs[OBS.accusations + target]


@inlined
def best_red(obs, legal, target):
    """The red card to play on `target`: the smallest that completes the trial, else the
    largest. -1 if I hold none that is legal."""
    missing = gap(obs, target)
    evidence = 1 if obs[OBS.character + target] == CHAR.cotton_mather else 3
    values = (1, evidence, 7)
    best = -1
    for kind in range(3):
        if legal[kind] and values[kind] >= missing:
            return kind
    for kind in range(3):
        if legal[kind]:
            best = kind
    return best


# --- the plan of a turn ------------------------------------------------------------------------
@inlined
def plan(memory, card, target, second, blue):
    memory[M.target] = target + 1
    memory[M.second] = second + 1
    memory[M.blue] = blue + 1
    return card


@inlined
def next_card(obs, legal, params, memory, witch, rng, first):
    """The next card to play and its plan (memory), or STOP."""
    score_all(obs, memory, params, witch)
    foe = enemy(obs, memory, params, witch, rng)
    # a trial within reach
    if foe >= 0 and red_points(obs, foe) >= gap(obs, foe) and red_ok(obs, foe):
        kind = best_red(obs, legal, foe)
        if kind >= 0:
            return plan(memory, kind, foe, -1, -1)
    if legal[ALIBI_WITNESS] and foe >= 0 and gap(obs, foe) <= 7:
        return plan(memory, ALIBI_WITNESS, foe, -1, -1)
    # defend: Alibi on a friend in danger, Scapegoat his accusations onto the foe
    ally = friend(obs, memory, witch, rng, True)
    if ally >= 0 and gap(obs, ally) <= 3:
        if legal[CARD.alibi]:
            return plan(memory, CARD.alibi, ally, -1, -1)
        if legal[CARD.scapegoat] and foe >= 0 and foe != ally:
            return plan(memory, CARD.scapegoat, ally, foe, -1)
    if foe >= 0:
        if legal[CARD.stocks]:
            return plan(memory, CARD.stocks, foe, -1, -1)
        if legal[CARD.curse]:
            for blue in (CARD.asylum, CARD.piety):
                if obs[OBS.front + foe * N_FRONT + blue] > 0:
                    return plan(memory, CARD.curse, foe, -1, blue)
        if legal[CARD.arson] and obs[OBS.hand_size + foe] >= 4:
            return plan(memory, CARD.arson, foe, -1, -1)
        if legal[CARD.matchmaker]:
            return plan(memory, CARD.matchmaker, foe, -1, -1)
        if legal[CARD.black_cat]:
            return plan(memory, CARD.black_cat, foe, -1, -1)
    ally = friend(obs, memory, witch, rng, False)
    if ally >= 0:
        if legal[CARD.asylum]:
            return plan(memory, CARD.asylum, ally, -1, -1)
        if legal[CARD.piety]:
            return plan(memory, CARD.piety, ally, -1, -1)
        if legal[CARD.robbery] and foe >= 0 and foe != ally and obs[OBS.hand_size + foe] >= 3:
            return plan(memory, CARD.robbery, foe, ally, -1)
    if foe >= 0 and (first or random_double(rng) < aggression(obs, params, witch)):
        if red_ok(obs, foe):
            kind = best_red(obs, legal, foe)
            if kind >= 0:
                return plan(memory, kind, foe, -1, -1)
    if legal[STOP]:
        return STOP
    return uniform_legal(legal, rng)


@inlined
def aggression(obs, params, witch):
    """The temper for accusations that cause no trial yet: the witches' own (their best
    responses keep it low at every count), the town's by its tryals (with three tryals each, at
    10 to 12 players, the town's best responses accuse at once; with four or five, seldom:
    docs/strategies.md)."""
    if witch:
        return params[P_WITCH_AGGRESSION]
    return params[P_SHORT_AGGRESSION] if obs[OBS.tryals_dealt] <= 3 else params[P_AGGRESSION]


@inlined
def worth_playing(obs, params, memory, witch, rng):
    """At the start of a turn: play (a trial within reach, a friend to save, or, by temper,
    accusations to place) or draw?"""
    score_all(obs, memory, params, witch)
    foe = enemy(obs, memory, params, witch, rng)
    reds = obs[OBS.hand + CARD.accusation] + obs[OBS.hand + CARD.evidence] + \
        obs[OBS.hand + CARD.witness]
    if foe >= 0 and reds > 0 and red_ok(obs, foe) and \
            red_points(obs, foe) >= gap(obs, foe):
        return True
    if foe >= 0 and is_witch_known(obs, foe) and not witch and reds > 0:
        return True
    ally = friend(obs, memory, witch, rng, True)
    if ally >= 0 and gap(obs, ally) <= 3 and (obs[OBS.hand + CARD.alibi] > 0
                                              or obs[OBS.hand + CARD.scapegoat] > 0):
        return True
    temper = aggression(obs, params, witch)
    if witch:
        temper *= 1.0 - params[P_PROFILE]
    return random_double(rng) < temper


@inlined
def best_kind(counts, offset, legal, witch):
    """The most valuable card kind on offer (counts at obs[offset + kind]) that is legal."""
    best, value = -1, -1.0
    for k in range(HAND_KINDS):
        if legal[k] and counts[offset + k] > 0:
            v = CARD_VALUE[k]
            if witch and k == CARD.alibi:
                v += 1.0
            if v > value:
                best, value = k, v
    return best


@inlined
def pick_slot(obs, legal, witch, own):
    """A face-down tryal to reveal: my own (`own`): a Not a Witch first, never a Witch if I can
    help it; someone else's: a Witch I know of (a townsperson), else not one (a witch)."""
    chosen, rank = -1, -1
    for slot in range(legal.size):
        if not legal[slot] or slot >= 10:
            continue
        if own:
            kind = obs[OBS.mine + slot]
            r = 3 if kind == TRYAL.not_a_witch else (1 if kind == TRYAL.constable else 0)
        else:
            code = obs[OBS.target_row + slot]
            known_witch = code == KNOWN + TRYAL.witch
            known_other = code >= KNOWN and not known_witch
            if witch:
                r = 0 if known_witch else (2 if known_other else 1)
            else:
                r = 3 if known_witch else (0 if known_other else 1)
        if r > rank:
            chosen, rank = slot, r
    return chosen, rank


@inlined
def exposure(obs, seat):
    """The share of `seat`'s face-down tryals that are Witches, as a witch knows it (its own
    row; a fellow witch holds at least one): what a blind reveal of that seat's tryals shows,
    at a trial or when the Black Cat's reveal is not its holder's to choose. Each Conspiracy's
    Black Cat reveal takes away one of the others, so the share only grows."""
    down = obs[OBS.face_down + seat]
    if down <= 0:
        return 1.0
    if seat == obs[OBS.me]:
        witches = 0
        for slot in range(10):
            if obs[OBS.mine + slot] == TRYAL.witch:
                witches += 1
    else:
        witches = max(obs[OBS.known_witch + seat], 1)
    return min(witches / down, 1.0)


@inlined
def black_cat_vote(obs, legal, params, memory, rng):
    """The first night: where the Black Cat goes. A later voter follows the votes so far (the
    witches see them), so the team speaks with one voice. The first weighs the start (its
    holder plays first: `cat_keep`, the chance to keep it when keeping risked nothing) against
    the risk of exposing a witch (`exposure`): it keeps the Cat, for the witch least exposed,
    with probability cat_keep * (1 - exposure), else gives it to a townsperson, who then starts
    and loses a tryal at every Conspiracy. Ties at random."""
    n = obs[OBS.players]
    witches, town = 0, 0
    voted = 0
    for s in range(n):
        if legal[s]:
            voted += obs[OBS.votes + s]
            if is_witch_known(obs, s) or s == obs[OBS.me]:
                witches |= 1 << s
            else:
                town |= 1 << s
    if voted > 0:
        for s in range(n):
            memory[M.score + s] = obs[OBS.votes + s]
        return pick_best(memory, witches | town, rng)
    for s in range(n):
        memory[M.score + s] = -exposure(obs, s)
    keeper = pick_best(memory, witches, rng)
    if keeper >= 0 and (town == 0 or random_double(rng)
                        < params[P_CAT_KEEP] * (1.0 + memory[M.score + keeper])):
        return keeper
    if town == 0:
        return uniform_legal(legal, rng)
    return uniform_bit(town, rng)


# --- the strategy -------------------------------------------------------------------------------------
@strategy
def people(kind, obs, legal, params, memory, rng):
    """A person's play (see the module's docstring)."""
    read_log(obs, params, memory)
    me = obs[OBS.me]
    witch = obs[OBS.my_team] == WITCH
    if kind == DECISION.turn:
        memory[M.tituba] = 0
        if legal[TURN.play] and worth_playing(obs, params, memory, witch, rng):
            return TURN.play
        if legal[TURN.tituba]:
            return TURN.tituba
        if legal[TURN.parris] and (obs[OBS.discard + CARD.witness] > 0
                                   or obs[OBS.discard + CARD.evidence] > 0):
            return TURN.parris
        return TURN.draw
    if kind == DECISION.play:
        return next_card(obs, legal, params, memory, witch, rng, obs[OBS.cards_played] == 0)
    if kind == DECISION.target or kind == DECISION.second_target:
        planned = int(memory[M.target if kind == DECISION.target else M.second]) - 1
        if planned >= 0 and legal[planned]:
            return planned
        score_all(obs, memory, params, witch)
        mask = 0
        for s in range(obs[OBS.players]):
            if legal[s]:
                mask |= 1 << s
        card = obs[OBS.card]
        helpful = card == CARD.alibi or card == CARD.asylum or card == CARD.piety
        if helpful or kind == DECISION.second_target and card == CARD.robbery:
            for s in range(obs[OBS.players]):
                memory[M.score + s] = -memory[M.score + s]
        return pick_best(memory, mask, rng)
    if kind == DECISION.curse:
        planned = int(memory[M.blue]) - 1
        if planned >= 0 and legal[planned]:
            return planned
        return uniform_legal(legal, rng)
    if kind == DECISION.reveal or kind == DECISION.cat_reveal:
        own = obs[OBS.target] == me
        slot, rank = pick_slot(obs, legal, witch, own)
        if own or rank >= 2 or rank == 0:
            return slot
        # several unknown slots alike: at random among the best ones
        count = 0
        for s in range(10):
            if legal[s] and obs[OBS.target_row + s] == 3:
                count += 1
        if count == 0:
            return slot
        pick = uniform_index(count, rng)
        for s in range(10):
            if legal[s] and obs[OBS.target_row + s] == 3:
                if pick == 0:
                    return s
                pick -= 1
        return slot
    if kind == DECISION.abigail:
        return ABIGAIL_CLEAR
    if kind == DECISION.parris or kind == DECISION.proctor:
        offset = OBS.discard if kind == DECISION.parris else OBS.choice
        best = best_kind(obs, offset, legal, witch)
        return best if best >= 0 else uniform_legal(legal, rng)
    if kind == DECISION.tituba:
        # the two best cards for my own draw on top; a witch then brings the Night closer
        done = int(memory[M.tituba])
        if done < 2:
            best = best_kind(obs, OBS.choice, legal, witch)
            if best >= 0:
                memory[M.tituba] = done + 1
                return best
        if witch and done < 3 and legal[CARD.night]:
            memory[M.tituba] = 3
            return CARD.night
        memory[M.tituba] = 0
        return STOP
    if kind == DECISION.black_cat:
        return black_cat_vote(obs, legal, params, memory, rng)
    if kind == DECISION.night_kill:
        mask = 0
        n = obs[OBS.players]
        for s in range(n):
            if legal[s] and s != me and not is_witch_known(obs, s):
                mask |= 1 << s
        if mask == 0:
            return uniform_legal(legal, rng)
        for s in range(n):  # follow the fellow witches' votes; else the biggest threat
            score = threat(obs, memory, s) + 3.0 * obs[OBS.votes + s]
            if obs[OBS.front + s * N_FRONT + CARD.asylum] > 0:
                score -= BIG
            memory[M.score + s] = score
        return pick_best(memory, mask, rng)
    if kind == DECISION.protect:
        mask = 0
        n = obs[OBS.players]
        for s in range(n):
            if legal[s]:
                mask |= 1 << s
        if witch:
            for s in range(n):
                memory[M.score + s] = 1.0 if is_witch_known(obs, s) else 0.0
            return pick_best(memory, mask, rng)
        score_all(obs, memory, params, witch)
        safe = 0
        for s in range(n):
            if mask & (1 << s) and trusted(obs, memory, s):
                safe |= 1 << s
        if safe == 0:
            safe = mask
        for s in range(n):
            memory[M.score + s] = memory[M.received + s]
        return pick_best(memory, safe, rng)
    if kind == DECISION.confess:
        if obs[OBS.face_down + me] <= 1 and not legal[PHIPS]:
            return STOP
        if witch:
            if obs[OBS.victim] != me:
                return STOP
        elif params[P_CONFESS] > 0.0 and random_double(rng) < params[P_CONFESS]:
            pass  # insurance: confess whenever a tryal can be spared, whoever I accused
        else:
            mine = 0.0
            most = 1.0
            for s in range(obs[OBS.players]):
                attacks = 0.0
                for t in range(obs[OBS.players]):
                    a = given(memory, s, t)
                    if a > 0:
                        attacks += a
                if s == me:
                    mine = attacks
                if obs[OBS.alive + s] and attacks > most:
                    most = attacks
            if random_double(rng) >= params[P_FEAR] * mine / most:
                return STOP
        if legal[PHIPS]:
            return PHIPS
        slot, rank = pick_slot(obs, legal, witch, True)
        return slot if rank >= 1 else STOP
    if kind == DECISION.character:
        best, value = -1, -1.0
        for c in range(N_CHARACTERS):
            if legal[c] and CHARACTER_VALUE[c] > value:
                best, value = c, CHARACTER_VALUE[c]
        return best
    return uniform_legal(legal, rng)


PEOPLE_PARAMS = (
    StrategyParam("focus", 0.9, 0.0, 1.0,
                  "probability of striking the player I suspect most (else a random one I do "
                  "not trust)"),
    StrategyParam("aggression", 0.15, 0.0, 1.0,
                  "the town's probability of placing accusations that cause no trial yet, with "
                  "four or five tryals each"),
    StrategyParam("fear", 0.5, 0.0, 1.0,
                  "propensity to confess at dawn, scaled by how much I have accused"),
    StrategyParam("profile", 0.8, 0.0, 1.0,
                  "a witch's low profile: probability of drawing when no trial is in reach"),
    StrategyParam("insight", 0.75, 0.0, 3.0,
                  "the town's weight of what players did (the event log) against their tryals "
                  "left"),
    StrategyParam("witch_aggression", 0.1, 0.0, 1.0,
                  "a witch's probability of placing accusations that cause no trial yet"),
    StrategyParam("short_aggression", 0.95, 0.0, 1.0,
                  "`aggression` with three tryals each (10 to 12 players)"),
    StrategyParam("cat_keep", 0.4, 0.0, 1.0,
                  "the witches' weight of the start on the first night: the chance they keep "
                  "the Black Cat (its holder starts) when keeping it risked exposing no witch; "
                  "the risk is the share of the keeper's face-down tryals that are Witches"),
    StrategyParam("cat_suspicion", 0.2, -1.0, 1.0,
                  "the town's reading of the Black Cat's first holder: suspicion it adds (the "
                  "witches chose that player: they may have kept the Cat, or given it away)"),
    StrategyParam("pile_on", 0.0, 0.0, 3.0,
                  "the town's weight of the accusations already in front of a player (their "
                  "share of its threshold) when it picks whom to strike: 0 off; from about 1 it "
                  "piles its red cards on the player nearest a trial, so the table's cards "
                  "combine on one target"),
    StrategyParam("confess", 0.0, 0.0, 1.0,
                  "a townsperson's probability of confessing at dawn however little it "
                  "accused, whenever it can spare a tryal (two or more face down, or William "
                  "Phips): insurance against the night's kill (0: only by `fear`)"),
    StrategyParam("finish", 0.0, 0.0, 3.0,
                  "a witch's weight of going for the kill when it picks whom to strike: it adds "
                  "finish / (the player's face-down tryals), so a townsperson with one tryal "
                  "left, whom the next trial kills, comes first (0: off)"),
)


def builtin():
    return {
        "random": RANDOM,
        "people": StrategyInfo(
            "people", people,
            "reads the public events into its memory; the town accuses whom it suspects most, "
            "defends whom it trusts and confesses when it fears the night; witches strike the "
            "players who threaten them and keep a low profile; the constable protects the "
            "most-accused player it trusts", params=PEOPLE_PARAMS, memory=MEMORY.size),
    }
