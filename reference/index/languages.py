"""The languages the indexer understands: file extensions, grammars and tree-sitter queries.

Each language has one definitions query (a capture named after the kind on the
definition node plus `@name`), one calls query (`@callee`, optional `@recv`) and one imports query. Captures are evaluated in C by tree-sitter; the
Python side only reads the matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tree_sitter import Language, Parser, Query
from tree_sitter_language_pack import get_language

# extension -> (language reported in the index, grammar name in the language pack)
EXTENSIONS: dict[str, tuple[str, str]] = {
    ".py": ("python", "python"),
    ".pyi": ("python", "python"),
    ".rs": ("rust", "rust"),
    ".ts": ("typescript", "typescript"),
    ".mts": ("typescript", "typescript"),
    ".cts": ("typescript", "typescript"),
    ".tsx": ("typescript", "tsx"),
    ".js": ("javascript", "javascript"),
    ".mjs": ("javascript", "javascript"),
    ".cjs": ("javascript", "javascript"),
    ".jsx": ("javascript", "javascript"),
    ".go": ("go", "go"),
}

_PYTHON_DEFS = """
(function_definition name: (identifier) @name) @function
(class_definition name: (identifier) @name) @class
(module (assignment left: (identifier) @name) @variable)
(module (expression_statement (assignment left: (identifier) @name) @variable))
(class_definition body: (block (assignment left: (identifier) @name) @field))
(class_definition body: (block (expression_statement (assignment left: (identifier) @name) @field)))
"""
_PYTHON_CALLS = """
(call function: (identifier) @callee)
(call function: (attribute object: (_) @recv attribute: (identifier) @callee))
"""
_PYTHON_IMPORTS = """
(import_statement) @import
(import_from_statement) @import
"""

_RUST_DEFS = """
(function_item name: (identifier) @name) @function
(function_signature_item name: (identifier) @name) @function
(struct_item name: (type_identifier) @name) @struct
(union_item name: (type_identifier) @name) @struct
(enum_item name: (type_identifier) @name) @enum
(trait_item name: (type_identifier) @name) @trait
(type_item name: (type_identifier) @name) @type_alias
(const_item name: (identifier) @name) @constant
(static_item name: (identifier) @name) @variable
(mod_item name: (identifier) @name) @module
(field_declaration name: (field_identifier) @name) @field
(impl_item type: (_) @name) @impl
"""
_RUST_CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (scoped_identifier path: (_) @recv name: (identifier) @callee))
(call_expression function: (field_expression value: (_) @recv field: (field_identifier) @callee))
"""
_RUST_IMPORTS = """
(use_declaration argument: (_) @use) @import
"""

# Definitions TypeScript and JavaScript write the same way: functions, methods, top-level variables.
_ECMA_DEFS = """
(function_declaration name: (identifier) @name) @function
(generator_function_declaration name: (identifier) @name) @function
(method_definition name: (property_identifier) @name) @method
(program (lexical_declaration (variable_declarator name: (identifier) @name) @variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @variable)))
"""
_TS_DEFS = _ECMA_DEFS + """
(class_declaration name: (type_identifier) @name) @class
(abstract_class_declaration name: (type_identifier) @name) @class
(interface_declaration name: (type_identifier) @name) @interface
(type_alias_declaration name: (type_identifier) @name) @type_alias
(enum_declaration name: (identifier) @name) @enum
(internal_module name: (identifier) @name) @module
(method_signature name: (property_identifier) @name) @method
(abstract_method_signature name: (property_identifier) @name) @method
(public_field_definition name: (property_identifier) @name) @field
(property_signature name: (property_identifier) @name) @field
(internal_module body: (statement_block (lexical_declaration (variable_declarator name: (identifier) @name) @variable)))
(internal_module body: (statement_block (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @variable))))
"""
_JS_DEFS = _ECMA_DEFS + """
(class_declaration name: (identifier) @name) @class
(field_definition property: (property_identifier) @name) @field
"""
_JS_CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (member_expression object: (_) @recv property: (property_identifier) @callee))
(new_expression constructor: (identifier) @callee)
"""
_JS_IMPORTS = """
(import_statement source: (string (string_fragment) @source)) @import
"""

_GO_DEFS = """
(function_declaration name: (identifier) @name) @function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @recv)) name: (field_identifier) @name) @method
(type_spec name: (type_identifier) @name type: (_) @body) @type
(type_alias name: (type_identifier) @name) @type_alias
(source_file (const_declaration (const_spec name: (identifier) @name) @constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @variable))
(field_declaration name: (field_identifier) @name) @field
(method_elem name: (field_identifier) @name) @method
"""
_GO_CALLS = """
(call_expression function: (identifier) @callee)
(call_expression function: (selector_expression operand: (_) @recv field: (field_identifier) @callee))
"""
_GO_IMPORTS = """
(import_spec path: (_) @path) @import
"""

QUERIES: dict[str, tuple[str, str, str]] = {
    "python": (_PYTHON_DEFS, _PYTHON_CALLS, _PYTHON_IMPORTS),
    "rust": (_RUST_DEFS, _RUST_CALLS, _RUST_IMPORTS),
    "typescript": (_TS_DEFS, _JS_CALLS, _JS_IMPORTS),
    "tsx": (_TS_DEFS, _JS_CALLS, _JS_IMPORTS),
    "javascript": (_JS_DEFS, _JS_CALLS, _JS_IMPORTS),
    "go": (_GO_DEFS, _GO_CALLS, _GO_IMPORTS),
}


@dataclass(frozen=True)
class Grammar:
    """A loaded grammar: its parser and one query holding definitions, calls and imports patterns.

    One query means one walk of the tree (each walk costs about as much as a parse);
    `calls_from` and `imports_from` are the first pattern index of each group.
    """

    name: str
    parser: Parser
    query: Query
    calls_from: int
    imports_from: int
    errors: Query


def language_of(path: str) -> tuple[str, str] | None:
    """(language, grammar name) for a relative path, or None when no grammar handles it."""
    dot = path.rfind(".")
    return None if dot < 0 else EXTENSIONS.get(path[dot:].lower())


@cache
def grammar(name: str) -> Grammar:
    """The parser and compiled queries of grammar `name` (built once per process)."""
    lang: Language = get_language(name)  # type: ignore[arg-type]
    defs, calls, imports = QUERIES[name]
    calls_from = Query(lang, defs).pattern_count
    imports_from = calls_from + Query(lang, calls).pattern_count
    return Grammar(name, Parser(lang), Query(lang, defs + calls + imports), calls_from, imports_from,
                   Query(lang, "(ERROR) @error"))


def grammar_names() -> list[str]:
    """Every grammar the indexer loads."""
    return sorted(QUERIES)
