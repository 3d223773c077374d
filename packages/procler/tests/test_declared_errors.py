"""Every error a command's handler can raise is declared on that command, so `capabilities`
tells the truth. The walk is static: from the handler a command names (and, for forwarded
commands, the supervisor method answering it) through every function it calls or hands on,
to every `raise` of an AgentError. Calls resolve through imports and `self`; a method called
on anything else may be any method of that name in the modules the caller imports
(directly or not), which over-approximates, never misses.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import agentcli
import procler
from agentcli.errors import AgentError
from procler.declarations import APP

PACKAGES = (agentcli, procler)
Key = tuple[str, str, str]  # module, class ("" at module level), function
Function = ast.FunctionDef | ast.AsyncFunctionDef


def error_classes() -> dict[str, type[AgentError]]:
    """Every AgentError subclass of both packages, by class name."""
    for package in PACKAGES:
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    found: dict[str, type[AgentError]] = {}
    todo: list[type[AgentError]] = [AgentError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo += cls.__subclasses__()
    return found


@dataclass
class Module:
    name: str
    imports: dict[str, str] = field(default_factory=dict)  # alias -> "module" or "module:attr"
    classes: dict[str, tuple[list[str], dict[str, Function]]] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)
    made: dict[str, ast.Call] = field(default_factory=dict)  # NAME = call() at module level


def read_module(name: str, tree: ast.Module) -> Module:
    module = Module(name)
    for node in ast.walk(tree):  # imports inside functions count: they are how we import lazily
        if isinstance(node, ast.Import):
            for alias in node.names:
                module.imports[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                module.imports[alias.asname or alias.name] = f"{node.module}:{alias.name}"
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and len(node.targets) == 1
            and isinstance(target := node.targets[0], ast.Name)
        ):
            module.made[target.id] = node.value
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b).split(".")[-1] for b in node.bases]
            methods = {
                n.name: n
                for n in node.body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            module.classes[node.name] = (bases, methods)
    return module


class Program:
    def __init__(self) -> None:
        self.errors = error_classes()
        self.modules: dict[str, Module] = {}
        self.trees: dict[str, ast.Module] = {}
        for package in PACKAGES:
            assert package.__file__ is not None
            root = Path(package.__file__).parent
            for source in sorted(root.rglob("*.py")):
                parts = source.relative_to(root.parent).with_suffix("").parts
                name = ".".join(p for p in parts if p != "__init__")
                self.trees[name] = ast.parse(source.read_text())
                self.modules[name] = read_module(name, self.trees[name])
        self.imported = {m: self._closure(m) for m in self.modules}
        self._edges: dict[Key, tuple[set[str], list[Key]]] = {}
        self.subclasses: dict[str, set[str]] = defaultdict(set)
        for module in self.modules.values():
            for cls, (bases, _) in module.classes.items():
                for base in bases:
                    self.subclasses[base].add(cls)

    def _closure(self, start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            name = todo.pop()
            if name in seen or name not in self.modules:
                continue
            seen.add(name)
            todo += [target.split(":")[0] for target in self.modules[name].imports.values()]
            todo += [t.replace(":", ".") for t in self.modules[name].imports.values()]
        return seen

    def methods_named(self, name: str, modules: set[str]) -> list[Key]:
        return [
            (m, cls, name)
            for m in modules
            for cls, (_, methods) in self.modules[m].classes.items()
            if name in methods
        ]

    def in_class(self, module: str, cls: str, name: str) -> list[Key]:
        """A method seen from `self`: the class's own or a base's, and subclasses' overrides."""
        family = {cls} | self.subclasses.get(cls, set())
        bases = self.modules[module].classes.get(cls, ([], {}))[0]
        found = [k for k in self.methods_named(name, set(self.modules)) if k[1] in family]
        if not found:  # inherited: look it up in the bases
            found = [k for base in bases for k in self.in_class_named(base, name)]
        return found

    def in_class_named(self, cls: str, name: str) -> list[Key]:
        return [
            (m, cls, name)
            for m, module in self.modules.items()
            if name in module.classes.get(cls, ([], {}))[1]
        ]

    def target(self, module: str, alias: str, attr: str | None) -> list[Key]:
        """What `alias` (or `alias.attr`) names in `module`: a function, or a class's method."""
        where = self.modules[module]
        if alias in where.functions and attr is None:
            return [(module, "", alias)]
        if alias in where.classes:
            return self.in_class_named(alias, attr or "__init__")
        imported = where.imports.get(alias)
        if imported is None:
            return []
        source, _, name = imported.partition(":")
        if not name:  # a module: alias.attr is its function or class
            return self.target(source, attr, None) if source in self.modules and attr else []
        if f"{source}.{name}" in self.modules and attr:  # from package import module
            return self.target(f"{source}.{name}", attr, None)
        return self.target(source, name, attr) if source in self.modules else []

    def body(self, key: Key) -> Function | None:
        module, cls, name = key
        where = self.modules[module]
        return where.classes[cls][1].get(name) if cls else where.functions.get(name)

    def edges(self, key: Key) -> tuple[set[str], list[Key]]:
        """Error class names raised directly in the function, and the functions it reaches
        (worked out once per function: every command's walk shares them)."""
        if key not in self._edges:
            self._edges[key] = self._edges_of(key)
        return self._edges[key]

    def _edges_of(self, key: Key) -> tuple[set[str], list[Key]]:
        module, cls, _ = key
        node = self.body(key)
        raised: set[str] = set()
        reached: list[Key] = []
        called = {id(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)} if node else set()
        typed = self.typed_params(node)
        for sub in walk_escaping(node) if node is not None else ():
            if isinstance(sub, ast.Raise) and sub.exc is not None:
                target = sub.exc.func if isinstance(sub.exc, ast.Call) else sub.exc
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    target = target.value  # SupervisorUnavailable.hung(...)
                raised.add(getattr(target, "id", "") or getattr(target, "attr", ""))
            if isinstance(sub, ast.Name):
                reached += self.target(module, sub.id, None)
            elif isinstance(sub, ast.Attribute):
                owner = sub.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls") and cls:
                    reached += self.in_class(module, cls, sub.attr)
                elif isinstance(owner, ast.Name) and owner.id in typed:
                    reached += self.in_class_named(typed[owner.id], sub.attr)
                elif isinstance(owner, ast.Name) and (
                    owner.id in self.modules[module].imports
                    or owner.id in self.modules[module].classes
                ):
                    reached += self.target(module, owner.id, sub.attr)
                elif self.foreign(module, owner):
                    continue  # threading.Thread(...).start(): a method of another library
                elif id(sub) in called:  # x.m(): any m the module can see, but not our own
                    found = self.methods_named(sub.attr, self.imported[module])
                    reached += [k for k in found if k[1] != cls]
        return raised, reached

    def typed_params(self, node: ast.AST | None) -> dict[str, str]:
        """A function's parameters annotated with one of our classes: name -> class, so
        `ops.start(...)` on `ops: Operations` is Operations.start (that class's own method:
        a subclass's override is not assumed, as for any call on another object)."""
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return {}
        found = {}
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            if arg.annotation is None:
                continue
            text = ast.unparse(arg.annotation).strip("'\"")
            owners = [m for m, module in self.modules.items() if text in module.classes]
            if len(owners) == 1:
                found[arg.arg] = text
        return found

    def foreign(self, module: str, owner: ast.AST) -> bool:
        """The receiver is an object another library's class or function made (here, or
        at module level: `log = logging.getLogger(...)`)."""
        if isinstance(owner, ast.Name) and owner.id in self.modules[module].made:
            owner = self.modules[module].made[owner.id]
        if not isinstance(owner, ast.Call):
            return False
        root = owner.func
        while isinstance(root, ast.Attribute):
            root = root.value
        imported = self.modules[module].imports.get(getattr(root, "id", ""))
        return imported is not None and imported.split(".")[0].split(":")[0] not in {
            p.__name__ for p in PACKAGES
        }

    def returned_error(self, key: Key) -> str | None:
        """The error class a function returns by annotation (`raise invalid(...)`)."""
        node = self.body(key)
        returns = getattr(node, "returns", None)
        text = ast.unparse(returns).strip("'\"") if returns is not None else ""
        return text if text in self.errors else None

    def reachable(self, start: Key) -> set[str]:
        """Codes of the AgentErrors raised by `start` and everything it reaches."""
        seen: set[Key] = set()
        todo, codes = [start], set()
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            raised, reached = self.edges(key)
            codes |= {self.errors[name].code for name in raised if name in self.errors}
            for callee in reached:
                error = self.returned_error(callee)
                if error is not None and callee not in seen:
                    codes.add(self.errors[error].code)
            todo += reached
        return codes


BROAD = {"Exception", "BaseException", "AgentError"}
TASKS = {"background", "create_task", "ensure_future"}  # they start work, not await it


def walk_escaping(node: ast.AST) -> list[ast.AST]:
    """The nodes whose errors can escape: not the body of a `try` that catches everything
    (without re-raising), as a background task's guard does, nor a gather's awaitables."""
    found, todo = [], [node]
    while todo:
        current = todo.pop()
        found.append(current)
        if isinstance(current, ast.Try) and any(
            ast.unparse(h.type or ast.Name("BaseException")) in BROAD
            and not any(isinstance(n, ast.Raise) for b in h.body for n in ast.walk(b))
            for h in current.handlers
        ):
            todo += [*current.handlers, *current.orelse, *current.finalbody]
            continue
        if isinstance(current, ast.Call) and any(
            k.arg == "return_exceptions" and ast.unparse(k.value) == "True"
            for k in current.keywords
        ):
            continue  # gather(..., return_exceptions=True) hands errors back as values
        if isinstance(current, ast.Call) and ast.unparse(current.func).split(".")[-1] in TASKS:
            continue  # work handed to a task raises in the task, not in the caller
        todo += list(ast.iter_child_nodes(current))
    return found


def table_entries(program: Program, package: str) -> dict[str, Key]:
    """The supervisor's command table: each family module's dict literals of command ->
    function (`COMMANDS = {"start": start, ...}`), each function a module-level one."""
    entries: dict[str, Key] = {}
    for module in sorted(m for m in program.modules if m.startswith(package + ".")):
        tree = program.trees[module]
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)):
                continue
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                assert isinstance(key, ast.Constant) and isinstance(key.value, str)
                assert isinstance(value, ast.Name)
                entries[key.value] = (module, "", value.id)
    return entries


def entry_points(program: Program, handler: str, command: str) -> list[Key]:
    """The handler, and the supervisor methods answering what it forwards: its own command
    (when the supervisor's table has it), or those it names with APP.command(...) (`run`
    forwards start or restart)."""
    module, _, name = handler.partition(":")
    entries = [(module, "", name)]
    methods = table_entries(program, "procler.supervisor.commands")
    forwarded = {command} & set(methods)  # the supervisor answers exactly its table's commands
    for call in ast.walk(program.body(entries[0]) or ast.Module([], [])):
        if isinstance(call, ast.Call) and ast.unparse(call.func) == "APP.command":
            named = {
                c.value
                for c in ast.walk(call)
                if isinstance(c, ast.Constant) and isinstance(c.value, str)
            }
            forwarded |= named & set(methods)
    return entries + [methods[c] for c in sorted(forwarded)]


def test_every_error_a_handler_can_raise_is_declared_on_its_command() -> None:
    program = Program()
    undeclared = {}
    for command in APP.commands:
        entries = entry_points(program, command.handler, command.name)
        reached = set().union(*(program.reachable(e) for e in entries))
        missing = reached - {e.code for e in command.all_errors()}
        if missing:
            undeclared[command.name] = sorted(missing)
    assert undeclared == {}
