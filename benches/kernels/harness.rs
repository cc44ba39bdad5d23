//! Where a case goes once the case table has built it: to criterion (the
//! default) or to the paired timer (`DK_BENCH_PAIRED=1` in the environment).
//! Every case in `kernels.rs`, `aggregates.rs` and `reuse.rs` calls
//! [`compare`] and does not know which; this file is the only one that asks.
//! The switch is an environment variable, like the bench's other knobs, so
//! that `benches/ab.py` can run a build from before criterion (always
//! paired, and strict about its arguments) with the same command line.
//!
//! Criterion: each case is one group named `group/case/rows` holding two
//! functions, `ours` and the peer (named by the case: `arrow`,
//! `wrapping_loop`, ...), both with a throughput of `rows` elements. So
//! criterion's filter (a regular expression over
//! `group/case/rows/function`), `--list`, `--save-baseline NAME`,
//! `--baseline NAME`, its reports under `<target dir>/criterion` and its
//! other options behave as criterion documents them. Unless the command line
//! says otherwise (`--warm-up-time`, `--measurement-time`, `--sample-size`),
//! each function warms up for [`WARM_UP`] and is measured for
//! [`MEASUREMENT`], shorter than criterion's own defaults so that the ~500
//! functions of a full run take about half an hour, and the ~100 of a quick
//! one a few minutes.
//!
//! Paired: `paired.rs` says how it times, what it writes and which options
//! it reads.
//!
//! Both: every case checks that its two sides agree before either is timed,
//! and only when the filter selects it; `DK_BENCH_QUICK=1` keeps only the
//! 8,192-row cases without nulls (the case table reads it).

use std::cell::{Cell, RefCell};
use std::sync::OnceLock;
use std::time::Duration;

use criterion::{Criterion, Throughput};

use super::paired;

/// Criterion's warm-up per function unless `--warm-up-time` is given.
const WARM_UP: Duration = Duration::from_secs(1);
/// Criterion's measurement per function unless `--measurement-time` is given.
const MEASUREMENT: Duration = Duration::from_secs(2);

/// One comparison as the results name it.
pub struct Case<'a> {
    /// The inputs' family, e.g. `d128_15_2_nulls`.
    pub group: &'a str,
    /// What is timed within the group, e.g. `div_scalar`.
    pub case: &'a str,
    /// The rows of one call: criterion's throughput, the paired ns/row.
    pub rows: usize,
    /// A short label of the values and what the operator forms from them.
    pub distribution: &'a str,
    /// The other side's name: `arrow`, `wrapping_loop`, `fresh`, ...
    pub peer: &'a str,
}

impl Case<'_> {
    /// The criterion group's name.
    pub fn id(&self) -> String {
        format!("{}/{}/{}", self.group, self.case, self.rows)
    }

    /// Whether the command line may select this case: lets a case skip set-up
    /// that only it needs. Criterion applies its filter itself and keeps it
    /// to itself, so in criterion mode every case answers yes (and
    /// [`compare`] still runs its check only if criterion runs it).
    pub fn selected(&self) -> bool {
        !paired_mode() || paired::selected(self)
    }
}

/// Whether this run uses the paired timer: `DK_BENCH_PAIRED` set, to
/// anything but nothing or `0`.
fn paired_mode() -> bool {
    static PAIRED: OnceLock<bool> = OnceLock::new();
    *PAIRED.get_or_init(|| {
        std::env::var_os("DK_BENCH_PAIRED").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

thread_local! {
    // Criterion's runner is neither `Send` nor `Sync`; the cases all run on
    // the main thread.
    static CRITERION: RefCell<Option<Criterion>> = const { RefCell::new(None) };
}

fn with_criterion<R>(f: impl FnOnce(&mut Criterion) -> R) -> R {
    CRITERION.with(|slot| {
        let mut slot = slot.borrow_mut();
        let criterion = slot.get_or_insert_with(|| {
            // The command line is read last, so that its options override
            // these shorter defaults.
            Criterion::default()
                .warm_up_time(WARM_UP)
                .measurement_time(MEASUREMENT)
                .configure_from_args()
        });
        f(criterion)
    })
}

/// Reads the command line before any case is built, so that a bad option or
/// `--help` answers at once rather than after the set-up.
pub fn start() {
    if paired_mode() {
        paired::results_path();
        return;
    }
    // Criterion's parser would only say "unexpected argument".
    if std::env::args().any(|arg| arg == "--samples") {
        eprintln!(
            "--samples is the paired mode's (DK_BENCH_PAIRED=1); criterion's is --sample-size"
        );
        std::process::exit(2);
    }
    with_criterion(|_| ());
}

/// Ends the run: criterion's closing summary, or where the paired results
/// went.
pub fn finish() {
    if paired_mode() {
        eprintln!("paired: results in {}", paired::results_path().display());
    } else {
        with_criterion(|criterion| criterion.final_summary());
    }
}

/// Times `ours` against `peer` for `case`, by criterion or the paired
/// timer. When the command line selects the case, `check` is first handed
/// one result of each side, untimed, and should panic if they disagree.
pub fn compare<O, P>(
    case: &Case<'_>,
    check: impl FnOnce(O, P),
    mut ours: impl FnMut() -> O,
    mut peer: impl FnMut() -> P,
) {
    if paired_mode() {
        if paired::selected(case) {
            check(ours(), peer());
            paired::compare(case, ours, peer);
        }
        return;
    }
    // Criterion calls a function's closure only when its filter selects the
    // function, and never in `--list`: the first call runs the check. Both
    // closures need both sides for it, hence the cells.
    let (ours, peer) = (RefCell::new(ours), RefCell::new(peer));
    let check = Cell::new(Some(check));
    let check_once = || {
        if let Some(check) = check.take() {
            let ours_result = (*ours.borrow_mut())();
            let peer_result = (*peer.borrow_mut())();
            check(ours_result, peer_result);
        }
    };
    with_criterion(|criterion| {
        let mut group = criterion.benchmark_group(case.id());
        group.throughput(Throughput::Elements(case.rows as u64));
        group.bench_function("ours", |b| {
            check_once();
            b.iter(&mut *ours.borrow_mut());
        });
        group.bench_function(case.peer, |b| {
            check_once();
            b.iter(&mut *peer.borrow_mut());
        });
        group.finish();
    });
}
