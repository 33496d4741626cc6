"""Five small, real recommenders, each trained in seconds on ML-100K and scoring every item for every user.

Each model is ``fit(X)`` on the binary user x item matrix of the training set (``scipy.sparse`` CSR) and
``scores(users)``, a dense ``len(users) x n_items`` float array, higher is better. Ranking and the exclusion of
items a user has already seen are the caller's (:mod:`protocols.evaluation`), so every model is ranked alike.

- :class:`Random`: uniform scores (the floor every protocol should keep at the bottom).
- :class:`MostPopular`: the number of training users of each item.
- :class:`ItemKNN`: item-item cosine with shrinkage (``S_ij = x_i.x_j / (|x_i| |x_j| + shrink)``), the
  ``neighbours`` most similar items kept per item; a user's score sums the similarities to the items they have.
- :class:`EASE`: Steck (WWW 2019): ``B = I - P diagMat(1 / diag(P))`` with ``P = (X^T X + lambda I)^-1``,
  zero diagonal; scores ``X B``.
- :class:`MatrixFactorisation`: implicit-feedback ALS (Hu, Koren and Volinsky 2008) from the ``implicit``
  library, seeded; it uses every core (each user's and each item's solve is independent, so the
  factors do not depend on the number of threads).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # imported where a matrix is built: `python -m metrics evaluate` names the models in its help
    import scipy.sparse as sp


@dataclass(frozen=True)
class Hyperparameter:
    """One hyperparameter of a model: its default, its type (``int`` or ``float``, the default's) and the
    smallest value that makes sense (``above``: strictly greater than ``minimum``)."""

    name: str
    default: int | float
    minimum: float
    above: bool = False
    meaning: str = ""

    @property
    def kind(self) -> type:
        return type(self.default)

    def allowed(self) -> str:
        """The range in words, e.g. ``an integer >= 1`` or ``a number > 0``."""
        return f"{'an integer' if self.kind is int else 'a number'} {'>' if self.above else '>='} {self.minimum:g}"

    def parse(self, text: str) -> int | float:
        """``text`` as this hyperparameter's value; :class:`ValueError` naming the allowed range otherwise."""
        try:
            # int("2.5") and int("1e3") fail: an integer is written as one
            return self.value(self.kind(text.strip()))
        except ValueError:
            raise ValueError(f"must be {self.allowed()}, got {text!r}") from None

    def value(self, value) -> int | float:
        """``value`` as this hyperparameter's type if it is one and in range; :class:`ValueError` otherwise."""
        whole = isinstance(value, (int, np.integer)) or (isinstance(value, (float, np.floating))
                                                         and float(value).is_integer())
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or (
                self.kind is int and not whole) or not math.isfinite(value) or value < self.minimum or (
                self.above and value == self.minimum):
            raise ValueError(f"must be {self.allowed()}, got {value!r}")
        return self.kind(value)


def hyperparameter(default: int | float, minimum: float, *, above: bool = False, meaning: str = ""):
    """A model's dataclass field that is a hyperparameter (:func:`hyperparameters` reads them back)."""
    return field(default=default, metadata={"hyperparameter": (minimum, above, meaning)})


def interaction_matrix(user_codes: np.ndarray, item_codes: np.ndarray, n_users: int, n_items: int) -> sp.csr_matrix:
    """The binary user x item matrix (a repeated pair counts once)."""
    import scipy.sparse as sp

    data = np.ones(len(user_codes), dtype=np.float32)
    X = sp.csr_matrix((data, (user_codes, item_codes)), shape=(n_users, n_items))
    X.data[:] = 1.0
    return X


@dataclass
class Random:
    seed: int = 0
    name: str = "random"

    def fit(self, X: sp.csr_matrix) -> "Random":
        # drawn once for every (user, item): a user's scores are the same whichever users are scored with it
        self.table = np.random.default_rng(self.seed).random(X.shape, dtype=np.float32)
        return self

    def scores(self, users: np.ndarray) -> np.ndarray:
        return self.table[users]


@dataclass
class MostPopular:
    name: str = "pop"

    def fit(self, X: sp.csr_matrix) -> "MostPopular":
        self.counts = np.asarray(X.sum(axis=0)).ravel().astype(np.float64)
        return self

    def scores(self, users: np.ndarray) -> np.ndarray:
        return np.broadcast_to(self.counts, (len(users), len(self.counts))).copy()


@dataclass
class ItemKNN:
    neighbours: int = hyperparameter(100, 1, meaning="the most similar items kept per item")
    shrink: float = hyperparameter(10.0, 0.0, meaning="added to the cosine's denominator")
    name: str = "itemknn"

    def fit(self, X: sp.csr_matrix) -> "ItemKNN":
        self.X = X
        gram = (X.T @ X).toarray().astype(np.float64)
        norms = np.sqrt(np.diag(gram))
        similarity = gram / (np.outer(norms, norms) + self.shrink)
        np.fill_diagonal(similarity, 0.0)
        if self.neighbours < similarity.shape[0]:
            # keep each item's (column's) `neighbours` largest similarities
            cut = np.argpartition(-similarity, self.neighbours, axis=0)[self.neighbours:]
            np.put_along_axis(similarity, cut, 0.0, axis=0)
        self.similarity = similarity
        return self

    def scores(self, users: np.ndarray) -> np.ndarray:
        return np.asarray(self.X[users] @ self.similarity)


@dataclass
class EASE:
    l2: float = hyperparameter(500.0, 0.0, above=True, meaning="lambda, the L2 penalty on the item weights")
    name: str = "ease"

    def fit(self, X: sp.csr_matrix) -> "EASE":
        self.X = X
        gram = (X.T @ X).toarray().astype(np.float64)
        gram[np.diag_indices_from(gram)] += self.l2
        P = np.linalg.inv(gram)
        B = P / (-np.diag(P))
        np.fill_diagonal(B, 0.0)
        self.B = B
        return self

    def scores(self, users: np.ndarray) -> np.ndarray:
        return np.asarray(self.X[users] @ self.B)


@dataclass
class MatrixFactorisation:
    factors: int = hyperparameter(64, 1, meaning="the latent factors' dimension")
    regularization: float = hyperparameter(0.05, 0.0, meaning="the L2 penalty on the factors")
    alpha: float = hyperparameter(2.0, 0.0, above=True, meaning="the confidence given to an interaction")
    iterations: int = hyperparameter(15, 1, meaning="ALS sweeps")
    seed: int = 0
    name: str = "mf"
    _model: object = field(default=None, repr=False)

    def fit(self, X: sp.csr_matrix) -> "MatrixFactorisation":
        from implicit.cpu.als import AlternatingLeastSquares
        from threadpoolctl import threadpool_limits

        # implicit's own loop over users is the parallel part (every core): BLAS threads inside it compete
        # with it (and it warns)
        with threadpool_limits(1, "blas"):
            self._model = AlternatingLeastSquares(
                factors=self.factors, regularization=self.regularization, alpha=self.alpha,
                iterations=self.iterations, random_state=self.seed, num_threads=0, calculate_training_loss=False)
            self._model.fit(X.tocsr().astype(np.float32), show_progress=False)
        return self

    def scores(self, users: np.ndarray) -> np.ndarray:
        return np.asarray(self._model.user_factors[users] @ self._model.item_factors.T, dtype=np.float64)


MODELS = {"random": Random, "pop": MostPopular, "itemknn": ItemKNN, "ease": EASE, "mf": MatrixFactorisation}

GRIDS = {
    "random": {},
    "pop": {},
    "itemknn": {"neighbours": [50, 200], "shrink": [0.0, 100.0]},
    "ease": {"l2": [50.0, 200.0, 500.0, 2000.0]},
    "mf": {"factors": [32, 128], "regularization": [0.1], "alpha": [1.0, 10.0]},
}
"""The hyperparameters tuned on a validation split of the training data, and the values tried: a dozen fits in
all, so the tuned preset stays within seconds (a wider grid, 18 fits, took 7.8 s on ML-100K and chose the same)."""


def hyperparameters(name: str) -> dict[str, Hyperparameter]:
    """The model's hyperparameters, read from its dataclass (the one place they are defined): what the command
    line's ``--param`` accepts and what a run reports. The seed is not one: it is the protocol's."""
    found = {}
    for spec in dataclasses.fields(MODELS[name]):
        if "hyperparameter" in spec.metadata:
            minimum, above, meaning = spec.metadata["hyperparameter"]
            found[spec.name] = Hyperparameter(spec.name, spec.default, minimum, above, meaning)
    return found


def defaults(name: str) -> dict[str, int | float]:
    """The values the model runs with when nothing is set or tuned."""
    return {key: spec.default for key, spec in hyperparameters(name).items()}


def check(name: str, params: dict) -> None:
    """Refuses (:class:`DataError`) an unknown model, a key that is not one of its hyperparameters, or a value
    of the wrong type or out of range."""
    from metrics.errors import DataError

    if name not in MODELS:
        raise DataError("unknown_model", f"unknown model {name!r}; choose from {', '.join(MODELS)}", name=name)
    known = hyperparameters(name)
    for key, value in params.items():
        if key not in known:
            raise DataError("unknown_param", f"{name} has no hyperparameter {key!r}; "
                            f"{_keys_in_words(name)}", name=name, key=key)
        try:
            known[key].value(value)
        except ValueError as error:
            raise DataError("bad_param", f"{name}.{key} {error}", name=name, key=key, value=value) from None


def _keys_in_words(name: str) -> str:
    keys = hyperparameters(name)
    return f"valid keys: {', '.join(keys)}" if keys else "it has no hyperparameters"


def make(name: str, **params):
    if name not in MODELS:
        from metrics.errors import DataError

        raise DataError("unknown_model", f"unknown model {name!r}; choose from {', '.join(MODELS)}", name=name)
    return MODELS[name](**params)
