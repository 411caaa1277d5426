"""The languages the indexer understands, one module each; this table lists them and maps file extensions to them.

A language module holds its tree-sitter queries and the rules a query cannot say, as one
`LanguageRules` record (`rules.py`); `grammar.py` compiles a grammar's queries once per process.
"""

from __future__ import annotations

from . import c, cpp, csharp, go, java, javascript, kotlin, php, python, ruby, rust, scala, swift, typescript
from .rules import LanguageRules

LANGUAGES: dict[str, LanguageRules] = {
    rules.name: rules for rules in (python.RULES, rust.RULES, typescript.RULES, javascript.RULES, go.RULES,
                                   java.RULES, c.RULES, cpp.RULES, csharp.RULES, kotlin.RULES, ruby.RULES,
                                   php.RULES, swift.RULES, scala.RULES)
}

# extension -> (language reported in the index, grammar name in the language pack)
EXTENSIONS: dict[str, tuple[str, str]] = {
    extension: (rules.name, grammar) for rules in LANGUAGES.values() for extension, grammar in rules.grammars.items()
}

# grammar name -> the language whose queries it runs (TypeScript has two grammars: typescript and tsx)
RULES_OF_GRAMMAR: dict[str, LanguageRules] = {
    grammar: rules for rules in LANGUAGES.values() for grammar in rules.grammars.values()
}


# Other spellings of the languages' names (what a `language` filter may be given: `c++`, `C#`, `ts`) -> the name the
# index reports.
SPELLINGS: dict[str, str] = {
    "c++": "cpp", "cxx": "cpp", "c#": "csharp", "cs": "csharp", "kt": "kotlin", "kts": "kotlin", "ts": "typescript",
    "tsx": "typescript", "js": "javascript", "jsx": "javascript", "py": "python", "golang": "go", "rs": "rust",
    "rb": "ruby",
}


def canonical_language(name: str | None) -> str | None:
    """The index's name of a language named `name` in any case or another spelling (`C++` -> `cpp`); a name it does
    not know, as given (it matches nothing)."""
    if name is None:
        return None
    lowered = name.strip().lower()
    return SPELLINGS.get(lowered, lowered if lowered in LANGUAGES else name)


def language_of(path: str, data: bytes | None = None) -> tuple[str, str] | None:
    """(language, grammar name) for a relative path (and its bytes, when read: a `.h` file that reads as C++ is C++'s,
    `cpp.reads_as_cpp`), or None when no grammar handles it."""
    dot = path.rfind(".")
    found = None if dot < 0 else EXTENSIONS.get(path[dot:].lower())
    if data is not None and found is not None and path[dot:].lower() == ".h" and cpp.reads_as_cpp(data):
        return ("cpp", "cpp")
    return found
