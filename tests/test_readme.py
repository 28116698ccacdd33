"""README.md stays true: its two opening commands and its strategy example."""

import re
from pathlib import Path

from simulator import config, runner

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
    assert [slot.name for slot in cfg.slots] == ["my_strategies.py:cautious", "random"]
    assert dict(cfg.slots[0].params) == {"boldness": 0.5}
    result = runner.run(cfg, 500, seed=1, workers=1)
    assert result.games_played == 500
