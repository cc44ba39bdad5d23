r"""Run conformance/vectors/spark.sql through a local Spark and record its answers.

Usage: run_sql.py [SQL_FILE [OUT_FILE]]
(defaults: conformance/vectors/spark.sql, conformance/vectors/spark_answers.txt)

Run it with the pyspark of `conformance/spark/run.sh`'s virtual environment
(`conformance/spark/answers.sh` does). The output repeats each `SET` line and
each query, then Spark's answer:

  Q <sql>
  = <type> <value>      the result's type and value (`NULL` for a null)
  E <type> <condition>  an error: Spark's error condition and the first
                        line of its message

The first lines (`# pyspark ...`, `# spark ...`, `# run ...`) name the versions
used and the time of the run.
"""

import logging
import time
import os
import sys
from decimal import Decimal

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SQL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "conformance/vectors/spark.sql")
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "conformance/vectors/spark_answers.txt")

import pyspark  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402

# Small: the machine's two cores are shared.
spark = (
    SparkSession.builder.master("local[1]")
    .appName("decimal-kernels spark.sql answers")
    .config("spark.ui.enabled", "false")
    .config("spark.driver.memory", "1g")
    .config("spark.sql.shuffle.partitions", "1")
    .config("spark.ui.showConsoleProgress", "false")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("OFF")
for name in ("SQLQueryContextLogger", "py4j", "pyspark"):
    logging.getLogger(name).setLevel(logging.CRITICAL)


def text(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Decimal):
        return format(v, "f")
    return str(v)


def one_line(s):
    return " ".join(str(s).split())


out = []
out.append(f"# pyspark {pyspark.__version__}")
out.append(f"# spark {spark.version}")
out.append("# run " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
n = 0
with open(SQL) as f:
    for line in f:
        line = line.strip()
        if line.startswith("SET "):
            spark.sql(line.rstrip(";"))
            out.append(line)
        elif line.startswith("SELECT "):
            sql = line.rstrip(";")
            out.append(f"Q {line}")
            typ = "?"
            try:
                df = spark.sql(sql)
                typ = df.schema.fields[0].dataType.simpleString()
                rows = df.collect()
                out.append(f"= {typ} {text(rows[0][0])}")
            except Exception as e:  # an error is an answer
                cond = None
                for attr in ("getCondition", "getErrorClass"):
                    if hasattr(e, attr):
                        try:
                            cond = getattr(e, attr)()
                        except Exception:
                            cond = None
                        if cond:
                            break
                msg = one_line(str(e).splitlines()[0] if str(e) else type(e).__name__)
                out.append(f"E {typ} {cond or type(e).__name__} {msg[:300]}")
            n += 1
            if n % 50 == 0:
                print(f"{n} queries", file=sys.stderr, flush=True)
spark.stop()
with open(OUT, "w") as f:
    f.write("\n".join(out) + "\n")
print(f"{n} queries, answers in {OUT}", file=sys.stderr)
