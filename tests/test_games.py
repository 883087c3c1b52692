"""The games registry (games/): every layer asks the game, and a configuration naming an unknown
game, or a scheme that does not rate its pool's game, is refused when it is read, in one line
naming the pool."""

from __future__ import annotations

from pathlib import Path

import pytest

from flows._config import ConfigError, load_config
from games import GAMES, UnknownGame, game
from ratings import SCHEMES


def _config(tmp_path: Path, pool: str) -> Path:
    path = tmp_path / "clubratings.toml"
    path.write_text("[[pools]]\n" + pool, encoding="utf-8")
    return path


def test_a_go_pool_rated_by_a_bridge_scheme_is_refused_when_read(tmp_path: Path) -> None:
    path = _config(tmp_path, 'name = "go"\ngame = "go"\nscheme = "belo2"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message == (f"{path}: [[pools]] go scheme = 'belo2': rates bridge, not go; go is "
                       "rated by egf, elo, glicko2, grade-evidence, rfg, rfg-bootstrap")


def test_an_unknown_game_is_refused_when_read(tmp_path: Path) -> None:
    path = _config(tmp_path, 'name = "chess"\ngame = "chess"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, schemes=False)  # refused before any scheme is looked at
    assert str(caught.value) == (f"{path}: [[pools]] chess game = 'chess': not a known game; "
                                 "the games are bridge, go, preferans")


def test_an_unknown_scheme_is_refused_when_read(tmp_path: Path) -> None:
    path = _config(tmp_path, 'name = "bridge"\nscheme = "belo3"\n')
    with pytest.raises(ConfigError, match=r"\[\[pools\]\] bridge scheme = 'belo3': not a "
                                          r"known scheme \(did you mean 'belo'\?\); the "
                                          r"schemes are belo, belo2, "):
        load_config(path)


def test_a_pool_without_a_scheme_gets_its_game_s_default(tmp_path: Path) -> None:
    cfg = load_config(_config(tmp_path, 'name = "go"\ngame = "go"\n'))
    assert cfg.pools[0].scheme == "rfg"


def test_every_scheme_rates_a_known_game_and_every_game_has_a_default_that_rates_it() -> None:
    frames = {g.frame for g in GAMES.values()}
    assert all(s.reads in frames for s in SCHEMES.values())
    for g in GAMES.values():
        assert SCHEMES[g.default_scheme].reads == g.frame
    with pytest.raises(UnknownGame, match="the games are bridge, go, preferans"):
        game("chess")
