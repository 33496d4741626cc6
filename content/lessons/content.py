"""Every lesson, step by step. Plain data: edit the text, add a Step, and the lesson page follows.

Scenarios use the source documents' examples (the NumPy tutorial and the offline-evaluation article) where they fit: the list 101..110 with relevant
{103, 105, 108, 999} (Precision/Recall), {101, 104, 107} (AP, NDCG), the graded {101: 5, 104: 4,
107: 3, 999: 5}, the labels [0, 1, 1, 0, 1, 1] vs [0, 1, 0, 1, 1, 1], and the probabilities
[0.8, 0.6, 0.3] for labels [1, 1, 0].
"""

from __future__ import annotations

from content.i18n import N_
from content.lessons.schema import Claim, Control, Goal, Lesson, Option, Question, Step

LIST = [101, 102, 103, 104, 105, 106, 107, 108, 109, 110]
TOPN_TRUTH = {103: 1, 105: 1, 108: 1, 999: 1}
RANKED_TRUTH = {101: 1, 104: 1, 107: 1}
GRADED_TRUTH = {101: 5, 104: 4, 107: 3, 999: 5}


def ranking(truth, k=10, recommended=LIST, gain="linear") -> dict:
    return {"kind": "ranking", "recommended": list(recommended), "ground_truth": dict(truth), "k": k, "gain": gain}


def users(k=5) -> dict:
    return {"kind": "users", "users": ["alice", "bob", "carol"], "k": k,
            "recommended": [[101, 102, 103, 104, 105], [201, 202, 203, 204, 205], [301, 302, 303, 304, 305]],
            "relevant": [[101, 104], [203], [399]]}


def directions(up: str, down: str, same: str) -> tuple[Option, ...]:
    return (Option(N_("up"), up), Option(N_("down"), down), Option(N_("unchanged"), same))


def sweep(values) -> dict:
    return {"kind": "sweep", "values": list(values)}


TOPN = Lesson(
    "topn", N_("Precision, Recall, HR and F1 @K"), "🎣", "topn",
    N_("How many of the top K slots hold something relevant, and how much of the relevant set they find."),
    (
        Step(N_("The list and its top-K window"), "show",
             N_("A recommender returned ten items, best first. Four items are relevant: 103, 105 and 108 are in the "
             "list, 999 was never recommended. Green bars are hits inside the top K."),
             ranking(TOPN_TRUTH), "topn", focus=("precision_at_k",)),
        Step(N_("Precision@K: how well the slots were used"), "show",
             N_("Precision@K divides the hits by K, the number of slots. Three hits in ten slots give 0.3, "
             "however many relevant items exist."),
             ranking(TOPN_TRUTH), "topn", focus=("precision_at_k",)),
        Step(N_("Predict Recall@10"), "predict",
             N_("Recall@K divides the same hits by the number of relevant items instead."),
             ranking(TOPN_TRUTH), "topn", focus=("recall_at_k",),
             question=Question(
                 N_("Three of the four relevant items are in the top 10. What is Recall@10?"), "value", "recall_at_k",
                 (Option("0.3", N_("That is Precision@10: it divides by K = 10 slots, recall divides by the 4 "
                                "relevant items."), 0.3),
                  Option("0.75", N_("3 hits / 4 relevant items."), 0.75),
                  Option("1.0", N_("Only if 999 did not count. Recall counts every relevant item, recommended or "
                                "not, so the missing 999 costs a quarter."), 1.0)),
                 "0.75", N_("Recall's denominator is |Rel| = 4, including 999 that the list never shows."))),
        Step(N_("K grows: precision and recall trade off"), "demonstrate",
             N_("Watch K grow from 1 to 10. Recall never falls: it rises by one quarter at each hit (K = 3, 5, 8). "
             "Precision is 0 until the first hit; after it, each miss entering the window lowers precision and "
             "each hit raises it."),
             ranking(TOPN_TRUTH), "k_sweep", animation={"ks": list(range(1, 11))},
             focus=("precision_at_k", "recall_at_k"),
             claims=(Claim("recall_at_k", "never falls"),
                     *(Claim("recall_at_k", "rises", frames=(k - 2, k - 1)) for k in (3, 5, 8)),
                     Claim("precision_at_k", "unchanged", frames=(0, 1), at=0.0),
                     *(Claim("precision_at_k", "falls", frames=f) for f in ((2, 3), (4, 6), (7, 9))),
                     *(Claim("precision_at_k", "rises", frames=f) for f in ((1, 2), (3, 4), (6, 7))))),
        Step(N_("Predict HR@K for a shorter window"), "predict",
             N_("HR@K (hit rate) is 1 if the top K holds at least one relevant item, else 0."),
             ranking(TOPN_TRUTH), "topn", focus=("hit_rate_at_k",),
             question=Question(
                 N_("K shrinks from 10 to 2. What happens to HR@K?"), "direction", "hit_rate_at_k",
                 directions(N_("HR@K is 0 or 1, and it is already 1 at K = 10: it cannot go up."),
                            N_("The first hit, 103, sits at rank 3, so the top 2 hold no relevant item."),
                            N_("It would stay 1 if a hit were in the top 2, but the first hit is at rank 3.")),
                 "down", N_("The top 2 (101, 102) hold no relevant item, so HR@2 drops from 1 to 0."),
                 change={"k": 2})),
        Step(N_("F1@K: one number for both"), "show",
             N_("F1@K is the harmonic mean of P@K and R@K. With P = 0.3 and R = 0.75 it is 0.4286, well below "
             "their plain mean 0.525: the harmonic mean is pulled toward the weaker of the two."),
             ranking(TOPN_TRUTH), "topn", focus=("precision_at_k", "recall_at_k", "f1_at_k")),
        Step(N_("Your turn: where do P@K and R@K meet?"), "explore",
             N_("Move K yourself and watch the two fractions."),
             ranking(TOPN_TRUTH), "topn", focus=("precision_at_k", "recall_at_k", "f1_at_k"),
             controls=(Control("k", N_("K (cut-off)"), minimum=1, maximum=10, step=1),),
             goal=Goal(N_("Find a K where P@K equals R@K and both are above 0."),
                       (("precision_at_k", "==", "recall_at_k"), ("precision_at_k", ">", 0)),
                       N_("At K = |Rel| = 4 both fractions divide the same hits by 4, so they are always equal there."))),
    ),
)

AP = Lesson(
    "ap", N_("AP and MAP"), "📈", "ap",
    N_("Average precision rewards putting the hits early; MAP averages it over users."),
    (
        Step(N_("Precision at each hit"), "show",
             N_("AP@K adds up Precision@i at each rank i that holds a hit, then divides by min(|Rel|, K). "
             "The NumPy tutorial's hits at ranks 1, 4 and 7 give (1/1 + 2/4 + 3/7) / 3 = 0.6429."),
             ranking(RANKED_TRUTH), "ap", focus=("ap_at_k",)),
        Step(N_("Predict: 107 moves to rank 2"), "predict",
             N_("Precision@10 and Recall@10 would not notice this move: the same three items stay in the top 10."),
             ranking(RANKED_TRUTH), "ap", focus=("ap_at_k",),
             claims=(Claim("precision_at_k", "unchanged"), Claim("recall_at_k", "unchanged")),
             question=Question(
                 N_("What happens to AP@10 if item 107 moves from rank 7 to rank 2?"), "direction", "ap_at_k",
                 directions(N_("107's term becomes 2/2 instead of 3/7, and 104 slips only to rank 5 (3/5)."),
                            N_("Moving a hit earlier can never lower AP: every hit's precision stays or grows."),
                            N_("That is what P@10 and R@10 say. AP looks at where the hits are, not only whether.")),
                 "up", N_("The terms become 1/1 + 2/2 + 3/5, so AP@10 rises from 0.6429 to 0.8667."),
                 change={"move": (107, 2)})),
        Step(N_("A hit climbs the list"), "demonstrate",
             N_("Watch 107 climb from rank 10 to rank 1: while it is the third hit, its term 3/i rises at each "
             "step, and AP@10 with it. At rank 4 it passes 104 and becomes the second hit: its own term drops from "
             "3/5 to 2/4 while 104's rises from 2/4 to 3/5, so AP@10 is unchanged. Then AP@10 rises again, up to "
             "rank 2; the last step only swaps 107 and 101 at ranks 1 and 2, and AP@10 is unchanged."),
             ranking(RANKED_TRUTH), "walk", animation={"metric": "ap", "item": 107, "ranks": list(range(10, 0, -1))},
             focus=("ap_at_k",),
             claims=(Claim("item_term", "rises", frames=(0, 5)), Claim("ap_at_k", "rises", frames=(0, 5)),
                     Claim("item_term", "falls", frames=(5, 6)), Claim("term_104", "rises", frames=(5, 6)),
                     Claim("ap_at_k", "unchanged", frames=(5, 6)), Claim("ap_at_k", "rises", frames=(6, 8)),
                     Claim("ap_at_k", "unchanged", frames=(8, 9)))),
        Step(N_("Predict: what does AP divide by?"), "predict",
             N_("Now 107 is gone: the relevant set is {101, 104, 999} and 999 is never recommended."),
             ranking({101: 1, 104: 1, 999: 1}), "ap", focus=("ap_at_k",),
             question=Question(
                 N_("Hits at ranks 1 and 4, three relevant items, K = 10. What is AP@10?"), "value", "ap_at_k",
                 (Option("0.5", N_("(1/1 + 2/4) / min(3, 10) = 1.5 / 3."), 0.5),
                  Option("0.75", N_("That divides by the 2 hits (torchmetrics' choice): the missing 999 would "
                                 "then cost nothing."), 0.75),
                  Option("1.5", N_("That is the sum before dividing; AP is at most 1."), 1.5)),
                 "0.5", N_("The NumPy tutorial divides by min(|Rel|, K) = 3, so a relevant item the list never shows still costs."))),
        Step(N_("Predict: does carol count?"), "predict",
             N_("Alice has AP@5 = 0.75, bob 0.3333 and carol 0."),
             users(), "map", focus=("map_at_k",),
             question=Question(
                 N_("What is MAP@5 over the three users?"), "value", "map_at_k",
                 (Option("0.3611", N_("(0.75 + 0.3333 + 0) / 3. A user with no hit counts 0."), 0.3611),
                  Option("0.5417", N_("That leaves carol out, (0.75 + 0.3333) / 2. trec_eval does this only for a "
                                   "user with no relevant items at all; carol has one."), 0.5417),
                  Option("1.0833", N_("That is the sum of the APs; MAP divides by the number of users."), 1.0833)),
                 "0.3611", N_("Every user counts, carol with 0: (0.75 + 0.3333 + 0) / 3 = 0.3611."))),
        Step(N_("MAP: the mean over users"), "show",
             N_("MAP@K is AP@K averaged over users. Carol's only relevant item, 399, is not in her list, so her "
             "AP is 0 and she pulls the mean down."),
             users(), "map", focus=("map_at_k",)),
        Step(N_("Your turn: raise AP@10"), "explore",
             N_("Move 104 and 107 with the two sliders."),
             ranking(RANKED_TRUTH), "ap", focus=("ap_at_k",),
             controls=(Control("rank", N_("Rank of {item}"), item=104, minimum=1, maximum=10, step=1),
                       Control("rank", N_("Rank of {item}"), item=107, minimum=1, maximum=10, step=1)),
             goal=Goal(N_("Get AP@10 to 0.9 or more."), (("ap_at_k", ">=", 0.9),),
                       N_("Hits packed at the top give AP close to 1; all three in ranks 1-3 give exactly 1."))),
    ),
)

RR = Lesson(
    "rr", N_("RR and MRR"), "🥇", "rr",
    N_("Reciprocal rank looks only at the first hit; MRR averages it over users."),
    (
        Step(N_("One over the first hit's rank"), "show",
             N_("RR is 1 / (rank of the first relevant item). Here 104 at rank 4 is the first hit, so RR = 1/4; "
             "107 at rank 7 does not count at all."),
             ranking({104: 1, 107: 1}), "rr", focus=("rr",)),
        Step(N_("The first hit walks down the list"), "demonstrate",
             N_("Watch the only relevant item move from rank 1 to rank 10. RR halves at once, then falls by less "
             "and less: 1, 0.5, 0.33, 0.25 ... 0.1."),
             ranking({104: 1}), "walk", animation={"metric": "rr", "item": 104, "ranks": list(range(1, 11))},
             focus=("rr",),
             claims=(Claim("rr", "falls ever slower"), Claim("rr", "unchanged", frames=(0, 0), at=1.0),
                     Claim("rr", "unchanged", frames=(1, 1), at=0.5), Claim("rr", "unchanged", frames=(9, 9), at=0.1))),
        Step(N_("Predict RR with two hits"), "predict",
             N_("Now 103 and 104 are relevant."),
             ranking({103: 1, 104: 1}), "rr", focus=("rr",),
             question=Question(
                 N_("Relevant items at ranks 3 and 4. What is RR?"), "value", "rr",
                 (Option("0.3333", N_("Only the first hit counts, 1/3."), 1 / 3),
                  Option("0.2917", N_("That averages 1/3 and 1/4. RR ignores every hit after the first."), (1 / 3 + 1 / 4) / 2),
                  Option("0.5833", N_("That adds 1/3 and 1/4. RR takes only the first hit."), 1 / 3 + 1 / 4)),
                 "0.3333", N_("RR = 1/3: the hit at rank 4 changes nothing."))),
        Step(N_("Predict: a later hit moves"), "predict",
             N_("101 is at rank 1 and 102 at rank 2; both are relevant."),
             ranking({101: 1, 102: 1}), "rr", focus=("rr",),
             question=Question(
                 N_("102 drops from rank 2 to rank 9. What happens to RR?"), "direction", "rr",
                 directions(N_("Nothing moved above the first hit, so RR cannot rise."),
                            N_("RR would fall only if the first hit moved; 101 is still at rank 1."),
                            N_("RR only sees the first hit, 101 at rank 1.")),
                 "unchanged", N_("RR stays 1/1 = 1: the first hit did not move."),
                 change={"move": (102, 9)})),
        Step(N_("MRR: the mean over users"), "show",
             N_("MRR averages RR over users: alice's first hit is at rank 1, bob's at rank 3, carol has none and "
             "counts 0. (1 + 1/3 + 0) / 3 = 0.4444."),
             users(), "mrr", focus=("mrr",)),
        Step(N_("Your turn: make RR = 0.2"), "explore",
             N_("Relevant items are 104 and 107. Move 104 with the slider."),
             ranking({104: 1, 107: 1}), "rr", focus=("rr",),
             controls=(Control("rank", N_("Rank of {item}"), item=104, minimum=1, maximum=10, step=1),),
             goal=Goal(N_("Make RR exactly 0.2."), (("rr", "==", 0.2),),
                       N_("RR = 1/5: the first hit is at rank 5. Below rank 7, 107 becomes the first hit instead."))),
    ),
)

NDCG = Lesson(
    "ndcg", N_("DCG and NDCG: binary, graded, gain"), "🪜", "ndcg",
    N_("Each hit earns its gain divided by log2(rank + 1); NDCG divides by the best possible order."),
    (
        Step(N_("Discounted gain, binary relevance"), "show",
             N_("Each hit earns 1 / log2(i + 1) at rank i. The NumPy tutorial's hits at 1, 4 and 7 give DCG = 1.7640; the "
             "best order (hits at 1, 2, 3) gives IDCG = 2.1309, so NDCG@10 = 0.8278."),
             ranking(RANKED_TRUTH), "ndcg", focus=("dcg_at_k", "idcg_at_k", "ndcg_at_k")),
        Step(N_("A hit walks down the ranks"), "demonstrate",
             N_("Watch 107 walk from rank 1 to rank 10: its bar, 1 / log2(i + 1), shrinks at every step, fast at "
             "the top and slowly further down. NDCG@10 falls with it, except at 1 → 2 and 4 → 5: there 107 only "
             "trades places with another hit (101, then 104), the same ranks stay filled and NDCG@10 is unchanged."),
             ranking(RANKED_TRUTH), "walk", animation={"metric": "ndcg", "item": 107, "ranks": list(range(1, 11))},
             focus=("ndcg_at_k",),
             claims=(Claim("item_term", "falls ever slower"),
                     Claim("ndcg_at_k", "unchanged", frames=(0, 1)), Claim("ndcg_at_k", "unchanged", frames=(3, 4)),
                     Claim("ndcg_at_k", "falls", frames=(1, 3)), Claim("ndcg_at_k", "falls", frames=(4, 9)),
                     Claim("term_101", "rises", frames=(0, 1)), Claim("term_104", "rises", frames=(3, 4)))),
        Step(N_("Predict: which list is better?"), "predict",
             N_("List A has its two hits at ranks 1 and 5; list B at ranks 2 and 3. Both have P@5 = 2/5."),
             ranking({101: 1, 105: 1}, k=5), "ndcg", focus=("ndcg_at_k",),
             question=Question(
                 N_("Which list scores higher on NDCG@5?"), "compare", "ndcg_at_k",
                 (Option("A", N_("A: 1 at rank 1 + 0.3869 at rank 5 = DCG 1.3869. B: 0.6309 at rank 2 + 0.5000 at "
                              "rank 3 = 1.1309. One hit at the top beats two just below it.")),
                  Option("B", N_("B's hits are close together, but the first rank is worth the most: 1 vs 0.63.")),
                  Option(N_("the same"), N_("That is what P@5 says. NDCG weighs each hit by its rank."))),
                 "A", N_("A: 1 + 1/log2 6 = 1.3869; B: 1/log2 3 + 1/log2 4 = 1.1309; same IDCG."),
                 other=ranking({102: 1, 103: 1}, k=5))),
        Step(N_("Your turn: same precision, lower NDCG"), "explore",
             N_("Precision@5 counts the hits in the top 5; NDCG@5 also asks where they are. Move the three relevant "
             "items."),
             ranking(RANKED_TRUTH, k=5), "ndcg", focus=("precision_at_k", "ndcg_at_k"),
             controls=tuple(Control("rank", N_("Rank of {item}"), item=item, minimum=1, maximum=10, step=1)
                            for item in (101, 104, 107)),
             goal=Goal(N_("Keep P@5 at 0.4 but push NDCG@5 below 0.5."),
                       (("precision_at_k", "==", 0.4), ("ndcg_at_k", "<", 0.5)),
                       N_("Two hits in the top 5 either way, so P@5 does not move; NDCG@5 drops because they sit low."))),
        Step(N_("Graded relevance"), "show",
             N_("Grades say how relevant: 101 is worth 5, 104 4, 107 3, and 999, never recommended, 5. The ideal "
             "order includes 999, so even a perfect reordering of this list cannot reach 1."),
             ranking(GRADED_TRUTH), "ndcg", focus=("dcg_at_k", "idcg_at_k", "ndcg_at_k")),
        Step(N_("Predict: exponential gain"), "predict",
             N_("The offline-evaluation article's formula uses the gain 2^rel − 1 instead of rel: a 5 is then worth 31, a 3 only 7."),
             ranking(GRADED_TRUTH), "ndcg", focus=("ndcg_at_k",),
             question=Question(
                 N_("Switch the gain from rel to 2^rel − 1. What happens to NDCG@10?"), "direction", "ndcg_at_k",
                 directions(N_("101 (31) is at rank 1, but the missing 999 now also weighs 31 in the ideal."),
                            N_("The ideal gains most from the big gains, including the unreachable 999."),
                            N_("The gain changes every term, in DCG and IDCG alike, but not by the same factor.")),
                 "down", N_("Exponential gain makes the missing 5-star 999 weigh more in IDCG than the list can make up."),
                 change={"gain": "exponential"})),
        Step(N_("Your turn: get close to the ideal"), "explore",
             N_("Move 104 and 107; the ideal is fixed by the grades."),
             ranking(GRADED_TRUTH), "ndcg", focus=("dcg_at_k", "idcg_at_k", "ndcg_at_k"),
             controls=(Control("rank", N_("Rank of {item}"), item=104, minimum=1, maximum=10, step=1),
                       Control("rank", N_("Rank of {item}"), item=107, minimum=1, maximum=10, step=1)),
             goal=Goal(N_("Get NDCG@10 to 0.78 or more."), (("ndcg_at_k", ">=", 0.78),),
                       N_("101, 104, 107 in ranks 1-3 is the best this list can do (0.7883): 999 is out of reach."))),
    ),
)

RATING = Lesson(
    "rating", N_("RMSE vs MAE, and outliers"), "📏", "rating",
    N_("Both measure how far predicted ratings are from the real ones; RMSE squares the misses first."),
    (
        Step(N_("Two ways to average a miss"), "show",
             N_("Five predicted ratings against the real ones. MAE averages the absolute errors; RMSE averages "
             "their squares and takes the root, so the 2-star miss weighs four times as much as a 1-star one."),
             {"kind": "ratings", "predictions": [3.5, 4.0, 2.0, 5.0, 3.0], "actuals": [4.0, 4.0, 1.0, 5.0, 5.0]},
             "rating", focus=("rmse", "mae")),
        Step(N_("Predict: every miss the same"), "predict",
             N_("Now every prediction is off by exactly one star."),
             {"kind": "ratings", "predictions": [5.0, 3.0, 2.0, 4.0, 2.0], "actuals": [4.0, 4.0, 1.0, 5.0, 3.0]},
             "rating", focus=("rmse", "mae"),
             question=Question(
                 N_("All five errors are 1 star. What is RMSE?"), "value", "rmse",
                 (Option(N_("1.0, the same as MAE"), N_("Squares of 1 are 1, so the root gives back 1."), 1.0),
                  Option("2.2361", N_("That is √5, the root of the sum. RMSE takes the mean before the root."), 5 ** 0.5),
                  Option("0.2", N_("That is 1/5. Each error is 1, so their mean is 1."), 0.2)),
                 "1.0, the same as MAE", N_("With equal errors, RMSE = MAE: the squaring only matters when misses differ."))),
        Step(N_("One miss grows"), "demonstrate",
             N_("Watch the last prediction drift from 5 (right) to 1 (four stars off). MAE grows in a straight "
             "line, 0.1 per half star; RMSE grows slower than MAE for the first half star, then faster and "
             "faster, because the miss is squared."),
             {"kind": "ratings", "predictions": [3.5, 4.0, 2.0, 5.0, 5.0], "actuals": [4.0, 4.0, 1.0, 5.0, 5.0]},
             "error_grows", animation={"index": 4, "predictions": [5.0, 4.5, 4.0, 3.5, 3.0, 2.5, 2.0, 1.5, 1.0]},
             focus=("rmse", "mae"),
             claims=(Claim("mae", "rises evenly"), Claim("rmse", "rises ever faster"),
                     Claim("rmse", "rises less than", frames=(0, 1), than="mae"),
                     Claim("rmse", "rises more than", frames=(1, 8), than="mae"))),
        Step(N_("Predict: the same MAE"), "predict",
             N_("Model A misses every rating by 1 star. Model B gets three right, misses one by 4 stars and one by 1."),
             {"kind": "ratings", "predictions": [5.0, 3.0, 2.0, 4.0, 2.0], "actuals": [4.0, 4.0, 1.0, 5.0, 3.0]},
             "rating", focus=("rmse", "mae"),
             question=Question(
                 N_("Both have MAE = 1. Which has the higher RMSE?"), "compare", "rmse",
                 (Option("A", N_("A's misses are all 1; squaring 1 changes nothing, RMSE stays 1.")),
                  Option("B", N_("B's 4-star miss squares to 16, so RMSE = √(17/5) = 1.8439.")),
                  Option(N_("the same"), N_("That is true of MAE only. RMSE punishes the one big miss."))),
                 "B", N_("A: √(5/5) = 1; B: √((16 + 1)/5) = 1.8439. MAE cannot tell them apart, RMSE can."),
                 other={"kind": "ratings", "predictions": [4.0, 4.0, 5.0, 5.0, 2.0],
                        "actuals": [4.0, 4.0, 1.0, 5.0, 3.0]})),
        Step(N_("The NumPy tutorial's outlier-prone model"), "demonstrate",
             N_("The NumPy tutorial's model predicts 1,000 ratings almost perfectly, except for a share of ±4-star "
             "misses. Watch that share grow from 0% to 20%: RMSE jumps with the first outliers, MAE creeps."),
             sweep([0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2]), "outlier_sweep", focus=("rmse", "mae"),
             claims=(Claim("outlier_share", "rises"), Claim("mae", "rises"),
                     Claim("rmse", "rises more than", than="mae"))),
        Step(N_("Your turn: one big miss"), "explore",
             N_("Change two of the predictions; the 2-star miss on the last rating is not yours to fix."),
             {"kind": "ratings", "predictions": [3.5, 4.0, 2.0, 5.0, 3.0], "actuals": [4.0, 4.0, 1.0, 5.0, 5.0]},
             "rating", focus=("rmse", "mae"),
             controls=(Control("value", N_("Prediction 1 (actual 4)"), field="predictions", index=0, minimum=1, maximum=5, step=0.5),
                       Control("value", N_("Prediction 3 (actual 1)"), field="predictions", index=2, minimum=1, maximum=5, step=0.5)),
             goal=Goal(N_("Get MAE down to 0.4 while RMSE stays above 0.85."), (("mae", "<=", 0.4), ("rmse", ">", 0.85)),
                       N_("With every other miss gone, the one 2-star miss keeps RMSE at √(4/5) = 0.89 while MAE is 2/5."))),
    ),
)

CLASSIFICATION = Lesson(
    "classification", N_("Accuracy, precision, recall, F1: the confusion matrix"), "🧮", "classification",
    N_("Four counts, TP, FP, TN and FN, give every one of these metrics."),
    (
        Step(N_("Four kinds of outcome"), "show",
             N_("Six impressions from the offline-evaluation article: did the user click (label) and did the model predict a "
             "click? Each pair is a true or false positive or negative; the matrix counts them."),
             {"kind": "labels", "y_true": [0, 1, 1, 0, 1, 1], "y_pred": [0, 1, 0, 1, 1, 1]},
             "confusion", focus=("accuracy",)),
        Step(N_("Precision and recall read different rows"), "show",
             N_("Precision = TP / (TP + FP): of the predicted clicks, how many were real. Recall = TP / (TP + FN): "
             "of the real clicks, how many were predicted. Here both are 3/4."),
             {"kind": "labels", "y_true": [0, 1, 1, 0, 1, 1], "y_pred": [0, 1, 0, 1, 1, 1]},
             "confusion", focus=("precision", "recall")),
        Step(N_("Predict: a click for everyone"), "predict",
             N_("A lazy model predicts 1 for all six impressions."),
             {"kind": "labels", "y_true": [0, 1, 1, 0, 1, 1], "y_pred": [1, 1, 1, 1, 1, 1]},
             "confusion", focus=("recall", "precision"),
             question=Question(
                 N_("What is its recall?"), "value", "recall",
                 (Option("1.0", N_("Every real click is predicted, so FN = 0. Recall alone rewards laziness."), 1.0),
                  Option("0.6667", N_("That is its precision, 4 real clicks among 6 predicted."), 4 / 6),
                  Option("0.5", N_("Recall only looks at the real clicks: all 4 of them were predicted."), 0.5)),
                 "1.0", N_("Predicting 1 everywhere leaves no false negative: recall 1, precision only 4/6."))),
        Step(N_("Rare clicks: accuracy flatters"), "demonstrate",
             N_("A model that never predicts a click, on data where clicks get rarer: from 50% to 1%. "
             "Watch its accuracy climb toward 99% while its recall stays 0."),
             sweep([0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.02, 0.01]), "accuracy_paradox", focus=("accuracy", "recall"),
             claims=(Claim("accuracy", "rises"), Claim("recall", "unchanged", at=0.0))),
        Step(N_("Predict F1"), "predict",
             N_("The offline-evaluation article's text example: precision 0.5, recall 0.7 (TP = 7, FP = 7, FN = 3)."),
             {"kind": "labels", "y_true": [1] * 10 + [0] * 7 + [0] * 3, "y_pred": [1] * 7 + [0] * 3 + [1] * 7 + [0] * 3},
             "confusion", focus=("f1",),
             question=Question(
                 N_("What is F1?"), "value", "f1",
                 (Option("0.6", N_("That is the plain mean of 0.5 and 0.7. F1 is the harmonic mean."), 0.6),
                  Option("0.5833", N_("2 · 0.5 · 0.7 / (0.5 + 0.7) = 0.7 / 1.2."), 0.7 / 1.2),
                  Option("0.35", N_("That is the product 0.5 · 0.7; F1 doubles it and divides by the sum."), 0.35)),
                 "0.5833", N_("The harmonic mean leans toward the smaller of the two: 0.5833 < 0.6."))),
        Step(N_("Your turn: choose a threshold"), "explore",
             N_("The model gives each impression a score; everything at or above the threshold is predicted a click."),
             {"kind": "labels", "y_true": [1, 1, 1, 0, 1, 0, 1, 0, 0, 0],
              "y_score": [0.95, 0.9, 0.8, 0.75, 0.7, 0.6, 0.55, 0.4, 0.3, 0.1], "threshold": 0.5},
             "confusion", focus=("precision", "recall", "f1"),
             controls=(Control("threshold", N_("Threshold"), minimum=0.0, maximum=1.0, step=0.05),),
             goal=Goal(N_("Get precision and recall both to 0.8 or more."),
                       (("precision", ">=", 0.8), ("recall", ">=", 0.8)),
                       N_("A threshold between 0.60 and 0.70 keeps 4 of the 5 clicks and lets in only 1 non-click."))),
    ),
)

AUC_SCORES = {"kind": "scores", "user_ids": ["u"] * 8, "y_true": [1, 1, 0, 1, 0, 1, 0, 0],
              "y_score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]}

AUC = Lesson(
    "auc", N_("AUC and GAUC"), "📉", "auc",
    N_("AUC is the chance that a random click is scored above a random non-click; GAUC asks it per user."),
    (
        Step(N_("Pairs, not thresholds"), "show",
             N_("Four clicks and four non-clicks make 16 click/non-click pairs. AUC is the share of pairs where the "
             "click has the higher score: 13 of 16 here; the table beside the curve lets you count them."),
             AUC_SCORES, "auc", focus=("auc",)),
        Step(N_("The ROC curve draws itself"), "demonstrate",
             N_("Watch the threshold sweep from the top score down. Each click it passes steps the curve up, each "
             "non-click steps it right; the area under the finished curve is the AUC."),
             AUC_SCORES, "roc_sweep", focus=("auc",)),
        Step(N_("Predict: halve every score"), "predict",
             N_("Every score is multiplied by 0.5: 0.9 becomes 0.45, 0.2 becomes 0.1."),
             AUC_SCORES, "auc", focus=("auc",),
             question=Question(
                 N_("What happens to AUC?"), "direction", "auc",
                 directions(N_("Lower scores do not make the order better."),
                            N_("Lower scores do not make the order worse either: no pair changes sides."),
                            N_("AUC only looks at which of two scores is higher.")),
                 "unchanged", N_("Every pair keeps its order, so AUC stays 13/16 = 0.8125."),
                 change={"y_score": [0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1]})),
        Step(N_("Predict: a tie"), "predict",
             N_("One click and one non-click, both scored 0.5."),
             {"kind": "scores", "user_ids": ["u", "u"], "y_true": [1, 0], "y_score": [0.5, 0.5]}, "auc", focus=("auc",),
             question=Question(
                 N_("What is the AUC?"), "value", "auc",
                 (Option("0", N_("That is the offline-evaluation article's hand-written loop with a strict >. scikit-learn counts a tie as half."), 0.0),
                  Option("0.5", N_("A tied pair counts 1/2, as a coin flip would."), 0.5),
                  Option("1", N_("A tie is not a win: the click is not above the non-click."), 1.0)),
                 "0.5", N_("A tie is half a correctly ordered pair: (0 + 0.5 · 1) / (1 · 1) = 0.5."))),
        Step(N_("GAUC: AUC inside each user"), "show",
             N_("GAUC computes AUC within each user and averages, weighting each user by impressions. Pairs of two "
             "different users never meet, as in a feed where a user only sees their own list. user3 only clicked: "
             "with no non-click of their own they have no pair, so GAUC leaves them out."),
             {"kind": "scores", "user_ids": ["user1"] * 4 + ["user2"] * 4 + ["user3"] * 2,
              "y_true": [1, 1, 0, 0, 1, 0, 1, 0, 1, 1], "y_score": [0.9, 0.5, 0.5, 0.4, 0.7, 0.8, 0.3, 0.2, 0.6, 0.4]},
             "gauc", focus=("auc", "gauc")),
        Step(N_("Predict: pooled AUC or GAUC?"), "predict",
             N_("Two users. Within each, the click is scored above the non-click, but user b's scores are all low."),
             {"kind": "scores", "user_ids": ["a", "a", "b", "b"], "y_true": [1, 0, 1, 0], "y_score": [0.9, 0.8, 0.3, 0.2]},
             "gauc", focus=("auc", "gauc"),
             question=Question(
                 N_("Which is higher: AUC over all impressions pooled, or GAUC?"), "compare", "auc",
                 (Option(N_("pooled AUC"), N_("Pooling adds cross-user pairs such as b's click (0.3) vs a's non-click "
                                       "(0.8), which the model orders wrongly.")),
                  Option("GAUC", N_("Within each user the order is perfect, so GAUC = 1; pooled AUC = 3/4.")),
                  Option(N_("the same"), N_("They differ by the cross-user pairs, one of which is wrong here."))),
                 "GAUC", N_("GAUC = 1 (each user ordered perfectly); pooled AUC = 3/4, hurt by a cross-user pair."),
                 other_metric="gauc")),
        Step(N_("Your turn: a perfect order"), "explore",
             N_("Two clicks are scored below some non-clicks. Give them higher scores with the sliders."),
             AUC_SCORES, "auc", focus=("auc",),
             controls=(Control("value", N_("Score of click 3 (impression #4)"), field="y_score", index=3, minimum=0, maximum=1, step=0.05),
                       Control("value", N_("Score of click 4 (impression #6)"), field="y_score", index=5, minimum=0, maximum=1, step=0.05)),
             goal=Goal(N_("Make AUC exactly 1."), (("auc", "==", 1.0),),
                       N_("Every click above every non-click: all 16 pairs count 1."))),
    ),
)

LOGLOSS = Lesson(
    "logloss", N_("LogLoss, normalised entropy and calibration"), "🎲", "logloss",
    N_("LogLoss judges predicted probabilities; normalised entropy and calibration make it comparable."),
    (
        Step(N_("The cost of a probability"), "show",
             N_("Each impression costs −ln(the probability given to what happened). The offline-evaluation article's three "
             "impressions cost −ln 0.8, −ln 0.6 and −ln(1 − 0.3); LogLoss is their mean, 0.3635."),
             {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]}, "logloss", focus=("log_loss",)),
        Step(N_("Confidence, then a mistake"), "demonstrate",
             N_("Watch the first impression, a real click, get a lower and lower predicted probability: from 0.95 to "
             "0.01. Its cost −ln p rises by ln 2 = 0.69 each time p halves (0.4 → 0.2 → 0.1 → 0.05), whatever p "
             "is: it has no bound as p nears 0."),
             {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.95, 0.6, 0.3]}, "confidence",
             animation={"index": 0, "probabilities": [0.95, 0.8, 0.6, 0.4, 0.2, 0.1, 0.05, 0.02, 0.01]},
             focus=("log_loss",),
             claims=(Claim("probability", "falls"), Claim("sample_loss", "rises"), Claim("log_loss", "rises"),
                     Claim("sample_loss", "rises ever faster", frames=(0, 4)),
                     Claim("sample_loss", "rises evenly", frames=(3, 6)))),
        Step(N_("Predict: a certain mistake"), "predict",
             N_("A click predicted with probability 0. −ln 0 is infinite, so the probability is first clipped to "
             "ε = 2.2e-16 (scikit-learn's float64 machine epsilon)."),
             {"kind": "probabilities", "y_true": [1], "y_prob": [0.0]}, "logloss", focus=("log_loss",),
             question=Question(
                 N_("What does this one impression cost?"), "value", "log_loss",
                 (Option("36.04", N_("−ln(2.2e-16) = 36.04. One such sample can dominate a mean."), 36.04),
                  Option("infinity", N_("It would, without clipping. Every library clips, each with its own ε."), float("inf")),
                  Option("1", N_("The loss is not capped at 1: it is −ln of the probability, unbounded."), 1.0)),
                 "36.04", N_("The clipped probability 2.2e-16 costs −ln(2.2e-16) = 36.04."))),
        Step(N_("Predict: LogLoss at two click rates"), "predict",
             N_("Two data sets, one model that knows nothing but the click rate. A: 50 impressions, 1 click, every "
             "prediction 0.02. B: 10 impressions, 3 clicks, every prediction 0.3."),
             {"kind": "probabilities", "y_true": [1] + [0] * 49, "y_prob": [0.02] * 50}, "logloss", focus=("log_loss",),
             question=Question(
                 N_("Which has the higher LogLoss?"), "compare", "log_loss",
                 (Option("A", N_("A's model is just as good (it predicts the base rate), and rare clicks are easy to "
                              "be unsurprised by: A scores 0.098.")),
                  Option("B", N_("0.611 vs 0.098, although both models know exactly as little.")),
                  Option(N_("the same"), N_("They would be if LogLoss ignored the click rate. It does not."))),
                 "B", N_("Rare clicks make a low LogLoss easy: A scores 0.098, B 0.611, for the same know-nothing model."),
                 other={"kind": "probabilities", "y_true": [1, 1, 1] + [0] * 7, "y_prob": [0.3] * 10})),
        Step(N_("Normalised entropy divides the click rate out"), "demonstrate",
             N_("The know-nothing model again, on data with click rates from 1% to 50%. Its LogLoss grows more than "
             "tenfold; its normalised entropy, LogLoss / LogLoss of the base rate, stays 1."),
             sweep([0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5]), "base_rate_sweep",
             focus=("log_loss", "normalized_entropy"),
             claims=(Claim("log_loss", "rises"), Claim("normalized_entropy", "unchanged", at=1.0))),
        Step(N_("NE and calibration of the article's model"), "show",
             N_("NE = 0.3635 / 0.6365 = 0.5712: the model removes 43% of the base rate's uncertainty. Calibration = "
             "predicted clicks / real clicks = 1.7 / 2 = 0.85: it expects too few clicks."),
             {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]}, "ctr",
             focus=("log_loss", "normalized_entropy", "calibration")),
        Step(N_("Your turn: calibrate"), "explore",
             N_("Change the three predicted probabilities."),
             {"kind": "probabilities", "y_true": [1, 1, 0], "y_prob": [0.8, 0.6, 0.3]}, "ctr",
             focus=("log_loss", "normalized_entropy", "calibration"),
             controls=tuple(Control("value", N_("p{number} (label {label})"), field="y_prob", index=i, minimum=0, maximum=1,
                                    step=0.05) for i in range(3)),
             goal=Goal(N_("Make calibration 1 (±0.02) with NE below 0.5."),
                       (("calibration", ">=", 0.98), ("calibration", "<=", 1.02), ("normalized_entropy", "<", 0.5)),
                       N_("The model now expects as many clicks as happened and knows much more than the base rate."))),
    ),
)

# ----------------------------------------------------------------------- how offline evaluation lies
# The protocol lab's presets on MovieLens 100K (ui.controllers.lesson_protocols computes every number). Each
# number a text states is a Claim at that value (tests/test_lesson_protocols.py reads every number of the texts
# and finds its claim); HR@10 is a count of hits over 940 users, written to 4 places, NDCG@10 a mean of real
# numbers, written to 3.
SAMPLED = {"kind": "protocol", "preset": "sampled_vs_full", "negatives": 100}
SPLITS = {"kind": "protocol", "preset": "split_leak"}
TUNING = {"kind": "protocol", "preset": "tuned_baselines"}


def stated(value: str, at: float) -> Claim:
    """A number the text states: the step's ``value`` is ``at``."""
    return Claim(value, "unchanged", at=at)


def pair_options(knn: str, mf: str, same: str) -> tuple[Option, ...]:
    """Item k-NN higher, the matrix factorisation higher, the same: the order of a "compare" question."""
    return (Option(N_("Item k-NN"), knn), Option(N_("Matrix factorisation (ALS)"), mf), Option(N_("the same"), same))


FULL_HR = (stated("full_hit_rate:mf", 0.1457), stated("full_hit_rate:ease", 0.1457),
           stated("full_hit_rate:itemknn", 0.1128), stated("full_hit_rate:pop", 0.0862))

PROTOCOLS = Lesson(
    "protocols", N_("How offline evaluation lies"), "🧫", "protocols",
    N_("The same models on the same data change places when the protocol changes: sampled candidates, a leaky "
       "split, untuned baselines."),
    (
        Step(N_("Four models, one protocol"), "show",
             N_("Four models learned from MovieLens 100K with each user's latest rating held out; each held-out movie "
                "is ranked among all the movies its user never rated. By HR@10 the matrix factorisation and EASE tie "
                "at 0.1457, item k-NN follows at 0.1128 and most popular is last at 0.0862."),
             SAMPLED, "protocol_models", focus=("full_hit_rate:itemknn", "full_hit_rate:mf"),
             claims=(*FULL_HR, Claim("full_hit_rate:itemknn", "below", than="full_hit_rate:ease"),
                     Claim("full_hit_rate:pop", "below", than="full_hit_rate:itemknn"))),
        Step(N_("Predict: 100 sampled negatives"), "predict",
             N_("A common shortcut ranks each held-out movie against only 100 movies its user never rated, drawn at "
                "random, and reports HR@10 among those 101."),
             SAMPLED, "protocol_sampled", focus=("sampled_hit_rate:itemknn", "sampled_hit_rate:mf"),
             claims=(stated("negatives", 100), stated("candidates", 101), stated("k", 10), FULL_HR[0], FULL_HR[2],
                     stated("sampled_hit_rate:itemknn", 0.6181), stated("sampled_hit_rate:mf", 0.6053),
                     stated("hits_sampled_itemknn", 581), stated("hits_sampled_mf", 569)),
             question=Question(
                 N_("With 100 sampled negatives, which scores the higher HR@10: item k-NN or the matrix "
                    "factorisation?"), "compare", "sampled_hit_rate:itemknn",
                 pair_options(
                     N_("Item k-NN scores 0.6181 against 0.6053, although on the full ranking it is behind, 0.1128 "
                        "against 0.1457."),
                     N_("That is the full ranking's order, 0.1457 against 0.1128. With 100 sampled negatives it turns "
                        "round: 0.6053 against item k-NN's 0.6181."),
                     N_("Item k-NN puts 581 held-out movies in the top 10 of 101, the matrix factorisation 569.")),
                 "Item k-NN",
                 N_("Sampled, item k-NN is ahead, 0.6181 against 0.6053; on the full ranking the matrix factorisation "
                    "is, 0.1457 against 0.1128: the sample turned the pair round."),
                 other_metric="sampled_hit_rate:mf")),
        Step(N_("The sample grows"), "demonstrate",
             N_("Watch the sample grow from 10 to 900 negatives per held-out movie: every model's expected HR@10 (its "
                "mean over every possible sample) falls, yet stays above its full-ranking value. Item k-NN is above "
                "the matrix factorisation up to 100 negatives and below it from 200 on, as on the full ranking."),
             SAMPLED, "protocol_sweep", animation={"negatives": [10, 20, 50, 100, 200, 500, 900]},
             focus=("expected_hit_rate:itemknn", "expected_hit_rate:mf"),
             claims=(Claim("negatives", "unchanged", frames=(0, 0), at=10),
                     Claim("negatives", "unchanged", frames=(6, 6), at=900),
                     Claim("negatives", "unchanged", frames=(3, 3), at=100),
                     Claim("negatives", "unchanged", frames=(4, 4), at=200),
                     *(Claim(f"expected_hit_rate:{m}", "falls") for m in ("pop", "itemknn", "ease", "mf")),
                     *(Claim(f"expected_hit_rate:{m}", "above", than=f"full_hit_rate:{m}")
                       for m in ("pop", "itemknn", "ease", "mf")),
                     Claim("expected_hit_rate:itemknn", "above", frames=(0, 3), than="expected_hit_rate:mf"),
                     Claim("expected_hit_rate:itemknn", "below", frames=(4, 6), than="expected_hit_rate:mf"),
                     Claim("full_hit_rate:itemknn", "below", than="full_hit_rate:mf"))),
        Step(N_("Predict: a global time cut"), "predict",
             N_("Leave-last-out, used so far, holds out each user's latest rating, yet trains on the later ratings "
                "of other users. A global time cut trains on everything before one moment and tests on what came "
                "after it."),
             SPLITS, "protocol_pair", focus=("ndcg_global_time:itemknn", "ndcg_global_time:mf"),
             claims=(stated("ndcg_global_time:itemknn", 0.147), stated("ndcg_global_time:mf", 0.135),
                     stated("ndcg_leave_last_out:mf", 0.072), stated("ndcg_leave_last_out:itemknn", 0.061),
                     stated("place_leave_last_out_mf", 2), stated("place_leave_last_out_itemknn", 3),
                     stated("place_global_time_itemknn", 2), stated("place_global_time_mf", 4)),
             question=Question(
                 N_("Under the global time cut, which scores the higher NDCG@10: item k-NN or the matrix "
                    "factorisation?"), "compare", "ndcg_global_time:itemknn",
                 pair_options(
                     N_("Item k-NN scores 0.147, the matrix factorisation 0.135: it falls from second place to last."),
                     N_("That is leave-last-out's order, 0.072 against 0.061. Under the time cut item k-NN leads, "
                        "0.147 against 0.135."),
                     N_("Under the time cut they score 0.147 and 0.135.")),
                 "Item k-NN",
                 N_("Leave-last-out puts the matrix factorisation second and item k-NN third; the global time cut "
                    "puts item k-NN second and the matrix factorisation last."),
                 other_metric="ndcg_global_time:mf")),
        Step(N_("Leave-last-out trains on the future"), "show",
             N_("Under leave-last-out, 98,186 of the 99,057 training ratings are later than the earliest held-out "
                "one; under the global time cut, none of its 79,999 are. The cut has a price: 192 users rated nothing "
                "before it and cannot be tested, which leaves 109 test users."),
             SPLITS, "protocol_leak", focus=("future_share_leave_last_out", "future_share_global_time"),
             claims=(stated("future_rows_leave_last_out", 98186), stated("train_rows_leave_last_out", 99057),
                     stated("future_rows_global_time", 0), stated("train_rows_global_time", 79999),
                     stated("cold_users_global_time", 192), stated("test_users_global_time", 109))),
        Step(N_("Predict: tune every model"), "predict",
             N_("A third question of protocol: a random split of the ratings, every model first with its default "
                "hyperparameters, then tuned: chosen on a validation split carved from the training data, never "
                "from the test set."),
             TUNING, "protocol_pair", focus=("ndcg_tuned:itemknn", "ndcg_tuned:mf"),
             claims=(stated("ndcg_untuned:itemknn", 0.394), stated("ndcg_untuned:mf", 0.357),
                     stated("ndcg_tuned:itemknn", 0.390), stated("ndcg_tuned:mf", 0.409),
                     stated("place_untuned_mf", 3), stated("place_tuned_mf", 2), stated("place_tuned_ease", 1)),
             question=Question(
                 N_("Once tuned, which scores the higher NDCG@10: item k-NN or the matrix factorisation?"), "compare",
                 "ndcg_tuned:itemknn",
                 pair_options(
                     N_("That is the untuned order, 0.394 against 0.357. Tuned, the matrix factorisation scores 0.409 "
                        "and item k-NN 0.390."),
                     N_("Tuned, it rises from 0.357 to 0.409 and passes item k-NN at 0.390."),
                     N_("Tuned, they score 0.409 and 0.390.")),
                 "Matrix factorisation (ALS)",
                 N_("Untuned, the matrix factorisation was third; tuned, it is second behind EASE: a comparison "
                    "against the untuned model would have ranked it wrongly."),
                 other_metric="ndcg_tuned:mf")),
        Step(N_("Your turn: how many negatives?"), "explore",
             N_("Change how many sampled negatives each held-out movie is ranked against, and watch the expected "
                "HR@10 of item k-NN and the matrix factorisation."),
             SAMPLED, "protocol_expected", focus=("expected_hit_rate:itemknn", "expected_hit_rate:mf"),
             controls=(Control("setting", N_("Sampled negatives per held-out movie"), field="negatives", minimum=10,
                               maximum=900, step=10),),
             goal=Goal(N_("Find a number of sampled negatives at which the matrix factorisation is expected above "
                          "item k-NN, as on the full ranking."),
                       (("expected_hit_rate:mf", ">", "expected_hit_rate:itemknn"),),
                       N_("With this many negatives the sample keeps the full ranking's order of the two; with fewer "
                          "it turns them round. Krichene and Rendle's advice: rank the full catalogue."))),
    ),
)

LESSONS: tuple[Lesson, ...] = (TOPN, AP, RR, NDCG, RATING, CLASSIFICATION, AUC, LOGLOSS, PROTOCOLS)
BY_KEY = {lesson.key: lesson for lesson in LESSONS}
