"""What a Jinja2 partial reads of its context, found in its source, and a context's key by it.

A board partial is a function of the few values it reads: two seats (or tables) whose values
are equal see the same HTML, so it can be rendered once for all of them
(presenters.render_all, `shared_partials`). Which values it reads is found once per template
from Jinja2's syntax tree, following its includes, imports and macros: a name of the context
used only through constant attributes and items (`c.view.turn_number`, `c["hand"]`) is read
as those paths; only the truth of one used only as a condition (`{% if game %}`), only the
answer of a test without arguments (`{% if me is none %}`); and the
whole value of one used any other way (printed, looped over, filtered, tested, passed to a
helper, indexed by a variable, its method called). A context's key is the content of those
values, written by orjson in one fixed order.

Sound by construction, not by declaration: every place the template looks into its context is
one of those reads, and each is read here by the environment's own `getattr` and `getitem`,
which the compiled template calls. A local (a loop's item, a `set`) is made from values that
are read in their turn. What the analysis does not follow (a template name worked out at
render time, an extension's node, a filter or helper that asks for the context) makes the
template unreadable, and a value that is not plain data (a model, a dataclass, an object
printed by its `repr`) makes that context's key None: such a partial is rendered per seat.

The environment's globals, filters and tests are taken to be functions of their arguments (the
games' helpers are: a card's face, a panel, a log line).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import jinja2
import orjson
from jinja2 import nodes
from jinja2.utils import _PassArg

from games.platform.rendering import SharedList


class Unreadable(Exception):
    """The template holds something whose reads the analysis cannot list."""


@dataclass
class Path:
    """What is read under one name or path: its whole value, its truth, or some of its
    attributes and items (by constant, `("a", name)` for `x.name`, `("i", k)` for `x[k]`)."""

    whole: bool = False
    truth: bool = False
    tests: set[str] = field(default_factory=set)  # `x is none`: the test's answer alone
    below: dict[tuple[str, Any], Path] = field(default_factory=dict)

    def add(self, steps: tuple[tuple[str, Any], ...], truth: bool = False,
            test: str | None = None) -> None:
        node = self
        for step in steps:
            if node.whole:
                return
            node = node.below.setdefault(step, Path())
        if node.whole:
            return
        if truth:
            node.truth = True
        elif test is not None:
            node.tests.add(test)
        else:
            node.whole = True
            node.below.clear()
            node.tests.clear()

    def paths(self, prefix: str = "") -> list[str]:
        """The reads as text ("c.view.turn_number", "game?" for a truth), for tests and docs."""
        if self.whole:
            return [prefix]
        out = [prefix + "?"] if self.truth else []
        out += [f"{prefix} is {test}" for test in sorted(self.tests)]
        for (kind, key), child in self.below.items():
            out += child.paths(f"{prefix}.{key}" if kind == "a" else f"{prefix}[{key!r}]")
        return out


class Reads:
    """The reads of one template (with what it includes), by top-level name, and the key of
    a context by them."""

    def __init__(self, env: jinja2.Environment, roots: dict[str, Path]) -> None:
        self.env = env
        self.roots = roots
        self.names = frozenset(roots)
        self._read = _reader(env, tuple(roots.items()))

    def paths(self) -> list[str]:
        return sorted(p for name, path in self.roots.items() for p in path.paths(name))

    def key(self, context: Mapping[str, Any]) -> bytes | None:
        """The content of what the template reads of `context` (as `_render_jinja` merges it
        over the globals), or None when a value read is not plain data."""
        try:
            return orjson.dumps(self._read(context), default=_tagged, option=_OPTIONS)
        except Exception:  # a value that is not plain data, or that fails to be read
            return None


# --- the analysis ---------------------------------------------------------------------------

def reads_of(env: jinja2.Environment, name: str) -> Reads:
    """What template `name` of `env` reads of its context, with every template it includes,
    imports or extends (by constant name). Raises Unreadable."""
    roots: dict[str, Path] = {}
    _template(env, name, roots, set())
    return Reads(env, roots)


def _template(env: jinja2.Environment, name: str, roots: dict[str, Path],
              seen: set[str]) -> None:
    if name in seen:
        return
    seen.add(name)
    if env.loader is None:
        raise Unreadable("no loader")
    try:
        source, filename, _ = env.loader.get_source(env, name)
    except jinja2.TemplateNotFound as missing:
        raise Unreadable(f"{name} not found") from missing
    _Walker(env, roots, seen).statements(env.parse(source, name, filename).body)


def _chain(node: nodes.Node) -> tuple[str, tuple[tuple[str, Any], ...]] | None:
    """`c.view["x"].y` as ("c", (("a", "view"), ("i", "x"), ("a", "y"))), or None."""
    steps: list[tuple[str, Any]] = []
    while True:
        if isinstance(node, nodes.Getattr):
            steps.append(("a", node.attr))
            node = node.node
        elif (isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const)
              and type(node.arg.value) in (str, int)):
            steps.append(("i", node.arg.value))
            node = node.node
        elif isinstance(node, nodes.Name) and node.ctx == "load":
            return node.name, tuple(reversed(steps))
        else:
            return None


# Expressions whose parts are all read as values (literals, arithmetic, comparisons).
_PLAIN_EXPRESSIONS = (nodes.Const, nodes.TemplateData, nodes.Tuple, nodes.List, nodes.Dict,
                      nodes.Pair, nodes.Keyword, nodes.BinExpr, nodes.UnaryExpr, nodes.Compare,
                      nodes.Operand, nodes.Concat, nodes.Slice, nodes.MarkSafe,
                      nodes.MarkSafeIfAutoescape)
# Statements whose expressions are read as values and whose bodies are walked alike.
_PLAIN_STATEMENTS = (nodes.Output, nodes.Macro, nodes.CallBlock, nodes.FilterBlock, nodes.With,
                     nodes.Block, nodes.ExprStmt, nodes.Assign, nodes.AssignBlock, nodes.Scope,
                     nodes.ScopedEvalContextModifier, nodes.EvalContextModifier)


class _Walker:
    def __init__(self, env: jinja2.Environment, roots: dict[str, Path], seen: set[str]) -> None:
        self.env = env
        self.roots = roots
        self.seen = seen

    def statements(self, body: list[nodes.Node]) -> None:
        for node in body:
            self.statement(node)

    def statement(self, node: nodes.Node) -> None:
        if isinstance(node, nodes.If):
            self.expression(node.test, truth=True)
            self.statements(node.body)
            self.statements(node.elif_)
            self.statements(node.else_)
        elif isinstance(node, nodes.For):
            self.expression(node.iter)
            if node.test is not None:
                self.expression(node.test, truth=True)
            self.statements(node.body)
            self.statements(node.else_)
        elif isinstance(node, nodes.Include | nodes.Import | nodes.FromImport | nodes.Extends):
            for name in self._template_names(node.template):
                _template(self.env, name, self.roots, self.seen)
        elif isinstance(node, _PLAIN_STATEMENTS):
            for child in node.iter_child_nodes():
                if isinstance(child, nodes.Stmt):
                    self.statement(child)
                else:
                    self.expression(child)
        elif isinstance(node, nodes.Continue | nodes.Break):
            pass
        else:
            raise Unreadable(type(node).__name__)

    @staticmethod
    def _template_names(template: nodes.Expr) -> list[str]:
        if isinstance(template, nodes.Const) and isinstance(template.value, str):
            return [template.value]
        if isinstance(template, nodes.Tuple | nodes.List) and all(
                isinstance(i, nodes.Const) and isinstance(i.value, str) for i in template.items):
            return [i.value for i in template.items]  # type: ignore[attr-defined]
        raise Unreadable("a template named at render time")

    def expression(self, node: nodes.Node, *, truth: bool = False) -> None:
        chain = _chain(node)
        if chain is not None:
            name, steps = chain
            self.roots.setdefault(name, Path()).add(steps, truth)
        elif isinstance(node, nodes.Name):
            pass  # a name stored to (a loop's target, a macro's parameter)
        elif isinstance(node, nodes.Getattr):
            self.expression(node.node)
        elif isinstance(node, nodes.Getitem):
            self.expression(node.node)
            self.expression(node.arg)
        elif isinstance(node, nodes.Not):
            self.expression(node.node, truth=True)
        elif isinstance(node, nodes.And | nodes.Or):  # `a or b` is a's value, or b's
            self.expression(node.left, truth=truth)
            self.expression(node.right, truth=truth)
        elif isinstance(node, nodes.CondExpr):
            self.expression(node.test, truth=True)
            self.expression(node.expr1, truth=truth)
            if node.expr2 is not None:
                self.expression(node.expr2, truth=truth)
        elif isinstance(node, nodes.Call):
            self._call(node)
        elif (isinstance(node, nodes.Test) and not (node.args or node.kwargs or node.dyn_args
                                                    or node.dyn_kwargs)
              and _chain(node.node) is not None and _plain_test(self.env.tests.get(node.name))):
            # `x is none`: the test's answer, as the compiled template gets it.
            name, steps = _chain(node.node)  # type: ignore[misc]
            self.roots.setdefault(name, Path()).add(steps, test=node.name)
        elif isinstance(node, nodes.Filter | nodes.Test):
            found = (self.env.filters if isinstance(node, nodes.Filter)
                     else self.env.tests).get(node.name)
            _refuse_context(found)
            for child in node.iter_child_nodes():
                self.expression(child)
        elif isinstance(node, nodes.NSRef):
            pass  # `{% set ns.x = … %}`'s target
        elif isinstance(node, _PLAIN_EXPRESSIONS):
            for child in node.iter_child_nodes():
                self.expression(child)
        else:
            raise Unreadable(type(node).__name__)

    def _call(self, node: nodes.Call) -> None:
        callee = _chain(node.node)
        if callee is not None and callee[1]:
            # A method (`x.items()`): the object it is called on, whole.
            name, steps = callee
            self.roots.setdefault(name, Path()).add(steps[:-1], truth=False)
        elif callee is not None:
            _refuse_context(self.env.globals.get(callee[0]))
            self.expression(node.node)
        else:
            self.expression(node.node)
        for child in (*node.args, *node.kwargs, node.dyn_args, node.dyn_kwargs):
            if child is not None:
                self.expression(child)


def _plain_test(function: Any) -> bool:
    return function is not None and _PassArg.from_obj(function) is None


def _refuse_context(function: Any) -> None:
    """A filter, test or helper given the template's context may read any of it."""
    if function is not None and _PassArg.from_obj(function) is _PassArg.context:
        raise Unreadable(f"{getattr(function, '__name__', function)} reads the context")


# --- the key --------------------------------------------------------------------------------

_MISSING = object()

Reader = Callable[[Mapping[str, Any]], list[Any]]


def _reader(env: jinja2.Environment, roots: tuple[tuple[str, Path], ...]) -> Reader:
    """A function that reads `roots` from a context, written as Python source and compiled
    once per template (a push keys three partials of some fifty reads each; walked path by
    path, keying cost four times as much).

    Each name gives one item of the list, and each path read below it one item of its own
    list: a whole value as it is, a truth as a bool, a path with reads below or tests as the
    list of them (its truth first if that is read too, then the tests' answers), or "!u"
    when it is undefined (everything below an undefined value is undefined, and prints and
    tests alike: ChainableUndefined) and "!n" when it is None (so is everything below it,
    found without raising and catching two exceptions a path in the environment's
    `getattr`).
    So the shape of the written key follows the reads, and no two contexts' values can give
    the same key. A name the context does not hold is the global of that name (the same for
    every render) or undefined."""
    lines = ["def read(context):", "    out = []"]
    count = 0

    def value(path: Path, var: str, into: str, indent: str) -> None:
        nonlocal count
        if path.whole:
            lines.append(f"{indent}{into}({var})")
            return
        if not path.below and not path.tests:
            lines.append(f"{indent}{into}(bool({var}))")
            return
        lines.append(f"{indent}if isinstance({var}, Undefined):")
        lines.append(f"{indent}    {into}(UNDEFINED)")
        if not any(kind == "a" and hasattr(None, key) for kind, key in path.below):
            # None's attributes and items read are all undefined (a result before the end).
            lines.append(f"{indent}elif {var} is None:")
            lines.append(f"{indent}    {into}(NONE)")
        lines.append(f"{indent}else:")
        indent += "    "
        count += 1
        items, is_dict = f"items{count}", f"is_dict{count}"
        lines.append(f"{indent}{items} = []")
        if path.truth:
            lines.append(f"{indent}{items}.append(bool({var}))")
        for test in sorted(path.tests):
            lines.append(f"{indent}{items}.append(tests[{test!r}]({var}))")
        if any(kind == "a" for kind, _ in path.below):
            lines.append(f"{indent}{is_dict} = type({var}) is dict")
        for (kind, key), below in path.below.items():
            count += 1
            child = f"v{count}"
            if kind == "a":
                # What the compiled template's `environment.getattr` finds; a dict's key
                # looked up first, as that environment does (games/platform/jinja.py).
                lines.append(f"{indent}{child} = {var}.get({key!r}, MISSING) if {is_dict} "
                             f"else MISSING")
                lines.append(f"{indent}if {child} is MISSING:")
                lines.append(f"{indent}    {child} = getattr_({var}, {key!r})")
            else:
                lines.append(f"{indent}{child} = getitem({var}, {key!r})")
            value(below, child, f"{items}.append", indent)
        lines.append(f"{indent}{into}({items})")

    for name, path in roots:
        count += 1
        var = f"v{count}"
        absent = "GLOBAL" if name in env.globals else "UNDEFINED"
        lines.append(f"    {var} = context.get({name!r}, MISSING)")
        lines.append(f"    if {var} is MISSING:")
        lines.append(f"        out.append({absent})")
        lines.append("    else:")
        value(path, var, "out.append", "        ")
    lines.append("    return out")
    namespace: dict[str, Any] = {
        "MISSING": _MISSING, "UNDEFINED": _UNDEFINED, "GLOBAL": _GLOBAL_TAG, "NONE": _NONE,
        "Undefined": jinja2.Undefined, "getattr_": env.getattr, "getitem": env.getitem,
        "tests": env.tests}
    exec(compile("\n".join(lines), "<partial_reads>", "exec"), namespace)
    return namespace["read"]  # type: ignore[no-any-return]


# Values orjson would write alike though a template may print them apart are tagged with their
# type ("!SafeString!" and the text): safe HTML and plain text, a subclass and its base, a date
# and its text. A tag cannot be mistaken for plain JSON, which never holds a bare "!". Tuples
# write as lists and a float NaN as null (orjson writes them itself): no partial prints one.
# An object with a `partial_key` ("!" and what names its content) writes that; other objects
# refuse.
_OPTIONS = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
            | orjson.OPT_PASSTHROUGH_DATACLASS)
_UNDEFINED = orjson.Fragment(b"!u")
_NONE = orjson.Fragment(b"!n")  # a path read below None
# A name the context does not hold, read from the environment's globals: the same for every
# render (a helper).
_GLOBAL_TAG = orjson.Fragment(b"!g")
_SHARED_LIST_KEY = "\x00partial_reads"  # beside include_each's keys, by a name no template gives


def _tag(value: Any, plain: Any) -> bytes:
    kind = type(value)
    return b"".join((b"!", f"{kind.__module__}.{kind.__qualname__}".encode(), b"!",
                     orjson.dumps(plain, default=_tagged, option=_OPTIONS)))


def _digest_tag(content: bytes) -> bytes:
    """A tagged content's stand-in of fixed length: "!#" and its BLAKE2b digest (32 bytes) in
    hex, which no other tag or plain JSON begins with."""
    return b"!#" + hashlib.blake2b(content, digest_size=32).hexdigest().encode()


def _tagged(value: Any) -> Any:
    # By the value's type, what the checks below found for its first value of that type
    # (a board's tiles call here for each tile's `branches` range, a log for each line).
    kind = type(value)
    way = _WAYS.get(kind)
    if way is None:
        way = _WAYS[kind] = _way_of(kind)
    return way(value)


def _way_of(kind: type) -> Callable[[Any], Any]:
    """How `_tagged` writes a value of type `kind`: the first of these that it is."""
    if issubclass(kind, jinja2.Undefined):
        return _as_undefined
    if issubclass(kind, str):
        return _as_text
    if issubclass(kind, bool | int | float):
        return _as_repr
    if issubclass(kind, SharedList):
        return _as_shared_list
    if issubclass(kind, list):
        return _as_list
    if issubclass(kind, dict):
        return _as_dict
    if kind is range:  # range has no subclasses
        return _as_range
    if issubclass(kind, datetime.date | datetime.time):
        return _as_repr
    return _as_named


def _as_undefined(value: Any) -> Any:
    return _UNDEFINED


def _as_text(value: Any) -> Any:
    return orjson.Fragment(_tag(value, str.__str__(value)))


def _as_repr(value: Any) -> Any:
    return orjson.Fragment(_tag(value, repr(value)))


def _as_shared_list(value: SharedList) -> Any:
    # Made once per snapshot and never changed: its key is written once, for every seat's
    # context that holds it (a board's tiles), and stands in a partial's key as the digest
    # of that content: a board's forty tiles are some 30 KB, which every seat's key copied,
    # hashed and kept otherwise.
    tag = value.keys.get(_SHARED_LIST_KEY)
    if tag is None:
        # The digest of its items' keys, which its include_each takes too; written as a
        # tagged content when an item is not plain data (a log's lines).
        tag = value.keys[_SHARED_LIST_KEY] = value.digest() or _digest_tag(
            _tag(value, list(value)))
    return orjson.Fragment(tag)


def _as_list(value: Any) -> Any:
    return orjson.Fragment(_tag(value, list(value)))


def _as_dict(value: Any) -> Any:
    return orjson.Fragment(_tag(value, dict(value)))


def _as_range(value: range) -> Any:
    # What _tag writes of [start, stop, step], without a second orjson call.
    return orjson.Fragment(b"!builtins.range![%d,%d,%d]" % (value.start, value.stop,
                                                             value.step))


def _as_named(value: Any) -> Any:
    named = getattr(value, "partial_key", None)
    if type(named) is bytes and named.startswith(b"!"):
        # An object that names its own content for good (presenters.LogLine: a game's line).
        return orjson.Fragment(named)
    raise TypeError(f"{type(value).__name__} is not plain data")


_WAYS: dict[type, Callable[[Any], Any]] = {}
