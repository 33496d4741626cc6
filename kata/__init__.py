"""Write it yourself: judge a candidate's metric implementation on hidden cases in a sandbox.

May import: :mod:`teaching` and :mod:`metrics` (the model solutions' conventions and the named mistakes);
never Streamlit. The sandboxed harness imports nothing of the project at all.

>>> sorted(PROBLEMS)[:3]
['auc', 'average_precision_at_k', 'dcg_at_k']
"""

from kata.judge import Failure, Result, run, submit
from kata.problems import PROBLEMS, Problem
from kata.sandbox import SandboxUnavailable

__all__ = ["PROBLEMS", "Failure", "Problem", "Result", "SandboxUnavailable", "run", "submit"]
