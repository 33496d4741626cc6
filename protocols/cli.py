"""``python -m metrics protocol``: one evaluation protocol on real data, from the command line.

Prints, per model, the means of the metrics at K on the full catalogue (with sampled candidates also the
observed, expected and corrected sampled HR@K and NDCG@K) and the split's sizes; ``--format json`` for
scripts; ``--per-user FILE`` writes every model's per-user rows (a ``model`` column first), which open in the
Your data and Compare pages.
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
                        help="tune each model's hyperparameters on a validation split of the training data")
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
    lab = _lab()
    protocol = lab.Protocol(split=args.split, test_fraction=args.test_fraction, cut=args.cut,
                            candidates=args.candidates, k=args.cutoff, seed=args.seed, tuned=args.tuned)
    try:
        frame = _data(args.data)
        result = lab.run(frame, protocol, args.models)
    except DataError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    table = result.table()
    if args.protocol_per_user:
        rows = [r.per_user.assign(model=name) for name, r in result.models.items()]
        per_user = pd.concat(rows).reset_index()
        per_user = per_user[["model", *[c for c in per_user.columns if c != "model"]]]
        per_user.to_csv(args.protocol_per_user, index=False)
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
    return 0
