"""JavaScript (`.js .jsx .mjs .cjs`): the ECMAScript rules plus classes and class fields."""

from __future__ import annotations

from . import ecma
from .rules import LanguageRules

DEFINITIONS = ecma.DEFINITIONS + """
(class_declaration name: (identifier) @name) @class
(field_definition property: (property_identifier) @name) @field
"""

# A class field `new` gives a value of a class; the class a class extends (`@base`).
LOCALS = ecma.LOCALS + """
(class_heritage (_) @base)
(field_definition property: (property_identifier) @local value: (new_expression constructor: (_) @type))
"""

RULES = LanguageRules(
    name="javascript", grammars={".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript"},
    definitions_query=DEFINITIONS, calls_query=ecma.CALLS, imports_query=ecma.IMPORTS, separator=".",
    visibility=ecma.visibility, imports_of=ecma.imports_of, kind_of=ecma.kind_of, locals_query=LOCALS,
    exports_query=ecma.EXPORTS,
)
