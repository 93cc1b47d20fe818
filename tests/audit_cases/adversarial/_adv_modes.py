# Helpers that hash the values they get (imported by the h7 cases).
import statistics
from collections import Counter


def mode3(a, b, c):
    return statistics.mode([a, b, c])


def majority(a, b, c):
    return Counter([a, b, c]).most_common(1)[0][0]
