"""README.md stays true: its two opening commands and its strategy example."""

import re
from pathlib import Path

from simulator.setup import config
from simulator.run import runner

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_opens_with_the_install_and_test_commands():
    text = README.read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", text, re.S).group(1).strip().splitlines()
    assert first_block == ["pip install . && fairplay run werewolf",
                           "pip install '.[test]' && pytest"]
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install '.[test]' && pytest\n" in ci


def test_readme_strategy_example_runs(tmp_path):
    text = README.read_text(encoding="utf-8")
    example = re.search(r"```python\n(# my_strategies.py\n.*?)```", text, re.S).group(1)
    (tmp_path / "my_strategies.py").write_text(example, encoding="utf-8")
    (tmp_path / "setup.toml").write_text(
        'extends = "werewolf/base.toml"\n[strategies]\nhuman = "my_strategies.py:cautious"\n',
        encoding="utf-8")
    cfg = config.load(str(tmp_path / "setup.toml"))
    assert [slot.name for slot in cfg.slots] == ["my_strategies.py:cautious", "people"]
    assert dict(cfg.slots[0].params) == {"boldness": 0.5}
    assert cfg.slots[0].info.memory == 24
    result = runner.run(cfg, 500, seed=1, workers=1)
    assert result.games_played == 500


def test_readme_strategy_example_never_votes_for_a_known_human(tmp_path):
    # The example says so: as the seer (the only human who knows others), over many games, its
    # votes never land on a player it has checked and found human. The trace shows every check
    # and every vote, so this replays them.
    text = README.read_text(encoding="utf-8")
    example = re.search(r"```python\n(# my_strategies.py\n.*?)```", text, re.S).group(1)
    (tmp_path / "my_strategies.py").write_text(example, encoding="utf-8")
    (tmp_path / "setup.toml").write_text(
        'extends = "werewolf/base.toml"\n[strategies]\nseer = "my_strategies.py:cautious"\n',
        encoding="utf-8")
    cfg = config.load(str(tmp_path / "setup.toml"))
    from simulator.games import driver
    from simulator.games.werewolf.declaration import HUMAN, ROLE, TR

    votes = 0
    for seed in range(40):
        _, rows = driver.play(cfg.game, cfg.params, cfg.lineup, 1,
                              __import__("numpy").random.default_rng(seed), trace_rows=2000)
        roles, cleared, dead, suspects = {}, set(), set(), ()
        for step, code, actor, target, value, extra in rows.tolist():
            if code == TR.deal:
                roles[actor] = value
            elif code == TR.seer_check and value == HUMAN:
                cleared.add(target)
            elif code == TR.death:
                dead.add(actor)
            elif code == TR.suspects:
                suspects = (actor, target)
            elif code in (TR.suspect_vote, TR.sentence_vote) and roles[actor] == ROLE.seer:
                votes += 1
                choices = set(suspects) if code == TR.sentence_vote else \
                    set(roles) - dead - {actor}
                known = cleared | {actor}  # its own seat is a known human too
                assert target not in known or choices <= known, (seed, step, target)
    assert votes > 50
