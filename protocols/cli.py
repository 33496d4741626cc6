"""``python -m metrics protocol``: one evaluation protocol on real data, from the command line.

Prints, per model, the means of the metrics at K on the full catalogue (with sampled candidates also the
observed, expected and corrected sampled HR@K and NDCG@K), the hyperparameters it ran with and the split's
sizes; ``--format json`` for scripts; ``--per-user FILE`` writes every model's per-user rows (a ``model``
column first; with sampled candidates each user's sampled, expected, corrected and full values too), which
open in the Your data and Compare pages. ``--param MODEL.KEY=VALUE`` sets a hyperparameter
(:func:`protocols.models.hyperparameters`), checked before any data is read: a wrong one exits with code 2
and one line on stderr, as every other mistake on the command line does.
"""

from __future__ import annotations

import argparse
import json
import sys

import pandas as pd

from metrics.errors import DataError
from protocols import models, movielens, splits


def _lab():
    """The protocol lab's engine, imported when the command runs: it imports scipy.stats (0.55 s), which
    every other command of ``python -m metrics`` would pay for while its parser is built."""
    from protocols import lab

    return lab


def _cut(text: str) -> int:
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        moment = pd.Timestamp(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither seconds since 1970 nor an ISO 8601 date") from None
    moment = moment.tz_localize("UTC") if moment.tzinfo is None else moment
    return int((moment - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(seconds=1))


def _models(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in models.MODELS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown model {', '.join(unknown) or '(none)'}; choose from "
                                         f"{', '.join(models.MODELS)}")
    return list(dict.fromkeys(names))


def _candidates(text: str) -> str:
    try:
        _lab().Protocol.parse_candidates(text)
    except DataError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


class ParamError(ValueError):
    """A ``--param`` the command refuses: its message is the one line the user reads."""


def parse_params(texts: list[str] | None, model_names: list[str]) -> dict[str, dict]:
    """``--param MODEL.KEY=VALUE`` options as ``{model: {key: value}}``, each value of its hyperparameter's
    type; :class:`ParamError` for a malformed option, an unknown model or key, a value of the wrong type or
    out of range, a model not among ``model_names`` or a key given twice."""
    params: dict[str, dict] = {}
    given: dict[tuple[str, str], str] = {}
    for text in texts or []:
        target, equals, raw = text.partition("=")
        name, dot, key = target.strip().partition(".")
        name, key = name.strip(), key.strip()
        if not equals or not dot or not name or not key or not raw.strip():
            raise ParamError(f"--param {text!r}: expected MODEL.KEY=VALUE, e.g. ease.l2=250")
        if name not in models.MODELS:
            raise ParamError(f"--param {text!r}: unknown model {name!r}; choose from {', '.join(models.MODELS)}")
        known = models.hyperparameters(name)
        if not known:
            raise ParamError(f"--param {text!r}: {name} has no hyperparameters")
        if key not in known:
            raise ParamError(f"--param {text!r}: {name} has no hyperparameter {key!r}; valid keys: {', '.join(known)}")
        if name not in model_names:
            raise ParamError(f"--param {text!r}: {name} is not among the models run ({','.join(model_names)}); "
                             "add it to --models or leave out the --param")
        if (name, key) in given:
            raise ParamError(f"--param {text!r}: {name}.{key} is already set by --param {given[name, key]!r}; "
                             "give each key once")
        try:
            value = known[key].parse(raw)
        except ValueError as error:
            raise ParamError(f"--param {text!r}: {name}.{key} {error}") from None
        given[name, key] = text
        params.setdefault(name, {})[key] = value
    return params


def _params_help() -> str:
    listed = "; ".join(f"{name}: " + ", ".join(f"{key} (default {spec.default:g}, {spec.allowed()})"
                                              for key, spec in models.hyperparameters(name).items())
                       for name in models.MODELS if models.hyperparameters(name))
    return (f"set a model's hyperparameter, e.g. ease.l2=250; repeat for several (not tuned with --tuned). "
            f"{listed}")


def add_protocol_command(commands) -> None:
    parser = commands.add_parser(
        "protocol", help="split real interactions, train small models and score them under one protocol",
        description="How offline evaluation lies: the same models scored under a split and a candidate set of "
                    "your choice, on MovieLens or your own interactions (user, item, timestamp[, rating]).")
    parser.add_argument("--data", required=True, metavar="PATH_OR_NAME",
                        help="a MovieLens folder or zip, a CSV or Parquet interactions file, or a release name "
                             f"({', '.join(movielens.CHECKSUMS)}: ml-100k from an installed recbole copy, "
                             "else downloaded from GroupLens into the cache and checked)")
    parser.add_argument("--split", choices=splits.SPLITS, default="leave-last-out")
    parser.add_argument("--test-fraction", type=float, default=0.2, metavar="F",
                        help="share held out by the random and temporal splits (default 0.2)")
    parser.add_argument("--cut", type=_cut, metavar="DATE",
                        help="global-time: the moment from which interactions test (ISO date or seconds; default: "
                             "the moment that leaves --test-fraction for the test)")
    parser.add_argument("--models", type=_models, default=["pop", "itemknn", "ease", "mf"], metavar="A,B,...",
                        help=f"comma-separated, from {', '.join(models.MODELS)} (default pop,itemknn,ease,mf)")
    parser.add_argument("--candidates", type=_candidates, default="full",
                        help="full (default), uniform:N or popular:N sampled negatives per held-out item")
    parser.add_argument("--tuned", action="store_true",
                        help="tune each model's hyperparameters on a validation split of the training data "
                             "(those set with --param stay as set)")
    parser.add_argument("--param", action="append", metavar="MODEL.KEY=VALUE", dest="protocol_params",
                        help=_params_help().replace("%", "%%"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-k", type=int, default=10, dest="cutoff", metavar="K", help="the cut-off (default 10)")
    parser.add_argument("--format", choices=("text", "json"), default="text", dest="protocol_format")
    parser.add_argument("--per-user", metavar="OUT.csv", dest="protocol_per_user",
                        help="also write each model's per-user metrics to this CSV file")


def _data(source: str) -> pd.DataFrame:
    from pathlib import Path

    path = Path(source)
    if source in movielens.CHECKSUMS or path.is_dir() or path.suffix == ".zip" or path.name in ("u.data",
                                                                                               "ratings.dat"):
        return movielens.resolve(source)
    if path.name == "ratings.csv":
        return movielens.load(path)
    if not path.exists():
        raise DataError("not_found", f"{source} does not exist", path=source)
    return movielens.read_interactions(path, filename=path.name)


def _shown(key: str, value: int) -> str:
    return f"{pd.Timestamp(value, unit='s'):%Y-%m-%d %H:%M:%S} UTC" if key == "cut" else f"{value:,}"


def run(args, out=None) -> int:
    out = out or sys.stdout
    if args.cutoff < 1:
        print(f"error: -k must be a positive integer, got {args.cutoff}", file=sys.stderr)
        return 2
    try:
        params = parse_params(args.protocol_params, args.models)
    except ParamError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    lab = _lab()
    protocol = lab.Protocol(split=args.split, test_fraction=args.test_fraction, cut=args.cut,
                            candidates=args.candidates, k=args.cutoff, seed=args.seed, tuned=args.tuned)
    try:
        frame = _data(args.data)
        result = lab.run(frame, protocol, args.models, params=params)
    except DataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # a bug of ours or a model that cannot train: one line, never a traceback
        print(f"error: the protocol command failed unexpectedly ({type(error).__name__}: {error}); please report "
              "it with the command line", file=sys.stderr)
        return 1
    table = result.table()
    if args.protocol_per_user:
        try:
            result.per_user().to_csv(args.protocol_per_user, index=False)
        except OSError as error:
            print(f"error: cannot write the per-user file {args.protocol_per_user}: {error.strerror or error}",
                  file=sys.stderr)
            return 3
    if args.protocol_format == "json":
        payload = {"protocol": vars(protocol), "split": result.split.counts,
                   "models": {name: {"params": r.params, "means": {k: float(v) for k, v in table.loc[name].items()
                                                                   if pd.notna(v)}}
                              for name, r in result.models.items()}}
        out.write(json.dumps(payload, indent=2) + "\n")
        return 0
    counts = ", ".join(f"{key.replace('_', ' ')} {_shown(key, value)}" for key, value in result.split.counts.items())
    out.write(f"{args.data}: {args.split} split ({counts}); candidates {args.candidates}; K = {args.cutoff}\n")
    out.write(table.to_string(float_format=lambda v: f"{v:.4f}") + "\n")
    ran = "; ".join(f"{name} " + ", ".join(f"{key}={value:g}" for key, value in r.params.items())
                    for name, r in result.models.items() if r.params)
    if ran:
        out.write(f"hyperparameters{' (tuned unless set)' if args.tuned else ''}: {ran}\n")
    return 0
