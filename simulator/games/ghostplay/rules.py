"""Ghost Play's rules: one small compiled function per rule, each tested on hand-built positions
(tests/test_ghostplay_rules.py); the kernel composes them in the rulebook's order.

Seats go round one way: the next seat is s + 1 (the right-hand neighbour, which is also the next
counter-clockwise voter). Randomness only through the engine's draws.
"""

from simulator.games.engine import inlined, shuffle, uniform_index

from .declaration import (
    CARD_STATE, EFFECT, END_RULE, EVENT, INELIGIBLE, KING_POINTS, LF, LOG, LOG_ENTRY, LOOK_SEEN_BY,
    MAX_PLAYERS, MAX_REWARD, MAX_TYPES, MAX_VOTE, OBS, PARTICIPANTS, POSSESS, REWARD, RISE,
    RISE_ORDER, RISEN_GHOSTS, ROLE, SECOND_ARTIFACT, SEVENTH, TEAM, THIRD, TIES, UNKNOWN,
)


# --- small writers: the state and the public observation together ------------------------------
@inlined
def set_spirit(st, s, value):
    st.spirit[s] = value
    st.obs[OBS.spirit + s] = value


@inlined
def add_card(st, s, t):
    """Seat s takes a card of type t into its hand."""
    st.hand[s, t] += 1
    st.colours[s, st.type_colour[t]] += 1
    st.hand_size[s] += 1
    st.obs[OBS.hand_size + s] = st.hand_size[s]


@inlined
def remove_card(st, s, t):
    """A card of type t leaves seat s's hand (to the table, the discards or the front)."""
    st.hand[s, t] -= 1
    st.colours[s, st.type_colour[t]] -= 1
    st.hand_size[s] -= 1
    st.obs[OBS.hand_size + s] = st.hand_size[s]


@inlined
def set_card_state(st, card, state):
    st.card_state[card] = state
    st.obs[OBS.card_state + card] = state


# --- setup ----------------------------------------------------------------------------------------
@inlined
def deal_identities(st, rng):
    """The identity cards of the draft's table, dealt secretly at random; each seat knows its own."""
    n = st.players
    for s in range(n):
        st.role[s] = st.identity_deck[s]
    shuffle(st.role, n, rng)
    for s in range(n):
        st.former[s] = st.role[s]
        for v in range(MAX_PLAYERS):
            st.known[s, v] = UNKNOWN
        st.known[s, s] = st.role[s]


@inlined
def build_taoist_pile(st, rng):
    """Every Taoist card into the draw pile, shuffled; no hands, no discards."""
    size = 0
    for t in range(st.n_types):
        for _ in range(st.type_count[t]):
            st.pile[size] = t
            size += 1
    st.pile_size = size
    shuffle(st.pile, size, rng)
    for t in range(MAX_TYPES):
        st.discard[t] = 0
        st.spent[t] = 0
    st.discard_size = 0
    st.spent_size = 0
    st.reshuffled = 0
    for s in range(MAX_PLAYERS):
        for t in range(MAX_TYPES):
            st.hand[s, t] = 0
            st.drawn[s, t] = 0
        st.colours[s, 0] = 0
        st.colours[s, 1] = 0
        st.hand_size[s] = 0
        st.obs[OBS.hand_size + s] = 0


@inlined
def refill_pile(st, rng):
    """An empty draw pile takes the discards, shuffled. Returns 1 if it did."""
    if st.discard_size == 0:
        return 0
    size = 0
    for t in range(st.n_types):
        for _ in range(st.discard[t]):
            st.pile[size] = t
            size += 1
        st.discard[t] = 0
    st.discard_size = 0
    st.pile_size = size
    shuffle(st.pile, size, rng)
    st.reshuffled += 1  # (for the trace)
    return 1


@inlined
def draw_cards(st, s, count, rng):
    """Seat s draws `count` Taoist cards. When the draw pile runs out, the discards are shuffled
    into a new one at once (立即); if there were none then, the next draw takes them; with no
    card left anywhere, no card is drawn. Returns (cards drawn, reshuffles)."""
    drawn = 0
    reshuffles = 0
    for _ in range(count):
        if st.pile_size == 0:
            reshuffles += refill_pile(st, rng)
            if st.pile_size == 0:
                break
        st.pile_size -= 1
        add_card(st, s, st.pile[st.pile_size])
        st.drawn[s, st.pile[st.pile_size]] += 1  # (for the trace)
        drawn += 1
        if st.pile_size == 0:
            reshuffles += refill_pile(st, rng)
    return drawn, reshuffles


@inlined
def discard_card(st, t):
    st.discard[t] += 1
    st.discard_size += 1


@inlined
def shuffle_ghost_deck(st, rng):
    """The ghost deck shuffled; every card in it; no ghost in play."""
    for c in range(st.ghost_size):
        st.ghost_order[c] = c
        set_card_state(st, c, CARD_STATE.in_deck)
    shuffle(st.ghost_order, st.ghost_size, rng)
    st.ghost_next = 0
    st.obs[OBS.deck_left] = st.ghost_size
    st.in_play = 0
    st.obs[OBS.in_play] = 0


@inlined
def draw_king_card(st, rng):
    """One ghost-king card at random, shown: this game's candidate ghost king and its seal."""
    card = uniform_index(st.king_cards, rng)
    st.seal_lives = st.king_seal[card]
    st.obs[OBS.seal] = st.seal_lives
    return card


@inlined
def reset_table(st):
    """Everything public of a new game: spirit, points, ghosts, artifacts, the king, the log."""
    n = st.players
    obs = st.obs
    for s in range(MAX_PLAYERS):
        active = s < n
        set_spirit(st, s, st.start_spirit if active else 0)
        st.points[s] = 0
        obs[OBS.points + s] = 0
        st.possessed[s] = 0
        obs[OBS.possessed + s] = 0
        st.artifact[s] = UNKNOWN
        obs[OBS.artifact + s] = UNKNOWN
        st.hosted[s] = 0
        st.dispelled[s] = 0
        st.reached_three[s] = 0
        st.cleared[s] = 0
        st.on_table[s] = 0
        st.shown[s] = UNKNOWN
        obs[OBS.placed + s] = UNKNOWN
        obs[OBS.shown_positive + s] = UNKNOWN
        obs[OBS.shown_negative + s] = UNKNOWN
    st.king = UNKNOWN
    obs[OBS.king] = UNKNOWN
    st.lives = 0
    obs[OBS.lives] = 0
    st.seal_broken = 0
    st.seventh_card = UNKNOWN
    st.seventh_gone = 0
    st.arrivals = 0
    st.ex_seq = 0
    st.rise_turn = 0
    obs[OBS.ex_seq] = 0
    obs[OBS.ex_host] = UNKNOWN
    obs[OBS.ex_slot] = UNKNOWN
    obs[OBS.ex_card] = UNKNOWN
    obs[OBS.turn] = 0
    obs[OBS.turn_player] = UNKNOWN
    for i in range(LOG * LOG_ENTRY):
        obs[OBS.log + i] = UNKNOWN
    for i in range(LOG):
        obs[OBS.log + i * LOG_ENTRY + LF.seq] = 0


# --- the draw and the day -----------------------------------------------------------------------
@inlined
def draw_phase_count(st, s):
    """Cards seat s draws in its draw phase: 2 (rules.draw); with the possession penalty knob,
    2 minus its ghosts, never below 0; plus a 'draw' artifact's amount."""
    count = st.draw
    if st.possession_penalty:
        count = max(0, count - st.possessed[s])
    a = st.artifact[s]
    if a >= 0 and st.type_effect[a] == EFFECT.draw:
        count += st.type_amount[a]
    return count


@inlined
def artifact_spirit(st, s):
    """A 'spirit' artifact gives its holder its amount of spirit power in the draw phase.
    Returns the amount."""
    a = st.artifact[s]
    if a >= 0 and st.type_effect[a] == EFFECT.spirit:
        set_spirit(st, s, st.spirit[s] + st.type_amount[a])
        return st.type_amount[a]
    return 0


@inlined
def most_affordable(st, s):
    """The most cards seat s may buy: its spirit power over the price, and no more than the
    draw pile and the discards hold."""
    return min(st.spirit[s] // st.card_cost, st.pile_size + st.discard_size, 61)


@inlined
def buy_cards(st, s, count, rng):
    """Spend 2 spirit power (rules.card_cost) per extra Taoist card drawn. Returns reshuffles."""
    set_spirit(st, s, st.spirit[s] - count * st.card_cost)
    drawn, reshuffles = draw_cards(st, s, count, rng)
    return reshuffles


@inlined
def may_set_artifact(st, s):
    """Can seat s set an artifact now? (A second one replaces the first, unless the knob refuses
    it.)"""
    return not (st.second_artifact == SECOND_ARTIFACT.refused and st.artifact[s] >= 0)


@inlined
def set_artifact(st, s, t):
    """Seat s sets an artifact of type t in front of itself; one it had is discarded.
    Returns the replaced type, or -1."""
    old = st.artifact[s]
    if old >= 0:
        discard_card(st, old)
    remove_card(st, s, t)
    st.artifact[s] = t
    st.obs[OBS.artifact + s] = t
    return old


@inlined
def play_spell(st, s, t, rng):
    """Seat s plays another card (a spell): it stays in front of its player until the turn ends
    (discard_spent), so no reshuffle brings it back this turn, and its effect resolves.
    Returns reshuffles."""
    remove_card(st, s, t)
    st.spent[t] += 1
    st.spent_size += 1
    reshuffles = 0
    if st.type_effect[t] == EFFECT.spirit:
        set_spirit(st, s, st.spirit[s] + st.type_amount[t])
    elif st.type_effect[t] == EFFECT.draw:
        drawn, reshuffles = draw_cards(st, s, st.type_amount[t], rng)
    return reshuffles


@inlined
def discard_spent(st):
    """The end of a turn: the other cards played in it are discarded. Returns how many."""
    spent = st.spent_size
    for t in range(st.n_types):
        st.discard[t] += st.spent[t]
        st.spent[t] = 0
    st.discard_size += spent
    st.spent_size = 0
    return spent


# --- the haunting ---------------------------------------------------------------------------------
@inlined
def reveal_card(st):
    """The top ghost-deck card, or -1 on an empty deck."""
    if st.ghost_next >= st.ghost_size:
        return UNKNOWN
    card = st.ghost_order[st.ghost_next]
    st.ghost_next += 1
    st.obs[OBS.deck_left] = st.ghost_size - st.ghost_next
    return card


@inlined
def eligible(st, s):
    """May a new ghost possess seat s? Not the ghost king, not a warded player."""
    if s == st.king:
        return False
    a = st.artifact[s]
    return not (a >= 0 and st.type_effect[a] == EFFECT.ward)


@inlined
def takes_tie(st, tied, rng):
    """A player tied with the best so far, `tied` players tied in all (this one included): does it
    take the place? Never with ties going to the first met (the default); with rules.ties =
    "random", with chance 1 / tied, so that each tied player is chosen equally often."""
    return st.ties == TIES.random and uniform_index(tied, rng) == 0


@inlined
def possession_target(st, card, p, rng):
    """Whom a ghost possesses when turn player p reveals it: by its rule (ties: the tied player
    met first going right from p, p first; rules.ties = "random": one at random); if that player
    is the ghost king or warded, the next eligible player to the right (rules.ineligible =
    "set-aside": nobody). -1 when nobody is eligible."""
    n = st.players
    rule = st.g_possess[card]
    chosen = p
    tied = 1
    if rule == POSSESS.right_neighbour:
        chosen = (p + 1) % n
    elif rule == POSSESS.most_spirit:
        for k in range(1, n):
            s = (p + k) % n
            if st.spirit[s] > st.spirit[chosen]:
                chosen = s
                tied = 1
            elif st.spirit[s] == st.spirit[chosen]:
                tied += 1
                if takes_tie(st, tied, rng):
                    chosen = s
    elif rule == POSSESS.fewest_cards:
        for k in range(1, n):
            s = (p + k) % n
            if st.hand_size[s] < st.hand_size[chosen]:
                chosen = s
                tied = 1
            elif st.hand_size[s] == st.hand_size[chosen]:
                tied += 1
                if takes_tie(st, tied, rng):
                    chosen = s
    if st.ineligible == INELIGIBLE.set_aside:
        return chosen if eligible(st, chosen) else UNKNOWN
    for k in range(n):
        s = (chosen + k) % n
        if eligible(st, s):
            return s
    return UNKNOWN


@inlined
def possess(st, card, s):
    """The ghost possesses seat s: it enters play in the next slot. Notes an arrival that brings
    s to 3 or more ghosts (rule a) and the first arrival of the turn that brings the ghosts in
    play to 7 or more (rule b). Returns the slot."""
    slot = st.in_play
    st.slot_card[slot] = card
    st.slot_target[slot] = s
    st.obs[OBS.slot_card + slot] = card
    st.obs[OBS.slot_target + slot] = s
    st.in_play = slot + 1
    st.obs[OBS.in_play] = st.in_play
    st.possessed[s] += 1
    st.obs[OBS.possessed + s] = st.possessed[s]
    set_card_state(st, card, CARD_STATE.in_play)
    st.arrivals += 1
    if st.possessed[s] == 3 or (st.possessed[s] > 3 and st.third == THIRD.three_or_more):
        st.reached_three[s] = 1
    if st.seventh == SEVENTH.revealed:
        if st.arrivals == 7:
            st.seventh_card = card
    elif st.in_play >= 7 and st.seventh_card < 0:
        st.seventh_card = card
    return slot


@inlined
def resolve_event(st, card, p, rng):
    """An event card resolves at once: 'drain' (every player loses its amount of spirit power,
    not below 0), 'gift' (every player gains it), 'draw' (every player, from the turn player on,
    draws its amount of Taoist cards). 'another' is the kernel's (it reveals one more card).
    Returns reshuffles."""
    n = st.players
    effect = st.g_effect[card]
    amount = st.g_amount[card]
    reshuffles = 0
    set_card_state(st, card, CARD_STATE.resolved)
    if effect == EVENT.drain:
        for s in range(n):
            set_spirit(st, s, max(0, st.spirit[s] - amount))
    elif effect == EVENT.gift:
        for s in range(n):
            set_spirit(st, s, st.spirit[s] + amount)
    elif effect == EVENT.draw:
        for k in range(n):
            drawn, more = draw_cards(st, (p + k) % n, amount, rng)
            reshuffles += more
    return reshuffles


# --- the exorcism ---------------------------------------------------------------------------------
@inlined
def open_exorcism(st, host, slot):
    """An exorcism (or summoning) of the ghost in `slot` begins: nothing on the table yet."""
    st.ex_seq += 1
    obs = st.obs
    obs[OBS.ex_seq] = st.ex_seq
    obs[OBS.ex_host] = host
    obs[OBS.ex_slot] = slot
    obs[OBS.ex_card] = st.slot_card[slot]
    for v in range(st.players):  # (vote_cards: emptied by discard_vote after every exorcism)
        st.on_table[v] = 0
        st.shown[v] = UNKNOWN
        st.vote_positive[v] = 0
        st.vote_negative[v] = 0
        st.positive_value[v] = 0
        st.negative_value[v] = 0
        obs[OBS.placed + v] = UNKNOWN
        obs[OBS.shown_positive + v] = UNKNOWN
        obs[OBS.shown_negative + v] = UNKNOWN


@inlined
def vote_limits(st, v, colour):
    """The most positive and negative cards seat v may add to a vote on a ghost of `colour`
    (rules.vote_limit of each, at most MAX_VOTE)."""
    limit = min(st.vote_limit, MAX_VOTE)
    return min(st.colours[v, colour], limit), min(st.colours[v, 1 - colour], limit)


@inlined
def take_vote(st, v, positive, negative, colour):
    """Seat v puts `positive` cards of the ghost's colour and `negative` of the other face down,
    each colour's cards taken in the deck's listed order of types. Returns the cards placed."""
    for t in range(st.n_types):
        is_positive = st.type_colour[t] == colour
        want = positive if is_positive else negative
        taken = min(want, st.hand[v, t])
        if taken == 0:
            continue
        st.hand[v, t] -= taken
        st.vote_cards[v, t] += taken
        if is_positive:
            positive -= taken
            st.vote_positive[v] += taken
            st.positive_value[v] += taken * st.type_value[t]
        else:
            negative -= taken
            st.vote_negative[v] += taken
            st.negative_value[v] += taken * st.type_value[t]
    placed = st.vote_positive[v] + st.vote_negative[v]
    st.colours[v, colour] -= st.vote_positive[v]
    st.colours[v, 1 - colour] -= st.vote_negative[v]
    st.hand_size[v] -= placed
    st.obs[OBS.hand_size + v] = st.hand_size[v]
    st.on_table[v] = 1 if placed > 0 else 0
    st.obs[OBS.placed + v] = placed
    return placed


@inlined
def may_challenge(st, host, v):
    """The host may challenge a voter once, never itself, never the ghost king, and only one
    who placed cards."""
    return v != host and v != st.king and st.on_table[v] == 1 and st.shown[v] < 0


@inlined
def challenge(st, v):
    """The challenged votes are shown: all positive -> the exorcism fails at once (returns 1);
    any negative -> all of that voter's cards are discarded (returns 0)."""
    st.obs[OBS.shown_positive + v] = st.vote_positive[v]
    st.obs[OBS.shown_negative + v] = st.vote_negative[v]
    if st.vote_negative[v] == 0:
        st.shown[v] = 0
        return 1
    st.shown[v] = 1
    discard_vote(st, v)
    return 0


@inlined
def discard_vote(st, v):
    """All of a voter's cards on the table go to the discard pile."""
    if st.on_table[v] == 0:
        return
    for t in range(st.n_types):
        k = st.vote_cards[v, t]
        if k > 0:
            st.discard[t] += k
            st.discard_size += k
            st.vote_cards[v, t] = 0
    st.on_table[v] = 0


@inlined
def count_votes(st):
    """The votes still on the table, shuffled and shown: red and blue cancel one for one, so the
    result is the positive value less the negative value. Returns (positive, negative)."""
    positive = 0
    negative = 0
    for v in range(st.players):
        if st.on_table[v] == 1:
            positive += st.positive_value[v]
            negative += st.negative_value[v]
    return positive, negative


@inlined
def mark_participants(st, host):
    """The participants: the players whose vote cards were counted, the host always included
    (rules.participants = "placed": every player who placed cards, challenged ones too)
    (st.order[v] = 1). Returns how many."""
    count = 0
    for v in range(st.players):
        placed = (st.participants == PARTICIPANTS.placed
                  and st.vote_positive[v] + st.vote_negative[v] > 0)
        part = 1 if v == host or st.on_table[v] == 1 or placed else 0
        st.order[v] = part
        count += part
    return count


@inlined
def pay_reward(st, v, card, index, count):
    """Participant v, the index-th in vote order (the host 0), gets the ghost's reward: the card's
    reward for `count` participants (rules.reward = "each"), or its pool split evenly, the rest
    one each from the host on ("pool"). Returns the spirit power paid."""
    if st.reward == REWARD.pool:
        amount = st.g_pool[card] // count + (1 if index < st.g_pool[card] % count else 0)
    else:
        amount = st.g_reward[card, min(count, MAX_REWARD) - 1]
    set_spirit(st, v, st.spirit[v] + amount)
    return amount


@inlined
def remove_ghost(st, slot):
    """The ghost in `slot` leaves play (dispelled or summoned); later slots move up. Marks its
    seat's ghost as dispelled this turn (rule a) and the 7th ghost's dispel (rule b).
    Returns (card, seat it possessed)."""
    card = st.slot_card[slot]
    s = st.slot_target[slot]
    for i in range(slot, st.in_play - 1):
        st.slot_card[i] = st.slot_card[i + 1]
        st.slot_target[i] = st.slot_target[i + 1]
        st.obs[OBS.slot_card + i] = st.slot_card[i]
        st.obs[OBS.slot_target + i] = st.slot_target[i]
    st.in_play -= 1
    st.obs[OBS.in_play] = st.in_play
    st.obs[OBS.slot_card + st.in_play] = UNKNOWN
    st.obs[OBS.slot_target + st.in_play] = UNKNOWN
    st.possessed[s] -= 1
    st.obs[OBS.possessed + s] = st.possessed[s]
    st.cleared[s] = 1
    if card == st.seventh_card:
        st.seventh_gone = 1
    return card, s


@inlined
def score_ghost(st, host, card):
    """A dispelled ghost goes face down in front of the host as its points."""
    set_card_state(st, card, CARD_STATE.dispelled)
    st.points[host] += st.g_points[card]
    st.obs[OBS.points + host] = st.points[host]


@inlined
def add_life(st, card):
    """A summoned ghost goes in front of the ghost king as one of its lives. Returns the lives."""
    set_card_state(st, card, CARD_STATE.life)
    st.lives += 1
    st.obs[OBS.lives] = st.lives
    return st.lives


@inlined
def look(st, host, s):
    """The host looks at the possessed player's identity (private to the host; rules.look_seen_by
    = "everyone": every seat sees it)."""
    if st.look_seen_by == LOOK_SEEN_BY.everyone:
        for v in range(st.players):
            st.known[v, s] = st.role[s]
    st.known[host, s] = st.role[s]
    return st.role[s]


@inlined
def log_exorcism(st, host, card, target, outcome, positive, negative):
    """The exorcism's public record: host, ghost, outcome, the value counted, each seat's cards
    placed and what a challenge showed (a ring of LOG entries, by sequence number)."""
    base = OBS.log + ((st.ex_seq - 1) % LOG) * LOG_ENTRY
    obs = st.obs
    obs[base + LF.seq] = st.ex_seq
    obs[base + LF.host] = host
    obs[base + LF.card] = card
    obs[base + LF.target] = target
    obs[base + LF.outcome] = outcome
    obs[base + LF.positive] = positive
    obs[base + LF.negative] = negative
    at = base + len(LF)
    for v in range(MAX_PLAYERS):
        obs[at + v] = obs[OBS.placed + v]
        obs[at + MAX_PLAYERS + v] = st.shown[v]
    obs[OBS.ex_host] = UNKNOWN
    obs[OBS.ex_slot] = UNKNOWN
    obs[OBS.ex_card] = UNKNOWN


# --- the ghost king -------------------------------------------------------------------------------
@inlined
def start_turn(st, p, turn):
    """A new turn: nothing arrived or was dispelled yet (the rise rules look at one turn)."""
    for s in range(st.players):
        st.reached_three[s] = 0
        st.cleared[s] = 0
    st.seventh_card = UNKNOWN
    st.seventh_gone = 0
    st.turn_decisions = 0
    st.obs[OBS.turn] = turn
    st.obs[OBS.turn_player] = p


@inlined
def most_possessed(st, p, rng):
    """The player possessed by most ghosts; a tie goes to the first going right from p
    (rules.ties = "random": one of them at random)."""
    n = st.players
    best = p
    tied = 1
    for k in range(1, n):
        s = (p + k) % n
        if st.possessed[s] > st.possessed[best]:
            best = s
            tied = 1
        elif st.possessed[s] == st.possessed[best]:
            tied += 1
            if takes_tie(st, tied, rng):
                best = s
    return best


@inlined
def rise_by_three(st, p, rng):
    """Rule (a) at the end of turn p: a player an arrival brought to 3 or more ghosts this turn,
    none of whose ghosts was dispelled this turn (several: the first going right from p;
    rules.ties = "random": one at random). Returns (seat or -1, rises prevented before it)."""
    n = st.players
    chosen = UNKNOWN
    tied = 0
    prevented = 0
    for k in range(n):
        s = (p + k) % n
        if st.reached_three[s] == 1:
            if st.cleared[s] == 1:
                prevented += 1
            elif chosen < 0:
                chosen = s
                tied = 1
                if st.ties == TIES.from_turn_player:
                    return chosen, prevented
            else:
                tied += 1
                if takes_tie(st, tied, rng):
                    chosen = s
    return chosen, prevented


@inlined
def rise_by_seventh(st, p, rng):
    """Rule (b) at the end of turn p: the 7th ghost arrived this turn and was not dispelled: the
    player possessed by most ghosts. Returns (seat or -1, rises prevented)."""
    if st.seventh_card < 0:
        return UNKNOWN, 0
    if st.seventh_gone == 1:
        return UNKNOWN, 1
    return most_possessed(st, p, rng), 0


@inlined
def rise_candidate(st, p, rng):
    """At the end of turn p, who becomes the ghost king, and by which rule (RISE): rule (a), else
    rule (b) (rules.rise_order = "b-first": (b), else (a)). At most one ghost king a game.
    Returns (seat, rule, rises prevented by a dispel this turn)."""
    if st.king >= 0:
        return UNKNOWN, UNKNOWN, 0
    if st.rise_order == RISE_ORDER.b_first:
        s, prevented = rise_by_seventh(st, p, rng)
        if s >= 0:
            return s, RISE.seventh, prevented
        s, more = rise_by_three(st, p, rng)
        if s >= 0:
            return s, RISE.three, prevented + more
        return UNKNOWN, UNKNOWN, prevented + more
    s, prevented = rise_by_three(st, p, rng)
    if s >= 0:
        return s, RISE.three, prevented
    s, more = rise_by_seventh(st, p, rng)
    if s >= 0:
        return s, RISE.seventh, prevented + more
    return UNKNOWN, UNKNOWN, prevented + more


@inlined
def rise(st, s, turn):
    """Seat s's identity becomes the ghost king, for everyone to see; it keeps its hand, spirit
    power, artifact, points and ghosts. Returns its identity before."""
    before = st.role[s]
    st.role[s] = ROLE.ghost_king
    st.king = s
    st.obs[OBS.king] = s
    st.rise_turn = turn
    for v in range(MAX_PLAYERS):
        st.known[v, s] = ROLE.ghost_king
    return before


@inlined
def settle_risen_ghosts(st, s):
    """The ghosts on seat s, which has just risen: they stay (rules.risen_ghosts = "stay"), become
    the ghost king's lives ("lives") or are set aside ("discarded"). Returns how many moved."""
    if st.risen_ghosts == RISEN_GHOSTS.stay:
        return 0
    moved = 0
    slot = st.in_play - 1
    while slot >= 0:
        if st.slot_target[slot] == s:
            card, _ = remove_ghost(st, slot)
            if st.risen_ghosts == RISEN_GHOSTS.lives:
                add_life(st, card)
            else:
                set_card_state(st, card, CARD_STATE.resolved)
            moved += 1
        slot -= 1
    return moved


@inlined
def seal_breaks(st):
    """The ghost king holds at least the candidate card's seal value of lives."""
    return st.king >= 0 and st.lives >= st.seal_lives


# --- the end --------------------------------------------------------------------------------------
@inlined
def game_over(st, p):
    """After turn p: is the game over? The ghost deck is empty and (rules.end = "round") the
    round is over: the next player would be the first player again."""
    if st.ghost_next < st.ghost_size:
        return False
    if st.end == END_RULE.round:
        return (p + 1) % st.players == st.first_seat
    return True


@inlined
def sect_points(st):
    """Ghost points held by each sect's members (by their identity now: the ghost king's and the
    evil player's points count for no sect; rules.king_points = "former-sect": the ghost king's
    count for the sect it was dealt). Returns (taiping, tianshi, evil path)."""
    taiping = 0
    tianshi = 0
    evil = 0
    for s in range(st.players):
        identity = st.role[s]
        if identity == ROLE.ghost_king and st.king_points == KING_POINTS.former_sect:
            identity = st.former[s]
        if identity == ROLE.taiping:
            taiping += st.points[s]
        elif identity == ROLE.tianshi:
            tianshi += st.points[s]
        else:
            evil += st.points[s]
    return taiping, tianshi, evil


@inlined
def sect_winner(st):
    """The sect whose members hold more ghost points, or -1 for a tie (a draw)."""
    taiping, tianshi, evil = sect_points(st)
    if taiping > tianshi:
        return TEAM.taiping
    if tianshi > taiping:
        return TEAM.tianshi
    return -1

