#!/usr/bin/env python3
"""Tabulates the last `cargo bench --bench kernels` run.

Reads <criterion>/<group>/<case>_<side>/<size>/new/estimates.json (criterion's
median for each benchmark) and pairs each of our cases with its peer (`arrow`,
or `wrapping_loop` for the add and neg limits). Then

- writes benches/RESULTS.md: where and when the run was made, what data each
  case uses, the goals table and every case's time per row and speedup;
- prints the goals table to stdout, for the README's performance section:
  each goal at 8,192 and 1,048,576 rows, our add and neg against plain loops, and
  every case whose time with 10% nulls exceeds 1.15 times its time without.

The machine is described as this script sees it, so run it on the machine that
ran the benches, right after them.

Usage: python3 benches/report.py [CRITERION_DIR] [--out FILE] [--note TEXT]
  CRITERION_DIR  default: $CARGO_TARGET_DIR/criterion, else target/criterion
                 of this repository
  --out FILE     default: benches/RESULTS.md of this repository
  --note TEXT    added to the header, e.g. the bench options used
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = (8192, 1048576)
# Results further apart than this come from different `cargo bench` runs.
RUN_GAP = datetime.timedelta(minutes=30)

# What each benchmark group computes, as built by benches/kernels.rs; keep the
# two in step. Values are stored integers, uniform, never zero, of either
# sign; the results' header says why the factor is small.
MONEY = "money: magnitude in [1, 10^12)"
FACTOR = "factor: magnitude in [1, 10^6)"
ARROW = "`arrow_arith::numeric`"
ALL_OPS = "add, sub, mul, div, rem, div_scalar, rem_scalar"
CAST = "`arrow_cast::cast` (half away from zero)"
MONEY_4 = "money at scale 4: magnitude in [1, 10^14) (~47 bits)"
SPARK_MONEY = "money: magnitude in [1, 10^30) (~100 bits)"
SPARK_RATE = "rate: magnitude in [1, 10^19) (~63 bits)"
SPARK_PEER = (
    "both sides cast to `Decimal256(38,18)`, `arrow_arith::numeric` (mul at scale 36, "
    "div at scale 22), rounded half up to `Decimal128(38,6)`"
)
GROUPS = {
    "d64_15_2": ("`Decimal64(15,2)`, Arrow profile", MONEY, FACTOR, "add, sub, mul, div, rem", ARROW),
    "d128_15_2": ("`Decimal128(15,2)`, Arrow profile", MONEY, FACTOR, ALL_OPS, ARROW),
    "d128_38_10": ("`Decimal128(38,10)`, Arrow profile", MONEY, FACTOR, ALL_OPS + ", neg", ARROW),
    "d256_40_2": ("`Decimal256(40,2)`, Arrow profile", MONEY, MONEY, ALL_OPS, ARROW),
    "d256_60_10_by_40_10": (
        "`Decimal256(60,10)` ⊕ `Decimal256(40,10)`, Arrow profile",
        "40 digits: magnitude in [10^39, 10^40)",
        "38 digits: magnitude in [10^37, 10^38)",
        "add, sub, div",
        ARROW,
    ),
    "fixed_38_2_half_up": (
        "`Decimal128(38,2)`, FixedPoint profile, HalfUp",
        MONEY,
        FACTOR,
        "mul",
        "`multiply_fixed_point_checked(·, ·, 2)`",
    ),
    "spark_d128_38_18": (
        "`Decimal128(38,18)` to `Decimal128(38,6)`, Spark profile: money × rate, products ~163 bits",
        SPARK_MONEY,
        SPARK_RATE,
        "mul, div",
        SPARK_PEER,
    ),
    "spark_d128_38_18_narrow": (
        "`Decimal128(38,18)` to `Decimal128(38,6)`, Spark profile: favourable, products within 127 bits",
        "small: magnitude in [1, 10^19) (~63 bits)",
        SPARK_RATE,
        "mul, div",
        SPARK_PEER,
    ),
    "d128_15_2_add_limit": (
        "`Decimal128(15,2)`, Arrow profile",
        MONEY,
        FACTOR,
        "add",
        "a plain `wrapping_add` loop over the same `i128` buffers into a new vector",
    ),
    "d128_38_10_neg_limit": (
        "`Decimal128(38,10)`, Arrow profile, precision checked",
        MONEY,
        "–",
        "neg",
        "a plain `wrapping_neg` loop over the same `i128` buffer into a new vector",
    ),
    "d128_15_4_to_d128_15_2_half_up": (
        "`Decimal128(15,4)` to `Decimal128(15,2)`, HalfUp, Arrow arrays in and out",
        MONEY_4,
        "–",
        "rescale",
        CAST,
    ),
    "d256_40_4_to_d128_38_2_half_up": (
        "`Decimal256(40,4)` to `Decimal128(38,2)`, HalfUp, Arrow arrays in and out",
        MONEY_4,
        "–",
        "rescale",
        CAST,
    ),
}

# Goals for the speed: (label, goal text, [(group, case)], minimum speedup).
GOALS = [
    ("Decimal64 add, mul", "≥ 1.0×", [("d64_15_2", "add"), ("d64_15_2", "mul")], 1.0),
    ("Decimal64 div", "≥ 1.5×", [("d64_15_2", "div")], 1.5),
    ("Decimal128 add", "≥ 1.5×", [("d128_15_2", "add")], 1.5),
    ("Decimal128 mul", "≥ 2×", [("d128_15_2", "mul")], 2.0),
    ("Decimal128 div", "≥ 5×", [("d128_15_2", "div")], 5.0),
    ("Decimal128 array ÷ scalar", "≥ 8×", [("d128_15_2", "div_scalar")], 8.0),
    ("Decimal128 rem", "≥ 4×", [("d128_15_2", "rem")], 4.0),
    ("Decimal128 array % scalar", "≥ 8×", [("d128_15_2", "rem_scalar")], 8.0),
    ("Decimal128 `(15,4)` → `(15,2)` HalfUp vs `arrow_cast::cast`", "≥ 5×",
     [("d128_15_4_to_d128_15_2_half_up", "rescale")], 5.0),
    ("Decimal256 `(40,4)` → Decimal128 `(38,2)` HalfUp vs `arrow_cast::cast`", "≥ 5×",
     [("d256_40_4_to_d128_38_2_half_up", "rescale")], 5.0),
    ("Decimal256 money add", "≥ 4×", [("d256_40_2", "add")], 4.0),
    ("Decimal256 money mul", "≥ 5×", [("d256_40_2", "mul")], 5.0),
    ("Decimal256 money div", "≥ 10×", [("d256_40_2", "div")], 10.0),
    ("Decimal256 wide add", "≥ 3×", [("d256_60_10_by_40_10", "add")], 3.0),
    ("Decimal256 wide div", "≥ 3×", [("d256_60_10_by_40_10", "div")], 3.0),
    ("FixedPoint HalfUp mul vs `multiply_fixed_point_checked`", "≥ 5×",
     [("fixed_38_2_half_up", "mul")], 5.0),
    ("Spark `(38,18)` mul, money × rate (~163-bit products)", "≥ 5×",
     [("spark_d128_38_18", "mul")], 5.0),
    ("Spark `(38,18)` div, money ÷ rate", "≥ 5×", [("spark_d128_38_18", "div")], 5.0),
    ("Decimal128 `(15,2)` sum vs `sum_checked`", "≥ 2×", [("d128_15_2_sum", "sum")], 2.0),
    ("Decimal128 `(15,2)` avg vs `sum_checked` and a division", "≥ 2×",
     [("d128_15_2_avg", "avg")], 2.0),
]

# Ours against a plain loop, the machine's limit: (label, group, case), each at
# most 1.3 times the loop's time.
LIMITS = [
    ("Decimal128 add vs the plain `wrapping_add` loop", "d128_15_2_add_limit", "add"),
    ("Decimal128 neg vs the plain `wrapping_neg` loop", "d128_38_10_neg_limit", "neg"),
    ("Decimal128 sum by 4 groups vs a plain `i128` scatter loop", "d128_15_2_sum_groups_limit",
     "groups_4"),
    ("Decimal128 sum by 1,000 groups vs a plain `i128` scatter loop",
     "d128_15_2_sum_groups_limit", "groups_1000"),
]
LIMIT = 1.3


def read_results(root):
    """{(group, case, rows): {side: ns per row}} and each result's file time."""
    rows, times = {}, []
    for dirpath, _dirs, files in os.walk(root):
        if "estimates.json" not in files or os.path.basename(dirpath) != "new":
            continue
        parts = os.path.relpath(dirpath, root).split(os.sep)
        if len(parts) != 4:
            continue
        group, function, size, _ = parts
        side = next((x for x in ("ours", "arrow", "wrapping_loop") if function.endswith("_" + x)), None)
        if side is None or not size.isdigit():
            continue
        case = function[: -len(side) - 1]
        path = os.path.join(dirpath, "estimates.json")
        with open(path) as f:
            median_ns = json.load(f)["median"]["point_estimate"]
        rows.setdefault((group, case, int(size)), {})[side] = median_ns / int(size)
        times.append(datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc))
    return rows, sorted(times)


def peer_of(sides):
    return next(((k, v) for k, v in sides.items() if k != "ours"), (None, None))


def speedup(rows, group, case, size):
    sides = rows.get((group, case, size), {})
    _, peer = peer_of(sides)
    return None if peer is None or "ours" not in sides else peer / sides["ours"]


def verdict(oks):
    if all(oks):
        return "met"
    if oks[0]:
        return "met for 8,192-row batches"
    return "not met"


def goals_table(rows):
    lines = ["| case | goal | 8,192 | 1M | |", "|---|---|---:|---:|---|"]
    for label, goal, cases, minimum in GOALS:
        cells, oks = [], []
        for size in SIZES:
            values = [speedup(rows, g, c, size) for g, c in cases]
            if None in values:
                cells.append("–")
                oks.append(False)
                continue
            cells.append(", ".join(f"{v:.2f}×" for v in values))
            oks.append(all(v >= minimum for v in values))
        lines.append(f"| {label} | {goal} | {cells[0]} | {cells[1]} | {verdict(oks)} |")

    # Ours against the plain loops: at most LIMIT times their time.
    for label, group, case in LIMITS:
        cells, oks = [], []
        for size in SIZES:
            s = speedup(rows, group, case, size)
            cells.append("–" if s is None else f"{1 / s:.2f}×")
            oks.append(s is not None and 1 / s <= LIMIT)
        lines.append(
            f"| {label} | ≤ {LIMIT}× its time | {cells[0]} | {cells[1]} | {verdict(oks)} |"
        )

    # Nulls: our time with 10% nulls over our time without, for every case.
    worst = []
    for (group, case, size), sides in sorted(rows.items()):
        if not group.endswith("_nulls") or "ours" not in sides:
            continue
        plain = rows.get((group[: -len("_nulls")], case, size), {}).get("ours")
        if plain is not None:
            worst.append((sides["ours"] / plain, f"{group[: -len('_nulls')]} {case} at {size}"))
    over = [f"{name} {ratio:.2f}×" for ratio, name in sorted(worst, reverse=True) if ratio > 1.15]
    if not worst:
        summary, verdict_nulls = "not measured", "–"
    elif over:
        summary, verdict_nulls = "over the goal: " + "; ".join(over), "not met everywhere"
    else:
        summary, verdict_nulls = f"at most {max(worst)[0]:.2f}×", "met"
    lines.append(f"| 10% nulls vs no nulls | ≤ 1.15× | {summary} | | {verdict_nulls} |")
    return lines


def ns(value):
    return "–" if value is None else f"{value:.2f}"


def results_table(rows):
    lines = [
        "| case | rows | ours ns/row | peer ns/row | peer | speedup |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for (group, case, size), sides in sorted(rows.items()):
        ours = sides.get("ours")
        peer_name, peer = peer_of(sides)
        ratio = "–" if ours is None or peer is None else f"{peer / ours:.2f}x"
        lines.append(
            f"| {group} {case} | {size} | {ns(ours)} | {ns(peer)} | {peer_name or '–'} | {ratio} |"
        )
    return lines


def cases_table(rows):
    lines = [
        "| group | types | left values | right values | cases | compared with |",
        "|---|---|---|---|---|---|",
    ]
    groups = sorted({g[: -len("_nulls")] if g.endswith("_nulls") else g for g, _, _ in rows})
    for group in groups:
        if group not in GROUPS:
            print(f"report.py: group {group} is not described in GROUPS", file=sys.stderr)
            lines.append(f"| {group} | (not described in benches/report.py) | | | | |")
            continue
        lines.append("| " + " | ".join((group,) + GROUPS[group]) + " |")
    return lines


def command(*args):
    try:
        done = subprocess.run(args, capture_output=True, text=True, cwd=REPO, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def machine():
    """One line per fact about the machine running this script."""
    model, cpus, flags, memory = None, 0, set(), None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "processor":
                    cpus += 1
                elif key == "model name" and model is None:
                    model = value
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as f:
            kib = next(int(l.split()[1]) for l in f if l.startswith("MemTotal:"))
            memory = f"{kib / 2**20:.1f} GiB"
    except (OSError, StopIteration, ValueError, IndexError):
        pass
    lscpu = {}
    for line in (command("lscpu") or "").splitlines():
        key, _, value = line.partition(":")
        lscpu[key.strip()] = value.strip()
    caches = ", ".join(f"{k.split()[0]} {lscpu[k]}" for k in ("L1d cache", "L2 cache", "L3 cache") if k in lscpu)
    facts = [
        f"CPU: {model or platform.processor() or platform.machine()}",
        f"logical CPUs: {cpus or os.cpu_count()}",
    ]
    if caches:
        facts.append(f"caches: {caches}")
    if memory:
        facts.append(f"memory: {memory}")
    if lscpu.get("Hypervisor vendor"):
        facts.append(f"virtual machine ({lscpu['Hypervisor vendor']})")
    if platform.machine() in ("x86_64", "AMD64"):
        # The kernels choose their AVX-512 copies at run time on such a CPU.
        facts.append("AVX-512: " + ("yes (the kernels choose their AVX-512 copies)" if "avx512f" in flags else "no"))
    facts.append(f"OS: {platform.platform()}")
    rustc = command("rustc", "-V")
    if rustc:
        facts.append(f"compiler: {rustc}")
    return facts


def source():
    """The commit checked out now, and whether the tree differs from it."""
    commit = command("git", "rev-parse", "--short=12", "HEAD")
    if commit is None:
        return "unknown (not a git checkout)"
    changed = command(
        "git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)benches/RESULTS.md"
    )
    return f"`{commit}`" + (" with uncommitted changes" if changed else "")


def runs(times):
    """The spans of time the results were written in, split where they pause."""
    spans = [[times[0], times[0]]]
    for t in times[1:]:
        if t - spans[-1][1] > RUN_GAP:
            spans.append([t, t])
        else:
            spans[-1][1] = t
    return spans


def stamp(t):
    return t.strftime("%Y-%m-%d %H:%M UTC")


def results_md(rows, times, note):
    spans = runs(times)
    when = "; ".join(f"{stamp(a)} to {stamp(b)}" for a, b in spans)
    header = [
        "# Benchmark results",
        "",
        "Produced by `python3 benches/report.py` after `cargo bench --bench kernels`;",
        "not edited by hand. The README's performance section quotes its goals table.",
        "",
        "## The run",
        "",
        f"- results written: {when}",
    ]
    if len(spans) > 1:
        header.append(
            f"- **the results come from {len(spans)} separate runs** (pauses of over "
            f"{RUN_GAP.seconds // 60} minutes): older cases were not re-measured"
        )
    header.append(f"- source when tabulated: {source()}")
    if note:
        header.append(f"- note: {note}")
    header += ["- machine (as seen when tabulated):"]
    header += [f"  - {fact}" for fact in machine()]
    header += [
        "",
        "## The cases",
        "",
        "Each case hands the same Arrow buffers to both sides, checks that they return",
        "the same type and values, then times each. Values are stored integers",
        "from a fixed-seed generator (`benches/kernels.rs`), uniform in the ranges",
        "below, never zero, of either sign; the factor is small so that arrow's",
        "products and quotients of money stay within a `Decimal64` and it succeeds.",
        "`div_scalar` and `rem_scalar` divide the left column by one value, the right",
        "column's row 1; `neg` negates the left column. A rescale (half up) hands",
        "both sides the same Arrow array and takes an Arrow array back.",
        "Sizes: 16, 8,192 and 1,048,576 rows. A group ending in `_nulls` is the same",
        "case with every tenth row null on both sides, at 8,192 and 1,048,576 rows.",
        "",
    ]
    body = [
        "",
        "## Against the goals",
        "",
        "Speedup = peer time / ours, from criterion's medians.",
        "",
    ]
    body += goals_table(rows)
    body += ["", "## Every case", ""]
    body += results_table(rows)
    return "\n".join(header + cases_table(rows) + body) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
    parser.add_argument("criterion", nargs="?", default=os.path.join(target, "criterion"))
    parser.add_argument("--out", default=os.path.join(REPO, "benches", "RESULTS.md"))
    parser.add_argument("--note", default="")
    args = parser.parse_args()

    rows, times = read_results(args.criterion)
    if not rows:
        sys.exit(f"report.py: no kernels benchmark results under {args.criterion}")
    with open(args.out, "w") as f:
        f.write(results_md(rows, times, args.note))
    print(f"report.py: wrote {args.out} ({len(rows)} cases)", file=sys.stderr)
    print("\n".join(goals_table(rows)))


if __name__ == "__main__":
    main()
