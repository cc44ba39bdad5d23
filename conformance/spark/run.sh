#!/usr/bin/env bash
# The Spark profiles against Apache Spark itself: installs a pinned pyspark
# in a virtual environment (and Java 17 from Debian where no Java 17+ is
# found), generates cases from a seed (printed; `SPARK_CONFORMANCE_SEED`
# sets it), runs them through one local Spark session under both
# `allowPrecisionLoss` settings with ANSI mode on and off, and compares
# every answer with the crate's (`examples/spark_conformance.rs`). Exits
# non-zero on any disagreement, printing the cases; the cases file stays in
# `target/spark-conformance/`.
#
#   conformance/spark/run.sh             # a new run
#   conformance/spark/run.sh CASES_FILE  # compare a kept run's cases again, without Spark
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
pyspark_version=4.3.0

compare() {
    cargo run --quiet --example spark_conformance -- "$1"
}

if [ $# -gt 0 ]; then
    compare "$1"
    exit
fi

# Spark 4 needs Java 17 or later.
java_major() {
    java -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print v[1]; exit }'
}
if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ]; then
    echo "no Java 17 or later: installing Debian's openjdk-17-jre-headless"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless
fi

# Outside `target/`, which CI cleans: the 500 MB install is kept between runs.
venv="${XDG_CACHE_HOME:-$HOME/.cache}/decimal-kernels/spark-venv-$pyspark_version"
if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$pyspark_version')" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$pyspark_version"
fi

seed=${SPARK_CONFORMANCE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
out="$repo/target/spark-conformance"
mkdir -p "$out"
cases="$out/cases-$seed.tsv"
echo "spark conformance: pyspark $pyspark_version, seed $seed, cases in $cases"
# Spark binds to the loopback address; without this it warns and looks
# the host name up.
export SPARK_LOCAL_IP=${SPARK_LOCAL_IP:-127.0.0.1}
# Spark's own log lines go to a file beside the cases; the driver's
# progress is printed.
if ! "$venv/bin/python" conformance/spark/spark_cases.py "$seed" "$cases" 2>"$out/spark-$seed.log"; then
    tail -n 40 "$out/spark-$seed.log" >&2
    echo "spark conformance: the Spark driver failed (seed $seed; log $out/spark-$seed.log)" >&2
    exit 1
fi
if ! compare "$cases"; then
    echo "spark conformance: disagreement with Spark (seed $seed; cases kept in $cases)" >&2
    exit 1
fi
