"""The layout is the design (docs/DECISIONS.md, "One library, one lab"): the import-linter
contracts hold, the public namespace is curated, no module is shadowed by a name, no
private name crosses a package boundary, and the lab uses the public API only."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import measurelab

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"


def _modules() -> list[tuple[str, Path]]:
    out = []
    for p in sorted((SRC / "measurelab").rglob("*.py")):
        parts = p.with_suffix("").relative_to(SRC).parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out.append((name, p))
    return out


def _package_of(module: str) -> str:
    """The package a module belongs to (a package's ``__init__`` belongs to itself)."""
    path = SRC / module.replace(".", "/")
    return module if (path / "__init__.py").exists() else module.rsplit(".", 1)[0]


def _imports_from(path: Path) -> list[tuple[str, str, int]]:
    """(module, name, line) of every ``from measurelab... import name``, lazy ones too."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.split(".")[0] == "measurelab" and node.level == 0:
            out += [(node.module, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names
                    if a.name.split(".")[0] == "measurelab"]
    return out


def test_import_linter_contracts_hold() -> None:
    """Layers, no cycles, private modules inside their package, the lab on the public API
    (the contracts in pyproject.toml, checked by import-linter as CI does)."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe is not None, "import-linter is a test dependency: pip install -e '.[test]'"
    run = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    declared = (ROOT / "pyproject.toml").read_text(encoding="utf-8").count(
        "[[tool.importlinter.contracts]]")
    assert declared >= 5 and f"{declared} kept, 0 broken" in run.stdout


def test_the_public_namespace_is_curated() -> None:
    names = measurelab.__all__
    assert len(names) < 40 and len(set(names)) == len(names) == len(measurelab.__all__)
    assert sorted(dir(measurelab)) == sorted(names)
    for name in names:  # every listed name resolves
        assert getattr(measurelab, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        measurelab.nothing  # noqa: B018


@pytest.mark.parametrize("package", ["measurelab", "measurelab.metrics",
                                     "measurelab.inference", "measurelab.curves",
                                     "measurelab.measures", "measurelab.metaeval",
                                     "measurelab.io", "measurelab.stats"])
def test_package_faces_list_what_they_give_and_shadow_no_module(package: str) -> None:
    pkg = importlib.import_module(package)
    for name in pkg.__all__:
        value = getattr(pkg, name)
        sub = f"{package}.{name}"
        if importlib.util.find_spec(sub) is not None if "." not in name else False:
            # a name equal to a submodule's must be that submodule
            assert isinstance(value, types.ModuleType) and value.__name__ == sub, sub
    for info in pkgutil.iter_modules(pkg.__path__):
        if hasattr(pkg, info.name):
            value = getattr(pkg, info.name)
            assert isinstance(value, types.ModuleType), (
                f"{package}.{info.name} is shadowed by {value!r}")


def test_no_private_name_crosses_a_package() -> None:
    """An underscore-prefixed name is imported only within the package that owns it (the
    package itself or its subpackages, the rule import-linter applies to private modules):
    measurelab.inference's shared helpers serve its question packages, never another
    package."""
    bad = []
    for module, path in _modules():
        pkg = _package_of(module)
        for source, name, line in _imports_from(path):
            owner = _package_of(source)
            if name.startswith("_") and not name.startswith("__") and \
                    not (pkg == owner or pkg.startswith(owner + ".")):
                bad.append(f"{path.relative_to(ROOT)}:{line}: from {source} import {name}")
    assert not bad, "\n".join(bad)


def test_the_lab_imports_only_public_modules_and_names() -> None:
    """The lab builds on the library's public API: no private module or name of it."""
    bad = []
    for module, path in _modules():
        if not module.startswith("measurelab.lab"):
            continue
        for source, name, line in _imports_from(path):
            if source.startswith("measurelab.lab"):
                continue
            private = any(part.startswith("_") for part in source.split(".")) or (
                name.startswith("_") and not name.startswith("__"))
            if private:
                bad.append(f"{path.relative_to(ROOT)}:{line}: from {source} import {name}")
    assert not bad, "\n".join(bad)


def test_no_scikit_learn_private_class_is_subclassed() -> None:
    bad = []
    for _, path in _modules():
        for source, name, line in _imports_from(path) + [
            (n.module or "", a.name, n.lineno)
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("sklearn")
            for a in n.names
        ]:
            if source.startswith("sklearn") and (
                    name.startswith("_") or any(p.startswith("_") for p in source.split("."))):
                bad.append(f"{path.relative_to(ROOT)}:{line}: from {source} import {name}")
    assert not bad, "\n".join(bad)


def test_importing_measurelab_stays_lean() -> None:
    """scikit-learn, scipy, pandas and matplotlib load only with what needs them."""
    code = ("import sys, measurelab; "
            "print(sorted(m for m in ('sklearn', 'scipy', 'pandas', 'matplotlib') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
