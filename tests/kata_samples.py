"""Hand-written wrong solutions, one per common mistake, as a candidate would write them.

Written independently of kata/mistakes.py (which computes each mistake through metrics/), so a
test that the judge names the mistake checks two separate derivations against each other.
WRONG[problem][mistake key] is a complete module.
"""

import os

_RANK_LOOP = '''
def {name}(recommended, relevant, k):
    hits = sum(1 for item in {items} if item in relevant)
    return {value}
'''


def _ranked(name, items, value):
    return _RANK_LOOP.format(name=name, items=items, value=value)


WRONG: dict[str, dict[str, str]] = {
    "precision_at_k": {
        "precision_short_list=list_length": _ranked("precision_at_k", "recommended[:k]",
                                                    "hits / min(k, len(recommended)) if recommended else 0.0"),
        "recall": _ranked("precision_at_k", "recommended[:k]", "hits / len(relevant) if relevant else 0.0"),
        "no_cutoff": _ranked("precision_at_k", "recommended", "hits / k"),
    },
    "recall_at_k": {
        "precision": _ranked("recall_at_k", "recommended[:k]", "hits / k"),
        "no_cutoff": _ranked("recall_at_k", "recommended", "hits / len(relevant) if relevant else 0.0"),
    },
    "hit_rate_at_k": {
        "hit_count": _ranked("hit_rate_at_k", "recommended[:k]", "float(hits)"),
        "precision": _ranked("hit_rate_at_k", "recommended[:k]", "hits / k"),
        "no_cutoff": _ranked("hit_rate_at_k", "recommended", "1.0 if hits else 0.0"),
    },
    "average_precision_at_k": {
        denominator_key: f'''
def average_precision_at_k(recommended, relevant, k):
    hits, total = 0, 0.0
    for rank, item in enumerate(recommended{cut}, start=1):
        if item in relevant:
            hits += 1
            total += hits / rank
    return total / {denominator} if {denominator} else 0.0
''' for denominator_key, cut, denominator in (
            ("ap_denominator=hits", "[:k]", "hits"),
            ("ap_denominator=relevant", "[:k]", "len(relevant)"),
            ("ap_denominator=k", "[:k]", "k"),
            ("ap_denominator=whole_list", "", "len(relevant)"),
        )
    } | {
        "ranks_from_zero": '''
def average_precision_at_k(recommended, relevant, k):
    hits, total = 0, 0.0
    for rank, item in enumerate(recommended[:k]):
        if item in relevant:
            hits += 1
            total += hits / rank
    d = min(len(relevant), k)
    return total / d if d else 0.0
''',
    },
    "reciprocal_rank": {
        "ranks_from_zero": '''
def reciprocal_rank(recommended, relevant):
    for rank, item in enumerate(recommended):
        if item in relevant:
            return 1 / rank
    return 0.0
''',
        "rank_not_reciprocal": '''
def reciprocal_rank(recommended, relevant):
    for rank, item in enumerate(recommended, start=1):
        if item in relevant:
            return rank
    return 0
''',
        "cutoff_10": '''
def reciprocal_rank(recommended, relevant):
    for rank, item in enumerate(recommended[:10], start=1):
        if item in relevant:
            return 1 / rank
    return 0.0
''',
    },
    "dcg_at_k": {
        "exponential_gain": '''
import math
def dcg_at_k(relevances, k):
    return sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(relevances[:k]))
''',
        "log_base_e": '''
import math
def dcg_at_k(relevances, k):
    return sum(r / math.log(i + 2) for i, r in enumerate(relevances[:k]))
''',
        "ranks_off_by_one": '''
import numpy as np
def dcg_at_k(relevances, k):
    r = np.asarray(relevances[:k], dtype=float)
    return float(np.sum(r / np.log2(np.arange(1, r.size + 1) + 2)))
''',
        "no_cutoff": '''
import math
def dcg_at_k(relevances, k):
    return sum(r / math.log2(i + 2) for i, r in enumerate(relevances))
''',
    },
    "ndcg_at_k": {
        "ideal=passed": '''
import math
def dcg(grades, k):
    return sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))
def ndcg_at_k(recommended, relevance, k):
    grades = [relevance.get(item, 0) for item in recommended]
    ideal = dcg(sorted(grades, reverse=True), k)
    return dcg(grades, k) / ideal if ideal else 0.0
''',
        "gain=binary": '''
import math
def dcg(grades, k):
    return sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))
def ndcg_at_k(recommended, relevance, k):
    binary = {item: 1 for item, g in relevance.items() if g > 0}
    ideal = dcg(sorted(binary.values(), reverse=True), k)
    return dcg([binary.get(item, 0) for item in recommended], k) / ideal if ideal else 0.0
''',
        "gain=exponential": '''
import math
def dcg(grades, k):
    return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(grades[:k]))
def ndcg_at_k(recommended, relevance, k):
    ideal = dcg(sorted(relevance.values(), reverse=True), k)
    return dcg([relevance.get(item, 0) for item in recommended], k) / ideal if ideal else 0.0
''',
        "ideal=k_slots": '''
import math
def dcg(grades, k):
    return sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]))
def ndcg_at_k(recommended, relevance, k):
    return dcg([relevance.get(item, 0) for item in recommended], k) / dcg([1] * k, k)
''',
        "ranks_off_by_one": '''
import math
def dcg(grades, k):
    return sum(g / math.log2(i + 3) for i, g in enumerate(grades[:k]))
def ndcg_at_k(recommended, relevance, k):
    ideal = dcg(sorted(relevance.values(), reverse=True), k)
    return dcg([relevance.get(item, 0) for item in recommended], k) / ideal if ideal else 0.0
''',
    },
    "auc": {
        "ties_zero": '''
def auc(y_true, y_score):
    pos = [i for i, y in enumerate(y_true) if y == 1]
    neg = [i for i, y in enumerate(y_true) if y == 0]
    if not pos or not neg:
        return float("nan")
    count = 0
    for i in pos:
        for j in neg:
            if y_score[i] > y_score[j]:
                count += 1
    return count / (len(pos) * len(neg))
''',
        "ties_one": '''
def auc(y_true, y_score):
    pos = [s for y, s in zip(y_true, y_score) if y == 1]
    neg = [s for y, s in zip(y_true, y_score) if y == 0]
    if not pos or not neg:
        return float("nan")
    return sum(p >= n for p in pos for n in neg) / (len(pos) * len(neg))
''',
    },
    "gauc": {
        weight: f'''
def _auc(labels, scores):
    pos = [s for y, s in zip(labels, scores) if y == 1]
    neg = [s for y, s in zip(labels, scores) if y == 0]
    if not pos or not neg:
        return None
    return sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))

def gauc(user_ids, y_true, y_score):
    users = {{}}
    for u, y, s in zip(user_ids, y_true, y_score):
        users.setdefault(u, ([], []))
        users[u][0].append(y)
        users[u][1].append(s)
    total = weights = 0.0
    for labels, scores in users.values():
        value = _auc(labels, scores)
        if value is not None:
            w = {expression}
            total += w * value
            weights += w
    return total / weights if weights else float("nan")
''' for weight, expression in (("uniform", "1"), ("clicks", "sum(labels)"))
    } | {
        "pooled": '''
def gauc(user_ids, y_true, y_score):
    pos = [s for y, s in zip(y_true, y_score) if y == 1]
    neg = [s for y, s in zip(y_true, y_score) if y == 0]
    if not pos or not neg:
        return float("nan")
    return sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg) / (len(pos) * len(neg))
''',
    },
    "log_loss": {
        "no_clipping": '''
import numpy as np
def log_loss(y_true, y_prob):
    y, p = np.asarray(y_true, float), np.asarray(y_prob, float)
    with np.errstate(all="ignore"):
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
''',
        "machine_eps": '''
import numpy as np
def log_loss(y_true, y_prob):
    eps = np.finfo(float).eps
    y = np.asarray(y_true, float)
    p = np.clip(np.asarray(y_prob, float), eps, 1 - eps)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
''',
        "sum": '''
import numpy as np
def log_loss(y_true, y_prob):
    y = np.asarray(y_true, float)
    p = np.clip(np.asarray(y_prob, float), 1e-15, 1 - 1e-15)
    return float(-np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))
''',
        "clipped_true_label": '''
import math
def log_loss(y_true, y_prob):
    total = 0.0
    for y, p in zip(y_true, y_prob):
        q = p if y == 1 else 1 - p
        total -= math.log(min(max(q, 1e-15), 1 - 1e-15))
    return total / len(y_true)
''',
    },
    "rmse": {
        "mse": '''
def rmse(predictions, actuals):
    return sum((p - a) ** 2 for p, a in zip(predictions, actuals)) / len(actuals)
''',
        "mae": '''
def rmse(predictions, actuals):
    return sum(abs(p - a) for p, a in zip(predictions, actuals)) / len(actuals)
''',
        "n_minus_1": '''
import numpy as np
def rmse(predictions, actuals):
    e = np.subtract(predictions, actuals)
    return float(np.sqrt(np.sum(e ** 2) / (len(e) - 1)))
''',
    },
    "mae": {
        "signed": '''
def mae(predictions, actuals):
    return sum(p - a for p, a in zip(predictions, actuals)) / len(actuals)
''',
        "rmse": '''
import math
def mae(predictions, actuals):
    return math.sqrt(sum((p - a) ** 2 for p, a in zip(predictions, actuals)) / len(actuals))
''',
    },
    "f1_at_k": {
        "arithmetic_mean": '''
def f1_at_k(recommended, relevant, k):
    hits = sum(1 for item in recommended[:k] if item in relevant)
    return (hits / k + (hits / len(relevant) if relevant else 0.0)) / 2
''',
        "precision_short_list": '''
def f1_at_k(recommended, relevant, k):
    top = recommended[:k]
    hits = sum(1 for item in top if item in relevant)
    p = hits / len(top) if top else 0.0
    r = hits / len(relevant) if relevant else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0
''',
        "no_cutoff": '''
def f1_at_k(recommended, relevant, k):
    hits = sum(1 for item in recommended if item in relevant)
    p, r = hits / k, (hits / len(relevant) if relevant else 0.0)
    return 2 * p * r / (p + r) if p + r else 0.0
''',
    },
    "mean_average_precision_at_k": {
        denominator: f'''
def mean_average_precision_at_k(all_recommended, all_ground_truth, k):
    total = 0.0
    for recommended, relevant in zip(all_recommended, all_ground_truth):
        hits, s = 0, 0.0
        for rank, item in enumerate(recommended[:k], start=1):
            if item in relevant:
                hits += 1
                s += hits / rank
        d = {divisor}
        total += s / d if d else 0.0
    return total / len(all_recommended)
''' for denominator, divisor in (("ap_denominator=hits", "hits"), ("ap_denominator=relevant", "len(relevant)"),
                                  ("ap_denominator=k", "k"))
    } | {
        "skip_empty": '''
def mean_average_precision_at_k(all_recommended, all_ground_truth, k):
    aps = []
    for recommended, relevant in zip(all_recommended, all_ground_truth):
        if not relevant:
            continue
        hits, s = 0, 0.0
        for rank, item in enumerate(recommended[:k], start=1):
            if item in relevant:
                hits += 1
                s += hits / rank
        aps.append(s / min(len(relevant), k))
    return sum(aps) / len(aps) if aps else 0.0
''',
    },
    "mean_reciprocal_rank": {
        "skip_no_hit": '''
def mean_reciprocal_rank(all_recommended, all_ground_truth):
    rrs = []
    for recommended, relevant in zip(all_recommended, all_ground_truth):
        for rank, item in enumerate(recommended, start=1):
            if item in relevant:
                rrs.append(1 / rank)
                break
    return sum(rrs) / len(rrs) if rrs else 0.0
''',
        "ranks_from_zero": '''
def mean_reciprocal_rank(all_recommended, all_ground_truth):
    total = 0.0
    for recommended, relevant in zip(all_recommended, all_ground_truth):
        for rank, item in enumerate(recommended):
            if item in relevant:
                total += 1 / rank
                break
    return total / len(all_recommended)
''',
        "sum": '''
def mean_reciprocal_rank(all_recommended, all_ground_truth):
    total = 0.0
    for recommended, relevant in zip(all_recommended, all_ground_truth):
        for rank, item in enumerate(recommended, start=1):
            if item in relevant:
                total += 1 / rank
                break
    return total
''',
    },
}


def worker_uids(first_uid: int) -> int:
    """A test module's first sandbox uid on this xdist worker: each worker a range of its own, 1,000 apart, so the
    processes one worker's test counts as left running are never the sandboxes the other worker runs meanwhile."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return first_uid + 1000 * int(worker.removeprefix("gw"))


def sandbox_processes(uids, settle: float = 5.0) -> list[str]:
    """Processes of these sandbox uids still alive (a zombie, already dead, is not counted).

    A killed process finishing its exit (``[bwrap]`` in state R, its command line already gone) may still be listed
    for a moment after its cgroup was removed, seconds on a loaded machine: one that is alive ``settle`` seconds
    later was left running."""
    import subprocess
    import time

    deadline = time.monotonic() + settle
    while True:
        out = subprocess.run(["ps", "-eo", "uid=,stat=,pid=,cmd="], capture_output=True, text=True, check=True).stdout
        alive = [line for line in out.splitlines()
                 if line.split() and int(line.split()[0]) in set(uids) and not line.split()[1].startswith("Z")]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)
