//! TPC-H across processes on Ballista, with this crate's functions on every
//! node.
//!
//! Each test starts a scheduler and two executors as child processes (this
//! crate's `decimal-kernels-scheduler` and `decimal-kernels-executor`, which
//! apply `register_state` to the sessions and registries they decode plans
//! with), talking gRPC over loopback on free ports, and reads Parquet files
//! from a temporary directory that every process sees.
//!
//! `tpch_on_ballista_answers_as_single_process` writes TPC-H (`TPCH_SF`,
//! 0.01 by default) as Parquet, two files a table, submits the 22 queries (`tests/tpch/qN.sql`) through a Ballista
//! client context with `register` applied, and compares each answer, values
//! and types, with a single-process `SessionContext` with `register` applied
//! over the same files.
//!
//! Equal answers alone do not show that the executors ran this crate's
//! kernels: a cluster running DataFusion's own would agree on TPC-H too. So
//! `executors_refuse_a_sum_datafusion_wraps` sums three rows of 9·10^37 in a
//! `DECIMAL(38,0)` column: DataFusion alone wraps the sum to
//! -70282366920938463463374607431768211456, this crate refuses it, and the
//! Ballista job must fail with that overflow.
//!
//! Every child is killed when its test ends, also on a panic (`Cluster`'s
//! `Drop`).

#![cfg(feature = "ballista")]

mod support;

use std::fmt::Write as _;
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ballista::prelude::SessionContextExt;
use datafusion::arrow::array::Decimal128Array;
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::error::Result;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};
use decimal_kernels_datafusion::register;
use support::{
    DecimalExpressions, Table, decimal_expressions, is_query, scale_factor, tpch_statements,
    tpch_tables,
};

/// Files per table at most: more than one, so that scans are split into
/// tasks that both executors run.
const PARTS: usize = 2;

/// How long the processes get to start and the executors to register.
const STARTUP: Duration = Duration::from_secs(60);

/// How long one query gets on either side.
const QUERY: Duration = Duration::from_secs(60);

/// Queries that cannot run on Ballista for a reason outside this crate, with
/// the reason. Each is still run single-process.
const SKIPPED: &[(usize, &str)] = &[];

/// The scheduler and executors, killed on drop.
struct Cluster {
    children: Vec<(String, Child, PathBuf)>,
    scheduler_port: u16,
}

impl Cluster {
    /// Starts a scheduler and `executors` executors with their output in
    /// `dir`, and waits until the scheduler reports every executor live.
    fn start(dir: &Path, executors: usize) -> Self {
        let scheduler_port = free_port();
        let mut cluster = Self { children: Vec::new(), scheduler_port };
        cluster.spawn(
            dir,
            "scheduler",
            env!("CARGO_BIN_EXE_decimal-kernels-scheduler"),
            &[
                "--bind",
                &format!("127.0.0.1:{scheduler_port}"),
                "--min-ready-executors",
                &executors.to_string(),
            ],
        );
        // An executor that cannot reach the scheduler exits at once.
        cluster.wait_until(|port| TcpStream::connect(("127.0.0.1", port)).is_ok());
        for i in 0..executors {
            let work_dir = dir.join(format!("executor-{i}-work"));
            std::fs::create_dir_all(&work_dir).expect("executor work directory");
            cluster.spawn(
                dir,
                &format!("executor-{i}"),
                env!("CARGO_BIN_EXE_decimal-kernels-executor"),
                &[
                    "--port",
                    &free_port().to_string(),
                    "--grpc-port",
                    &free_port().to_string(),
                    "--scheduler",
                    &format!("127.0.0.1:{scheduler_port}"),
                    "--vcores",
                    "2",
                    "--work-dir",
                    work_dir.to_str().expect("UTF-8 temporary path"),
                ],
            );
        }
        cluster.wait_ready();
        cluster
    }

    fn spawn(&mut self, dir: &Path, name: &str, program: &str, args: &[&str]) {
        let log = dir.join(format!("{name}.log"));
        let out = File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name} ({program}): {e}"));
        self.children.push((name.to_owned(), child, log));
    }

    /// Polls the scheduler's `GET /readyz`, which answers 200 once
    /// `--min-ready-executors` executors are live; fails early if a child
    /// exits.
    fn wait_ready(&mut self) {
        self.wait_until(readyz);
    }

    /// Polls `ready` with the scheduler's port until it holds; fails early
    /// if a child exits, and after [`STARTUP`].
    fn wait_until(&mut self, ready: impl Fn(u16) -> bool) {
        let deadline = Instant::now() + STARTUP;
        loop {
            let exited = self.children.iter_mut().find_map(|(name, child, _)| {
                let status = child.try_wait().expect("child status")?;
                Some(format!("{name} exited during startup ({status})"))
            });
            if let Some(exited) = exited {
                panic!("{exited}{}", self.logs());
            }
            if ready(self.scheduler_port) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "cluster not ready after {STARTUP:?}{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The children's output, for a failure message.
    fn logs(&self) -> String {
        let mut all = String::new();
        for (name, _, log) in &self.children {
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(40).collect();
            write!(all, "\n--- {name} (last lines) ---").expect("String write");
            for line in tail.iter().rev() {
                write!(all, "\n{line}").expect("String write");
            }
        }
        all
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for (_, child, _) in &mut self.children {
            // Already gone is fine; the wait reaps the process either way.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A loopback port free at the time of the call.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("free port").port()
}

/// Whether the scheduler at `port` answers `GET /readyz` with 200.
fn readyz(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.starts_with("HTTP/1.1 200")
}

/// Writes `batches` as one Parquet file.
fn write_parquet(path: &Path, table: &Table, batches: &[RecordBatch]) {
    let file = File::create(path).expect("Parquet file");
    let mut writer =
        ArrowWriter::try_new(file, Arc::clone(&table.schema), None).expect("Parquet writer");
    for batch in batches {
        writer.write(batch).expect("Parquet write");
    }
    writer.close().expect("Parquet close");
}

/// The TPC-H tables as Parquet under `dir/<table>/`, their batches spread
/// over up to [`PARTS`] files.
fn write_tpch(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut written = Vec::new();
    for table in tpch_tables(scale_factor()) {
        let path = dir.join(table.name);
        std::fs::create_dir_all(&path).expect("table directory");
        let per_file = table.batches.len().div_ceil(PARTS).max(1);
        for (i, batches) in table.batches.chunks(per_file).enumerate() {
            write_parquet(&path.join(format!("part-{i}.parquet")), &table, batches);
        }
        written.push((table.name, path));
    }
    written
}

/// A table `big` of one `DECIMAL(38,0)` column holding 9·10^37 in three
/// rows, whose sum (2.7·10^38) does not fit 38 digits.
fn write_big(dir: &Path) -> PathBuf {
    let path = dir.join("big");
    std::fs::create_dir_all(&path).expect("table directory");
    let value = 9 * 10_i128.pow(37);
    let column =
        Decimal128Array::from(vec![value; 3]).with_precision_and_scale(38, 0).expect("type");
    let schema = Arc::new(Schema::new(vec![Field::new("big", DataType::Decimal128(38, 0), false)]));
    let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(column)]).expect("batch");
    let file = File::create(path.join("big.parquet")).expect("Parquet file");
    let mut writer = ArrowWriter::try_new(file, schema, None).expect("Parquet writer");
    writer.write(&batch).expect("Parquet write");
    writer.close().expect("Parquet close");
    path
}

async fn register_tables(ctx: &SessionContext, tables: &[(&str, PathBuf)]) -> Result<()> {
    for (name, path) in tables {
        let path = format!("{}/", path.to_str().expect("UTF-8 temporary path"));
        ctx.register_parquet(*name, &path, ParquetReadOptions::default()).await?;
    }
    Ok(())
}

/// The answer of TPC-H query `n` (its query statement's column types and
/// rows, as text) and the decimal expressions of its optimized plan, the
/// plan a Ballista client sends. Statements around it (q15's `create view`
/// and `drop view`) run for their effect.
async fn answer(ctx: &SessionContext, n: usize) -> Result<(String, DecimalExpressions)> {
    let mut result = None;
    for statement in tpch_statements(n) {
        let df = ctx.sql(&statement).await?;
        if !is_query(&statement) {
            df.collect().await?;
            continue;
        }
        let found = decimal_expressions(&df.clone().into_optimized_plan()?)?;
        let types: Vec<String> = df
            .schema()
            .fields()
            .iter()
            .map(|f| format!("{}: {}", f.name(), f.data_type()))
            .collect();
        let batches = df.collect().await?;
        let text = format!("{}\n{}", types.join(", "), pretty_format_batches(&batches)?);
        result = Some((text, found));
    }
    Ok(result.expect("a query statement"))
}

async fn with_timeout<T>(what: &str, future: impl Future<Output = Result<T>>) -> Result<T> {
    tokio::time::timeout(QUERY, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer within {QUERY:?}"))
}

/// A running cluster over `tables`, a Ballista client context and a
/// single-process context, both with [`register`] applied and `tables`
/// registered.
async fn contexts(
    dir: &Path,
    tables: &[(&str, PathBuf)],
) -> Result<(Cluster, SessionContext, SessionContext)> {
    let cluster = Cluster::start(dir, 2);
    // `register` after `remote`: `remote_with_state` over a registered state
    // would drop the functions and keep the rewrites that call them (see
    // the library's `ballista` module).
    let remote =
        SessionContext::remote(&format!("df://127.0.0.1:{}", cluster.scheduler_port)).await?;
    register(&remote)?;
    register_tables(&remote, tables).await?;
    let local = SessionContext::new();
    register(&local)?;
    register_tables(&local, tables).await?;
    Ok((cluster, remote, local))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tpch_on_ballista_answers_as_single_process() -> Result<()> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let tables = write_tpch(dir.path());
    let (cluster, remote, local) = contexts(dir.path(), &tables).await?;

    let mut failures = Vec::new();
    let mut ours = 0;
    for n in 1..=22 {
        let (want, _) = with_timeout(&format!("q{n} single-process"), answer(&local, n))
            .await
            .unwrap_or_else(|e| panic!("q{n} single-process: {e}"));
        if let Some((_, why)) = SKIPPED.iter().find(|(skipped, _)| *skipped == n) {
            eprintln!("q{n}: skipped on Ballista: {why}");
            continue;
        }
        match with_timeout(&format!("q{n} on Ballista"), answer(&remote, n)).await {
            Ok((got, found)) => {
                if got != want {
                    failures
                        .push(format!("q{n}: answers differ\nBallista:\n{got}\nlocal:\n{want}"));
                }
                // The plan sent leaves no decimal computation to DataFusion:
                // the executors run this crate's functions or fail.
                if !found.datafusion.is_empty() {
                    failures.push(format!("q{n}: left to DataFusion: {:?}", found.datafusion));
                }
                ours += found.ours;
            }
            Err(e) => failures.push(format!("q{n}: failed on Ballista: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}{}", failures.join("\n\n"), cluster.logs());
    eprintln!("{ours} calls of this crate's functions in the plans sent to Ballista");
    assert!(ours > 0, "no query sent to Ballista calls this crate's functions");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn executors_refuse_a_sum_datafusion_wraps() -> Result<()> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let tables = [("big", write_big(dir.path()))];
    let sum = "SELECT sum(big) FROM big";

    // DataFusion alone wraps the sum past 38 digits.
    let stock = SessionContext::new();
    register_tables(&stock, &tables).await?;
    let wrapped = stock.sql(sum).await?.collect().await?;
    assert!(
        pretty_format_batches(&wrapped)?
            .to_string()
            .contains("-70282366920938463463374607431768211456"),
        "DataFusion no longer wraps; the check below then shows nothing"
    );

    // This crate refuses it single-process, and so does the Ballista job,
    // whose sum ran on the executors: the client only fetches results.
    let (cluster, remote, local) = contexts(dir.path(), &tables).await?;
    let local_err = local.sql(sum).await?.collect().await.expect_err("overflow single-process");
    assert!(
        local_err.to_string().contains("does not fit decimal(38,0)"),
        "single-process: not this crate's overflow: {local_err}"
    );
    let remote_err =
        with_timeout("overflow on Ballista", async { Ok(remote.sql(sum).await?.collect().await) })
            .await?
            .expect_err("overflow on Ballista");
    eprintln!("Ballista: {remote_err}");
    // Ballista carries the executor's error in its debug form, which quotes
    // this message unchanged.
    assert!(
        remote_err.to_string().contains("does not fit decimal(38,0)"),
        "Ballista: not this crate's overflow: {remote_err}{}",
        cluster.logs()
    );
    Ok(())
}
