"""Import direction (STYLE C1, DESIGN.md "Layers") and "every registered system is complete" (C14).

The rules layer is ``envs/core/*.py`` and every ``envs/<system>/rules/*.py``. It may import the
standard library, the registry package ``envs`` itself (stdlib only, lazy), ``envs.core`` and, for a
system's rules, its own ``envs.<system>.rules`` package. numpy is allowed only in
``envs/core/dice.py`` (the ``SeededDice`` adapter) and yaml only in ``envs/core/data.py``. The RL
stack is banned everywhere in it, including imports inside functions and ``importlib`` calls.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import envs
from envs import SYSTEMS, get_env_module, get_rules

ROOT = Path(__file__).resolve().parents[1]
BANNED = {"gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib"}
EXTRA_ALLOWED = {"envs/core/dice.py": {"numpy"}, "envs/core/data.py": {"yaml"}}
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def rules_layer_files() -> list[Path]:
    files = sorted((ROOT / "envs" / "core").glob("*.py"))
    files += sorted((ROOT / "envs").glob("*/rules/*.py"))
    return files


def _module_name(path: Path) -> str:
    """Dotted module name of ``path`` (``envs/core/__init__.py`` -> ``envs.core``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (anywhere in the file, relative ones
    resolved)."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package, str(path))


def imports_of(source: str, package: str, filename: str = "<source>") -> set[str]:
    """Absolute names of the modules ``source`` imports; relative imports resolve against
    ``package``."""
    tree = ast.parse(source, filename=filename)
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
                if node.module:
                    out.add(f"{prefix}.{node.module}")
                else:  # from . import rulings -> the submodules themselves
                    out.update(f"{prefix}.{alias.name}" for alias in node.names)
            else:
                out.add(node.module or "")
        elif isinstance(node, ast.Call):  # importlib.import_module("x") / __import__("x")
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.add(arg.value)
    return out


def _allowed_project_import(module: str, path: Path) -> bool:
    rel = path.relative_to(ROOT).parts
    if module == "envs" or module == "envs.core" or module.startswith("envs.core."):
        return True
    if rel[1] != "core":  # envs/<system>/rules/x.py may import its own rules package
        own = f"envs.{rel[1]}.rules"
        return module == own or module.startswith(own + ".")
    return False


def test_the_rules_layer_is_found():
    files = [f.relative_to(ROOT).as_posix() for f in rules_layer_files()]
    assert "envs/core/dice.py" in files and "envs/core/data.py" in files
    for system in SYSTEMS:
        assert f"envs/{system}/rules/__init__.py" in files, f"{system}: no rules package"


@pytest.mark.parametrize("path", rules_layer_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_rules_layer_imports_only_the_standard_library(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    extra = EXTRA_ALLOWED.get(rel, set())
    bad = []
    for module in sorted(imported_modules(path)):
        root = module.split(".")[0]
        if root in BANNED:
            bad.append(f"{module} (RL stack)")
        elif root in STDLIB or root in extra:
            continue
        elif root == "envs":
            if not _allowed_project_import(module, path):
                bad.append(f"{module} (outside the rules layer)")
        else:
            bad.append(f"{module} (not standard library)")
    assert not bad, f"{rel} imports {', '.join(bad)}"


def test_the_registry_package_imports_only_the_standard_library():
    """``envs/__init__.py`` is imported by the rules layer (cases.py), so it must stay
    stdlib-only."""
    path = ROOT / "envs" / "__init__.py"
    bad = {m for m in imported_modules(path) if m.split(".")[0] not in STDLIB}
    assert not bad, f"envs/__init__.py imports {bad}"


def test_numpy_and_yaml_are_confined():
    """The exceptions are exactly the two adapters, and nothing else in the layer uses them."""
    for path in rules_layer_files():
        rel = path.relative_to(ROOT).as_posix()
        roots = {m.split(".")[0] for m in imported_modules(path)}
        if "numpy" in roots:
            assert rel == "envs/core/dice.py", f"{rel} imports numpy"
        if "yaml" in roots:
            assert rel == "envs/core/data.py", f"{rel} imports yaml"


def test_the_checker_sees_every_import_form():
    """Self-test of the checker: function-level, relative and dynamic imports are all seen."""
    src = (
        "import os.path\n"
        "from . import rulings\n"
        "from ..encoding import X\n"
        "def f():\n"
        "    import torch\n"
        "    from gymnasium import spaces\n"
        "    importlib.import_module('pettingzoo')\n"
    )
    mods = imports_of(src, "envs.fake.rules")
    assert mods == {
        "os.path",
        "envs.fake.rules.rulings",
        "envs.fake.encoding",
        "torch",
        "gymnasium",
        "pettingzoo",
    }
    fake = ROOT / "envs" / "fake" / "rules" / "state.py"
    assert not _allowed_project_import("envs.fake.encoding", fake)
    assert not _allowed_project_import("envs.other.rules", fake)
    assert _allowed_project_import("envs.fake.rules.rulings", fake)
    assert _allowed_project_import("envs.core.dice", fake)
    assert not _allowed_project_import("envs.rl", fake)
    core = ROOT / "envs" / "core" / "cases.py"
    assert not _allowed_project_import("envs.fake.rules", core)


def test_importing_and_playing_the_rules_loads_no_rl_library():
    """At run time too: building and playing an encounter of every system loads no RL module."""
    code = (
        "import sys\n"
        "from envs import SYSTEMS, get_rules\n"
        "from envs.core import SeededDice\n"
        "for s in SYSTEMS:\n"
        "    R = get_rules(s)\n"
        "    d = SeededDice(0)\n"
        "    enc = R.new_encounter(R.encounter_names()[0], None, d)\n"
        "    for _ in range(20):\n"
        "        if enc.is_over(): break\n"
        "        enc.apply(enc.legal_actions()[0], d)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(BANNED)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"the rules layer loaded {out.stdout.strip()}"


# ---------------------------------------------------------------------------- registry completeness


def test_registry_lists_systems():
    assert SYSTEMS, "envs.SYSTEMS is empty"
    assert envs.list_systems() == list(SYSTEMS)
    with pytest.raises(ValueError, match="unknown system"):
        get_rules("no_such_system")


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_system_has_a_rules_module(system: str):
    entry = SYSTEMS[system]
    assert entry.name == system
    assert entry.rules == f"envs.{system}.rules", "rules live in envs/<system>/rules (STYLE layout)"
    rules = get_rules(system)
    for name in ("new_encounter", "from_situation", "encounter_names"):
        assert callable(getattr(rules, name, None)), f"{entry.rules} has no {name}()"
    names = rules.encounter_names()
    assert names and all(isinstance(n, str) for n in names)
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_system_has_an_env_module(system: str):
    from envs.rl import CombatAECEnv, SystemEncoding

    module = get_env_module(system)
    for name in ("env", "raw_env", "ENCODING"):
        assert hasattr(module, name), f"{SYSTEMS[system].env} has no {name}"
    assert callable(module.env)
    assert inspect.isclass(module.raw_env) and issubclass(module.raw_env, CombatAECEnv)
    assert isinstance(module.ENCODING, SystemEncoding)
    assert module.ENCODING.name.startswith(f"{system}_v"), "metadata name is <system>_v<N>"
    assert module.raw_env.metadata["name"] == module.ENCODING.name


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_system_has_a_heuristic(system: str):
    from agents import make_agent
    from agents.base import RulesPolicy

    cls = envs.get_heuristic(system)
    assert issubclass(cls, RulesPolicy), f"{SYSTEMS[system].heuristic} is not a RulesPolicy"
    assert isinstance(make_agent("heuristic", system, 0), cls)


# ---------------------------------------------------------------------------- one-way imports


def _project_imports(path: Path) -> set[str]:
    return {m.split(".")[0] for m in imported_modules(path)}


def test_eval_and_train_do_not_import_each_other():
    """DESIGN.md "Layers": ``eval/`` never imports ``train.py`` and ``train.py`` imports nothing of
    ``eval/``; what both need lives in ``agents/`` (``agents.config``, ``agents.episode``,
    ``agents.train_config``, ``agents.training``)."""
    bad = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "eval").glob("*.py"))
           if "train" in _project_imports(p)]
    assert not bad, f"{', '.join(bad)} import train.py"
    assert "eval" not in _project_imports(ROOT / "train.py"), "train.py imports eval/"


def test_lower_layers_import_nothing_above_them():
    """``envs/`` imports neither ``agents/``, ``eval/`` nor ``train.py``; ``agents/`` imports
    neither ``eval/`` nor ``train.py``."""
    above = {"envs": {"agents", "eval", "train"}, "agents": {"eval", "train"}}
    bad = []
    for package, banned in above.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            hit = _project_imports(path) & banned
            if hit:
                bad.append(f"{path.relative_to(ROOT).as_posix()} imports {', '.join(sorted(hit))}")
    assert not bad, "; ".join(bad)


def test_the_one_way_check_sees_a_violation():
    assert "train" in {m.split(".")[0] for m in imports_of("def f():\n    import train\n", "eval")}
    assert "eval" in {m.split(".")[0] for m in imports_of("from eval.config import X\n", "")}
