"""How much a verdict depends on the players: the same setup under every built-in strategy
family of its game (and under tuned players, where a tuned config is given).

Every balance number is conditional on the players who made it. `fairplay run --robustness`
plays the config again with each built-in strategy at every seat (`strategies = { all = NAME }`),
each set of players that ships for the game (`people@equilibrium`, the players `fairplay
equilibrate` ended with) and, with `--tuned FILE`, the tuned config a best-response search wrote; it prints each verdict
beside the run's own and says plainly when the verdict flips.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.setup import config as config_module
from simulator.run import runner
from simulator.statistics.summary import summarize


@dataclass
class Row:
    players: str  # who played: "people at every seat", "tuned (FILE)"
    status: str
    headline: str
    lead: str  # the finding the verdict leads with, in words
    games: int


def _row(label: str, result) -> Row:
    judged = summarize(result).judgement
    lead = judged.lead
    words = f"{lead.label()} {100 * lead.rate.value:.1f}%" if lead and lead.rate.trials else ""
    return Row(label, judged.status, judged.headline, words, result.games_played)


def rows(spec: str, result, overrides=(), players=None, games: int | None = None,
         seed: int = 0, workers=None, tuned: str | None = None, scheduler=None) -> list[Row]:
    """The run's own verdict, then each other built-in strategy family's, then the tuned
    config's, each on `games` games (default: the run's) of the same seed."""
    from simulator.studies.sweep import toml_value

    cfg = config_module.load(spec, list(overrides), players)
    games = games or result.games_played
    out = [_row(f"as configured ({', '.join(result.data['strategies'])})", result)]
    for name in cfg.game.strategies():
        if result.data["strategies"] == [name]:
            continue  # that is the run itself
        family = config_module.load(spec, list(overrides) +
                                    [f"strategies={toml_value({'all': name})}"], players)
        out.append(_row(f"{name} at every seat",
                        runner.run(family, games, seed, workers, scheduler=scheduler)))
    for label, where in shipped_sets(cfg.game.name):
        if result.data["strategies"] == [label]:
            continue
        family = config_module.load(spec, list(overrides) +
                                    [f"strategies={toml_value({'all': label})}"], players)
        out.append(_row(f"{label} at every seat ({where})",
                        runner.run(family, games, seed, workers, scheduler=scheduler)))
    if tuned is not None:
        tuned_cfg = config_module.load(tuned, [], None)
        out.append(_row(f"tuned ({tuned})", runner.run(tuned_cfg, games, seed, workers,
                                                       scheduler=scheduler)))
    return out


def shipped_sets(game: str) -> list[tuple[str, str]]:
    """Each set of players that ships for `game` ("people@equilibrium",
    simulator/setup/players.py) and, in words, whether it was made to converge."""
    from simulator.setup import players as players_module

    out = {}
    for s in players_module.load():
        if s["game"] == game:
            label = f"{s['strategy']}@{s['name']}"
            out.setdefault(label, []).append(s)
    return [(label, "players near equilibrium" if all(s["converged"] for s in found) else
             "iterated best responses, not converged") for label, found in out.items()]


def sentence(rows_: list[Row]) -> str:
    """Says plainly whether the verdict depends on the players."""
    statuses = {row.status for row in rows_}
    if len({row.headline for row in rows_}) == 1:
        return f"The verdict is the same with every set of players: {rows_[0].headline.lower()}."
    parts = [f"{row.headline.lower()} with {row.players}" for row in rows_]
    if statuses >= {"balanced", "unbalanced"} or len({r.headline for r in rows_
                                                     if r.status == "unbalanced"}) > 1:
        return ("The verdict flips with the players: " + "; ".join(parts) +
                ". The answer depends on how people play.")
    return "The verdict moves with the players: " + "; ".join(parts) + "."


def table(rows_: list[Row]) -> list[str]:
    width = max(len(row.players) for row in rows_)
    lines = ["How the verdict depends on the players (the same seed and games):"]
    for row in rows_:
        lines.append(f"  {row.players:<{width}}  {row.headline}"
                     + (f"  (lead: {row.lead})" if row.lead else ""))
    lines.append(sentence(rows_))
    return lines
