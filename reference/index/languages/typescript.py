"""TypeScript (`.tsx` with the TSX grammar): the ECMAScript rules plus classes, interfaces, types, enums, namespaces.

The members of an object type are definitions where an interface's body or a type alias holds them, not where a
variable's or a parameter's annotation writes one (`const Z: { string: "string" }`: no `string` of the file's level)."""

from __future__ import annotations

from . import ecma
from .rules import LanguageRules

DEFINITIONS = ecma.DEFINITIONS + """
(class_declaration name: (type_identifier) @name) @class
(abstract_class_declaration name: (type_identifier) @name) @class
(interface_declaration name: (type_identifier) @name) @interface
(type_alias_declaration name: (type_identifier) @name) @type_alias
(enum_declaration name: (identifier) @name) @enum
(internal_module name: (identifier) @name) @module
(abstract_method_signature name: (property_identifier) @name) @method
(public_field_definition name: (property_identifier) @name) @field
(interface_body (method_signature name: (property_identifier) @name) @method)
(class_body (method_signature name: (property_identifier) @name) @method)
(type_alias_declaration value: (object_type (method_signature name: (property_identifier) @name) @method))
(interface_body (property_signature name: (property_identifier) @name) @field)
(type_alias_declaration value: (object_type (property_signature name: (property_identifier) @name) @field))
(internal_module body: (statement_block (lexical_declaration (variable_declarator name: (identifier) @name) @variable)))
(internal_module body: (statement_block (export_statement declaration: (lexical_declaration
  (variable_declarator name: (identifier) @name) @variable))))
"""
# Parameters, variables and class fields by their annotations (a constructor's parameter property is also a member),
# besides `new`; a variable a call makes by what the function or method is declared to return (`@returns`; awaited,
# the type a `Promise<T>` gives: `Promise` names no type of the tree, so `T` is the one its bases keep); the class a
# class extends and the interfaces an interface extends (`@base`); a `for ... of` loop's variable by its container's
# element type (`@iterated`: `c` of `for (const c of carts)`, `carts: Cart[]`).
LOCALS = ecma.LOCALS + """
(class_heritage (extends_clause value: (_) @base))
(interface_declaration (extends_type_clause type: (_) @base))
(required_parameter pattern: (identifier) @local type: (type_annotation (_) @type))
(optional_parameter pattern: (identifier) @local type: (type_annotation (_) @type))
(for_in_statement left: (identifier) @local operator: "of" right: [(identifier) (member_expression)] @iterated)
(variable_declarator name: (identifier) @local type: (type_annotation (_) @type))
(required_parameter (accessibility_modifier) @member pattern: (identifier) @local type: (type_annotation (_) @type))
(public_field_definition name: (property_identifier) @local type: (type_annotation (_) @type))
(public_field_definition name: (property_identifier) @local !type value: (new_expression constructor: (_) @type))
(variable_declarator name: (identifier) @local !type value: (call_expression
  function: [(identifier) (member_expression)] @made_by))
(variable_declarator name: (identifier) @local !type value: (await_expression (call_expression
  function: [(identifier) (member_expression)] @made_by)))
""" + "".join(f"""({definition} return_type: (type_annotation (_) @returns))
({definition} return_type: (type_annotation (generic_type name: (type_identifier) @_promise
  (#eq? @_promise "Promise") type_arguments: (type_arguments . (_) @returns .))))
""" for definition in ("function_declaration", "function_signature", "method_definition", "method_signature"))

RULES = LanguageRules(
    name="typescript", grammars={".ts": "typescript", ".tsx": "tsx", ".mts": "typescript", ".cts": "typescript"},
    definitions_query=DEFINITIONS, calls_query=ecma.CALLS, imports_query=ecma.IMPORTS, separator=".",
    visibility=ecma.visibility, imports_of=ecma.imports_of, kind_of=ecma.kind_of, locals_query=LOCALS,
    exports_query=ecma.EXPORTS,
)
