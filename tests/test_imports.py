"""Every `from <project module> import name`, and every `module.name` read through a
project module imported whole, names something that module has.

Many imports sit inside functions (a bench's rarely used mode, a module
that would otherwise import in a circle), where neither ruff nor a first
run notices a name that moved to another module: the command fails only
when a user reaches it. This test reads every such import from the source
and looks each name up. A module that cannot be imported here for want of
an optional extra (torch, for training) is left out.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scorer", "vision", "webui", "datasets", "bench", "models", "tests")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _project_imports(tree: ast.Module) -> list[tuple[int, str, str]]:
    """(line, module, name) of every absolute `from <project module> import name`."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if node.module.split(".")[0] not in PACKAGES:
            continue
        found += [(node.lineno, node.module, a.name) for a in node.names if a.name != "*"]
    return found


def _module_attributes(tree: ast.Module) -> list[tuple[int, str, str]]:
    """(line, module, attribute) of every `alias.attribute` read where `alias` names a
    project module (`import vision.pipeline as pipeline`, `from vision import pipeline`)."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name.split(".")[0] in PACKAGES:
                    aliases[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for a in node.names:
                if node.module.split(".")[0] in PACKAGES and _is_module(f"{node.module}.{a.name}"):
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return [
        (node.lineno, aliases[node.value.id], node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and isinstance(node.ctx, ast.Load)
    ]


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _has(module: str, name: str) -> bool:
    mod = importlib.import_module(module)
    if hasattr(mod, name):
        return True
    try:  # `from package import submodule`
        importlib.import_module(f"{module}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{module}.{name}":
            return False
        raise  # the submodule is there but needs what is not installed here
    return True


def test_every_imported_name_exists() -> None:
    missing = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = _tree(path)
            for line, module, name in _project_imports(tree) + _module_attributes(tree):
                try:
                    ok = _has(module, name)
                except ImportError as exc:  # an optional extra absent here
                    if exc.name and exc.name.split(".")[0] in PACKAGES:
                        raise
                    continue
                if not ok:
                    missing.append(f"{path.relative_to(ROOT)}:{line}: {name} not in {module}")
    assert not missing, "\n".join(missing)


def test_a_moved_name_is_caught(tmp_path: Path) -> None:
    """The check itself: a name its module lacks is reported, one it has is not."""
    path = tmp_path / "user.py"
    path.write_text(
        "def f():\n    from vision.result import result_json\n    from vision.pipeline import result_json\n",
        encoding="utf-8",
    )
    imports = _project_imports(_tree(path))
    assert [(m, n) for _, m, n in imports] == [
        ("vision.result", "result_json"),
        ("vision.pipeline", "result_json"),
    ]
    assert [_has(m, n) for _, m, n in imports] == [True, False]


def test_a_module_attribute_that_moved_is_caught(tmp_path: Path) -> None:
    """`pipeline.warm_up()` through `import vision.pipeline as pipeline` is checked too."""
    path = tmp_path / "user.py"
    path.write_text(
        "import vision.pipeline as pipeline\n"
        "from vision import readers\n"
        "pipeline.recognize(b'')\npipeline.result_json()\nreaders.warm_up()\n",
        encoding="utf-8",
    )
    reads = _module_attributes(_tree(path))
    assert [(m, n, _has(m, n)) for _, m, n in reads] == [
        ("vision.pipeline", "recognize", True),
        ("vision.pipeline", "result_json", False),
        ("vision.readers", "warm_up", True),
    ]
