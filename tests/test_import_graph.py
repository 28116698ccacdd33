"""No import cycles: every module of fairplay's packages imports only modules below it.

The graph is read from the sources with `ast`, so it holds every import, at module level and
inside functions alike (a function-level import hides a cycle from Python, not from the reader).
`from package import name` is an edge to the module `package.name` when there is one, otherwise
to the package itself; relative imports are resolved against the importing module.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("simulator", "reports", "strategies", "configs")


def module_files() -> dict[str, Path]:
    """{dotted module name: source file} for every module of the packages."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The modules of `modules` that module `name` (its source at `path`) imports, anywhere."""
    return {target for target, _ in import_lines(name, path, modules)}


def import_lines(name: str, path: Path, modules) -> list[tuple[str, int]]:
    """(module imported, line number) for every import of module `name`, anywhere in it."""
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's package, one level up per extra dot
                package = name.split(".") if is_package else name.split(".")[:-1]
                base = ".".join(package[:len(package) - node.level + 1] +
                                ([node.module] if node.module else []))
            else:
                base = node.module
            # `from package import name`: the submodule when there is one, else the package
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        for target in targets:
            # `import a.b.c` of a name that is not a module: the nearest module above it
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno))
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each as a sorted list of modules."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def describe(graph, component: list[str]) -> str:
    """A component's modules and the imports among them, for the failure message."""
    members = set(component)
    return "\n".join(f"  {module} imports {', '.join(sorted(graph[module] & members))}"
                     for module in component)


def test_the_finder_sees_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_graph_sees_function_level_and_relative_imports(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from pkg import high\n")
    (package / "high.py").write_text("from . import low\n")
    modules = {"pkg": package / "__init__.py", "pkg.low": package / "low.py",
               "pkg.high": package / "high.py"}
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph == {"pkg": set(), "pkg.low": {"pkg.high"}, "pkg.high": {"pkg.low"}}
    assert cycles(graph) == [["pkg.high", "pkg.low"]]


def test_no_import_cycles():
    graph = import_graph()
    assert "simulator.run.runner" in graph  # the packages were found
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n\n".join(describe(graph, c) for c in found)


# --- stages: simulator/ is grouped by what each part does, and imports run only downwards --------
# (docs/architecture.md draws it). A module's stage is its folder under simulator/ (or its
# package); the games, the engine and the strategies are the ground the stages stand on.
STAGES = [
    {"simulator.schema", "simulator.fileio", "simulator.games", "strategies", "configs"},
    {"simulator.setup"},
    {"simulator.run"},
    {"simulator.statistics"},
    {"simulator.studies"},
    {"reports"},
    {"simulator.api"},
    {"simulator.serve"},
    {"simulator.cli"},
]


def stage_of(module: str) -> int | None:
    """The stage (an index into STAGES) of a module; None for the package `simulator` itself,
    whose __init__ sets up the compiled-code cache and may import what that needs."""
    for depth in (2, 1):
        head = ".".join(module.split(".")[:depth])
        for level, members in enumerate(STAGES):
            if head in members:
                return level
    return None


def stage_violations(modules) -> list[str]:
    """Every import from a lower stage to a higher one, as "file:line: A imports B (stage x
    below stage y)"."""
    found = []
    for name, path in modules.items():
        here = stage_of(name)
        if here is None:
            continue
        for target, line in import_lines(name, path, modules):
            there = stage_of(target)
            if there is not None and there > here:
                found.append(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:"
                             f"{line}: {name} imports {target} "
                             f"(a {sorted(STAGES[here])[0]} module imports a higher stage, "
                             f"{sorted(STAGES[there])[0]})")
    return found


def test_every_module_belongs_to_a_stage():
    lost = [name for name in module_files() if stage_of(name) is None and name != "simulator"]
    assert not lost, f"modules outside every stage (add a folder to STAGES): {lost}"


def test_no_import_runs_from_a_lower_stage_to_a_higher_one():
    found = stage_violations(module_files())
    assert not found, "imports that run up the stages:\n" + "\n".join(found)


def test_the_stage_check_names_the_offending_line(tmp_path):
    planted = tmp_path / "runner.py"
    planted.write_text("import os\n\ndef f():\n    from simulator.statistics import adaptive\n")
    modules = dict(module_files(), **{"simulator.run.runner": planted})
    found = stage_violations(modules)
    assert found == [f"{planted}:4: simulator.run.runner imports simulator.statistics.adaptive "
                     f"(a simulator.run module imports a higher stage, simulator.statistics)"]
