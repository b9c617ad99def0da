"""The report judge: a model scores reports on the evaluation rubric (absolute, against a
reference report, or two reports against each other).

Calls go through :class:`Meter` (timeout, bounded retries, bounded repair of malformed
answers, tokens and cost). A judge has a call budget (``max_calls``): past it, judgments
are skipped and say so. A failed call never raises: the judgment carries the error and no
scores, so one bad answer does not stop an evaluation.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field, model_validator

from ..errors import UserError, remember_secret_env
from . import rubric
from ..research.runtime.meter import Meter, ModelCallError, describe
from ..research.runtime.providers import ModelFactory, default_model_factory, missing_credentials_message

_NAMES = ", ".join(rubric.CRITERIA)


def _check_criteria(items: list, what: str) -> None:
    keys = [i.criterion for i in items]
    missing = [k for k in rubric.CRITERIA if k not in keys]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    unknown = sorted(set(keys) - set(rubric.CRITERIA))
    problems = ([f"missing {', '.join(missing)}"] if missing else []) + \
               ([f"repeated {', '.join(twice)}"] if twice else []) + \
               ([f"unknown {', '.join(unknown)}"] if unknown else [])
    if problems:
        raise ValueError(f"{what} must have each criterion ({_NAMES}) exactly once: " + "; ".join(problems))


class CriterionScore(BaseModel):
    criterion: str
    score: float = Field(ge=0, le=10)
    justification: str = ""


class RubricScores(BaseModel):
    scores: list[CriterionScore]

    @model_validator(mode="after")
    def _all(self):
        _check_criteria(self.scores, "scores")
        return self


class CriterionPair(BaseModel):
    criterion: str
    report_1: float = Field(ge=0, le=10)
    report_2: float = Field(ge=0, le=10)
    justification: str = ""


class PairScores(BaseModel):
    scores: list[CriterionPair]

    @model_validator(mode="after")
    def _all(self):
        _check_criteria(self.scores, "scores")
        return self


class CriterionWinner(BaseModel):
    criterion: str
    winner: Literal["1", "2", "tie"]
    justification: str = ""


class PairwiseVerdict(BaseModel):
    criteria: list[CriterionWinner]
    overall: Literal["1", "2", "tie"]
    justification: str = ""

    @model_validator(mode="before")
    @classmethod
    def _numbers_as_text(cls, data):  # models often answer 1 / 2 as numbers
        if isinstance(data, dict):
            data = dict(data)
            if isinstance(data.get("overall"), int):
                data["overall"] = str(data["overall"])
            for c in data.get("criteria") or []:
                if isinstance(c, dict) and isinstance(c.get("winner"), int):
                    c["winner"] = str(c["winner"])
        return data

    @model_validator(mode="after")
    def _all(self):
        _check_criteria(self.criteria, "criteria")
        return self


def _short(text: str) -> str:
    return " ".join(text.split())[:400]


def judge_spec(model: str, *, base_url: str | None = None, api_key_env: str | None = None,
               timeout_s: float = 180.0, max_tokens: int = 2000) -> dict:
    """A model spec for the judge (the same shape as Configuration.model_spec)."""
    provider, colon, name = model.strip().partition(":")
    if not colon:
        provider, name = "openai", provider
    if not name.strip() or not provider.strip():
        raise UserError(f"--judge-model {model!r} is not provider:model (e.g. openai:gpt-4.1)")
    remember_secret_env(api_key_env)
    return {"role": "judge", "provider": provider, "model": name, "max_tokens": max_tokens,
            "base_url": base_url or os.environ.get("OPENAI_BASE_URL") or None, "api_key_env": api_key_env,
            "timeout": timeout_s, "max_retries": 0}


def judge_model(spec: dict, factory: ModelFactory | None = None) -> BaseChatModel:
    factory = factory or default_model_factory
    if factory is default_model_factory:
        problem = missing_credentials_message(spec)
        if problem:
            raise UserError(f"the judge model {spec['provider']}:{spec['model']} cannot be used: {problem} "
                            "(for the judge: --judge-base-url, --judge-api-key-env)")
    return factory(spec)


@dataclass
class ReportJudge:
    """``meter`` holds the call settings and the judge's total usage; each judgment is
    metered on its own copy, and reports its own tokens and cost (``usage``)."""

    model: BaseChatModel
    meter: Meter
    structured_output: str = "auto"
    max_calls: int | None = None  # None: no limit
    max_report_chars: int = rubric.MAX_REPORT_CHARS
    name: str = ""
    calls: int = 0
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def create(cls, spec: dict, *, factory: ModelFactory | None = None, max_calls: int | None = None,
               max_retries: int = 3, structured_output: str = "auto", prices: dict | None = None) -> "ReportJudge":
        meter = Meter("judge", timeout_s=spec["timeout"], max_retries=max_retries, prices=prices)
        return cls(judge_model(spec, factory), meter, structured_output, max_calls,
                   name=f"{spec['provider']}:{spec['model']}")

    @property
    def usage(self) -> dict:
        return self.meter.usage.as_dict()

    def _meter(self) -> Meter:
        m = self.meter
        return Meter(m.node, timeout_s=m.timeout_s, max_retries=m.max_retries, backoff_s=m.backoff_s,
                     max_backoff_s=m.max_backoff_s, prices=m.prices, fallback_price=m.fallback_price)

    def _done(self, meter: Meter, result: dict) -> dict:
        self.meter.usage.add(meter.usage)
        return {**result, "usage": meter.usage.as_dict()}

    async def _reserve(self, n: int) -> bool:
        async with self._lock:
            if self.max_calls is not None and self.calls + n > self.max_calls:
                return False
            self.calls += n
            return True

    async def _ask(self, meter: Meter, schema, prompt: str):
        return await meter.structured(self.model, schema, [HumanMessage(prompt)], self.structured_output)

    def _skipped(self) -> dict:
        return {"error": f"not judged: the judge call limit ({self.max_calls}) was reached", "skipped": True}

    async def score(self, task: str, report: str, reference: str | None = None, *, key: str = "") -> dict:
        """Rubric scores of a report (0-10 per criterion, overall 0-100); with a reference,
        both are scored in one call and RACE-style relative scores are added."""
        if not await self._reserve(1):
            return self._skipped()
        meter = self._meter()
        return self._done(meter, await self._score(meter, task, report, reference, key))

    async def _score(self, meter: Meter, task: str, report: str, reference: str | None, key: str) -> dict:
        shown, cut = rubric.clip(report, self.max_report_chars)
        try:
            if reference is None:
                prompt = rubric.SCORE_PROMPT.format(task=task, report=shown, rubric=rubric.rubric_text(),
                                                    scale=rubric.SCALE, names=_NAMES)
                ans = await self._ask(meter, RubricScores, prompt)
                crit = {s.criterion: {"score": s.score, "justification": _short(s.justification)} for s in ans.scores}
                return {"criteria": crit, "overall": rubric.weighted({k: v["score"] for k, v in crit.items()}),
                        "truncated": cut, "error": None}
            ref_shown, ref_cut = rubric.clip(reference, self.max_report_chars)
            target_first = rubric.order_for(key or task)
            one, two = (shown, ref_shown) if target_first else (ref_shown, shown)
            prompt = rubric.REFERENCE_PROMPT.format(task=task, report_1=one, report_2=two, rubric=rubric.rubric_text(),
                                                    scale=rubric.SCALE, names=_NAMES)
            ans = await self._ask(meter, PairScores, prompt)
        except ModelCallError as e:
            return {"error": f"the judge failed: {describe(e)[:300]}", "criteria": None, "overall": None,
                    "truncated": cut}
        target = {s.criterion: (s.report_1 if target_first else s.report_2) for s in ans.scores}
        ref = {s.criterion: (s.report_2 if target_first else s.report_1) for s in ans.scores}
        why = {s.criterion: _short(s.justification) for s in ans.scores}
        return {"criteria": {k: {"score": target[k], "reference_score": ref[k], "justification": why[k]}
                             for k in target},
                "overall": rubric.weighted(target), "reference_overall": rubric.weighted(ref),
                "relative": rubric.relative(target, ref), "truncated": cut or ref_cut, "error": None}

    async def pairwise(self, task: str, report_a: str, report_b: str) -> dict:
        """Which of two reports is better per criterion and overall. Judged twice, with the
        reports in both orders; a side wins only where both orders agree."""
        if not await self._reserve(2):
            return self._skipped()
        meter = self._meter()
        return self._done(meter, await self._pairwise(meter, task, report_a, report_b))

    async def _pairwise(self, meter: Meter, task: str, report_a: str, report_b: str) -> dict:
        a, cut_a = rubric.clip(report_a, self.max_report_chars)
        b, cut_b = rubric.clip(report_b, self.max_report_chars)
        prompts = [rubric.PAIRWISE_PROMPT.format(task=task, report_1=x, report_2=y, rubric=rubric.rubric_text(),
                                                 names=_NAMES) for x, y in ((a, b), (b, a))]
        results = await asyncio.gather(*(self._ask(meter, PairwiseVerdict, p) for p in prompts), return_exceptions=True)
        for r in results:
            if isinstance(r, BaseException):
                if not isinstance(r, ModelCallError):
                    raise r
                return {"error": f"the judge failed: {describe(r)[:300]}", "criteria": None, "overall": None}
        ab, ba = results
        swap = {"1": "B", "2": "A", "tie": "tie"}
        first = {c.criterion: {"1": "A", "2": "B", "tie": "tie"}[c.winner] for c in ab.criteria}
        second = {c.criterion: swap[c.winner] for c in ba.criteria}
        winners = rubric.combine_pairwise(first, second)
        overall_first = {"1": "A", "2": "B", "tie": "tie"}[ab.overall]
        overall = overall_first if overall_first == swap[ba.overall] else "tie"
        why = {c.criterion: _short(c.justification) for c in ab.criteria}
        return {"criteria": {k: {"winner": winners[k], "orders": [first[k], second[k]], "justification": why[k]}
                             for k in winners},
                "overall": overall, "orders": [overall_first, swap[ba.overall]],
                "justification": _short(ab.justification), "truncated": cut_a or cut_b, "error": None}
