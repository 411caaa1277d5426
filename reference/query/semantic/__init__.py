"""The semantic channel of search_code: outcome and metadata, budget, fusion, enrichment (docs/semantic.md)."""

from .budget import Budget, budget
from .candidates import SemanticCandidate, enrich
from .channel import DisabledSemanticChannel, SemanticChannel, SemanticOutcome, channel_for
from .fusion import fuse

__all__ = ["Budget", "DisabledSemanticChannel", "SemanticCandidate", "SemanticChannel", "SemanticOutcome", "budget",
           "channel_for", "enrich", "fuse"]
