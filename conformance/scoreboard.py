#!/usr/bin/env python3
r"""Write docs/conformance.md: how often each engine run here answers a
conformance case as the exact rule does, by operation.

Usage:
  python3 conformance/scoreboard.py              # rewrite docs/conformance.md
  python3 conformance/scoreboard.py --check      # exit 1 if the page is stale
  python3 conformance/scoreboard.py --run-spark  # first rerun Spark on spark.sql

Inputs, all committed (nothing here runs DataFusion):
  datafusion/tests/slt/conformance_arrow.slt  the exact answers of the Arrow cases
  conformance/vectors/datafusion_plain.txt    plain DataFusion's answers to them
  conformance/vectors/spark.sql               the Spark-profile cases and answers
  conformance/vectors/spark_answers.txt       Spark's answers to spark.sql, written
                                              by conformance/spark/run_sql.py
  datafusion/Cargo.lock                       the DataFusion version

`--spark FILE` reads Spark's answers from another file. `--run-spark` runs
conformance/spark/run_sql.py with the pyspark of conformance/spark/run.sh's
virtual environment (creating it when missing) before writing the page.
Python's standard library only.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys
from decimal import Decimal, InvalidOperation

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SLT = "datafusion/tests/slt/conformance_arrow.slt"
PLAIN = "conformance/vectors/datafusion_plain.txt"
SPARK_SQL = "conformance/vectors/spark.sql"
SPARK_ANSWERS = "conformance/vectors/spark_answers.txt"
LOCK = "datafusion/Cargo.lock"
PAGE = "docs/conformance.md"
PYSPARK = "4.3.0"

OPS = ["add", "sub", "mul", "div", "rem", "eq", "ne", "lt", "le", "gt", "ge"]
SYMBOL = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%",
    "eq": "=", "ne": "<>", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}
COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge"}


def path(rel):
    return os.path.join(ROOT, rel)


def read_lines(rel):
    with open(path(rel), encoding="utf-8") as f:
        return f.read().splitlines()


def op_group(op):
    """The table row of an operator: each arithmetic one, comparisons together."""
    return "comparisons" if op in COMPARISONS else op


GROUPS = ["add", "sub", "mul", "div", "rem", "comparisons"]
GROUP_LABEL = {g: f"`{SYMBOL[g]}`" for g in GROUPS if g in SYMBOL}
GROUP_LABEL["comparisons"] = "comparisons (`= <> < <= > >=`)"


def error_kind(message):
    """OVERFLOW, DIV0 or OTHER, from an error message or a Spark error condition."""
    m = message.lower()
    if "divide by zero" in m or "division by zero" in m or "divide_by_zero" in m or "remainder_by_zero" in m:
        return "DIV0"
    if "overflow" in m or "out_of_range" in m:
        return "OVERFLOW"
    return "OTHER"


def same_value(a, b):
    if a == b:
        return True
    try:
        return Decimal(a) == Decimal(b)
    except InvalidOperation:
        return False


# ------------------------------------------------------------ DataFusion


def parse_slt():
    """The .slt's queries: a list of dicts (sql, op, typeq, exact, differs),
    the left-out queries' SQL with their operators, and the number of
    `# difference:` comments. `exact` is ("value", text) or ("error", kind, message)."""
    lines = read_lines(SLT)
    queries = {}
    order = []
    left_out = []
    differences = 0
    op = None
    cond = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"# arrow (I\d+) (\w+): ", line)
        if m:
            op = m.group(2)
        elif line.startswith("# difference:"):
            differences += 1
        elif line.startswith("# left out:"):
            left_out.append((lines[i + 1][2:], op))
            i += 1
        elif line in ("skipif register", "onlyif register"):
            cond = line.split()[0]
        elif line.startswith("query "):
            head = line[len("query "):]
            i += 1
            sql = []
            while i < len(lines) and lines[i] not in ("----", ""):
                sql.append(lines[i])
                i += 1
            sql = "\n".join(sql)
            result = []
            if i < len(lines) and lines[i] == "----":
                i += 1
                while i < len(lines) and lines[i] != "":
                    result.append(lines[i])
                    i += 1
            if head.startswith("error"):
                message = head[len("error"):].strip()
                answer = ("error", error_kind(message), message)
            else:
                answer = ("value", "\n".join(result))
            if sql not in queries:
                queries[sql] = {"sql": sql, "op": op, "typeq": "arrow_typeof(" in sql,
                                "exact": None, "differs": False}
                order.append(sql)
            q = queries[sql]
            if cond == "skipif":
                q["differs"] = True
            else:
                q["exact"] = answer
            cond = None
            continue
        i += 1
    return [queries[s] for s in order], left_out, differences


def parse_plain():
    """Plain DataFusion's answers: SQL -> ("value", text) | ("error", kind, message) | ("panic", message)."""
    answers = {}
    sql = None
    for line in read_lines(PLAIN):
        if line.startswith("Q "):
            sql = line[2:]
        elif line.startswith("= ") or line == "=":
            prev = answers.get(sql)
            text = line[2:]
            answers[sql] = ("value", prev[1] + "\n" + text if prev else text)
        elif line.startswith("E "):
            answers[sql] = ("error", error_kind(line[2:]), line[2:])
        elif line.startswith("P "):
            answers[sql] = ("panic", line[2:])
    return answers


def datafusion_version():
    lines = read_lines(LOCK)
    for i, line in enumerate(lines):
        if line == 'name = "datafusion"':
            return lines[i + 1].split('"')[1]
    return "unknown"


def show(answer):
    if answer is None:
        return "(none)"
    if answer[0] == "value":
        return answer[1]
    if answer[0] == "error":
        return f"error: {answer[2]}"
    return f"panic: {answer[1]}"


def show_exact(answer):
    if answer[0] == "value":
        return answer[1]
    return {"OVERFLOW": "overflow error", "DIV0": "division-by-zero error"}.get(answer[1], "error") + f" ({answer[2]})"


PLAIN_COLUMNS = [
    ("agree", "exact"),
    ("err_for_value", "error where a value exists"),
    ("wrong_value", "wrong value"),
    ("value_for_error", "value where the exact outcome is an error"),
    ("wrong_error", "another kind of error"),
    ("panic", "panic"),
]


def classify_plain(exact, plain):
    if plain is None:
        return "missing"
    if plain[0] == "panic":
        return "panic"
    if exact[0] == "value":
        if plain[0] == "value":
            return "agree" if same_value(plain[1], exact[1]) else "wrong_value"
        return "err_for_value"
    if plain[0] == "value":
        return "value_for_error"
    return "agree" if plain[1] == exact[1] else "wrong_error"


def left_out_exact(sql):
    """The exact answer of a left-out query, a comparison of two literals."""
    m = re.fullmatch(r"SELECT arrow_cast\((NULL|'[^']*'), '[^']*'\) (<=|>=|<>|=|<|>) arrow_cast\((NULL|'[^']*'), '[^']*'\)", sql)
    if not m:
        return "(left out of the `.slt`)"
    a, opr, b = m.groups()
    if "NULL" in (a, b):
        return "NULL"
    a, b = Decimal(a.strip("'")), Decimal(b.strip("'"))
    ops = {"=": a == b, "<>": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
    return "true" if ops[opr] else "false"


def code(text):
    text = text.replace("\n", " ")
    if "`" in text:
        return "``" + text + "``"
    return "`" + text + "`"


def cell(text, limit=160):
    text = text.replace("\\n", " ").replace("|", "\\|")
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def datafusion_sections(out):
    queries, left_out, differences = parse_slt()
    plain = parse_plain()
    version = datafusion_version()

    value_queries = [q for q in queries if not q["typeq"]]
    type_queries = [q for q in queries if q["typeq"]]
    counts = {g: {k: 0 for k, _ in PLAIN_COLUMNS} for g in GROUPS}
    totals = {g: 0 for g in GROUPS}
    examples = {}
    messages_only = 0
    for q in value_queries:
        g = op_group(q["op"])
        p = plain.get(q["sql"])
        kind = classify_plain(q["exact"], p)
        if kind == "missing":
            sys.exit(f"no plain answer recorded for: {q['sql']}")
        totals[g] += 1
        counts[g][kind] += 1
        if kind == "agree" and q["differs"]:
            messages_only += 1
        if kind != "agree":
            examples.setdefault(kind, []).append((q, p))
    for sql, op in left_out:
        g = op_group(op)
        p = plain.get(sql)
        kind = "panic" if p and p[0] == "panic" else "missing"
        if kind == "missing":
            sys.exit(f"no plain panic recorded for the left-out query: {sql}")
        totals[g] += 1
        counts[g]["panic"] += 1
        examples.setdefault("panic", []).append(({"sql": sql, "op": op, "exact": None}, p))
    type_agree = {g: 0 for g in GROUPS}
    type_total = {g: 0 for g in GROUPS}
    type_differs = []
    for q in type_queries:
        g = op_group(q["op"])
        type_total[g] += 1
        p = plain.get(q["sql"])
        if p is not None and p == q["exact"]:
            type_agree[g] += 1
        else:
            type_differs.append((q, p))

    # What the differences in the .slt are, reconciled with the counts.
    disagree = sum(totals[g] - counts[g]["agree"] - counts[g]["panic"] for g in GROUPS)
    disagree += len(type_differs)
    if disagree + messages_only != differences:
        sys.exit(
            f"the counts do not reconcile: {disagree} disagreements + {messages_only} "
            f"other messages != {differences} `# difference:` pairs"
        )

    n_values = len(value_queries)
    n_all = n_values + len(left_out)
    plain_agree = sum(counts[g]["agree"] for g in GROUPS)

    out.append(f"## DataFusion {version}, plain")
    out.append("")
    out.append(
        f"A plain `SessionContext` against the exact answers of the Arrow profile, on the {n_all} value "
        f"queries of `{SLT}` ({n_values} run by the file and {len(left_out)} left out of it because "
        f"plain DataFusion panics on them; their panics are recorded too). Plain DataFusion's answers "
        f"are those recorded in `{PLAIN}`. An error counts as the exact outcome when it is the same "
        f"kind of failure (an overflow, a division by zero), whatever its message."
    )
    out.append("")
    out.append(f"**{plain_agree} of {n_all}** value queries answered exactly.")
    out.append("")
    header = "| operation | exact / total | " + " | ".join(label for k, label in PLAIN_COLUMNS[1:]) + " |"
    out.append(header)
    out.append("|---|---|" + "---|" * (len(PLAIN_COLUMNS) - 1))
    for g in GROUPS:
        c = counts[g]
        out.append(f"| {GROUP_LABEL[g]} | {c['agree']} / {totals[g]} | "
                   + " | ".join(str(c[k]) for k, _ in PLAIN_COLUMNS[1:]) + " |")
    c = {k: sum(counts[g][k] for g in GROUPS) for k, _ in PLAIN_COLUMNS}
    out.append(f"| all | {c['agree']} / {n_all} | " + " | ".join(str(c[k]) for k, _ in PLAIN_COLUMNS[1:]) + " |")
    out.append("")
    out.append(
        f"Result types (`arrow_typeof`, one query per batch): "
        f"{sum(type_agree.values())} of {len(type_queries)} as the exact rule gives."
    )
    out.append("")
    out.append(
        f"Reconciliation with the `.slt`: its {differences} `# difference:` pairs are the "
        f"{c['err_for_value']} errors where a value exists, the {c['value_for_error']} values where "
        f"the exact outcome is an error and the {c['wrong_error']} errors of another kind above, "
        f"{len(type_differs)} result types, and {messages_only} queries failing as the exact rule "
        f"does but with another message (counted exact); the {c['panic']} panics are the "
        f"{len(left_out)} queries left out of the file."
    )
    out.append("")
    out.append("Examples of disagreements:")
    out.append("")
    out.append("| query | plain DataFusion | exact |")
    out.append("|---|---|---|")
    # One of each kind, then more of the commonest kind on other operators, up to five.
    kinds = ("wrong_value", "err_for_value", "value_for_error", "wrong_error", "panic")
    chosen = [examples[k][0] for k in kinds if examples.get(k)]
    chosen += type_differs[:1]
    seen_ops = {q.get("op") for q, _ in chosen}
    for k in sorted(kinds, key=lambda k: -len(examples.get(k, []))):
        for q, p in examples.get(k, []):
            if len(chosen) < 5 and q.get("op") not in seen_ops:
                chosen.append((q, p))
                seen_ops.add(q.get("op"))
    for q, p in chosen:
        exact = show_exact(q["exact"]) if q["exact"] else left_out_exact(q["sql"])
        out.append(f"| {code(cell(q['sql'], 400))} | {cell(show(p))} | {cell(exact)} |")
    out.append("")

    reg_total = {g: 0 for g in GROUPS}
    for q in value_queries:
        reg_total[op_group(q["op"])] += 1
    left_by = {g: 0 for g in GROUPS}
    for _, op in left_out:
        left_by[op_group(op)] += 1
    out.append(f"## DataFusion {version} with `decimal_kernels_datafusion::register`")
    out.append("")
    out.append(
        "The exact answer of every query in the `.slt` is the registered context's: the DataFusion "
        "crate's sqllogictest suite (`datafusion/tests/sqllogictest.rs`, "
        "`cd datafusion && cargo test --test sqllogictest`) runs the file on a registered context and "
        "fails on any other answer, so each query it runs counts as answered exactly (this page "
        "does not run DataFusion; the suite does). The queries left out of the file "
        "are not run there, and are counted apart."
    )
    out.append("")
    out.append(f"**{n_values} of {n_values}** value queries run answered exactly "
               f"(and {len(type_queries)} of {len(type_queries)} result types); {len(left_out)} left out.")
    out.append("")
    out.append("| operation | exact / run | left out |")
    out.append("|---|---|---|")
    for g in GROUPS:
        out.append(f"| {GROUP_LABEL[g]} | {reg_total[g]} / {reg_total[g]} | {left_by[g]} |")
    out.append(f"| all | {n_values} / {n_values} | {len(left_out)} |")
    out.append("")
    return {"version": version, "plain": (plain_agree, n_all), "registered": (n_values, len(left_out))}


# ------------------------------------------------------------ Spark


def parse_spark_sql():
    """The cases of spark.sql: (profile, op, sql, expected type, expected outcome)."""
    cases = []
    profile = op = None
    lines = read_lines(SPARK_SQL)
    for i, line in enumerate(lines):
        m = re.match(r"-- (spark|spark_no_loss) (\w+): ", line)
        if m:
            profile, op = m.group(1), m.group(2)
        elif line.startswith("SELECT "):
            expect = lines[i + 1]
            if not expect.startswith("-- expect "):
                sys.exit(f"{SPARK_SQL}: no `-- expect` after: {line}")
            _, _, typ, outcome = expect.split(" ", 3)
            cases.append((profile, op, line, typ, outcome))
    return cases


def parse_spark_answers(rel):
    header = {}
    answers = []
    sql = None
    for line in read_lines(rel):
        m = re.match(r"# (pyspark|spark|run) (.*)", line)
        if m:
            header[m.group(1)] = m.group(2)
        elif line.startswith("Q "):
            sql = line[2:]
        elif line.startswith("= "):
            _, typ, value = line.split(" ", 2)
            answers.append((sql, ("value", typ, value)))
        elif line.startswith("E "):
            _, typ, condition, *rest = line.split(" ", 3)
            answers.append((sql, ("error", typ, condition, rest[0] if rest else "")))
    return header, answers


SPARK_COLUMNS = [
    ("agree", "exact"),
    ("wrong_type", "other result type"),
    ("wrong_value", "wrong value"),
    ("err_for_value", "error where a value exists"),
    ("value_for_error", "value where the exact outcome is an error"),
    ("wrong_error", "another kind of error"),
]


def classify_spark(typ, outcome, answer):
    if answer[1] != typ:
        return "wrong_type"
    if outcome in ("OVERFLOW", "DIV0"):
        if answer[0] == "value":
            return "value_for_error"
        return "agree" if error_kind(answer[2]) == outcome else "wrong_error"
    if answer[0] == "error":
        return "err_for_value"
    return "agree" if same_value(answer[2], outcome) else "wrong_value"


def spark_section(out, answers_rel, reason):
    out.append("## Spark against the Spark profiles")
    out.append("")
    cases = parse_spark_sql()
    if answers_rel is None or not os.path.exists(path(answers_rel)):
        out.append(
            f"Missing: no answers of Spark to `{SPARK_SQL}` were found ({reason}). Run "
            "`python3 conformance/scoreboard.py --run-spark` where Spark can run to fill this section."
        )
        out.append("")
        return None
    header, answers = parse_spark_answers(answers_rel)
    if len(answers) != len(cases):
        sys.exit(f"{answers_rel} answers {len(answers)} queries, {SPARK_SQL} has {len(cases)}: rerun Spark")
    out.append(
        f"Spark {header.get('spark', '?')} (pyspark {header.get('pyspark', '?')}, local mode, ANSI mode on) "
        f"on the {len(cases)} cases of `{SPARK_SQL}` (the Spark and Spark-without-precision-loss "
        f"profiles' cases with scales of 0 or more), run live on {header.get('run', '?')}; its answers are "
        f"committed as `{answers_rel}` (written by `conformance/spark/run_sql.py`). A case agrees when "
        "Spark's result type (`DataFrame.schema`) is the expected one and its value is equal as a "
        "decimal, or when both fail the same way (`NUMERIC_VALUE_OUT_OF_RANGE` for an overflow, "
        "`DIVIDE_BY_ZERO` or `REMAINDER_BY_ZERO` for a zero divisor)."
    )
    out.append("")
    result = {}
    examples = []
    for profile, title in (("spark", "`allowPrecisionLoss=true` (`ArithmeticOptions::spark()`)"),
                           ("spark_no_loss", "`allowPrecisionLoss=false` (`ArithmeticOptions::spark_no_precision_loss()`)")):
        counts = {g: {k: 0 for k, _ in SPARK_COLUMNS} for g in GROUPS}
        totals = {g: 0 for g in GROUPS}
        for (p, op, sql, typ, outcome), (asql, answer) in zip(cases, answers):
            if asql != sql:
                sys.exit(f"{answers_rel} does not follow {SPARK_SQL} at: {sql}")
            if p != profile:
                continue
            g = op_group(op)
            kind = classify_spark(typ, outcome, answer)
            totals[g] += 1
            counts[g][kind] += 1
            if kind != "agree":
                examples.append((profile, sql, typ, outcome, answer))
        agree = sum(counts[g]["agree"] for g in GROUPS)
        total = sum(totals.values())
        result[profile] = (agree, total)
        out.append(f"### {title}")
        out.append("")
        out.append(f"**{agree} of {total}** cases answered exactly.")
        out.append("")
        out.append("| operation | exact / total | " + " | ".join(label for k, label in SPARK_COLUMNS[1:]) + " |")
        out.append("|---|---|" + "---|" * (len(SPARK_COLUMNS) - 1))
        for g in GROUPS:
            c = counts[g]
            out.append(f"| {GROUP_LABEL[g]} | {c['agree']} / {totals[g]} | "
                       + " | ".join(str(c[k]) for k, _ in SPARK_COLUMNS[1:]) + " |")
        out.append("")
    out.append("Examples of disagreements:")
    out.append("")
    if not examples:
        out.append(
            "None: Spark answered every case as the profiles' exact rule does. (Spark is known to fail "
            "some remainders of a large dividend by a small divisor with `Division impossible`, "
            "see `examples/spark_conformance.rs`; no case of these files hits it.)"
        )
    else:
        out.append("| profile | query | Spark | exact |")
        out.append("|---|---|---|---|")
        for profile, sql, typ, outcome, answer in examples[:5]:
            if answer[0] == "value":
                got = f"{answer[1]} {answer[2]}"
            else:
                got = f"{answer[1]} error {answer[2]}"
            out.append(f"| {profile} | {code(cell(sql, 400))} | {cell(got)} | {cell(typ + ' ' + outcome)} |")
    out.append("")
    result["header"] = header
    return result


# ------------------------------------------------------------ the page


def run_spark(answers_rel):
    venv = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                        "decimal-kernels", f"spark-venv-{PYSPARK}")
    python = os.path.join(venv, "bin", "python")
    probe = f"import pyspark, sys; sys.exit(pyspark.__version__ != '{PYSPARK}')"
    if subprocess.call([python, "-c", probe], stderr=subprocess.DEVNULL) if os.path.exists(python) else 1:
        subprocess.check_call([sys.executable, "-m", "venv", "--clear", venv])
        subprocess.check_call([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                               "--disable-pip-version-check", f"pyspark=={PYSPARK}"])
    env = dict(os.environ)
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    subprocess.check_call([python, path("conformance/spark/run_sql.py"), path(SPARK_SQL), path(answers_rel)], env=env)


def render(answers_rel, today):
    out = []
    out.append("# Conformance scoreboard")
    out.append("")
    out.append(
        "<!-- Written by `python3 conformance/scoreboard.py`; do not edit by hand. -->"
    )
    out.append("")
    body = []
    df = datafusion_sections(body)
    spark = spark_section(body, answers_rel, f"`{answers_rel}` is absent")
    out.append(f"Generated on {today}.")
    out.append("")
    out.append(
        "How often each engine run here answers the [conformance cases](../conformance/README.md) as "
        "the crate's exact rule does, by operation. Every count comes from the committed case "
        "files and the engines' recorded answers to them; nothing is counted by hand."
    )
    out.append("")
    out.append("| engine | against | exact |")
    out.append("|---|---|---|")
    out.append(f"| DataFusion {df['version']}, plain | Arrow profile (`Decimal128`, `Decimal256`) | "
               f"{df['plain'][0]} / {df['plain'][1]} |")
    out.append(f"| DataFusion {df['version']} + `register` | Arrow profile | "
               f"{df['registered'][0]} / {df['registered'][0]} run ({df['registered'][1]} left out) |")
    if spark:
        v = spark["header"].get("spark", "?")
        out.append(f"| Spark {v} | Spark profile | {spark['spark'][0]} / {spark['spark'][1]} |")
        out.append(f"| Spark {v} | Spark profile without precision loss | "
                   f"{spark['spark_no_loss'][0]} / {spark['spark_no_loss'][1]} |")
    else:
        out.append("| Spark | Spark profiles | missing (see below) |")
    out.append("")
    out.append("To regenerate this page from the committed files:")
    out.append("")
    out.append("```sh")
    out.append("python3 conformance/scoreboard.py")
    out.append("```")
    out.append("")
    out.append(
        "and to run Spark again first (pyspark " + PYSPARK + " in the virtual environment of "
        "`conformance/spark/run.sh`, created when missing; Java 17 or later; about a minute):"
    )
    out.append("")
    out.append("```sh")
    out.append("python3 conformance/scoreboard.py --run-spark")
    out.append("```")
    out.append("")
    out.append(
        "When the cases change (`cargo run --example conformance_vectors`), record plain DataFusion's "
        "answers as `conformance/README.md` says, rerun Spark, then regenerate. "
        "`python3 conformance/scoreboard.py --check` (run by `.ci/run`) fails when this page is not "
        "what the committed files give."
    )
    out.append("")
    out.extend(body)
    return "\n".join(out).rstrip("\n") + "\n"


def without_date(text):
    return [line for line in text.splitlines() if not line.startswith("Generated on ")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/conformance.md is stale")
    ap.add_argument("--spark", default=SPARK_ANSWERS, help="Spark's answers to spark.sql (repository-relative)")
    ap.add_argument("--run-spark", action="store_true", help="run spark.sql through Spark first")
    args = ap.parse_args()
    if args.run_spark:
        run_spark(args.spark)
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    page = render(args.spark, today)
    if args.check:
        try:
            with open(path(PAGE), encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = ""
        if without_date(current) != without_date(page):
            print(f"{PAGE} is stale: run `python3 conformance/scoreboard.py`", file=sys.stderr)
            return 1
        return 0
    with open(path(PAGE), "w", encoding="utf-8") as f:
        f.write(page)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
