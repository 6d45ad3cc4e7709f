# Builds the reading test of one pairing of quotes and brackets (docs/reading/pairs/README.md):
# the sentences of UD_English-EWT (train, dev, test) and UD_English-GUM's train split with
# a quote or a bracket, each with one of its nouns as query, and the Google test records,
# where two builds differ (udocs.changed_pool), with the default method or, given as
# METHOD, another (window).
# usage: python3 build.py DATA_DIR OLD_QSC NEW_QSC OUT_DIR [SEED MAX [METHOD]]
import os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from udocs import nouns_if, pool_main

pool_main(3600, nouns_if(re.compile(r'["\'‘’“”„«»‹›「」『』（）【】〈〉《》()\[\]{}]')))
