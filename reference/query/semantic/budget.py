"""The hybrid candidate budget: configured multipliers x limit, floored and capped (seed 000, 'effective values')."""

from __future__ import annotations

from dataclasses import dataclass

# (floor, cap) of each budget: the floors keep small pages from starving fusion, the caps bound a
# misconfigured multiplier's latency and memory.
SEMANTIC_LIMIT_BOUNDS = (20, 1000)
LEXICAL_FANOUT_BOUNDS = (40, 2000)
SEMANTIC_FANOUT_BOUNDS = (30, 1000)


@dataclass(frozen=True, slots=True)
class Budget:
    """Effective values: nearest symbols asked of the index, lexical and semantic candidates entering fusion."""

    semantic_limit: int
    lexical_fanout: int
    semantic_fanout: int

    @property
    def semantic_cap(self) -> int:
        """How many semantic candidates can reach fusion at most."""
        return min(self.semantic_limit, self.semantic_fanout)

    def metadata(self) -> dict[str, int]:
        """The `*_used` metadata fields."""
        return {"semantic_limit_used": self.semantic_limit, "lexical_fanout_used": self.lexical_fanout,
                "semantic_fanout_used": self.semantic_fanout}


def bounded(limit: int, multiplier: int, bounds: tuple[int, int]) -> int:
    """limit x multiplier, raised to the floor and lowered to the cap."""
    floor, cap = bounds
    return min(max(limit * multiplier, floor), cap)


def budget(limit: int, semantic_limit_multiplier: int, lexical_fanout_multiplier: int,
           semantic_fanout_multiplier: int) -> Budget:
    """The effective budget of one search_code call."""
    return Budget(bounded(limit, semantic_limit_multiplier, SEMANTIC_LIMIT_BOUNDS),
                  bounded(limit, lexical_fanout_multiplier, LEXICAL_FANOUT_BOUNDS),
                  bounded(limit, semantic_fanout_multiplier, SEMANTIC_FANOUT_BOUNDS))
