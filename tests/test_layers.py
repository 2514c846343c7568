"""The layers never reach up: scorer < vision < webui, then datasets and bench on top.

TEAM rule: nothing imports upward, not even by name through importlib. The
test reads every module's imports from its source (`import`, `from ...
import`, relative imports, and `importlib.import_module("...")` or
`__import__("...")` with a literal name, wherever they appear, in functions
too) and fails on any module that imports a higher layer. `models` holds
only the weights and sits with the scorer at the bottom; tests may import
anything. A name computed at run time cannot be checked, so product code
imports no module that way.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: the layer of each top-level package; a module may import its own layer and below
LAYERS = {"scorer": 0, "models": 0, "vision": 1, "webui": 2, "datasets": 3, "bench": 4}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: what an import by a name computed at run time is recorded as: it cannot be checked
COMPUTED = "<computed name>"


def _by_name(node: ast.Call) -> str | None:
    """The module named by `importlib.import_module(...)` / `__import__(...)`, if any."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
    return first.value if literal else COMPUTED


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, imported module) of every import in one file."""
    module = _module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            found.append((node.lineno, base))
        elif isinstance(node, ast.Call) and (name := _by_name(node)):
            found.append((node.lineno, name))
    return found


def package_edges(root: Path = ROOT) -> dict[tuple[str, str], int]:
    """Imports between top-level packages: (from, to) -> number of import statements."""
    edges: dict[tuple[str, str], int] = defaultdict(int)
    for top in LAYERS:
        for path in sorted((root / top).rglob("*.py")):
            for _, name in imports_of(path, root):
                target = name.split(".")[0]
                if target in LAYERS and target != top:
                    edges[(top, target)] += 1
    return dict(edges)


def test_no_module_imports_a_higher_layer():
    upward = []
    checked = 0
    for top, layer in LAYERS.items():
        for path in sorted((ROOT / top).rglob("*.py")):
            checked += 1
            for line, name in imports_of(path):
                target = name.split(".")[0]
                if LAYERS.get(target, -1) > layer or name == COMPUTED:
                    upward.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert checked > 50
    assert not upward, "imports reaching up a layer:\n" + "\n".join(upward)


def test_the_walk_sees_imports_by_name(tmp_path):
    """The check itself: a scorer module reaching up, in any of the ways, is caught."""
    sub = tmp_path / "scorer" / "sub"
    sub.mkdir(parents=True)
    (tmp_path / "scorer" / "__init__.py").write_text("")
    (sub / "__init__.py").write_text("")
    (sub / "x.py").write_text(
        "import importlib\n"
        "from .. import tiles\n"
        "from . import y\n"
        "def f():\n"
        "    import vision.pipeline\n"
        "    return importlib.import_module('webui.app'), __import__('datasets')\n"
    )
    found = sorted(name for _, name in imports_of(sub / "x.py", tmp_path))
    assert found == [
        "datasets",
        "importlib",
        "scorer",
        "scorer.sub",
        "vision.pipeline",
        "webui.app",
    ]
    edges = package_edges(tmp_path)
    assert edges == {("scorer", "datasets"): 1, ("scorer", "vision"): 1, ("scorer", "webui"): 1}
