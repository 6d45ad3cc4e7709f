# Builds the reading test of a reported clause (docs/reading/reported/README.md): the
# sentences with "that" after a verb of saying or holding (REPORTING) of UD_English-EWT
# (train, dev, test) and UD_English-GUM's train split, each with one of its nouns as
# query, and the Google test records, where two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns, pool_main
REPORTING = set('say says said hold holds held argue argues argued contend contends contended claim claims claimed allege alleges alleged believe believes believed think thinks thought assert asserts asserted maintain maintains maintained conclude concludes concluded find finds found rule rules ruled state states stated suggest suggests suggested insist insists insisted deny denies denied admit admits admitted acknowledge acknowledges acknowledged report reports reported testify testifies testified reason reasons reasoned posit posits posited hope hopes hoped fear fears feared suspect suspects suspected doubt doubts doubted'.split())


def select(text, rows):
    words = [c[1].lower() for c in rows]
    reported = any(w == 'that' and any(v in REPORTING for v in words[:i]) for i, w in enumerate(words))
    return nouns(rows) if reported else []


pool_main(2090, select)
