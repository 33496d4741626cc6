'''Model solutions in two styles: the plain loop an interviewer expects first, and vectorised numpy.

Each is source text, run by the judge like a candidate's (tests/test_kata.py checks they pass).
'''

MODEL: dict[str, tuple[str, str]] = {
    "precision_at_k": ('''
def precision_at_k(recommended, relevant, k):
    hits = 0
    for item in recommended[:k]:
        if item in relevant:
            hits += 1
    return hits / k
''', '''
import numpy as np

def precision_at_k(recommended, relevant, k):
    top = np.array(recommended[:k], dtype=object)
    return float(np.isin(top, list(relevant)).sum()) / k
'''),
    "recall_at_k": ('''
def recall_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    hits = 0
    for item in recommended[:k]:
        if item in relevant:
            hits += 1
    return hits / len(relevant)
''', '''
import numpy as np

def recall_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    top = np.array(recommended[:k], dtype=object)
    return float(np.isin(top, list(relevant)).sum()) / len(relevant)
'''),
    "hit_rate_at_k": ('''
def hit_rate_at_k(recommended, relevant, k):
    for item in recommended[:k]:
        if item in relevant:
            return 1.0
    return 0.0
''', '''
import numpy as np

def hit_rate_at_k(recommended, relevant, k):
    top = np.array(recommended[:k], dtype=object)
    return float(np.isin(top, list(relevant)).any())
'''),
    "average_precision_at_k": ('''
def average_precision_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    hits, total = 0, 0.0
    for rank, item in enumerate(recommended[:k], start=1):
        if item in relevant:
            hits += 1
            total += hits / rank
    return total / min(len(relevant), k)
''', '''
import numpy as np

def average_precision_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    hit = np.isin(np.array(recommended[:k], dtype=object), list(relevant))
    precision = np.cumsum(hit) / np.arange(1, hit.size + 1)
    return float(precision[hit].sum() / min(len(relevant), k))
'''),
    "reciprocal_rank": ('''
def reciprocal_rank(recommended, relevant):
    for rank, item in enumerate(recommended, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0
''', '''
import numpy as np

def reciprocal_rank(recommended, relevant):
    hit = np.flatnonzero(np.isin(np.array(recommended, dtype=object), list(relevant)))
    return 1.0 / (hit[0] + 1) if hit.size else 0.0
'''),
    "dcg_at_k": ('''
import math

def dcg_at_k(relevances, k):
    total = 0.0
    for i, rel in enumerate(relevances[:k], start=1):
        total += rel / math.log2(i + 1)
    return total
''', '''
import numpy as np

def dcg_at_k(relevances, k):
    rel = np.asarray(relevances[:k], dtype=float)
    return float(np.sum(rel / np.log2(np.arange(2, rel.size + 2))))
'''),
    "ndcg_at_k": ('''
import math

def dcg(grades, k):
    return sum(g / math.log2(i + 1) for i, g in enumerate(grades[:k], start=1))

def ndcg_at_k(recommended, relevance, k):
    ideal = dcg(sorted(relevance.values(), reverse=True), k)
    if ideal == 0:
        return 0.0
    return dcg([relevance.get(item, 0) for item in recommended], k) / ideal
''', '''
import numpy as np

def dcg(grades, k):
    g = np.asarray(grades, dtype=float)[:k]
    return float(np.sum(g / np.log2(np.arange(2, g.size + 2))))

def ndcg_at_k(recommended, relevance, k):
    ideal = dcg(np.sort(np.fromiter(relevance.values(), float, len(relevance)))[::-1], k)
    if ideal == 0:
        return 0.0
    return dcg([relevance.get(item, 0) for item in recommended], k) / ideal
'''),
    "auc": ('''
def auc(y_true, y_score):
    positives = [s for y, s in zip(y_true, y_score) if y == 1]
    negatives = [s for y, s in zip(y_true, y_score) if y == 0]
    if not positives or not negatives:
        return float("nan")
    credit = 0.0
    for p in positives:
        for n in negatives:
            if p > n:
                credit += 1.0
            elif p == n:
                credit += 0.5
    return credit / (len(positives) * len(negatives))
''', '''
import numpy as np

def auc(y_true, y_score):
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    n_pos = int((y == 1).sum())
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    # Sort and count: average ranks give tied pairs 1/2 (Mann-Whitney U).
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(s.size)
    sorted_s = s[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_s)) + 1]
    ends = np.r_[starts[1:], s.size]
    ranks[order] = np.repeat((starts + ends + 1) / 2, ends - starts)
    u = ranks[y == 1].sum() - n_pos * (n_pos + 1) / 2
    return float(u / (n_pos * n_neg))
'''),
    "gauc": ('''
def _auc(labels, scores):
    pos = [s for y, s in zip(labels, scores) if y == 1]
    neg = [s for y, s in zip(labels, scores) if y == 0]
    if not pos or not neg:
        return None
    credit = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return credit / (len(pos) * len(neg))

def gauc(user_ids, y_true, y_score):
    by_user = {}
    for user, y, s in zip(user_ids, y_true, y_score):
        by_user.setdefault(user, ([], []))
        by_user[user][0].append(y)
        by_user[user][1].append(s)
    total, weights = 0.0, 0
    for labels, scores in by_user.values():
        value = _auc(labels, scores)
        if value is not None:
            total += len(labels) * value
            weights += len(labels)
    return total / weights if weights else float("nan")
''', '''
import numpy as np

def _auc(y, s):
    pos, neg = s[y == 1], s[y == 0]
    if pos.size == 0 or neg.size == 0:
        return None
    diff = pos[:, None] - neg[None, :]
    return float(((diff > 0) + 0.5 * (diff == 0)).mean())

def gauc(user_ids, y_true, y_score):
    users = np.asarray(user_ids, dtype=object)
    y, s = np.asarray(y_true), np.asarray(y_score, dtype=float)
    total, weights = 0.0, 0
    for user in dict.fromkeys(user_ids):
        mask = users == user
        value = _auc(y[mask], s[mask])
        if value is not None:
            total += mask.sum() * value
            weights += mask.sum()
    return float(total / weights) if weights else float("nan")
'''),
    "log_loss": ('''
import math

def log_loss(y_true, y_prob):
    eps = 1e-15
    total = 0.0
    for y, p in zip(y_true, y_prob):
        p = min(max(p, eps), 1 - eps)
        total += -(y * math.log(p) + (1 - y) * math.log(1 - p))
    return total / len(y_true)
''', '''
import numpy as np

def log_loss(y_true, y_prob):
    y = np.asarray(y_true, dtype=float)
    p = np.clip(np.asarray(y_prob, dtype=float), 1e-15, 1 - 1e-15)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
'''),
    "rmse": ('''
import math

def rmse(predictions, actuals):
    total = 0.0
    for p, a in zip(predictions, actuals):
        total += (p - a) ** 2
    return math.sqrt(total / len(actuals))
''', '''
import numpy as np

def rmse(predictions, actuals):
    errors = np.asarray(predictions, dtype=float) - np.asarray(actuals, dtype=float)
    return float(np.sqrt(np.mean(errors ** 2)))
'''),
    "mae": ('''
def mae(predictions, actuals):
    total = 0.0
    for p, a in zip(predictions, actuals):
        total += abs(p - a)
    return total / len(actuals)
''', '''
import numpy as np

def mae(predictions, actuals):
    errors = np.asarray(predictions, dtype=float) - np.asarray(actuals, dtype=float)
    return float(np.mean(np.abs(errors)))
'''),
    "f1_at_k": ('''
def f1_at_k(recommended, relevant, k):
    hits = 0
    for item in recommended[:k]:
        if item in relevant:
            hits += 1
    precision = hits / k
    recall = hits / len(relevant) if relevant else 0.0
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)
''', '''
import numpy as np

def f1_at_k(recommended, relevant, k):
    hits = float(np.isin(np.array(recommended[:k], dtype=object), list(relevant)).sum())
    precision = hits / k
    recall = hits / len(relevant) if relevant else 0.0
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
'''),
    "mean_average_precision_at_k": ('''
def average_precision_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    hits, total = 0, 0.0
    for rank, item in enumerate(recommended[:k], start=1):
        if item in relevant:
            hits += 1
            total += hits / rank
    return total / min(len(relevant), k)

def mean_average_precision_at_k(all_recommended, all_ground_truth, k):
    aps = [average_precision_at_k(rec, gt, k) for rec, gt in zip(all_recommended, all_ground_truth)]
    return sum(aps) / len(aps)
''', '''
import numpy as np

def average_precision_at_k(recommended, relevant, k):
    if not relevant:
        return 0.0
    hit = np.isin(np.array(recommended[:k], dtype=object), list(relevant))
    precision = np.cumsum(hit) / np.arange(1, hit.size + 1)
    return float(precision[hit].sum() / min(len(relevant), k))

def mean_average_precision_at_k(all_recommended, all_ground_truth, k):
    return float(np.mean([average_precision_at_k(r, g, k) for r, g in zip(all_recommended, all_ground_truth)]))
'''),
    "mean_reciprocal_rank": ('''
def reciprocal_rank(recommended, relevant):
    for rank, item in enumerate(recommended, start=1):
        if item in relevant:
            return 1.0 / rank
    return 0.0

def mean_reciprocal_rank(all_recommended, all_ground_truth):
    rrs = [reciprocal_rank(rec, gt) for rec, gt in zip(all_recommended, all_ground_truth)]
    return sum(rrs) / len(rrs)
''', '''
import numpy as np

def reciprocal_rank(recommended, relevant):
    hit = np.flatnonzero(np.isin(np.array(recommended, dtype=object), list(relevant)))
    return 1.0 / (hit[0] + 1) if hit.size else 0.0

def mean_reciprocal_rank(all_recommended, all_ground_truth):
    return float(np.mean([reciprocal_rank(r, g) for r, g in zip(all_recommended, all_ground_truth)]))
'''),
}
"""problem key -> (plain loop, vectorised numpy), each a complete module."""
