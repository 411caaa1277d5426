"""C: functions, macros, structs, unions, enums, `typedef`s and the file's variables as symbols (`static` ones private,
prototypes and `extern` declarations left out), the comment above a definition as its doc, `#include`s as imports, and
calls resolved by name across the program, through a member's declared struct, never to a type."""

from __future__ import annotations

from pathlib import Path

from cruxgate.reference.index import index_workspace
from cruxgate.reference.index.extract import extract

from .conftest import edge_targets, write_tree

SHAPES = """#include "list.h"
#include <stdio.h>
#define MAX 10
#define SQUARE(x) ((x) * (x))

/** A point of the plane. */
struct point { int x, y; void (*moved)(struct point *); };
typedef struct { int a; } anon_t;
// Nodes of a list,
// one per item.
typedef struct node { int value; } node_t;
typedef int (*handler)(void *);
union number { int i; double d; };
enum color { RED, GREEN };
static int counter = 0, other;
const char *names[] = {"a"};
static const int LIMIT = 3;
extern int elsewhere;
int prototype(int);

/* Adds two numbers. */
static inline int add(int a, int b) { return a + b; }

char **split(const char *s) {
    return 0;
}
#ifdef WINDOWS
int windows_only = 1;
#endif
"""


def test_a_c_file_gives_its_definitions_as_symbols() -> None:
    result = extract("src/shapes.c", SHAPES.encode(), "c", "c")
    assert [(s.name, s.qualified_name, s.kind, s.visibility, s.doc) for s in result.symbols] == [
        ("MAX", "MAX", "constant", "public", None),
        ("SQUARE", "SQUARE", "function", "public", None),  # a macro with parameters is called like a function
        ("point", "point", "struct", "public", "A point of the plane."),
        ("x", "point.x", "field", "public", None),
        ("y", "point.y", "field", "public", None),  # a declaration's second name
        ("moved", "point.moved", "field", "public", None),  # a function pointer
        ("anon_t", "anon_t", "struct", "public", None),  # an unnamed struct is known by its `typedef`
        ("a", "anon_t.a", "field", "public", None),
        ("node", "node", "struct", "public", "Nodes of a list,"),  # the first of a run of `//` lines
        ("value", "node.value", "field", "public", None),
        ("node_t", "node_t", "type_alias", "public", None),  # beside the struct, not around it
        ("handler", "handler", "type_alias", "public", None),
        ("number", "number", "struct", "public", None),  # a union
        ("i", "number.i", "field", "public", None),
        ("d", "number.d", "field", "public", None),
        ("color", "color", "enum", "public", None),
        ("RED", "color.RED", "constant", "public", None),
        ("GREEN", "color.GREEN", "constant", "public", None),
        ("counter", "counter", "variable", "private", None),  # `static`: the file's own
        ("other", "other", "variable", "private", None),
        ("names", "names", "variable", "public", None),  # an array of pointers to `const`
        ("LIMIT", "LIMIT", "constant", "private", None),  # `const` itself
        ("add", "add", "function", "private", "Adds two numbers."),
        ("split", "split", "function", "public", None),  # its name under two `*`s
        ("windows_only", "windows_only", "variable", "public", None)]  # in a block of the preprocessor
    signatures = {s.name: s.signature for s in result.symbols}
    assert signatures["add"] == "static inline int add(int a, int b)"
    assert signatures["SQUARE"] == "#define SQUARE(x) ((x) * (x))"
    assert [(e[1], e[2], e[3]) for e in result.edges] == [(1, "import", "list.h"), (2, "import", "stdio.h")]


TREE = {
    "include/list.h": "#ifndef LIST_H\n#define LIST_H\nstruct stat { int size; };\n"
                      "struct list { int len; void (*release)(struct list *); };\n"
                      "int list_len(const struct list *l);\n#define LIST_EMPTY(l) (list_len(l) == 0)\n"
                      "static inline int list_first(void) { return 0; }\n"
                      "#ifdef DEBUG\n#define CHECK(x) assert(x)\n#else\n#define CHECK(x)\n#endif\n#endif\n",
    "src/list.c": "#include \"list.h\"\n\nstatic int helper(int n) { return n; }\n\n"
                  "int list_len(const struct list *l) { return helper(l->len); }\n\n"
                  "int stat(const char *path) { return 0; }\n",
    "src/main.c": "#include <stdio.h>\n#include \"../include/list.h\"\n\nstatic int helper(int n) { return n + 1; }\n\n"
                  "#ifdef WIDE\n#define SAY(s) wputs(s)\n#else\n"
                  "#define SAY(s) puts(s)\n#endif\n\nint main(void) {\n    struct list *l = 0;\n    helper(1);\n"
                  "    list_len(l);\n    LIST_EMPTY(l);\n    stat(\"x\");\n    l->release(l);\n    printf(\"x\");\n"
                  "    SAY(\"y\");\n    list_first();\n    CHECK(l);\n    return 0;\n}\n",
    "src/other.c": "static int helper(int n) { return n + 2; }\n\nint run(void) {\n    return helper(0) + main();\n}\n",
}


def test_c_calls_resolve_by_name_across_the_program(tmp_path: Path) -> None:
    write_tree(tmp_path, TREE)
    index_workspace(tmp_path)
    rows = [(path, line, kind, name, target, qualified, first) for path, line, kind, name, target, qualified, _, first
            in edge_targets(tmp_path) if path != "include/list.h"]
    assert rows == [
        ("src/list.c", 1, "import", "list.h", None, None, None),  # an `#include` names a file, no symbol
        ("src/list.c", 5, "call", "helper", "src/list.c", "helper", 3),  # each file's `static` function its own
        ("src/main.c", 1, "import", "stdio.h", None, None, None),
        ("src/main.c", 2, "import", "../include/list.h", None, None, None),
        ("src/main.c", 14, "call", "helper", "src/main.c", "helper", 4),
        ("src/main.c", 15, "call", "list_len", "src/list.c", "list_len", 5),  # the definition, not the prototype
        ("src/main.c", 16, "call", "LIST_EMPTY", "include/list.h", "LIST_EMPTY", 6),  # a macro of a header
        ("src/main.c", 17, "call", "stat", "src/list.c", "stat", 7),  # the function, not `struct stat`
        ("src/main.c", 18, "call", "l.release", "include/list.h", "list.release", 4),  # `struct list *l`'s member
        ("src/main.c", 19, "call", "printf", None, None, None),  # the C library's
        ("src/main.c", 20, "call", "SAY", "src/main.c", "SAY", 9),  # the last of a macro's definitions
        ("src/main.c", 21, "call", "list_first", "include/list.h", "list_first", 7),  # a header's `static inline`
        ("src/main.c", 22, "call", "CHECK", "include/list.h", "CHECK", 11),  # a header's, defined again in it
        ("src/other.c", 4, "call", "helper", "src/other.c", "helper", 1),
        ("src/other.c", 4, "call", "main", "src/main.c", "main", 12)]
