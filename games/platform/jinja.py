"""The Jinja2 environment for the hot board partials, set up to print what Django would print.

A game may move partials that every push renders to Jinja2 (its `jinja2/` folder): compiled to
Python, they render several times faster than Django templates. The page and the pushes render
the same partials either way (presenters.render_partial), so the HTML must not depend on the
engine: values print as Django prints them with localization off (escaped by Django's own
`escape`, so quotes read `&quot;` and `&#x27;`), a missing variable prints nothing, reads as
false and counts as None, and the template's last newline is kept.

Escaping is `finalize`'s alone: the environment runs with Jinja2's autoescape off, and every
`{{ value }}` goes through `as_django_prints`, which escapes text and prints safe HTML as it is.
With autoescape on, each printed value was made a `Markup` there and then escaped again by
Jinja2 (which makes another), about a twentieth of a push's CPU. What autoescape would change
besides is not used by these partials and must not be: macros, `{% set %}` blocks and `join`
or `format` over safe pieces (their output is plain text here, and would be escaped). The
compiled templates print `finalize`'s str as it is (`_PrintedAsFinalized`), not through `str()`,
which copies a safe string whole: a panel's HTML was copied once for every template it is
printed into; and they call helpers directly, not through Jinja2's `context.call`, so a helper
that wants the template's context (`pass_context`) cannot be called from these partials.

The HTML is one byte a character (games/platform/one_byte.py): the templates' text has its
characters above U+00FF written as character references when compiled (`OneByteText`), and
so has every value `as_django_prints` escapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import jinja2
from django.template.defaultfilters import pluralize
from django.utils.formats import localize
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString
from jinja2 import nodes
from jinja2.compiler import CodeGenerator

from games.platform import jinja_tags
from games.platform.one_byte import OneByteText, one_byte


def as_django_prints(value: Any) -> str:
    """`{{ value }}` as Django writes it: already safe HTML as is, numbers unlocalized, the rest
    as text escaped by Django, one byte a character (`one_byte`). Plain text and ints, nearly
    every value printed, are looked at first."""
    kind = type(value)
    if kind is str:
        # What django.utils.html.escape does, without its lazy-string wrapper.
        text = escape(value)
        return text if text.isascii() else one_byte(text)
    if kind is int or kind is bool or value is None:
        return str(value)
    if kind is SafeString:  # a helper's HTML (a card, a panel): its __html__ is itself
        return value
    html = getattr(value, "__html__", None)
    if html is not None:  # safe strings, and the Undefined that prints nothing
        return html()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return localize(value, use_l10n=False)
    return one_byte(escape(str(value)))


def _is_none(value: Any) -> bool:
    # Django resolves a missing variable to None in {% if x is None %}.
    return value is None or isinstance(value, jinja2.Undefined)


class _PrintedAsFinalized(CodeGenerator):
    """Compiles `{{ value }}` to `finalize(value)` where Jinja2 writes `str(finalize(value))`:
    `as_django_prints` returns a str already (a safe string as the very object, which `str()`
    would copy). Only with autoescape off and a finalize, as `environment` sets them. Calls
    are compiled plain as well (`visit_Call`)."""

    def _output_child_pre(self, node: Any, frame: Any, finalize: Any) -> None:
        if finalize.src is None or frame.eval_ctx.volatile or frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
            return
        self.write(finalize.src)

    def _output_child_post(self, node: Any, frame: Any, finalize: Any) -> None:
        if finalize.src is None or frame.eval_ctx.volatile or frame.eval_ctx.autoescape:
            super()._output_child_post(node, frame, finalize)
            return
        self.write(")")

    def visit_Output(self, node: Any, frame: Any) -> None:
        """The pieces of one run of output (the text and values between two tags) yielded
        as one string, joined, where Jinja2 yields each: the render joins what its function
        yields, and a resumption of that function per piece cost more than the join (a
        player's panel is some eighty pieces). The HTML is the same."""
        if frame.buffer is not None or frame.require_output_check:
            super().visit_Output(node, frame)
            return
        finalize = self._make_finalize()
        body: list[Any] = []
        for child in node.nodes:  # as Jinja2 groups them: constants joined at compile time
            try:
                if not (finalize.const or isinstance(child, nodes.TemplateData)):
                    raise nodes.Impossible()
                const = self._output_child_to_const(child, frame, finalize)
            except Exception:  # as Jinja2 does: evaluated at render time instead
                body.append(child)
                continue
            if body and isinstance(body[-1], list):
                body[-1].append(const)
            else:
                body.append([const])
        if len(body) < 2:
            super().visit_Output(node, frame)
            return
        self.writeline("yield concat((")
        self.indent()
        for item in body:
            if isinstance(item, list):
                self.writeline(self._output_const_repr(item) + ",")
                continue
            self.newline(item)
            self._output_child_pre(item, frame, finalize)
            self.visit(item, frame)
            self._output_child_post(item, frame, finalize)
            self.write(",")
        self.outdent()
        self.writeline("))")

    def visit_Getattr(self, node: Any, frame: Any) -> None:
        """`p.seat` compiled to the dict's own look-up when `p` is a dict holding "seat", and
        to the environment's `getattr` (_DictFirstEnvironment's, which finds the same) when
        not: a call of that method for every attribute read cost more than the read, and a
        board's partials read hundreds a push. The object is evaluated once, kept in a
        temporary of the function (a local's name, or `t_N := ...` for a longer chain)."""
        if (self.environment.is_async or self.environment.sandboxed
                or type(self.environment).getattr is not _DictFirstEnvironment.getattr):
            super().visit_Getattr(node, frame)
            return
        if self.optimizer is not None and not frame.eval_ctx.volatile:
            folded = self.optimizer.visit(node, frame.eval_ctx)
            if folded != node:  # a constant, worked out at compile time
                self.visit(folded, frame)
                return
        attr = repr(node.attr)
        inner = node.node
        if isinstance(inner, nodes.Name) and inner.ctx == "load":
            # The local itself (or `missing`, which is no dict: the fallback then makes the
            # Undefined the plain compilation would).
            ref = frame.symbols.ref(inner.name)
            self.write(f"({ref}[{attr}] if type({ref}) is dict and {attr} in {ref} "
                       f"else environment.getattr(")
            self.visit(inner, frame)
            self.write(f", {attr}))")
            return
        ref = self.temporary_identifier()
        self.write(f"({ref}[{attr}] if type({ref} := ")
        self.visit(inner, frame)
        self.write(f") is dict and {attr} in {ref} else environment.getattr({ref}, {attr}))")

    def visit_Call(self, node: Any, frame: Any, forward_caller: bool = False) -> None:
        """`{{ f(x) }}` compiled to a plain call: Jinja2 writes `context.call(f, x)`, which
        asks `f` and its `__call__` whether they want the context (two failed attribute
        lookups, each an exception raised and caught) on every call, ten times the call
        itself; the board partials call a helper for every card and set. None of the
        environment's callables takes the context; a call block or a sandbox keeps Jinja2's."""
        if forward_caller or self.environment.is_async or self.environment.sandboxed:
            super().visit_Call(node, frame, forward_caller=forward_caller)
            return
        if self.optimizer is not None and not frame.eval_ctx.volatile:
            folded = self.optimizer.visit(node, frame.eval_ctx)
            if folded != node:  # a constant call, worked out at compile time
                self.visit(folded, frame)
                return
        self.write("environment.call_plain(")
        self.visit(node.node, frame)
        self.signature(node, frame)
        self.write(")")


class _DictFirstEnvironment(jinja2.Environment):
    """`{{ p.name }}` on a dict looks up the key first, as Django's templates do. Jinja2 tries
    the attribute first, and on a dict that raises and catches an AttributeError for every
    lookup: a board's partials make hundreds of them, about a twentieth of a push's CPU. A dict
    key that shadows a dict method (`items`) would now win, as in Django; no partial reads one.
    """

    code_generator_class = _PrintedAsFinalized

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._loaded: dict[str, jinja2.Template] = {}

    @staticmethod
    def call_plain(function: Any, *args: Any, **kwargs: Any) -> Any:
        # The compiled templates' calls (_PrintedAsFinalized.visit_Call).
        return function(*args, **kwargs)

    def get_template(self, name: Any, parent: str | None = None,
                     globals: Any = None) -> jinja2.Template:
        """The compiled template, kept by name once loaded where nothing can change it (no
        auto-reload, no per-call globals): Jinja2's own cache takes a lock and reorders its
        queue on every look-up, and each render and include looks its template up."""
        if globals or self.auto_reload or not isinstance(name, str):
            return super().get_template(name, parent, globals)
        if parent is not None:
            name = self.join_path(name, parent)
        found = self._loaded.get(name)
        if found is None:
            found = self._loaded[name] = super().get_template(name)
        return found

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(*, helpers: Sequence[str] = (), **options: Any) -> jinja2.Environment:
    """The environment Django's Jinja2 backend builds (TEMPLATES' OPTIONS["environment"]).
    `helpers` are dotted paths of functions that add a game's globals and filters to it (the
    Jinja2 side of its template tags), so the site's settings name the game only as text."""
    options["undefined"] = jinja2.ChainableUndefined  # Django's silent missing variables
    options["autoescape"] = False  # as_django_prints escapes (above)
    options.setdefault("keep_trailing_newline", True)
    options["extensions"] = [*options.get("extensions", ()), OneByteText]
    env = _DictFirstEnvironment(finalize=as_django_prints, **options)
    env.filters["pluralize"] = pluralize
    env.tests["none"] = _is_none
    jinja_tags.helpers(env)  # the platform's tags: include_each, include_only, log_lines
    for path in helpers:
        import_string(path)(env)
    return env
