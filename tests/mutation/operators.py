"""Mutation operators: find every mutation point of a Python source and apply one.

A mutation is found on the AST and applied as a text edit of the original
source (the operator token, the constant, the statement), so every other line,
comment and line number of the mutated file stays as it was. An edited
expression is wrapped in parentheses, so a swap between operators of
different precedence (``&`` -> ``|``) cannot regroup its neighbours.

Operators (the names used in reports):

- ``compare``: ``<``<->``<=``, ``>``<->``>=``, ``==``<->``!=``, ``is``<->``is not``, ``in``<->``not in``
- ``arith``: ``+``<->``-``, ``*``->``/``, ``/``->``*``, ``//``->``/``, ``%``->``/``, ``**``->``*``,
  ``<<``<->``>>``, ``&``->``|``, ``|``->``&``, ``^``->``|`` (also in augmented assignments);
  unary minus removed
- ``constant``: an integer n -> n+1, n-1, 0; a float c -> c+1 (0.0 -> 1.0)
- ``bool``: ``True``<->``False``; ``not x`` -> ``x``; ``and``<->``or``
- ``if``: the condition of an ``if``/``elif``, a conditional expression or a comprehension filter negated
- ``return``: ``return x`` -> ``return None``
- ``remove``: an augmented assignment or an ``append``/``extend``/``add``/``insert`` call statement -> ``pass``
- ``loop``: ``break``<->``continue``
- ``minmax``: ``min(...)``<->``max(...)``
- ``raise``: a ``raise`` statement -> ``pass`` (the refusal never made: a test must see it refused)
- ``decorator``: a function's or class's decorator -> ``(lambda f: f)`` (the decorator left out)

Each mutation carries the rule id of the code it sits in: the first spec id
(``CW-DMG-03``, ``DICE-01``; failing that an ASL rule number such as ``D15.53``)
of the enclosing function's docstring, else of the enclosing class's, else of
the nearest function of the module that calls it (a helper serves its caller's
rule), else of the nearest section comment above it (``# --- ... (DICE-03) ---``),
else of the module docstring. Architecture ids (ARCH-, PERF-) are not rules.

Never mutated: strings (so docstrings and messages), type annotations,
``assert`` statements, what a ``raise`` raises (its message), f-strings, calls that only
produce text (``Note(...)``, ``warn(...)``, logging), ``__repr__``/``__str__``,
``__all__``, and ``if TYPE_CHECKING:`` / ``if __name__ == "__main__":`` tests.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import asdict, dataclass

__all__ = ["Mutation", "find_mutations", "apply_mutation", "rule_id", "RULE_ID"]

# Spec ids (CW-DMG-03, ASL-RES-02, DICE-01, LOG-02) first; ASL rule numbers (D15.53, A7.8) failing that.
RULE_ID = re.compile(r"\b(?!ARCH-|PERF-)[A-Z]{2,5}(?:-[A-Z]{2,5})*-\d{2}\b")
ASL_RULE = re.compile(r"\b[A-H]\d{1,2}(?:\.\d+)+\b")

_COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
          ast.Mod: ast.Div, ast.Pow: ast.Mult, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
          ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr}
_OP_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
            ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
            ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>",
            ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.And: "and", ast.Or: "or"}
_COLLECTION_CALLS = {"append", "extend", "add", "insert", "appendleft"}
_TEXT_CALLS = {"Note", "warn", "debug", "info", "warning", "error", "exception", "critical", "log", "print"}
_SKIP_FUNCTIONS = {"__repr__", "__str__", "__format__", "__rich__", "__rich_repr__"}


@dataclass(frozen=True)
class Mutation:
    """One mutant of one module.

    Attributes:
        module: the file, relative to the repository root (``pyapi/dice.py``).
        index: its position among the module's mutations (stable for a given source).
        operator: the operator family (see the module docstring).
        line, end_line: the lines the edited code spans (1-based).
        start, end: (line, column) of the edited text, columns in characters.
        before, after: the edited text before and after.
        function: qualified name of the enclosing function or class ("" at module level).
        rule: the first rule id of the enclosing function's docstring, else of its class, else of the module.
    """

    module: str
    index: int
    operator: str
    line: int
    end_line: int
    start: tuple[int, int]
    end: tuple[int, int]
    before: str
    after: str
    function: str
    rule: str

    @property
    def id(self) -> str:
        return f"{self.module}:{self.index}"

    def describe(self) -> str:
        return f"{self.module}:{self.line} {self.operator}: {_one_line(self.before)} -> {_one_line(self.after)}"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["id"] = self.id
        return d


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 90 else text[:87] + "..."


def rule_id(*docstrings: str | None) -> str:
    """The first spec id (CW-DMG-03, DICE-01) in the first docstring that has one; else the first ASL rule number."""
    for doc in docstrings:
        if doc:
            m = RULE_ID.search(doc)
            if m:
                return m.group(0)
    for doc in docstrings:
        if doc:
            m = ASL_RULE.search(doc)
            if m:
                return m.group(0)
    return ""


class _Source:
    """The source text with conversions from AST positions (UTF-8 byte columns) to character offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]
        for ln in self.lines:
            self.starts.append(self.starts[-1] + len(ln))
        self.tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                       if t.type in (tokenize.OP, tokenize.NAME)]

    def char_col(self, line: int, byte_col: int) -> int:
        return len(self.lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def start(self, node: ast.AST) -> tuple[int, int]:
        return node.lineno, self.char_col(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> tuple[int, int]:
        return node.end_lineno, self.char_col(node.end_lineno, node.end_col_offset)

    def offset(self, pos: tuple[int, int]) -> int:
        return self.starts[pos[0] - 1] + pos[1]

    def segment(self, a: tuple[int, int], b: tuple[int, int]) -> str:
        return self.text[self.offset(a):self.offset(b)]

    def op_tokens(self, a: tuple[int, int], b: tuple[int, int], words: set[str]) -> tuple[tuple[int, int], tuple[int, int]]:
        """Span of the operator between two operands: the tokens in [a, b) other than brackets."""
        found = [t for t in self.tokens if a <= t.start and t.end <= b and t.string not in "()" and
                 (t.type == tokenize.OP or t.string in words)]
        if not found:
            raise ValueError(f"no operator between {a} and {b}")
        return found[0].start, found[-1].end


class _Finder(ast.NodeVisitor):
    def __init__(self, src: _Source, module: str) -> None:
        self.src = src
        self.module = module
        self.stack: list[ast.AST] = []
        self.found: list[dict] = []

    # --- bookkeeping -------------------------------------------------------------------

    def add(self, node: ast.AST, operator: str, start, end, after: str, wrap: bool = True) -> None:
        before = self.src.segment(start, end)
        self.found.append(dict(operator=operator, start=start, end=end, before=before,
                               after=f"({after})" if wrap else after))

    def add_node(self, node: ast.AST, operator: str, after: str, wrap: bool = True) -> None:
        self.add(node, operator, self.src.start(node), self.src.end(node), after, wrap)

    # --- what is never mutated ------------------------------------------------------------

    def _visit_def(self, node) -> None:
        if node.name in _SKIP_FUNCTIONS:
            return
        self.stack.append(node)
        self._decorators(node)
        # Defaults and decorators are mutated; annotations and the docstring are not.
        for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(d)
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    visit_FunctionDef = _visit_def
    visit_AsyncFunctionDef = _visit_def

    def _decorators(self, node) -> None:
        """Each decorator left out (`decorator`): the function or class as written, undecorated."""
        for d in node.decorator_list:
            self.add_node(d, "decorator", "(lambda f: f)", wrap=False)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.stack.append(node)
        self._decorators(node)
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for d in node.args.defaults:
            self.visit(d)
        self.visit(node.body)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        self.add_node(node, "raise", "pass", wrap=False)      # the refusal not made; what it raises is text

    def visit_Assert(self, node: ast.Assert) -> None:
        return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_Import(self, node) -> None:
        return

    visit_ImportFrom = visit_Import

    # --- statements -------------------------------------------------------------------------

    def visit_If(self, node: ast.If) -> None:
        if not _is_guard(node.test):
            self.add_node(node.test, "if", f"not ({self.src.segment(self.src.start(node.test), self.src.end(node.test))})")
            self.visit(node.test)
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.add_node(node.test, "if", f"not ({self._text(node.test)})")
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for cond in node.ifs:
            self.add_node(cond, "if", f"not ({self._text(cond)})")
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        v = node.value
        if v is not None and not (isinstance(v, ast.Constant) and (v.value is None or isinstance(v.value, bool))):
            self.add_node(node, "return", "return None", wrap=False)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.add_node(node, "remove", "pass", wrap=False)
        new = _ARITH.get(type(node.op))
        if new is not None:
            start, end = self.src.op_tokens(self.src.end(node.target), self.src.start(node.value), set())
            self.add(node, "arith", start, end, _OP_TEXT[new] + "=", wrap=False)
        self.visit(node.value)

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Call) and _is_text_call(call):
            return
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _COLLECTION_CALLS:
            if any(isinstance(a, ast.Call) and _is_text_call(a) for a in call.args):
                return
            self.add_node(node, "remove", "pass", wrap=False)
        self.generic_visit(node)

    def visit_Break(self, node: ast.Break) -> None:
        self.add_node(node, "loop", "continue", wrap=False)

    def visit_Continue(self, node: ast.Continue) -> None:
        self.add_node(node, "loop", "break", wrap=False)

    # --- expressions ------------------------------------------------------------------------

    def _text(self, node: ast.AST) -> str:
        return self.src.segment(self.src.start(node), self.src.end(node))

    def _replace_between(self, node: ast.AST, left: ast.AST, right: ast.AST, new_op: str, words: set[str], op: str) -> None:
        a, b = self.src.end(left), self.src.start(right)
        ta, tb = self.src.op_tokens(a, b, words)
        whole_a, whole_b = self.src.start(node), self.src.end(node)
        text = self.src.segment(whole_a, ta) + new_op + self.src.segment(tb, whole_b)
        self.add(node, op, whole_a, whole_b, text)

    def visit_Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            new = _COMPARE.get(type(op))
            if new is not None:
                self._replace_between(node, left, right, _OP_TEXT[new], {"is", "not", "in"}, "compare")
            left = right
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        new = _ARITH.get(type(node.op))
        if new is not None:
            self._replace_between(node, node.left, node.right, _OP_TEXT[new], set(), "arith")
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.USub):
            self.add_node(node, "arith", self._text(node.operand))
        elif isinstance(node.op, ast.Not):
            self.add_node(node, "bool", self._text(node.operand))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        new = "or" if isinstance(node.op, ast.And) else "and"
        parts = [self._text(v) for v in node.values]
        whole_a, whole_b = self.src.start(node), self.src.end(node)
        # Keep the original text between operands, swapping only the keywords.
        text = self.src.segment(whole_a, self.src.start(node.values[0]))
        for i, v in enumerate(node.values):
            text += parts[i]
            if i + 1 < len(node.values):
                ta, tb = self.src.op_tokens(self.src.end(v), self.src.start(node.values[i + 1]), {"and", "or"})
                text += self.src.segment(self.src.end(v), ta) + new + self.src.segment(tb, self.src.start(node.values[i + 1]))
        text += self.src.segment(self.src.end(node.values[-1]), whole_b)
        self.add(node, "bool", whole_a, whole_b, text)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _is_text_call(node):
            return
        if isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            other = "max" if node.func.id == "min" else "min"
            self.add(node, "minmax", self.src.start(node.func), self.src.end(node.func), other, wrap=False)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, bool):
            self.add_node(node, "bool", repr(not v))
        elif isinstance(v, int):
            hexa = self._text(node).lower().startswith("0x")
            for new in dict.fromkeys((v + 1, v - 1, 0)):
                if new != v:
                    self.add_node(node, "constant", hex(new) if hexa and new >= 0 else repr(new))
        elif isinstance(v, float):
            self.add_node(node, "constant", repr(v + 1.0))


def _is_guard(test: ast.AST) -> bool:
    """`if TYPE_CHECKING:` and `if __name__ == "__main__":` are not rules."""
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__")


def _is_text_call(call: ast.Call) -> bool:
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name in _TEXT_CALLS:
        return True
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("logging", "logger", "log", "warnings")


def find_mutations(text: str, module: str) -> list[Mutation]:
    """Every mutation of `text` (the source of `module`), in source order."""
    src = _Source(text)
    finder = _Finder(src, module)
    tree = ast.parse(text)
    finder.visit(tree)
    found = sorted(finder.found, key=lambda f: (f["start"], f["end"], f["operator"], f["after"]))
    out = []
    seen = set()
    for f in found:
        key = (f["start"], f["end"], f["after"])
        if key in seen or f["before"] == f["after"]:
            continue
        seen.add(key)
        out.append(f)
    # Contexts: recompute the enclosing def/class of each position from the tree.
    scopes = _scopes(tree)
    module_doc = ast.get_docstring(tree, clean=False) or ""
    callers = _caller_rules(tree, scopes)
    result = []
    for i, f in enumerate(out):
        function, rule = _context_at(scopes, f["start"], module_doc, src, callers)
        result.append(Mutation(module, i, f["operator"], f["start"][0], f["end"][0], f["start"], f["end"],
                               f["before"], f["after"], function, rule))
    return result


def _scopes(tree: ast.AST) -> list[tuple[ast.AST, list[ast.AST]]]:
    out = []

    def walk(node, chain):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append((child, chain + [child]))
                walk(child, chain + [child])
            else:
                walk(child, chain)

    walk(tree, [])
    return out


def _context_at(scopes, pos, module_doc: str, src: _Source, callers) -> tuple[str, str]:
    chain: list[ast.AST] = []
    for node, ch in scopes:
        if src.start(node) <= pos <= src.end(node) and len(ch) > len(chain):
            chain = ch
    funcs = [ast.get_docstring(n, clean=False) for n in reversed(chain) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    classes = [ast.get_docstring(n, clean=False) for n in reversed(chain) if isinstance(n, ast.ClassDef)]
    rule = (rule_id(*funcs) or rule_id(*classes) or (callers(chain[-1]) if chain else "")
            or rule_id(_section_header(src, pos[0])) or rule_id(module_doc))
    return ".".join(n.name for n in chain), rule


def _caller_rules(tree: ast.AST, scopes):
    """For a helper without a rule id: the rule id of the nearest function of the module that calls it."""
    defs = [node for node, _ in scopes if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    refs: dict[int, set[str]] = {}
    for d in defs:
        names = set()
        for n in ast.walk(d):
            if isinstance(n, ast.Name):
                names.add(n.id)
            elif isinstance(n, ast.Attribute):
                names.add(n.attr)
        names.discard(d.name)
        refs[id(d)] = names

    def own(d):
        return rule_id(ast.get_docstring(d, clean=False))

    def find(start) -> str:
        seen = {id(start)}
        frontier = [start]
        for _ in range(4):
            nxt = []
            for target in frontier:
                for d in defs:
                    if id(d) not in seen and target.name in refs[id(d)]:
                        seen.add(id(d))
                        if own(d):
                            return own(d)
                        nxt.append(d)
            frontier = nxt
        return ""

    return find


def _section_header(src: _Source, line: int) -> str:
    """The nearest section comment above `line` (`# --- counter-based generator (DICE-03) ---`)."""
    for i in range(line - 1, 0, -1):
        text = src.lines[i - 1]
        if re.match(r"#\s*-{2,}", text):
            return text
    return ""


def apply_mutation(text: str, m: Mutation) -> str:
    """The source with mutation `m` applied (the text between m.start and m.end replaced by m.after)."""
    src = _Source(text)
    a, b = src.offset(m.start), src.offset(m.end)
    if text[a:b] != m.before:
        raise ValueError(f"{m.id}: the source changed since the mutation was found")
    return text[:a] + m.after + text[b:]
