"""The werewolf kernel: one game, reading top to bottom like the rulebook's round.

    deal -> night 1 (cupid, lovers, masons; then every night's roles in the note's order)
         -> daybreak (the night's deaths and what they set off; victory)
         -> day (mayor election on day 1; discussion; open suspect vote; secret sentence vote;
            hanging; the death god's kill) -> night 2 -> ... -> a victory rule ends it

Every rule lives in rules.py; every decision goes through the engine's `ask`, which hands the
seat's strategy its observation (observation.observe) and legal mask only. A role whose player is
dead is skipped.
"""

from simulator.games.engine import (
    allow, ask, compiled, event, finish_game, forbid, kernel, play_games, random_double, talks,
)

from .declaration import CAUSE, DECISION, END, EV, HUMAN, OBS, ROLE, TR, WOLF, YES
from .observation import (
    legal_claim, legal_kill, legal_living, legal_medium_claim, legal_pair, legal_pass_or_living,
    legal_yes_no, observe,
)
from .rules import (
    attack, beats, bodyguard_finds_witness, charm, choose_suspects, death_mark_kills,
    hunter_may_shoot, kill, link, living_counts, lovers_across, mark_winners, medium_learns,
    pack_leader, pack_meets, paranoid_becomes, piper_has_won, poison, protect, publish_claim,
    draw_tie_order, reset_for_deal, revive, seer_learns, sentence_result, shuffle_into,
    suspect_vote_order,
    top_living, victory, vote_weight, witness_sees,
)
from .state import alive, ballot, mayor_seat, revealed, set_mayor, voted, votes

NIGHT = -1  # no reference seat yet (the observation's victim piece at night)


# --- deaths ---------------------------------------------------------------------------------------
@compiled
def settle_deaths(st, day, rng):
    """Settle every queued death in turn: a lover dies of grief; a hunter (not poisoned) may
    shoot one player, not his lover; a dying mayor names his successor. A death these cause is
    queued and settled too."""
    n = st.players
    while st.settled < st.queued:
        seat = st.queue[st.settled]
        st.settled += 1
        event(st, TR.death, seat, -1, st.role[seat], st.cause[seat])
        partner = st.lover[seat]
        if partner >= 0 and alive(st)[partner]:
            st.events[EV.lover_grief] += 1
            kill(st, partner, CAUSE.grief)
        if hunter_may_shoot(st, seat):
            legal_pass_or_living(st, n, -1, st.lover[seat])
            target = ask(st, seat, DECISION.shoot, rng, observe, (day, NIGHT, -1, -1))
            if target != 2 * n:
                revealed(st)[seat] = ROLE.hunter  # the announcement is public
                event(st, TR.shoot, seat, target, 0, 0)
                st.events[EV.hunter_shots] += 1
                kill(st, target, CAUSE.shot)
        if seat == mayor_seat(st):
            set_mayor(st, -1)
            if count_living(st, n) > 0:
                legal_living(st, n, -1)
                heir = ask(st, seat, DECISION.successor, rng, observe, (day, NIGHT, -1, -1))
                set_mayor(st, heir)
                st.events[EV.mayor_successions] += 1
                event(st, TR.mayor, heir, seat, 1, 0)


@compiled
def count_living(st, n):
    living = 0
    for i in range(n):
        living += alive(st)[i]
    return living


# --- night ----------------------------------------------------------------------------------------
@compiled
def first_night(st, rng):
    """Night 1 only: cupid links two lovers, who wake and see each other (the masons met at the
    deal)."""
    n = st.players
    if st.in_play[ROLE.cupid] == 0:
        return
    for cupid in range(n):
        if alive(st)[cupid] and st.role[cupid] == ROLE.cupid:
            legal_living(st, n, -1)
            a = ask(st, cupid, DECISION.link, rng, observe, (1, NIGHT, -1, -1))
            forbid(st, a)
            b = ask(st, cupid, DECISION.link, rng, observe, (1, NIGHT, -1, -1))
            link(st, cupid, a, b)
            st.events[EV.lovers_linked] += 1
            if lovers_across(st, a):
                st.events[EV.lovers_across] += 1
            event(st, TR.link, a, b, cupid, 0)
            return


@compiled
def information_roles(st, day, rng):
    """The medium (from night 2) learns about the last hanged player; the seer checks one."""
    n = st.players
    hanged = st.obs[OBS.hanged]
    if st.in_play[ROLE.seer] + st.in_play[ROLE.medium] == 0:
        return
    for seat in range(n):
        if not alive(st)[seat]:
            continue
        role = st.role[seat]
        if role == ROLE.medium and day >= 2 and hanged >= 0:
            found = medium_learns(st, seat, hanged)
            st.events[EV.medium_readings] += 1
            event(st, TR.medium, seat, hanged, 1 if found else 0, 0)
        elif role == ROLE.seer:
            legal_living(st, n, seat)
            target = ask(st, seat, DECISION.seer_check, rng, observe, (day, NIGHT, -1, -1))
            found = seer_learns(st, seat, target)
            st.events[EV.seer_checks] += 1
            if found:
                st.events[EV.seer_found_wolf] += 1
            if st.role[target] == ROLE.hamster:
                st.events[EV.hamster_checked] += 1
            event(st, TR.seer_check, seat, target, WOLF if found else HUMAN, 0)


@compiled
def bodyguards(st, day, rng):
    """From night 2 each bodyguard protects a player (himself allowed), not the one he protected
    the night before; naming the witness is refused and he chooses again, knowing the witness."""
    n = st.players
    if day < 2 or st.in_play[ROLE.bodyguard] == 0:
        return
    for seat in range(n):
        if alive(st)[seat] and st.role[seat] == ROLE.bodyguard:
            legal_living(st, n, -1)
            last = st.last_protected[seat]
            if last >= 0 and st.legal_count > 1:
                forbid(st, last)
            target = ask(st, seat, DECISION.protect, rng, observe, (day, NIGHT, -1, -1))
            while bodyguard_finds_witness(st, seat, target) and st.legal_count > 1:
                st.events[EV.witness_redirects] += 1
                event(st, TR.protect, seat, target, 0, 0)
                forbid(st, target)
                target = ask(st, seat, DECISION.protect, rng, observe, (day, NIGHT, -1, -1))
            protect(st, seat, target)
            st.events[EV.protections] += 1
            event(st, TR.protect, seat, target, 1, 0)


@compiled
def wolves_attack(st, day, rng):
    """The pack picks its victim; a witness may peek (and, noticed, is the victim instead).
    Returns the attacked seat (the day's reference seat), or -1 when no werewolf is left (the
    madman alone keeps the wolf camp alive)."""
    n = st.players
    leader = pack_leader(st, n)
    if leader < 0:
        return -1
    legal_kill(st, n)
    target = ask(st, leader, DECISION.wolf_kill, rng, observe, (day, NIGHT, -1, -1))
    event(st, TR.wolf_kill, leader, target, 0, 0)
    for seat in range(n if st.in_play[ROLE.witness] else 0):
        if alive(st)[seat] and st.role[seat] == ROLE.witness:
            legal_yes_no(st)
            if ask(st, seat, DECISION.peek, rng, observe, (day, NIGHT, -1, -1)) == YES:
                st.events[EV.peeks] += 1
                caught = random_double(rng) < st.witness_caught
                event(st, TR.peek, seat, -1, 1 if caught else 0, 0)
                if caught:
                    st.events[EV.witness_caught] += 1
                    target = seat
                    break
                witness_sees(st, seat, n)
    if attack(st, target):
        if st.role[target] == ROLE.seer:
            st.events[EV.seer_killed_at_night] += 1
    else:
        if st.shielded[target]:
            st.events[EV.protected_saves] += 1
        else:
            st.events[EV.hamster_attacked] += 1
    return target


@compiled
def witches(st, day, attacked, rng):
    """Each witch is shown the attacked player (at each of her decisions) and may revive them
    (herself included), then may poison one player; each potion once a game."""
    n = st.players
    if st.in_play[ROLE.witch] == 0:
        return
    for seat in range(n):
        if not (alive(st)[seat] and st.role[seat] == ROLE.witch):
            continue
        if st.save_left[seat] and attacked >= 0:
            legal_yes_no(st)
            if ask(st, seat, DECISION.witch_save, rng, observe, (day, attacked, -1, -1)) == YES:
                st.save_left[seat] = 0
                revive(st, attacked)
                st.events[EV.witch_saves] += 1
                event(st, TR.witch_save, seat, attacked, 0, 0)
        if st.poison_left[seat]:
            legal_pass_or_living(st, n, seat, st.lover[seat])
            # (shown the attacked player here too: with her revival spent, this is where she is)
            target = ask(st, seat, DECISION.witch_poison, rng, observe, (day, attacked, -1, -1))
            if target != 2 * n:
                st.poison_left[seat] = 0
                poison(st, target)
                st.events[EV.witch_poisons] += 1
                event(st, TR.witch_poison, seat, target, 0, 0)


@compiled
def late_night(st, day, rng):
    """The owl man names tomorrow's suspect, the death god marks a player, the paranoid (night 2)
    becomes a role, the piper charms two players."""
    n = st.players
    for seat in range(n if st.in_play[ROLE.owl_man] else 0):
        if alive(st)[seat] and st.role[seat] == ROLE.owl_man:
            legal_living(st, n, seat)
            st.owl_target = ask(st, seat, DECISION.owl_accuse, rng, observe, (day, NIGHT, -1, -1))
            event(st, TR.owl, seat, st.owl_target, 0, 0)
    for seat in range(n if st.in_play[ROLE.death_god] else 0):
        if alive(st)[seat] and st.role[seat] == ROLE.death_god:
            legal_living(st, n, seat)
            if st.lover[seat] >= 0 and st.legal_count > 1:
                forbid(st, st.lover[seat])
            target = ask(st, seat, DECISION.death_mark, rng, observe, (day, NIGHT, -1, -1))
            st.marked[target] = 1
            st.events[EV.death_marks] += 1
            event(st, TR.mark, seat, target, 0, 0)
    if day == 2 and st.in_play[ROLE.paranoid]:
        for seat in range(n):
            if alive(st)[seat] and st.role[seat] == ROLE.paranoid:
                legal_living(st, n, seat)
                target = ask(st, seat, DECISION.paranoid_pick, rng, observe, (day, NIGHT, -1, -1))
                signal = paranoid_becomes(st, seat, target)
                if st.role_camp[st.role[seat]] == WOLF:
                    st.events[EV.paranoid_wolf] += 1
                else:
                    st.events[EV.paranoid_human] += 1
                event(st, TR.paranoid, seat, target, signal, st.role[seat])
                break  # the one paranoid (a seat becomes no paranoid again)
    for seat in range(n if st.in_play[ROLE.piper] else 0):
        if alive(st)[seat] and st.role[seat] == ROLE.piper:
            legal_living(st, n, seat)
            for j in range(n):
                if st.charmed[j]:
                    forbid(st, j)
            for _ in range(2):
                if st.legal_count == 0:
                    break
                target = ask(st, seat, DECISION.charm, rng, observe, (day, NIGHT, -1, -1))
                forbid(st, target)
                charm(st, target)
                st.events[EV.charms] += 1
                event(st, TR.charm, seat, target, 0, 0)


@compiled
def night(st, day, reference, rng):
    """Night `day` in the note's order, then daybreak. Returns (the day's reference seat, end
    code): the attacked seat, or `reference` (the last one) on a night without a werewolf."""
    n = st.players
    st.clock = day
    event(st, TR.night, -1, -1, day, 0)
    for seat in range(n):
        votes(st)[seat] = 0  # the open vote's counts are "today's": none yet
        voted(st)[seat] = -1
        st.shielded[seat] = 0
        st.night_death[seat] = -1
    if day == 1:
        first_night(st, rng)
    if st.joins_pack >= 0:
        pack_meets(st, n)
        st.joins_pack = -1
    information_roles(st, day, rng)
    bodyguards(st, day, rng)
    attacked = wolves_attack(st, day, rng)
    witches(st, day, attacked, rng)
    late_night(st, day, rng)
    if attacked >= 0:
        reference = attacked
    if piper_has_won(st, n):  # the piper wins the moment his charming completes
        return reference, END.piper
    # Daybreak: the night's dead are announced, then what their deaths set off.
    killed = 0
    for seat in range(n):
        cause = st.night_death[seat]
        if cause >= 0 and alive(st)[seat]:
            kill(st, seat, cause)
            killed += 1
            if cause == CAUSE.wolves:
                st.events[EV.night_kills] += 1
    if killed == 0:
        event(st, TR.nobody_killed, -1, attacked, 0, 0)
    settle_deaths(st, day, rng)
    return reference, victory(st, n)


# --- day ------------------------------------------------------------------------------------------
@compiled
def elect_mayor(st, day, reference, voters, rng):
    """Day 1: the living elect a mayor by an open vote in the suspect-vote order (the `votes` and
    `voted` pieces show the ballots so far); the most votes wins, a tie goes to the seat nearer
    clockwise to the reference seat. The pieces are cleared again for the suspect vote."""
    n = st.players
    order = st.order
    legal_living(st, n, -1)
    for i in range(voters):
        seat = order[i]
        forbid(st, seat)
        choice = ask(st, seat, DECISION.mayor_vote, rng, observe, (day, reference, -1, -1))
        allow(st, seat)
        votes(st)[choice] += 1
        voted(st)[seat] = choice
        event(st, TR.mayor_vote, seat, choice, 0, 0)
    best, _ = top_living(st, n, reference, votes(st), -1)
    set_mayor(st, best)
    st.events[EV.mayor_elected] += 1
    event(st, TR.mayor, best, -1, 0, votes(st)[best])
    for j in range(n):
        votes(st)[j] = 0
        voted(st)[j] = -1


@compiled
def discussion(st, day, reference, voters, rng):
    """Strategies that talk may claim to be the seer (a result about one player) or the medium
    (what the last hanged player was); every claim is public. A claim to a role the public setup
    does not have would be an obvious lie, so it is not asked."""
    hanged = st.obs[OBS.hanged]
    seers = st.obs[OBS.dealt + ROLE.seer]
    mediums = st.obs[OBS.dealt + ROLE.medium]
    for i in range(voters):
        seat = st.order[i]
        if talks(st, seat):
            if seers > 0:
                claim_seer(st, day, reference, seat, rng)
            if hanged >= 0 and mediums > 0:
                claim_medium(st, day, reference, seat, hanged, rng)


@compiled
def claim_seer(st, day, reference, seat, rng):
    """The seat may claim to be the seer and say of one living player that it is, or is not, a
    werewolf."""
    n = st.players
    legal_claim(st, n, seat)
    action = ask(st, seat, DECISION.claim, rng, observe, (day, reference, -1, -1))
    if action != 2 * n:
        target = action if action < n else action - n
        is_wolf = action < n
        publish_claim(st, seat, ROLE.seer, target, is_wolf)
        if is_wolf:
            st.events[EV.wolf_claims] += 1
            if st.role[target] == ROLE.werewolf:
                st.events[EV.true_wolf_claims] += 1
        else:
            st.events[EV.clear_claims] += 1
        event(st, TR.claim, seat, target, 1 if is_wolf else 0, ROLE.seer)


@compiled
def claim_medium(st, day, reference, seat, hanged, rng):
    """The seat may claim to be the medium and say whether the last hanged player was a
    werewolf."""
    n = st.players
    legal_medium_claim(st, n, seat, hanged)
    action = ask(st, seat, DECISION.medium_claim, rng, observe, (day, reference, -1, -1))
    if action != 2 * n:
        is_wolf = action < n
        publish_claim(st, seat, ROLE.medium, hanged, is_wolf)
        st.events[EV.medium_claims] += 1
        event(st, TR.medium_claim, seat, hanged, 1 if is_wolf else 0, ROLE.medium)


@compiled
def suspect_vote(st, day, reference, voters, rng):
    """The open suspect vote, clockwise from the reference's right (the mayor's token counts
    twice), then the suspects: the owl man's and the most-voted. Returns (footprint, fur)."""
    n = st.players
    order = st.order
    legal_living(st, n, -1)
    for i in range(voters):
        seat = order[i]
        forbid(st, seat)
        target = ask(st, seat, DECISION.suspect_vote, rng, observe, (day, reference, -1, -1))
        allow(st, seat)
        votes(st)[target] += vote_weight(st, seat)
        voted(st)[seat] = target
        event(st, TR.suspect_vote, seat, target, 0, 0)
    footprint, fur, tied = choose_suspects(st, n, reference)
    if tied:
        st.events[EV.suspect_vote_ties] += 1
    if footprint == st.owl_target:
        st.events[EV.owl_suspects] += 1
    event(st, TR.suspects, footprint, fur, votes(st)[footprint], votes(st)[fur])
    return footprint, fur


@compiled
def sentence_vote(st, day, reference, voters, footprint, fur, rng):
    """The secret, simultaneous sentence vote (the mayor's ballot counts twice); the ballots are
    public once opened. Returns the hanged seat."""
    n = st.players
    order = st.order
    st.sentence[footprint] = 0
    st.sentence[fur] = 0
    legal_pair(st, footprint, fur)
    for i in range(voters):
        seat = order[i]
        target = ask(st, seat, DECISION.sentence_vote, rng, observe,
                     (day, reference, footprint, fur))
        st.scratch[seat] = target  # opened together, after everyone chose
        st.sentence[target] += vote_weight(st, seat)
        event(st, TR.sentence_vote, seat, target, 0, 0)
    for j in range(n):
        ballot(st)[j] = -1
    for i in range(voters):
        ballot(st)[order[i]] = st.scratch[order[i]]
    hanged, tied = sentence_result(st, footprint, fur, reference, n)
    if tied:
        st.events[EV.sentence_ties] += 1
    chief = mayor_seat(st)
    if chief >= 0 and alive(st)[chief]:  # would the mayor's ballot counted once have changed it?
        a = st.sentence[footprint] - (1 if ballot(st)[chief] == footprint else 0)
        b = st.sentence[fur] - (1 if ballot(st)[chief] == fur else 0)
        once = footprint if beats(st, a, footprint, b, fur, reference, n) else fur
        if once != hanged:
            st.events[EV.mayor_double_votes] += 1
    event(st, TR.hanged, hanged, -1, st.sentence[hanged],
          st.sentence[footprint] + st.sentence[fur] - st.sentence[hanged])
    return hanged


@compiled
def daytime(st, day, reference, rng):
    """Day `day`: the mayor's election (day 1), discussion, the suspect vote, the sentence vote,
    the hanging, then the death god's kill. Returns the end code (-1 while the game goes on)."""
    n = st.players
    event(st, TR.day, -1, -1, day, 0)
    draw_tie_order(st, n, reference, rng)
    voters = suspect_vote_order(st, n, reference, st.order)
    if day == 1 and st.mayor and mayor_seat(st) < 0:
        elect_mayor(st, day, reference, voters, rng)
    discussion(st, day, reference, voters, rng)
    footprint, fur = suspect_vote(st, day, reference, voters, rng)
    st.owl_target = -1
    hanged = sentence_vote(st, day, reference, voters, footprint, fur, rng)
    role = st.role[hanged]
    if role == ROLE.werewolf:
        st.events[EV.hanged_wolf] += 1
    else:
        st.events[EV.hanged_human] += 1
        if role == ROLE.seer:
            st.events[EV.hanged_seer] += 1
    st.obs[OBS.hanged] = hanged
    kill(st, hanged, CAUSE.hanged)
    settle_deaths(st, day, rng)
    end = victory(st, n)
    if end >= 0:
        return end
    # The death god's marks kill during the day, after the hanging.
    killed = 0
    for seat in range(n if st.in_play[ROLE.death_god] else 0):
        if st.marked[seat]:
            st.marked[seat] = 0
            if alive(st)[seat] and death_mark_kills(st, seat):
                kill(st, seat, CAUSE.death_god)
                st.events[EV.death_god_kills] += 1
                killed += 1
    if killed:
        settle_deaths(st, day, rng)
        return victory(st, n)
    return -1


@compiled
def play_game(st, rng):
    """One game: the deal, then nights and days until a victory rule ends it."""
    n = st.players
    shuffle_into(st.role, st.deck, n, rng)
    for seat in range(n):
        st.deck_dealt[seat] = st.role[seat]
    reset_for_deal(st, n)
    for seat in range(n):
        event(st, TR.deal, seat, -1, st.role[seat], 0)
    day = 0
    end = -1
    reference = 0
    while end < 0:
        day += 1
        reference, end = night(st, day, reference, rng)
        if end >= 0:
            break
        end = daytime(st, day, reference, rng)
    winner = mark_winners(st, n, end)
    humans, wolves = living_counts(st, n)
    st.margin = humans if winner == HUMAN else (wolves if winner == WOLF else -1)
    for seat in range(n):  # the role tallies count the role dealt (a paranoid as the paranoid)
        st.role[seat] = st.deck_dealt[seat]
    finish_game(st, winner, end, day)
    event(st, TR.winner, -1, -1, winner, end)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng)
