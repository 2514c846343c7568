"""`bench.bench_adapt`: the player of the bench names the hand's tiles by the labels."""

from __future__ import annotations

from bench.bench_adapt import as_read, named


def _label(code: str, x: float, face_down: bool = False) -> dict:
    return {"code": code, "box": [x, 0, x + 30, 40], "face_down": face_down}


def test_each_hand_tile_with_a_look_is_named_as_the_label_it_covers() -> None:
    """A tile misread 9m over a labelled 6m is named 6m; a tile without a look (a model
    that gives none), one over no label and those over a face-down tile or a hand's back name nothing."""
    meta = {
        "tiles": [
            _label("6m", 0),
            _label("E", 30),
            _label("5s", 100, face_down=True),
            _label("back", 200),  # a standing hand seen from behind
        ]
    }
    out = {
        "tiles": [
            {"tile": "9m", "box": [1, 0, 31, 40], "look": "L1"},
            {"tile": "E", "box": [30, 0, 60, 40], "look": None},
            {"tile": "C", "box": [300, 0, 330, 40], "look": "L3"},
            {"tile": "back", "box": [100, 0, 130, 40], "look": "L4"},
            {"tile": "back", "box": [200, 0, 230, 40], "look": "L5"},
        ]
    }
    assert named(out, meta) == [{"tile": "6m", "look": "L1"}]


def test_a_tile_read_as_a_back_names_nothing_even_over_a_face() -> None:
    """The page keeps no tile read as a back; a face-down tile beside a face names nothing."""
    meta = {"tiles": [_label("5m", 0), _label("5m", 25, face_down=True)]}
    out = {
        "tiles": [
            {"tile": "back", "box": [0, 0, 30, 40], "look": "L1"},
            {"tile": "5m", "box": [24, 0, 54, 40], "look": "L2"},
        ]
    }
    assert named(out, meta) == []


def test_unchecked_names_each_tile_as_read() -> None:
    """`--unchecked`: a table that never fixes a tile keeps the misread 9m as a 9m."""
    out = {
        "tiles": [
            {"tile": "9m", "box": [1, 0, 31, 40], "look": "L1"},
            {"tile": "back", "box": [30, 0, 60, 40], "look": "L2"},
            {"tile": "E", "box": [60, 0, 90, 40], "look": None},
        ]
    }
    assert as_read(out, {"tiles": []}) == [{"tile": "9m", "look": "L1"}]


def test_a_taught_set_stays_first_in_the_memory_and_the_hands_fill_the_rest(
    monkeypatch, tmp_path
) -> None:
    """`--taught`: every photo goes with the set first; the named hands' tiles beside it,
    the newest that fit in `ExemplarConfig.most`; with `--no-hands` (name None) the set
    alone."""
    import bench.bench_adapt as adapt
    from vision.config import DEFAULT

    sent: list[list[dict]] = []

    def recognize(data, name, exemplars=None):
        if exemplars is not None:
            sent.append(list(exemplars))
        return {"tiles": [{"tile": "9m", "box": [0, 0, 30, 40], "look": name}]}

    monkeypatch.setattr(adapt, "recognize", recognize)
    monkeypatch.setattr(adapt, "read_right", lambda out, meta: (False, False))
    scenes = []
    for k in range(3):
        image = tmp_path / f"p{k}.jpg"
        image.write_bytes(b"x")
        scenes.append((image, {"tiles": [_label("6m", 0)]}))
    taught = [{"tile": "1m", "look": f"S{i}"} for i in range(DEFAULT.exemplars.most - 1)]
    adapt.run_style(scenes, 0, adapt._Quiet(), named, taught)
    assert sent[0] == taught
    assert sent[2] == [*taught, {"tile": "6m", "look": "p1.jpg"}]  # the newest hand that fits
    sent.clear()
    adapt.run_style(scenes, 0, adapt._Quiet(), None, taught[:5])
    assert sent == [taught[:5]] * 3
