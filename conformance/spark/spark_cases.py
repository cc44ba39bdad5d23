r"""Generate decimal cases from a seed, run them through Spark SQL, write the
cases with Spark's answers.

Usage: spark_cases.py SEED OUT_FILE

Every case runs under the four settings of
spark.sql.decimalOperations.allowPrecisionLoss and spark.sql.ansi.enabled in
one local session. The output has one case a line, tab-separated `key=value`
fields (values escaped: backslash, tab, newline and carriage return as `\\`,
`\t`, `\n`, `\r`; a SQL null as `\N`); `examples/spark_conformance.rs` reads
it and computes the same cases with the crate. Fields:

  id, op, plo (allowPrecisionLoss 0/1), ansi (0/1), the operands (`t1`/`a`,
  `t2`/`b`, `d` for round digits, `to` for a cast's target, `cmp` for a
  comparison, `vals` for an aggregate's group, `;`-separated with `NULL`
  for a null row), then Spark's
  answer: `type` and `value`, or `error` (Spark's error class). `tie=1`
  marks a case whose exact result lies half way between two values of the
  result scale (so the rounding mode decides it).
"""

import decimal
import logging
import os
import random
import struct
import sys
import time
from decimal import Decimal
from fractions import Fraction

decimal.getcontext().prec = 200

SEED = int(sys.argv[1])
# Each query and its time on stderr, to see where a run spends it.
TRACE = bool(os.environ.get("SPARK_CASES_TRACE"))
OUT = sys.argv[2]
rng = random.Random(SEED)

from pyspark.errors import AnalysisException  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql.types import (  # noqa: E402
    ByteType,
    DecimalType,
    DoubleType,
    IntegerType,
    LongType,
    ShortType,
    StringType,
    StructField,
    StructType,
)

# Small and quiet: CI shares two cores with other work.
spark = (
    SparkSession.builder.master("local[2]")
    .appName("decimal-kernels spark conformance")
    .config("spark.ui.enabled", "false")
    .config("spark.driver.memory", "1g")
    .config("spark.sql.shuffle.partitions", "2")
    .config("spark.default.parallelism", "2")
    .config("spark.ui.showConsoleProgress", "false")
    .getOrCreate()
)
# An error in ANSI mode is an answer here, not news: without this every
# one of them logs its stack trace.
spark.sparkContext.setLogLevel("OFF")
for name in ("SQLQueryContextLogger", "py4j", "pyspark"):
    logging.getLogger(name).setLevel(logging.CRITICAL)
print(f"spark {spark.version}, seed {SEED}", flush=True)

SETTINGS = [(plo, ansi) for plo in (True, False) for ansi in (False, True)]


# ---------------------------------------------------------------- values


def dtype(p, s):
    return f"decimal({p},{s})"


def text(d, s):
    """Canonical text of `d` at scale `s` (the crate's `to_strs`)."""
    return format(d.quantize(Decimal(1).scaleb(-s)), "f")


def ulp(s):
    return Decimal(1).scaleb(-s)


def max_value(p, s):
    return (Decimal(10) ** p - 1).scaleb(-s)


def random_value(p, s, digits=None):
    digits = rng.randint(1, p) if digits is None else digits
    v = Decimal(rng.randrange(10 ** (digits - 1) if digits > 1 else 0, 10**digits))
    v = v.scaleb(-s)
    return -v if rng.random() < 0.5 else v


def tie_value(p, s):
    """A value of the type whose last digit is 5: a tie when one digit is
    dropped, and a tie source for products and sums."""
    if p == 1:
        v = Decimal(5).scaleb(-s)
    else:
        v = Decimal(rng.randrange(0, 10 ** (p - 1)) * 10 + 5).scaleb(-s)
    return -v if rng.random() < 0.5 else v


def special_values(p, s):
    m = max_value(p, s)
    vals = [Decimal(0), m, -m, ulp(s), -ulp(s), tie_value(p, s), tie_value(p, s)]
    vals += [random_value(p, s) for _ in range(3)]
    if p - s >= 1:
        vals += [Decimal(1), Decimal(-1), Decimal(2), Decimal(-7)]
    return vals


def binary_rows(t1, t2):
    (p1, s1), (p2, s2) = t1, t2
    xs, ys = special_values(p1, s1), special_values(p2, s2)
    rows = [(x, y) for x in xs[:3] for y in ys[:3]]  # the extremes against each other
    rows += [(x, Decimal(0)) for x in rng.sample(xs, 4)]  # zero divisors
    rows += [(rng.choice(xs), rng.choice(ys)) for _ in range(14)]
    rows += [(random_value(p1, s1), random_value(p2, s2)) for _ in range(6)]
    rows += [(None, rng.choice(ys)), (rng.choice(xs), None), (None, None)]
    # Divisors that make terminating quotients, whose last digit may fall
    # half way at the result scale.
    for y in (Decimal(2), Decimal(-8), Decimal("0.2"), Decimal(16), Decimal(32)):
        if y == y.quantize(ulp(s2)) and abs(y) <= max_value(p2, s2):
            rows.append((tie_value(p1, s1), y))
    return rows


# ---------------------------------------------------------------- running


def error_class(e):
    for get in ("getCondition", "getErrorClass"):
        f = getattr(e, get, None)
        if f is not None:
            try:
                c = f()
            except Exception:  # noqa: BLE001 - older accessors may throw
                c = None
            if c:
                return c
    # An error without a class (a Java exception Spark did not wrap): its
    # Java class and message.
    java = getattr(e, "java_exception", None)
    if java is not None:
        while java.getCause() is not None:
            java = java.getCause()
        return str(java.toString()).splitlines()[0][:160]
    first = str(e).splitlines()[0] if str(e) else type(e).__name__
    return first[:160]


queries = 0


def query(view, key, exprs, keys):
    global queries
    queries += 1
    where = ""
    if keys is not None:
        where = f" WHERE {key} IN ({','.join(str(k) for k in keys)})"
    cols = ", ".join(f"{e} AS r{i}" for i, e in enumerate(exprs))
    sql = f"SELECT {key}, {cols} FROM {view}{where}"
    if key == "g":
        sql += " GROUP BY g"
    started = time.time()
    try:
        df = spark.sql(sql)
        types = [f.dataType for f in df.schema.fields[1:]]
        return types, df.collect()
    finally:
        if TRACE:
            print(f"    {time.time() - started:.2f}s {sql[:150]}", file=sys.stderr, flush=True)


def evaluate(view, key, exprs, keys, out, budget=None):
    """Spark's answer for every (key, expression): a failing query is split
    by expression, then by rows, down to the single failing case, so one
    error in ANSI mode does not hide the answers of the other cases. The
    splits of one call run at most `budget[0]` queries (a query takes a few
    tenths of a second): the cases left undecided then are not asked."""
    if budget is None:
        budget = [16]
    try:
        types, rows = query(view, key, exprs, keys)
    except AnalysisException as e:
        for i in range(len(exprs)):
            for k in keys:
                out[(k, exprs[i])] = ("error", error_class(e))
        return
    except Exception as e:  # noqa: BLE001 - every runtime error is an answer
        if len(exprs) > 1:
            for ex in exprs:
                evaluate(view, key, [ex], keys, out, budget)
        elif len(keys) > 1:
            half = len(keys) // 2
            for part in (keys[:half], keys[half:]):
                if budget[0] > 0:
                    budget[0] -= 1
                    evaluate(view, key, exprs, part, out, budget)
        else:
            out[(keys[0], exprs[0])] = ("error", error_class(e))
        return
    for row in rows:
        for i, ex in enumerate(exprs):
            out[(row[0], ex)] = ("ok", types[i], row[i + 1])


def answer_fields(ans):
    if ans[0] == "error":
        return {"error": ans[1]}
    t, v = ans[1], ans[2]
    if isinstance(t, DecimalType):
        v = None if v is None else text(v, t.scale)
    elif isinstance(t, DoubleType):
        v = None if v is None else f"{struct.unpack('<Q', struct.pack('<d', v))[0]:016x}"
    elif v is not None and isinstance(v, bool):
        v = "true" if v else "false"
    elif v is not None:
        v = str(v)
    return {"type": t.simpleString(), "value": v}


def escape(v):
    if v is None:
        return "\\N"
    v = str(v)
    return v.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class Out:
    def __init__(self, path):
        self.f = open(path, "w", encoding="utf-8")
        self.n = 0
        self.per_op = {}

    def write(self, fields):
        self.n += 1
        op = fields["op"]
        self.per_op[op] = self.per_op.get(op, 0) + 1
        line = "\t".join(f"{k}={escape(v)}" for k, v in [("id", self.n)] + list(fields.items()))
        self.f.write(line + "\n")


out = Out(OUT)


def is_tie(exact, scale):
    """Whether the exact rational `exact` is half way between two values of
    `scale` (so that only the rounding mode decides it)."""
    x = Fraction(exact) * Fraction(10) ** scale
    return (x - (x.numerator // x.denominator)) == Fraction(1, 2)


def guard_row(key, ks, e):
    return f"CASE WHEN {key} IN ({ks}) THEN NULL ELSE {e} END"


def guard_group(key, ks, e):
    """An aggregate's guard nulls its argument's rows in the suspect groups
    (the aggregate is computed before any expression around it)."""
    fn, arg = e[:-1].split("(", 1)
    return f"{fn}(CASE WHEN {key} IN ({ks}) THEN NULL ELSE {arg} END)"


def ask(view, key, exprs, keys, ansi, lenient, has_null, cap, risky=lambda k, e: False, guard=guard_row):
    """Spark's answers under the current settings for `exprs` on the rows
    (or groups) `keys`, as {(key, expr): answer}.

    In ANSI mode an error fails the whole query, and a query per case is
    slow (a few tenths of a second each), so the answers without ANSI mode
    (`lenient`, same precision-loss setting) pick the suspects: the cases
    whose answer was null although no input is null, or an error, and those
    `risky` names (a cast to an integer type out of its range, which Spark
    without ANSI mode wraps rather than nulls). The other cases run
    in one query, each expression under `CASE WHEN key IN (suspects) THEN
    NULL ELSE expr END`, which skips the suspects' rows (a conditional
    branch is not evaluated; for an aggregate, `guard_group`); `cap` suspects, drawn at random, run one by
    one, and their answer (an error, most often) is kept. The suspects not
    drawn are not asked in ANSI mode. Any query that still fails is split
    down to its failing cases (`evaluate`)."""
    ans = {}
    if not ansi:
        evaluate(view, key, exprs, keys, ans)
        return ans
    def suspect(k, e):
        r = lenient.get((k, e))
        if r is None or r[0] == "error" or risky(k, e):
            return True
        return r[2] is None and not has_null(k)

    suspects = {(k, e) for k in keys for e in exprs if suspect(k, e)}
    guarded = {}
    for e in exprs:
        ks = [k for k in keys if (k, e) in suspects]
        if ks:
            guarded[e] = guard(key, ",".join(map(str, ks)), e)
        else:
            guarded[e] = e
    batch = {}
    evaluate(view, key, list(guarded.values()), keys, batch)
    for k in keys:
        for e in exprs:
            if (k, e) not in suspects and (k, guarded[e]) in batch:
                ans[(k, e)] = batch[(k, guarded[e])]
    for k, e in rng.sample(sorted(suspects), min(cap, len(suspects))):
        evaluate(view, key, [e], [k], ans)
    return ans


t_start = time.time()
views = 0


def make_view(schema, rows):
    global views
    views += 1
    name = f"t{views}"
    spark.createDataFrame(rows, schema).createOrReplaceTempView(name)
    return name


def dec_field(name, t):
    return StructField(name, DecimalType(*t), True)


def random_type(max_p=38):
    p = rng.randint(1, max_p)
    return (p, rng.randint(0, p))


def dec_text(v, t):
    return None if v is None else text(v, t[1])


def bits(x):
    return None if x is None else f"{struct.unpack('<Q', struct.pack('<d', x))[0]:016x}"


# Comparisons of decimals whose common type Spark finds within 38 digits
# (`max(p1-s1, p2-s2) + max(s1, s2) <= 38`): beyond it Spark casts both
# sides to a bounded type first, which can null or fail rows the crate
# compares exactly (docs/semantics.md, Comparisons); those pairs are not
# asked.
def common_fits(t1, t2):
    return max(t1[0] - t1[1], t2[0] - t2[1]) + max(t1[1], t2[1]) <= 38


def exact_binary(op, a, b):
    a, b = Fraction(a), Fraction(b)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return a / b if b != 0 else None
    return None


BINARY_PAIRS = [
    ((38, 10), (38, 10)),  # a sum rounds at scale 9 with precision loss
    ((38, 18), (38, 18)),  # a product bounded to decimal(38,6)
    ((38, 0), (38, 37)),
    ((38, 10), (2, 0)),  # a quotient at scale 10, ties from even divisors
    ((38, 38), (38, 0)),
    ((18, 0), (2, 0)),
    ((9, 4), (5, 3)),
    ((20, 5), (10, 10)),
    ((1, 0), (1, 1)),
    ((28, 2), (12, 10)),
    ((38, 2), (38, 2)),
    ((19, 9), (20, 10)),
]
BINARY_PAIRS += [(random_type(), random_type()) for _ in range(4)]
ARITH = [("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("rem", "%")]
CMP = ["=", "<>", "<", "<=", ">", ">="]

UNARY_TYPES = [(38, 0), (38, 37), (38, 38), (1, 0), (1, 1), (5, 2), (10, 10), (18, 4),
               (19, 0), (20, 18), (30, 15), (10, 0), (3, 3)]
UNARY_TYPES += [random_type() for _ in range(3)]

# Spark's integer types, and the decimal type it widens each to.
INT_TYPES = [("tinyint", ByteType(), (3, 0)), ("smallint", ShortType(), (5, 0)),
             ("int", IntegerType(), (10, 0)), ("bigint", LongType(), (20, 0))]
INT_VALUES = {
    "tinyint": [0, 1, -1, 127, -128, 5, -99, 100],
    "smallint": [0, 32767, -32768, 999, -1000, 12345],
    "int": [0, 2**31 - 1, -(2**31), 99999, 100000, -123456789, 1000000000],
    "bigint": [0, 2**63 - 1, -(2**63), 10**18, -(10**18) + 1, 99999999999, 12345678901234567],
}
for tn, bits_ in (("tinyint", 8), ("smallint", 16), ("int", 32), ("bigint", 64)):
    half = 2 ** (bits_ - 1)
    INT_VALUES[tn] += [rng.randrange(-half, half) for _ in range(3)]

DOUBLE_VALUES = [0.0, -0.0, 9.95, -9.95, 0.045, 2.5, -2.5, 0.5, 1.5, 0.1, 1e-7, 123456.789,
                 1e20, -1e38, 9.999999999999999e37, 1e39, 4.6566128730773926e-10,
                 9007199254740993.0, 1 / 3, 99.995, 0.005, -0.005, 5e-324, 1.7976931348623157e308,
                 127.5, -128.5, 2147483647.5, float("nan"), float("inf"), float("-inf")]
DOUBLE_VALUES += [rng.uniform(-1000, 1000) for _ in range(4)]
DOUBLE_VALUES += [rng.uniform(-1, 1) * 10 ** rng.randint(-10, 30) for _ in range(4)]

STRING_VALUES = [" 1.255 ", "-1.255", ".5", "5.", "1.5E3", "-2e-4", "1e-400", "99.995", "abc", "1.2.3",
                 "--1", "1e", ".", "+", "NaN", "inf", "", "0", "-0.000", "123456789012345678901234567890",
                 "1e37", "9.9999999999999999999999999999999999999", "0.00000000000000000000000000000000000001",
                 "+7", "\t3.5\n", "12345.678", "-99999"]
STRING_VALUES += [str(random_value(rng.randint(1, 38), rng.randint(0, 20))) for _ in range(4)]
FROM_TARGETS = [(3, 1), (5, 2), (38, 0), (38, 18), (10, 10), (20, 2), (38, 38), (4, 2), (19, 0), (10, 0)]


def unary_rows(t):
    p, s = t
    vals = special_values(p, s)
    vals += [random_value(p, s) for _ in range(6)]
    # Ties for round/floor/ceil at 0, 1 and 2 digits.
    for d in (0, 1, 2):
        if d < s:
            v = Decimal(rng.randrange(0, 10 ** max(0, p - s + d)) * 10 + 5).scaleb(-(d + 1))
            if abs(v) <= max_value(p, s):
                vals += [v, -v]
    # The edges of the integer types, for casts to them.
    for edge in (127, 128, -128, -129, 32767, 32768, 2**31 - 1, 2**31, -(2**31) - 1,
                 2**63 - 1, 2**63, -(2**63) - 1, Decimal("127.9"), Decimal("-128.9")):
        e = Decimal(edge)
        if e == e.quantize(ulp(s)) and abs(e) <= max_value(p, s):
            vals.append(e)
    vals.append(None)
    return vals


def cast_targets(t):
    p, s = t
    targets = {(38, 0), (38, 38), (10, 2), (5, 0), (1, 0), (38, 18)}
    if s >= 2:
        targets.add((p, s - 2))
    targets.add((min(38, p + 2), min(38, s + 2)))
    targets.add((max(1, p - 3), min(max(1, p - 3), s)))
    if s >= 1:
        targets.add((max(1, p - 1), s - 1))
    return sorted(targets)


def round_digits(t):
    return sorted({-40, -3, -1, 0, 1, 2, t[1] - 1, t[1], t[1] + 1, 39})


AGG_TYPES = [(38, 0), (38, 10), (37, 5), (10, 2), (28, 0), (1, 0), (20, 18), (38, 37), (5, 5)]
AGG_TYPES += [random_type() for _ in range(2)]


def agg_groups(t):
    """Groups of values. A group that overflows has values of one sign, so
    that no partial sum is beyond the final one: Spark without ANSI mode
    nulls a sum whose running buffer overflows even when the final sum fits
    (docs/semantics.md, Aggregates), which depends on the order of rows and
    is not asked."""
    p, s = t
    m = max_value(p, s)
    u = ulp(s)
    zeros = [Decimal(0)] * 31
    groups = [
        [m, m],
        [-m, -m, -m],
        [m] * 11,
        [m],
        [-m],
        [u] + zeros,  # a mean of 0.03125 units: a tie at scale s + 4
        [-u] + zeros,
        [u * 3] + zeros,  # 0.09375 units, a tie too
        [u, u, u],
        [u, Decimal(0), Decimal(0)],  # a third of a unit
        [u * 2, Decimal(0), Decimal(0)],
        [None, None],
        [None, u],
        [random_value(p, s, max(1, p - 2)) for _ in range(5)],
        [random_value(p, s) for _ in range(rng.randint(1, 7))],
        [tie_value(p, s) for _ in range(2)],
    ]
    # Mixed signs only where the sum of the magnitudes fits the sum's type.
    sum_type_max = max_value(min(38, p + 10), s)
    return [g for g in groups
            if len({v > 0 for v in g if v is not None and v != 0}) <= 1
            or sum(abs(v) for v in g if v is not None) <= sum_type_max]


# ---- the tables, one view each

binary_views = []
for t1, t2 in BINARY_PAIRS:
    rows = binary_rows(t1, t2)
    schema = StructType([StructField("k", IntegerType()), dec_field("a", t1), dec_field("b", t2)])
    name = make_view(schema, [(i, a, b) for i, (a, b) in enumerate(rows)])
    binary_views.append((name, t1, t2, rows))

# A decimal column beside one column of each integer type and a double, for
# the comparisons across types.
unary_views = []
for t in UNARY_TYPES:
    vals = unary_rows(t)
    rows = []
    for i, v in enumerate(vals):
        ints = [rng.choice(INT_VALUES[tn]) for tn, _, _ in INT_TYPES]
        rows.append((i, v, *ints, rng.choice(DOUBLE_VALUES)))
    schema = StructType([StructField("k", IntegerType()), dec_field("a", t)]
                        + [StructField(f"n_{tn}", st, False) for tn, st, _ in INT_TYPES]
                        + [StructField("x", DoubleType(), False)])
    unary_views.append((make_view(schema, rows), t, rows))

# floor and ceil to -40 digits: one value of each sign and zero.
beyond_views = []
for t in ((1, 0), (38, 10)):
    rows = [(0, Decimal(5).scaleb(-t[1])), (1, -Decimal(5).scaleb(-t[1])), (2, Decimal(0))]
    schema = StructType([StructField("k", IntegerType()), dec_field("a", t)])
    beyond_views.append((make_view(schema, rows), t, rows))

# Integers, doubles and strings to cast into decimals; the last row is null.
from_views = []
for src, st, vals, enc in [(tn, st, INT_VALUES[tn], str) for tn, st, _ in INT_TYPES] + [
        ("double", DoubleType(), DOUBLE_VALUES, bits), ("string", StringType(), STRING_VALUES, str)]:
    vals = vals + [None]
    schema = StructType([StructField("k", IntegerType()), StructField("v", st, True)])
    from_views.append((make_view(schema, list(enumerate(vals))), src, vals, enc))

agg_views = []
for t in AGG_TYPES:
    groups = agg_groups(t)
    rows = [(g, v) for g, vals in enumerate(groups) for v in vals]
    rng.shuffle(rows)
    schema = StructType([StructField("g", IntegerType()), dec_field("v", t)])
    agg_views.append((make_view(schema, rows), t, groups))

print(f"  {views} tables: {time.time() - t_start:.0f}s", flush=True)

# ---- every setting

lenient = {}  # the answers without ANSI mode, by (plo, view)
for plo, ansi in SETTINGS:
    spark.conf.set("spark.sql.decimalOperations.allowPrecisionLoss", str(plo).lower())
    spark.conf.set("spark.sql.ansi.enabled", str(ansi).lower())
    conf = {"plo": int(plo), "ansi": int(ansi)}

    def run(view, key, exprs, keys, has_null, cap, risky=lambda k, e: False, guard=guard_row):
        ans = ask(view, key, exprs, keys, ansi, lenient.get((plo, view)), has_null, cap, risky, guard)
        if not ansi:
            lenient[(plo, view)] = ans
        return ans

    # + - * / % and comparisons of two decimals.
    for name, t1, t2, rows in binary_views:
        exprs = [f"a {sym} b" for _, sym in ARITH]
        cmp_ok = common_fits(t1, t2)
        if cmp_ok:
            exprs += [f"a {c} b" for c in CMP]
        ans = run(name, "k", exprs, list(range(len(rows))),
                  lambda k, rows=rows: rows[k][0] is None or rows[k][1] is None, 3)
        for i, (a, b) in enumerate(rows):
            operands = {"t1": dtype(*t1), "a": dec_text(a, t1), "t2": dtype(*t2), "b": dec_text(b, t2)}
            for op, sym in ARITH:
                r = ans.get((i, f"a {sym} b"))
                if r is None:
                    continue
                f = {"op": op, **conf, **operands, **answer_fields(r)}
                if r[0] == "ok" and isinstance(r[1], DecimalType) and a is not None and b is not None:
                    x = exact_binary(op, a, b)
                    if x is not None and is_tie(x, r[1].scale):
                        f["tie"] = 1
                out.write(f)
            for c in CMP if cmp_ok else []:
                r = ans.get((i, f"a {c} b"))
                if r is not None:
                    out.write({"op": "cmp", **conf, "cmp": c, **operands, **answer_fields(r)})
    print(f"  binary, plo={plo} ansi={ansi}: {time.time() - t_start:.0f}s", flush=True)

    # round/floor/ceil, casts to decimals, integers, doubles and strings,
    # comparisons with integers and doubles.
    for name, t, rows in unary_views:
        exprs, meta = [], []
        for d in round_digits(t):
            # A ceil or floor to 38 or more digits left of the point fails
            # in Spark for every value away from zero, ANSI mode or not; a
            # query per row would be slow, so the small table below asks it.
            for fn in ("round", "floor", "ceil") if d > -38 else ("round",):
                exprs.append(f"{fn}(a, {d})")
                meta.append({"op": fn, "d": d})
        for to in cast_targets(t):
            exprs.append(f"CAST(a AS DECIMAL({to[0]},{to[1]}))")
            meta.append({"op": "cast", "to": dtype(*to)})
        for tn, _, _ in INT_TYPES:
            exprs.append(f"CAST(a AS {tn.upper()})")
            meta.append({"op": "to_int", "to": tn})
        exprs.append("CAST(a AS DOUBLE)")
        meta.append({"op": "to_double"})
        exprs.append("CAST(a AS STRING)")
        meta.append({"op": "to_string"})
        # Spark widens an integer to its decimal type and compares exactly
        # when the common type fits 38 digits (see `common_fits`); a decimal
        # against a double is compared as a double.
        for j, (tn, _, it) in enumerate(INT_TYPES):
            if common_fits(t, it):
                for c in CMP:
                    exprs.append(f"a {c} n_{tn}")
                    meta.append({"op": "cmp_int", "cmp": c, "t2": tn, "col": 2 + j, "enc": str})
        for c in CMP:
            exprs.append(f"a {c} x")
            meta.append({"op": "cmp_double", "cmp": c, "t2": "double", "col": 6, "enc": bits})
        def risky(k, e, rows=rows):
            v = rows[k][1]
            for tn, bits_ in (("TINYINT", 8), ("SMALLINT", 16), ("INT", 32), ("BIGINT", 64)):
                if e == f"CAST(a AS {tn})" and v is not None:
                    return not -(2 ** (bits_ - 1)) <= int(v) < 2 ** (bits_ - 1)
            return False

        ans = run(name, "k", exprs, list(range(len(rows))), lambda k, rows=rows: rows[k][1] is None, 3, risky)
        for i, row in enumerate(rows):
            v = row[1]
            for ex, m in zip(exprs, meta):
                r = ans.get((i, ex))
                if r is None:
                    continue
                f = {k: m[k] for k in m if k not in ("col", "enc")}
                f.update({**conf, "t1": dtype(*t), "a": dec_text(v, t)})
                if "col" in m:
                    f["b"] = m["enc"](row[m["col"]])
                f.update(answer_fields(r))
                if r[0] == "ok" and v is not None and (
                        (m["op"] == "round" and is_tie(v, m["d"]))
                        or (m["op"] == "cast" and is_tie(v, r[1].scale))):
                    f["tie"] = 1
                out.write(f)
    for name, t, rows in beyond_views:
        exprs = [f"{fn}(a, -40)" for fn in ("floor", "ceil")]
        ans = run(name, "k", exprs, list(range(len(rows))), lambda k: False, 2)
        for i, row in enumerate(rows):
            for fn in ("floor", "ceil"):
                r = ans.get((i, f"{fn}(a, -40)"))
                if r is not None:
                    out.write({"op": fn, "d": -40, **conf, "t1": dtype(*t), "a": dec_text(row[1], t),
                               **answer_fields(r)})
    # Integers, doubles and strings into decimals.
    for name, src, vals, enc in from_views:
        exprs = [f"CAST(v AS DECIMAL({p},{s}))" for p, s in FROM_TARGETS]
        ans = run(name, "k", exprs, list(range(len(vals))), lambda k, vals=vals: vals[k] is None, 2)
        op = "from_" + ("int" if src in INT_VALUES else src)
        for i, v in enumerate(vals):
            for (p, s), ex in zip(FROM_TARGETS, exprs):
                r = ans.get((i, ex))
                if r is not None:
                    out.write({"op": op, **conf, "t1": src, "a": None if v is None else enc(v),
                               "to": dtype(p, s), **answer_fields(r)})
    print(f"  one operand and casts, plo={plo} ansi={ansi}: {time.time() - t_start:.0f}s", flush=True)

    # sum and avg by group.
    for name, t, groups in agg_views:
        ans = run(name, "g", ["sum(v)", "avg(v)"], list(range(len(groups))),
                  lambda g, groups=groups: all(v is None for v in groups[g]), 2, guard=guard_group)
        for g, vals in enumerate(groups):
            for fn in ("sum", "avg"):
                r = ans.get((g, f"{fn}(v)"))
                if r is None:
                    continue
                f = {"op": fn, **conf, "t1": dtype(*t),
                     "vals": ";".join("NULL" if v is None else text(v, t[1]) for v in vals), **answer_fields(r)}
                present = [Fraction(v) for v in vals if v is not None]
                if fn == "avg" and r[0] == "ok" and present and is_tie(sum(present) / len(present), r[1].scale):
                    f["tie"] = 1
                out.write(f)
    print(f"  sum/avg, plo={plo} ansi={ansi}: {time.time() - t_start:.0f}s", flush=True)

out.f.close()
spark.stop()
print(f"{out.n} cases, {queries} Spark queries in {time.time() - t_start:.0f}s; per operation:", flush=True)
for op, n in sorted(out.per_op.items()):
    print(f"  {op}: {n}")
