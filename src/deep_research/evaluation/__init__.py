"""Evaluation of published runs: report checks, citation accuracy the FACT way, a synthesis
score, behaviour expectations, DeepResearch Bench import/export and comparison reports.

Everything here is pure (files in, numbers out): no model code is imported. The LLM judge
and the runner of question sets live with the model calls, in ``research/``."""
