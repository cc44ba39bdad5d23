//! The paired timer, the bench's second mode (`DK_BENCH_PAIRED=1 cargo bench
//! --bench kernels [-- FILTER]`): our call and its peer's (arrow-arith, a
//! plain loop, or another of our calls) timed in alternating samples, for
//! the ratios the goals are stated in.
//!
//! Why alternate: on a shared machine a neighbour's burst lasts seconds. When
//! one side's samples are all taken before the other's, such a burst lands
//! on one side only and the ratio reports the neighbour rather than the
//! kernels. Here each sample of ours sits next to one of the peer's (which
//! goes first alternates from pair to pair), so a slow spell slows both
//! halves of a pair, and each pair's ratio is taken under one set of
//! conditions.
//!
//! Why by hand: criterion (the default mode, `harness.rs`) takes every
//! sample of one function before it starts on the next, and has no way to
//! interleave two. Its `Measurement` trait changes what a sample measures (a
//! different clock, a counter), not when each function is sampled, so the
//! order that keeps the ratio honest cannot be had through it. Among
//! maintained crates, `bench_diff` does alternate two closures, but it times
//! each call on its own (too coarse for a 16-row call, well under a
//! microsecond, so the batching below would stay ours) and keeps each side's
//! histogram and the mean log ratio, not the per-pair ratios whose median
//! and spread the results report; it also brings a statistics library with
//! linear algebra behind it. What remains here is short: a warm-up, the
//! calls per sample, the alternating loop and the JSON line.
//!
//! Per case: both sides are warmed up, each gets its own number of calls per
//! sample (about 3 ms of calls, at least one), then `--samples` pairs are
//! taken. The case's line on stdout and its JSON line in the results file
//! carry each side's median ns/row (and 10th and 90th percentiles), the
//! ratio peer/ours of the medians, the median of the per-pair ratios and
//! their 10th and 90th percentiles (the spread).
//!
//! Arguments (`DK_BENCH_PAIRED=1 cargo bench --bench kernels -- ARGS`):
//! `FILTER`, a regular expression as criterion reads its filter, selects a
//! case when it matches `group/case/rows/ours` or `group/case/rows/PEER`
//! (none: every case; `'spark|fixed_38_2'` selects either family);
//! `--samples N`, the pairs per case (default 40, or `DK_BENCH_SAMPLES`).
//! Criterion's `--bench`, `--noplot`, `--warm-up-time S`,
//! `--measurement-time S` and `--sample-size N` are accepted and ignored;
//! its other options are refused. Results: one JSON object per line,
//! appended to `<target dir>/paired/results.jsonl` (or to `DK_BENCH_OUT`);
//! each line carries the run's start time, so `benches/report.py` can keep
//! the latest line of each case and say which runs they come from.

use std::fs::OpenOptions;
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use regex::Regex;

use super::harness::Case;

/// The time one sample aims at, per side.
const SAMPLE_TARGET: Duration = Duration::from_millis(3);
/// The warm-up of each side, at least (and at least two calls each).
const WARM_UP: Duration = Duration::from_millis(40);
/// Pairs per case unless told otherwise.
const DEFAULT_SAMPLES: usize = 40;

/// What the command line and the environment ask for.
struct Config {
    /// Selects a case when it matches one of its two functions' names, as
    /// criterion's filter does; `None`: every case.
    filter: Option<Regex>,
    samples: usize,
    out: PathBuf,
    /// The run's start, seconds since the epoch: the run's name in the results.
    run: u64,
}

fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let mut samples = std::env::var("DK_BENCH_SAMPLES")
            .ok()
            .map(|v| v.parse().expect("DK_BENCH_SAMPLES: a number of pairs"))
            .unwrap_or(DEFAULT_SAMPLES);
        let mut patterns = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--bench" | "--noplot" => {}
                "--samples" => {
                    samples = args
                        .next()
                        .and_then(|v| v.parse().ok())
                        .expect("--samples: a number of pairs");
                }
                "--warm-up-time" | "--measurement-time" | "--sample-size" => {
                    args.next();
                    eprintln!("paired: {arg} is criterion's; ignored (see --samples)");
                }
                flag if flag.starts_with("--") => {
                    panic!("paired: unknown option {flag}; options: FILTER, --samples N")
                }
                pattern => patterns.push(format!("(?:{pattern})")),
            }
        }
        // Several filters select what any of them selects, as they always
        // have here (criterion takes one).
        let filter = (!patterns.is_empty()).then(|| {
            let pattern = patterns.join("|");
            Regex::new(&pattern).unwrap_or_else(|e| {
                panic!("paired: FILTER {pattern:?} is not a regular expression: {e}")
            })
        });
        assert!(samples >= 1, "paired: at least one pair per case");
        let out = std::env::var_os("DK_BENCH_OUT").map_or_else(
            || {
                // The bench's own scratch directory is `<target dir>/tmp`.
                let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
                tmp.parent().unwrap_or(&tmp).join("paired").join("results.jsonl")
            },
            PathBuf::from,
        );
        if let Some(dir) = out.parent() {
            std::fs::create_dir_all(dir).expect("paired: the results' directory");
        }
        eprintln!("paired: {samples} pairs per case; results appended to {}", out.display());
        let run = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Config { filter, samples, out, run }
    })
}

/// Whether the command line selects `case`: whether its filter matches
/// `group/case/rows/ours` or `group/case/rows/PEER`, the names criterion
/// gives the case's two functions.
pub fn selected(case: &Case<'_>) -> bool {
    let Some(filter) = &config().filter else { return true };
    let id = case.id();
    [format!("{id}/ours"), format!("{id}/{}", case.peer)].iter().any(|name| filter.is_match(name))
}

/// Where the results go; the first call reads the command line.
pub fn results_path() -> &'static Path {
    &config().out
}

/// Times `ours` against `peer` over `case.rows` rows, in alternating
/// samples, and prints and records the outcome under `group/case`. The
/// caller has checked that the case is selected and that both sides agree:
/// this does not look at what they return.
pub fn compare<O, P>(case: &Case<'_>, mut ours: impl FnMut() -> O, mut peer: impl FnMut() -> P) {
    let Case { group, case, rows, distribution, peer: peer_name } = *case;
    let config = config();
    let (ours_iters, peer_iters) = warm_up(&mut ours, &mut peer);
    let per_row = |d: Duration, iters: u64| d.as_nanos() as f64 / (iters as f64 * rows as f64);
    let mut ours_ns = Vec::with_capacity(config.samples);
    let mut peer_ns = Vec::with_capacity(config.samples);
    for i in 0..config.samples {
        if i % 2 == 0 {
            ours_ns.push(per_row(time(&mut ours, ours_iters), ours_iters));
            peer_ns.push(per_row(time(&mut peer, peer_iters), peer_iters));
        } else {
            peer_ns.push(per_row(time(&mut peer, peer_iters), peer_iters));
            ours_ns.push(per_row(time(&mut ours, ours_iters), ours_iters));
        }
    }
    let ratios: Vec<f64> = peer_ns.iter().zip(&ours_ns).map(|(p, o)| p / o).collect();
    let (ours_s, peer_s, ratio_s) = (Stats::of(ours_ns), Stats::of(peer_ns), Stats::of(ratios));
    let ratio = peer_s.median / ours_s.median;
    println!(
        "{group}/{case} {rows} rows: ours {:.3} ns/row, {peer_name} {:.3} ns/row: \
         {ratio:.2}x (pairs: median {:.2}x, p10-p90 {:.2}-{:.2}x)\n    {distribution}",
        ours_s.median, peer_s.median, ratio_s.median, ratio_s.p10, ratio_s.p90
    );
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let line = format!(
        "{{\"group\":{},\"case\":{},\"rows\":{rows},\"distribution\":{},\"peer\":{},\
         \"samples\":{},\"ours_ns\":{},\"peer_ns\":{},\"ratio_of_medians\":{ratio:.4},\
         \"pair_ratio\":{},\"spread\":\"p10-p90 of the per-pair ratios\",\
         \"iters\":[{ours_iters},{peer_iters}],\"run\":{},\"time\":{now}}}",
        json_str(group),
        json_str(case),
        json_str(distribution),
        json_str(peer_name),
        config.samples,
        ours_s.json(),
        peer_s.json(),
        ratio_s.json(),
        config.run,
    );
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.out)
        .expect("paired: the results file");
    writeln!(file, "{line}").expect("paired: writing the results file");
}

/// Runs both sides, alternately, for at least [`WARM_UP`] each and twice
/// each; returns each side's calls per sample.
fn warm_up<O, P>(ours: &mut impl FnMut() -> O, peer: &mut impl FnMut() -> P) -> (u64, u64) {
    let (mut ours_time, mut peer_time) = (Duration::ZERO, Duration::ZERO);
    let mut calls = 0u64;
    while calls < 2 || ours_time < WARM_UP || peer_time < WARM_UP {
        ours_time += time(ours, 1);
        peer_time += time(peer, 1);
        calls += 1;
    }
    let iters = |total: Duration| {
        let per_call = total.as_nanos() / u128::from(calls);
        (SAMPLE_TARGET.as_nanos() / per_call.max(1)).clamp(1, u128::from(u32::MAX)) as u64
    };
    (iters(ours_time), iters(peer_time))
}

/// The time of `iters` calls, each result dropped inside the timing.
fn time<O>(f: &mut impl FnMut() -> O, iters: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(f());
    }
    start.elapsed()
}

/// A sample's median and spread.
struct Stats {
    median: f64,
    p10: f64,
    p90: f64,
    min: f64,
    max: f64,
}

impl Stats {
    fn of(mut values: Vec<f64>) -> Stats {
        values.sort_by(f64::total_cmp);
        // Linear interpolation between the two nearest ranks.
        let at = |q: f64| {
            let pos = q * (values.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            values[lo] + (values[hi] - values[lo]) * (pos - lo as f64)
        };
        Stats {
            median: at(0.5),
            p10: at(0.1),
            p90: at(0.9),
            min: values[0],
            max: values[values.len() - 1],
        }
    }

    fn json(&self) -> String {
        format!(
            "{{\"median\":{:.4},\"p10\":{:.4},\"p90\":{:.4},\"min\":{:.4},\"max\":{:.4}}}",
            self.median, self.p10, self.p90, self.min, self.max
        )
    }
}

/// `s` as a JSON string.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
