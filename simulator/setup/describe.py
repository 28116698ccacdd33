"""What `fairplay games <game>` prints: a game's declaration, read from its GameSpec."""

from __future__ import annotations

from simulator import schema
from simulator.setup.config import builtin_configs
from simulator.games.base import FLAG_BLIND, FLAG_TALKS, GameSpec


def _flags(spec: GameSpec, info) -> str:
    names = [name for bit, name in ((FLAG_TALKS, "talks"), (FLAG_BLIND, "blind"))
             if info.flags & bit]
    if info.flags & FLAG_TALKS and info.talks_as:
        names[0] = "talks as " + "/".join(spec.roles[r].name for r in info.talks_as)
    return f" [{', '.join(names)}]" if names else ""


def game_lines(spec: GameSpec) -> list[str]:
    lines = [spec.title,
             f"  name: {spec.name}; players {spec.min_players}-{spec.max_players}; "
             f"scoring: {spec.scoring}; length in {spec.length_unit}",
             f"  source: {spec.source}"]
    if spec.teams:
        lines.append(f"  teams: {', '.join(spec.teams)}")
    order = spec.turn_order
    if order is not None:
        lines.append(f"  turn order: {order.direction}; the first player is {order.first_player}"
                     + (f"; note: {order.confound}" if order.confound else "")
                     + " (the verdict judges win rates by position from the first player)")
    if spec.symmetric_seats:
        lines.append(f"  seats alike by construction: {spec.symmetric_seats} (seat numbers are "
                     f"not judged)")
    lines.append("  roles:")
    for role in spec.roles:
        team = f" [{role.team}]" if role.team else ""
        lines.append(f"    {role.name} {role.label}{team}: {role.summary}".replace("  :", ":"))
    if spec.filler_role:
        lines.append(f"  filler role: {spec.filler_role} (fills the seats a config's roles leave; "
                     f"`fairplay roles` values each role against it)")
    lines.append("  decisions (code name: action -- when):")
    for code, kind in enumerate(spec.decisions):
        lines.append(f"    {code} {kind.name}: {kind.actions} -- {kind.summary}")
    lines.append(f"  observation ({spec.observation.size} integers; strategies read it by name, "
                 f"e.g. obs[OBS.{spec.observation.pieces[-1][0]}]):")
    for name, offset, size, meaning in spec.observation.describe():
        lines.append(f"    [{offset}:{offset + size}] {name}: {meaning}")
    lines.append("  strategies (a seat's strategy: (kind, obs, legal, params, memory, rng) -> "
                 "action):")
    for name, info in spec.strategies().items():
        params = ", ".join(p.describe() for p in info.params)
        memory = f"; memory {info.memory}" if info.memory else ""
        lines.append(f"    {name}{f' ({params}{memory})' if params or memory else ''}"
                     f"{_flags(spec, info)}: {info.summary}")
    lines.append("  config keys (besides game, players, strategies, extends, description, "
                 "balance_target, balance_tolerance):")
    for key in spec.config_keys:
        lines.append(f"    {key.path} = {key.describe_default()}  ({key.type.describe()}): "
                     f"{key.help}")
    if spec.setup_checks:
        lines.append("  setups refused (the game cannot be played with them as it intends):")
        lines += [f"    - {check.words} ({check.key})" for check in spec.setup_checks]
    lines.append("  built-in configs:")
    for path, description in builtin_configs(spec.name):
        lines.append(f"    {path}{f': {description}' if description else ''}")
    lines.append("  end conditions: " + "; ".join(spec.end_names))
    lines.append("  events: " + ", ".join(spec.event_names))
    if spec.provisional:
        lines.append("  provisional rulings (this project's, where the source is silent):")
        lines += [f"    - {ruling}" for ruling in spec.provisional]
    lines.append(f"  default config: configs/{spec.default_config}")
    return lines


def keys_markdown(spec: GameSpec) -> list[str]:
    return schema.markdown_table(spec.config_keys).splitlines()
