"""Shared test helpers."""

import warnings

import pytest
from numba import NumbaExperimentalFeatureWarning

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


@pytest.fixture
def write(tmp_path):
    """write("name.toml", text) -> path of a file in the test's temporary folder."""

    def _write(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write
