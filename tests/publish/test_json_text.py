"""json_text.dumps writes exactly what json.dumps(ensure_ascii=False, indent=2) writes."""

from __future__ import annotations

import enum
import json
import random

import pytest

from deep_research.publish import json_text


def _expected(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


class _Colour(str, enum.Enum):
    RED = "red"


class _Count(int):
    pass


@pytest.mark.parametrize("value", [
    None, True, False, 0, -7, 10**40, 0.1, -0.0, 1e16, 1e-7, 2.5e300,
    float("nan"), float("inf"), -float("inf"),
    "", "plain", 'quote " backslash \\ newline \n tab \t nul \x00 esc \x1b',
    "é ü 中文 \u2028 \u202e \U0001f600 \x85",
    [], {}, [[]], [{}], {"a": []}, {"a": {}}, (1, "two", None), [(1, 2), ()],
    {"n": 1, "nested": {"list": [1, [2, [3, {"deep": "x"}]]], "t": True}, "f": 1.25},
    _Colour.RED, {"c": _Colour.RED}, _Count(3), [_Count(4)],  # subclasses: json.dumps decides
    [{"red": 1, "b": 2}, {_Colour.RED: 3, "b": 4}, {"red": 5, "b": 6}],  # keys equal to a kept row's, one a subclass
    [{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a": 5}, {"a": 6, "b": 7}],  # the same keys in another order, fewer keys
    {1: "int key"}, {True: 1, None: 2, 1.5: 3}, {"a": 1, 2: "b"},  # non-string keys: json.dumps decides
])
def test_same_text_as_json_dumps(value):
    assert json_text.dumps(value) == _expected(value)


def test_random_nested_values_match():
    rnd = random.Random(23)
    leaves = [None, True, False, 0, 12, -1.5, 1e-9, "", "a\nb", "\"é\"", "\u2029"]

    def value(depth: int) -> object:
        kind = rnd.random()
        if depth > 5 or kind < 0.45:
            return rnd.choice(leaves)
        if kind < 0.7:
            return [value(depth + 1) for _ in range(rnd.randrange(5))]
        return {f"k{rnd.randrange(9)}\n{i}": value(depth + 1) for i in range(rnd.randrange(5))}

    for _ in range(2000):
        v = value(0)
        assert json_text.dumps(v) == _expected(v)


def test_values_json_refuses_raise_as_json_does():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        json_text.dumps(loop)
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_text.dumps({"a": [object()]})
    with pytest.raises(TypeError, match="keys must be"):
        json_text.dumps({(1, 2): "tuple key"})
