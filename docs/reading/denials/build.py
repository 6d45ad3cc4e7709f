# Builds the reading test of what a denial, a claim or a negative nominal governs
# (docs/reading/denials/README.md): the sentences of UD_English-EWT (train, dev, test) and
# UD_English-GUM's train split with a denying or claiming verb, "according to", or "no"
# before a nominal, each with one of its nouns as query, and the Google test records, where
# two builds differ (udocs.changed_pool).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns_if, pool_main

pool_main(3700, nouns_if(re.compile(r'\b(den(y|ies|ied|ying)|disput(e|es|ed|ing)|refut(e|es|ed|ing)|reject(s|ed|ing)?|claim(s|ed|ing)?|alleg(e|es|ed|ing)|[Nn]o)\b')))
