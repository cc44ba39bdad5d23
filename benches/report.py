#!/usr/bin/env python3
"""Tabulates the results of the bench's paired mode,
`DK_BENCH_PAIRED=1 cargo bench --bench kernels` (criterion, the bench's
default mode, keeps its own reports under <target dir>/criterion instead).

Reads the JSON lines the paired mode appends to <target dir>/paired/results.jsonl
(one per case: group, case, rows, the case's value distribution, both sides'
median ns/row and percentiles over alternating sample pairs, and the ratios
peer/ours), keeps the latest line of each case, then

- writes benches/RESULTS.md: when the results were taken (and whether they
  come from more than one run), the source commit, the machine, the goals
  table and every case with its distribution, both medians, the ratio and
  its spread;
- prints the goals table to stdout, for docs/performance.md and the README's
  summary:
  each goal at 8,192 and 1,048,576 rows, our add, neg and grouped sums
  against plain loops, the FixedPoint money × rate multiply against our own
  favourable case, and every case whose time with 10% nulls exceeds 1.15
  times its time without; then the recycled 1M-row calls against their
  8,192-row batches, the memory floor and a fresh buffer.

Ratios are the median of the per-pair ratios (peer time / ours in the same
pair of samples); the spread is their 10th to 90th percentile.

The machine is described as this script sees it, so run it on the machine that
ran the benches, right after them.

With `--copy NAME=FILE` once per compiled copy of the loops (each FILE the
results of a run under `DECIMAL_KERNELS_ISA=NAME`), RESULTS.md also gets
the goals table of each copy, the cases below 1.0× their arrow-rs or
arrow-cast peer in each, the division, remainder and rescale cases below
2.0× in the portable one, and one table of every case's ratio per copy.

Usage: python3 benches/report.py [RESULTS] [--out FILE] [--note TEXT]
                                 [--copy NAME=FILE ...]
  RESULTS     default: $CARGO_TARGET_DIR/paired/results.jsonl, else
              target/paired/results.jsonl of this repository
  --out FILE  default: benches/RESULTS.md of this repository
  --note TEXT added to the header, e.g. the bench options used
  --copy NAME=FILE  a copy's results (repeat for each copy)
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

# Goals for the speed: (label, goal text, [(group, case)], minimum ratio
# peer/ours).
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
    ("Decimal256 money mul", "≥ 5×", [("d256_40_2", "mul")], 5.0),
    ("Decimal256 money div", "≥ 10×", [("d256_40_2", "div")], 10.0),
    ("Decimal256 wide `(60,10)` ÷ `(40,10)`", "≥ 2×", [("d256_60_10_by_40_10", "div")], 2.0),
    ("FixedPoint HalfUp mul vs `multiply_fixed_point_checked`, money × factor (products ≤ 60 bits)",
     "≥ 5×", [("fixed_38_2_half_up", "mul")], 5.0),
    ("FixedPoint HalfUp mul vs `multiply_fixed_point_checked`, money × rate (~67-bit products)",
     "≥ 5×", [("fixed_38_2_half_up_money_rate", "mul")], 5.0),
    ("Spark `(38,18)` mul, money × rate (~163-bit products)", "≥ 5×",
     [("spark_d128_38_18", "mul")], 5.0),
    ("Spark `(38,18)` div, money ÷ rate", "≥ 5×", [("spark_d128_38_18", "div")], 5.0),
    ("Decimal128 `(15,2)` sum vs `sum_checked`", "≥ 2×", [("d128_15_2_sum", "sum")], 2.0),
    ("Decimal128 `(15,2)` avg vs `sum_checked` and a division", "≥ 2×",
     [("d128_15_2_avg", "avg")], 2.0),
]

# Ours against a plain loop (the machine's limit) or against our own
# favourable case: (label, group, case, most times the peer's time).
LIMITS = [
    ("Decimal128 add vs the plain `wrapping_add` loop", "d128_15_2_add_limit", "add", 1.3),
    ("Decimal128 neg vs the plain `wrapping_neg` loop", "d128_38_10_neg_limit", "neg", 1.3),
    ("Decimal256 add vs the plain `i256` `wrapping_add` loop", "d256_40_2_add_limit", "add",
     1.3),
    ("Decimal128 sum by 4 groups vs a plain `i128` scatter loop", "d128_15_2_sum_groups_limit",
     "groups_4", 1.3),
    ("Decimal128 sum by 1,000 groups vs a plain `i128` scatter loop",
     "d128_15_2_sum_groups_limit", "groups_1000", 1.3),
    ("FixedPoint HalfUp mul, money × rate (~67-bit products) vs ours on money × factor "
     "(≤ 60 bits)", "fixed_38_2_half_up_money_rate", "mul_vs_favourable", 2.0),
]
NULLS_LIMIT = 1.15


def default_results():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
    return os.path.join(target, "paired", "results.jsonl")


def read_results(path):
    """{(group, case, rows): the case's latest record} and {run: (first, last) time}."""
    cases, runs = {}, {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                print(f"report.py: {path}:{number}: skipped, not JSON ({e})", file=sys.stderr)
                continue
            cases[(record["group"], record["case"], record["rows"])] = record
    for record in cases.values():
        first, last = runs.get(record["run"], (record["time"], record["time"]))
        runs[record["run"]] = (min(first, record["time"]), max(last, record["time"]))
    return cases, runs


def ratio(cases, group, case, size):
    """(median, p10, p90) of the per-pair ratios peer/ours, or None."""
    record = cases.get((group, case, size))
    if record is None:
        return None
    r = record["pair_ratio"]
    return r["median"], r["p10"], r["p90"]


def verdict(oks):
    """The verdict of a goal from its check at each size: True, False, or None
    (not measured)."""
    if all(ok is None for ok in oks):
        return "not measured"
    if all(oks):
        return "met"
    if oks[0] is None:
        return "met at 1M rows (8,192 not measured)" if oks[1] else "not met"
    if oks[0] and oks[1] is None:
        return "met for 8,192-row batches (1M not measured)"
    if oks[0]:
        return "met for 8,192-row batches"
    return "not met"


def goals_table(cases):
    lines = [
        "| case | goal | 8,192 (p10–p90) | 1M (p10–p90) | |",
        "|---|---|---:|---:|---|",
    ]
    for label, goal, pairs, minimum in GOALS:
        cells, oks = [], []
        for size in SIZES:
            values = [ratio(cases, g, c, size) for g, c in pairs]
            if None in values:
                cells.append("–")
                oks.append(None)
                continue
            cells.append(", ".join(f"{m:.2f}× ({lo:.2f}–{hi:.2f})" for m, lo, hi in values))
            oks.append(all(m >= minimum for m, _, _ in values))
        lines.append(f"| {label} | {goal} | {cells[0]} | {cells[1]} | {verdict(oks)} |")

    # Ours against the plain loops and our favourable case: at most `most`
    # times their time (the inverse of the ratio; its spread inverted too).
    for label, group, case, most in LIMITS:
        cells, oks = [], []
        for size in SIZES:
            r = ratio(cases, group, case, size)
            if r is None:
                cells.append("–")
                oks.append(None)
                continue
            m, lo, hi = r
            cells.append(f"{1 / m:.2f}× ({1 / hi:.2f}–{1 / lo:.2f})")
            oks.append(1 / m <= most)
        lines.append(f"| {label} | ≤ {most}× its time | {cells[0]} | {cells[1]} | {verdict(oks)} |")

    # Nulls: our median with 10% nulls over our median without, for every
    # case (two cases, so not from sample pairs).
    worst = []
    for (group, case, size), record in sorted(cases.items()):
        if not group.endswith("_nulls"):
            continue
        plain = cases.get((group[: -len("_nulls")], case, size))
        if plain is not None:
            ours = record["ours_ns"]["median"] / plain["ours_ns"]["median"]
            worst.append((ours, f"{group[: -len('_nulls')]} {case} at {size}"))
    over = [f"{name} {r:.2f}×" for r, name in sorted(worst, reverse=True) if r > NULLS_LIMIT]
    if not worst:
        summary, verdict_nulls = "not measured", "–"
    elif over:
        summary, verdict_nulls = "over the goal: " + "; ".join(over), "not met everywhere"
    else:
        summary, verdict_nulls = f"at most {max(worst)[0]:.2f}×", "met"
    lines.append(f"| 10% nulls vs no nulls (ours) | ≤ {NULLS_LIMIT}× | {summary} | | {verdict_nulls} |")
    return lines


REUSE_LIMIT = 1.3


def reuse_table(cases):
    """Recycled 1M-row calls: ours against the same call in 8,192-row batches
    in cache (the goal), the memory floor and a fresh buffer."""
    rows = sorted({(g, c.split("_vs_")[0]) for (g, c, _) in cases if g.startswith("reuse_")})
    if not rows:
        return []
    lines = [
        "| case | recycled ns/row | 8,192-row batches ns/row | recycled / batches | "
        "memory floor ns/row | recycled / floor | fresh ns/row | |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for group, op in rows:
        got = {
            peer: cases.get((group, f"{op}_vs_{peer}", 1048576))
            for peer in ("8192_row_batches", "memory_floor", "fresh")
        }
        if any(r is None for r in got.values()):
            continue
        inverse = lambda r: 1 / r["pair_ratio"]["median"]
        batches, floor, fresh = got["8192_row_batches"], got["memory_floor"], got["fresh"]
        verdict_text = "met" if inverse(batches) <= REUSE_LIMIT else "not met"
        lines.append(
            f"| {group[len('reuse_'):]} {op} | {batches['ours_ns']['median']:.2f} "
            f"| {batches['peer_ns']['median']:.2f} | {inverse(batches):.2f}× "
            f"| {floor['peer_ns']['median']:.2f} | {inverse(floor):.2f}× "
            f"| {fresh['peer_ns']['median']:.2f} | ≤ {REUSE_LIMIT}× of batches: {verdict_text} |"
        )
    return lines


def cell(text):
    return text.replace("|", "\\|")


def results_table(cases):
    lines = [
        "| case | rows | values | ours ns/row | peer | peer ns/row | ratio of medians "
        "| pair ratio (p10–p90) |",
        "|---|---:|---|---:|---|---:|---:|---:|",
    ]
    for (group, case, size), r in sorted(cases.items()):
        pr = r["pair_ratio"]
        lines.append(
            f"| {group}/{case} | {size} | {cell(r['distribution'])} "
            f"| {r['ours_ns']['median']:.3f} | {r['peer']} | {r['peer_ns']['median']:.3f} "
            f"| {r['ratio_of_medians']:.2f}× | {pr['median']:.2f}× ({pr['p10']:.2f}–{pr['p90']:.2f}) |"
        )
    return lines


# Peers the "never slower" goal holds every copy to: arrow-rs's own kernels.
ARROW_PEERS = ("arrow",)
# Cases the portable copy is held to 2.0× on.
DIVIDING = ("div", "rem", "rescale")


def copy_checks(name, cases):
    """The cases of one copy below its goals beyond the goals table."""
    slower = sorted(
        f"{g}/{c} at {size} {r['pair_ratio']['median']:.2f}×"
        for (g, c, size), r in cases.items()
        if r["peer"] in ARROW_PEERS and size in SIZES and r["pair_ratio"]["median"] < 1.0
    )
    lines = [f"- below 1.0× their arrow-rs peer: {'; '.join(slower) if slower else 'none'}"]
    if name == "portable":
        below = sorted(
            f"{g}/{c} at {size} {r['pair_ratio']['median']:.2f}×"
            for (g, c, size), r in cases.items()
            if r["peer"] in ARROW_PEERS
            and size in SIZES
            and any(d in c for d in DIVIDING)
            and r["pair_ratio"]["median"] < 2.0
        )
        lines.append(
            f"- division, remainder and rescale cases below 2.0×: {'; '.join(below) if below else 'none'}"
        )
    return lines


def copies_table(copies):
    """Every case's pair ratio (and our ns/row) in each copy."""
    names = [name for name, _ in copies]
    lines = [
        "| case | rows | peer | " + " | ".join(names) + " |",
        "|---|---:|---|" + "---:|" * len(names),
    ]
    keys = sorted(set().union(*(cases.keys() for _, cases in copies)))
    for key in keys:
        group, case, size = key
        peer = next(cases[key]["peer"] for _, cases in copies if key in cases)
        cells = []
        for _, cases in copies:
            r = cases.get(key)
            cells.append(
                "–" if r is None
                else f"{r['pair_ratio']['median']:.2f}× ({r['ours_ns']['median']:.2f} ns)"
            )
        lines.append(f"| {group}/{case} | {size} | {peer} | " + " | ".join(cells) + " |")
    return lines


def copies_md(copies):
    if not copies:
        return []
    body = [
        "",
        "## Per copy",
        "",
        "The same cases in each compiled copy of the loops, each run under",
        "`DECIMAL_KERNELS_ISA=<copy>` on the machine above, one copy after the other.",
        "Ratio: peer time / ours, median of the sample pairs (10th–90th percentile).",
    ]
    for name, cases in copies:
        body += ["", f"### {name}", ""]
        body += copy_checks(name, cases)
        body += [""]
        body += goals_table(cases)
    body += ["", "### Every case, per copy", "", "Pair ratio, and our median ns/row.", ""]
    body += copies_table(copies)
    return body


def command(*args):
    try:
        done = subprocess.run(args, capture_output=True, text=True, cwd=REPO, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


# Microarchitectures of CPUs that a hypervisor names only by brand, from the
# vendor's family and model numbers (AMD family 19h model 11h: Genoa).
MICROARCHITECTURES = {
    ("AuthenticAMD", 25, range(0x11, 0x12)): "Zen 4 (EPYC 9004 series, Genoa)",
}


def machine():
    """One line per fact about the machine running this script."""
    info, cpus, flags, memory = {}, 0, set(), None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key, value = key.strip(), value.strip()
                if key == "processor":
                    cpus += 1
                elif key == "flags" and not flags:
                    flags = set(value.split())
                elif key in ("model name", "vendor_id", "cpu family", "model", "stepping"):
                    info.setdefault(key, value)
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
    model = info.get("model name") or lscpu.get("Model name") or platform.processor() or platform.machine()
    cpu = f"CPU: {model} (`model name` in /proc/cpuinfo"
    if lscpu.get("Model name"):
        cpu += f"; lscpu's `Model name`: {lscpu['Model name']}"
    cpu += ")"
    facts = [cpu]
    try:
        vendor = info["vendor_id"]
        family, number = int(info["cpu family"]), int(info["model"])
        ids = f"{vendor}, family {family}, model {number}, stepping {info.get('stepping', '?')}"
        arch = next(
            (name for (v, fam, models), name in MICROARCHITECTURES.items()
             if v == vendor and fam == family and number in models),
            None,
        )
        facts.append("CPU identification: " + ids + (f" — {arch}" if arch else ""))
    except (KeyError, ValueError):
        pass
    facts.append(f"logical CPUs: {cpus or os.cpu_count()}")
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


def stamp(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def results_md(cases, runs, note, copies):
    when = "; ".join(f"{stamp(a)} to {stamp(b)}" for a, b in sorted(runs.values()))
    samples = sorted({r["samples"] for r in cases.values()})
    header = [
        "# Benchmark results",
        "",
        "Produced by `python3 benches/report.py` after",
        "`DK_BENCH_PAIRED=1 cargo bench --bench kernels`;",
        "not edited by hand. docs/performance.md says what bounds the goals not met.",
        "",
        "## The run",
        "",
        f"- results taken: {when}",
    ]
    if len(runs) > 1:
        header.append(
            f"- **the results come from {len(runs)} separate runs** (a filtered run re-measures "
            "only its cases): compare ratios within a case, not times across runs"
        )
    header.append(f"- source when tabulated: {source()}")
    header.append(f"- sample pairs per case: {', '.join(map(str, samples))}")
    if note:
        header.append(f"- note: {note}")
    header += ["- machine (as seen when tabulated):"]
    header += [f"  - {fact}" for fact in machine()]
    header += [
        "",
        "## How",
        "",
        "Each case hands the same inputs to both sides and checks that they return the",
        "same type and values (the `mul_vs_favourable` case compares two of our own",
        "calls on different columns, each checked against arrow in its own case). Then",
        "both sides are warmed up and timed in alternating samples of about 3 ms each",
        "(`benches/kernels/paired.rs`): in each pair one side runs right after the",
        "other, which side first alternating, so that a slow spell of a shared machine",
        "slows both. Times are medians over the samples; the ratio (peer time / ours)",
        "is the median of the per-pair ratios, and its spread the 10th to 90th",
        "percentile of those; the ratio of the two medians is given too.",
        "",
        "Values are stored integers from a fixed-seed generator, uniform in magnitude",
        "below the bound given, never zero, of either sign (`benches/kernels.rs` says",
        "what each group computes). Each case's values column gives the bits of the",
        "operands and of what the operator forms from them, and whether the case is",
        "favourable: every intermediate fits 64 bits (for Spark's `(38,18)`, 128).",
        "A group ending in `_nulls` is the same case with every tenth row null on both",
        "sides.",
    ]
    body = [
        "",
        "## Against the goals",
        "",
        "Ratio: peer time / ours, median of the sample pairs (10th–90th percentile).",
        "Rows \"≤ N× its time\" give our time over the peer's, the inverse.",
        "",
    ]
    body += goals_table(cases)
    reuse = reuse_table(cases)
    if reuse:
        body += [
            "",
            "## Recycled result buffers at 1,048,576 rows",
            "",
            "Ours with the previous result's buffer handed back, against: the same call",
            "on the columns' first 8,192 rows, 128 times (operands and result in cache;",
            "the goal: at most 1.3 times its time); a plain loop that reads the same two",
            "columns and writes their wrapping sum into a reused buffer (the memory",
            "floor: the least any operator reading two such columns and writing one",
            "takes here); and the same call into a new buffer. Ratios: median of the",
            "sample pairs, ours over the other.",
            "",
        ]
        body += reuse
    body += copies_md(copies)
    body += ["", "## Every case", ""]
    body += results_table(cases)
    return "\n".join(header + body) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default=default_results())
    parser.add_argument("--out", default=os.path.join(REPO, "benches", "RESULTS.md"))
    parser.add_argument("--note", default="")
    parser.add_argument("--copy", action="append", default=[], metavar="NAME=FILE")
    args = parser.parse_args()

    try:
        cases, runs = read_results(args.results)
    except OSError as e:
        sys.exit(f"report.py: cannot read {args.results}: {e}")
    if not cases:
        sys.exit(f"report.py: no results in {args.results}")
    copies = []
    for spec in args.copy:
        name, _, path = spec.partition("=")
        if not path:
            sys.exit(f"report.py: --copy {spec}: expected NAME=FILE")
        try:
            copy_cases, copy_runs = read_results(path)
        except OSError as e:
            sys.exit(f"report.py: cannot read {path}: {e}")
        copies.append((name, copy_cases))
        for run, (first, last) in copy_runs.items():
            a, b = runs.get(run, (first, last))
            runs[run] = (min(a, first), max(b, last))
    with open(args.out, "w") as f:
        f.write(results_md(cases, runs, args.note, copies))
    print(f"report.py: wrote {args.out} ({len(cases)} cases)", file=sys.stderr)
    print("\n".join(goals_table(cases)))
    reuse = reuse_table(cases)
    if reuse:
        print()
        print("\n".join(reuse))


if __name__ == "__main__":
    main()
