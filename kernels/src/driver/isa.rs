//! Which compiled copy of the kernels' loops this process runs: the levels
//! of x86-64 they are compiled for ([`Isa`]), the ones this CPU runs
//! ([`Runnable`]), and the one chosen, once per process, from the best of
//! them and the knob [`KNOB`].
//!
//! The choice is cached in one byte, so that each block's dispatch is a
//! relaxed load and a compare; it never changes once made, so that every
//! block of every call in a process runs the same copy (and the algorithm
//! choices that follow it agree with the loops they run in).

use core::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "x86_64")]
use crate::driver::{avx2, avx512};

/// A level of x86-64 the kernels' loops are compiled for, from the one
/// every CPU of the build's target runs to the one the fewest do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
#[repr(u8)]
pub enum Isa {
    /// The build's target only (the only copy off x86-64).
    Portable = 0,
    /// x86-64-v3: AVX2, FMA, BMI1, BMI2, LZCNT and MOVBE.
    Avx2 = 1,
    /// AVX-512 F, DQ, VL and BW, with BMI2.
    Avx512 = 2,
}

/// The environment variable that caps the copy a process runs:
/// `portable`, `avx2` or `avx512`, in any case. Unset or empty, or a value
/// that is none of these (or not UTF-8), it does not cap: the process runs
/// the best copy this CPU runs. A level this CPU lacks gives the best one
/// below it that it runs. Read once, at the first call that needs it.
pub(crate) const KNOB: &str = "DECIMAL_KERNELS_ISA";

impl Isa {
    /// Every level, in order.
    pub(crate) const ALL: [Self; 3] = [Self::Portable, Self::Avx2, Self::Avx512];

    /// The level's name, as [`KNOB`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }

    /// The level named `name`, in any case.
    fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|isa| isa.name().eq_ignore_ascii_case(name))
    }

    /// Whether this CPU runs the copy compiled for the level: checked at
    /// run time for each level on its own, as a CPU (or a virtual machine)
    /// may lack a feature of a level below one it has.
    fn runs_here(self) -> bool {
        match self {
            Self::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => avx2::available(),
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

/// The copy a process runs, given the value of [`KNOB`] and the levels
/// this CPU runs (`Portable` among them): the best one not above the
/// level the knob names.
pub(crate) fn choose(knob: Option<&str>, runnable: &[Isa]) -> Isa {
    let cap = knob.and_then(Isa::named).unwrap_or(Isa::Avx512);
    runnable.iter().copied().filter(|&isa| isa <= cap).max().unwrap_or(Isa::Portable)
}

/// An [`Isa`] this CPU runs: the proof that calling a copy's functions,
/// compiled with its features, is sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Runnable(Isa);

/// The cached choice: an [`Isa`] as its `u8`, or [`UNKNOWN`] until the
/// first call that needs it. Only a runnable level is ever stored.
static ACTIVE: AtomicU8 = AtomicU8::new(UNKNOWN);

/// [`ACTIVE`] before the choice.
const UNKNOWN: u8 = u8::MAX;

impl Runnable {
    /// `isa`, if this CPU runs it.
    pub(crate) fn new(isa: Isa) -> Option<Self> {
        isa.runs_here().then_some(Self(isa))
    }

    /// Every level this CPU runs, in order (`Portable` first).
    pub(crate) fn all() -> impl Iterator<Item = Self> {
        Isa::ALL.into_iter().filter_map(Self::new)
    }

    /// The copy this process runs.
    #[inline(always)]
    pub(crate) fn active() -> Self {
        match ACTIVE.load(Ordering::Relaxed) {
            0 => Self(Isa::Portable),
            1 => Self(Isa::Avx2),
            2 => Self(Isa::Avx512),
            _ => Self::settle(),
        }
    }

    /// The level.
    pub(crate) fn isa(self) -> Isa {
        self.0
    }

    /// Chooses the copy and caches it. Threads that race here may read the
    /// knob each, but the first to store wins and all return its choice.
    #[cold]
    #[inline(never)]
    fn settle() -> Self {
        let knob = std::env::var(KNOB).ok();
        let runnable: Vec<Isa> = Self::all().map(Self::isa).collect();
        let chosen = choose(knob.as_deref(), &runnable);
        match ACTIVE.compare_exchange(UNKNOWN, chosen as u8, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => Self(chosen),
            Err(_) => Self::active(),
        }
    }
}

/// The level of the copy this process runs, for the algorithm choices that
/// pay only in some copies (the loops themselves dispatch through
/// [`Runnable::active`]).
pub(crate) fn active() -> Isa {
    Runnable::active().isa()
}

/// The name of the copy of the loops this process runs: `"avx512"`,
/// `"avx2"` or `"portable"`.
pub(crate) fn active_name() -> &'static str {
    Runnable::active().isa().name()
}

/// The names of the copies this CPU runs, in order.
pub(crate) fn runnable_names() -> Vec<&'static str> {
    Runnable::all().map(|copy| copy.isa().name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const EVERY: &[Isa] = &[Isa::Portable, Isa::Avx2, Isa::Avx512];
    const NO_AVX512: &[Isa] = &[Isa::Portable, Isa::Avx2];
    const PORTABLE: &[Isa] = &[Isa::Portable];
    // A CPU (or a virtual machine) with AVX-512 but a v3 feature masked.
    const AVX512_ONLY: &[Isa] = &[Isa::Portable, Isa::Avx512];

    #[rstest]
    #[case::unset(None, EVERY, Isa::Avx512)]
    #[case::empty(Some(""), EVERY, Isa::Avx512)]
    #[case::unknown(Some("sse9"), EVERY, Isa::Avx512)]
    #[case::a_level_with_spaces(Some(" avx2"), EVERY, Isa::Avx512)]
    #[case::portable(Some("portable"), EVERY, Isa::Portable)]
    #[case::avx2(Some("avx2"), EVERY, Isa::Avx2)]
    #[case::avx512(Some("avx512"), EVERY, Isa::Avx512)]
    #[case::any_case(Some("AVX2"), EVERY, Isa::Avx2)]
    #[case::mixed_case(Some("Portable"), EVERY, Isa::Portable)]
    #[case::unset_without_avx512(None, NO_AVX512, Isa::Avx2)]
    #[case::avx512_without_it(Some("avx512"), NO_AVX512, Isa::Avx2)]
    #[case::avx2_on_a_portable_cpu(Some("avx2"), PORTABLE, Isa::Portable)]
    #[case::unset_on_a_portable_cpu(None, PORTABLE, Isa::Portable)]
    #[case::avx2_below_a_masked_level(Some("avx2"), AVX512_ONLY, Isa::Portable)]
    #[case::unset_above_a_masked_level(None, AVX512_ONLY, Isa::Avx512)]
    fn the_knob_caps_the_best_runnable_copy(
        #[case] knob: Option<&str>,
        #[case] runnable: &[Isa],
        #[case] expected: Isa,
    ) {
        assert_eq!(choose(knob, runnable), expected);
    }

    #[test]
    fn names_round_trip() {
        for isa in Isa::ALL {
            assert_eq!(Isa::named(isa.name()), Some(isa));
        }
        assert_eq!(Isa::named("avx-512"), None);
    }

    #[test]
    fn the_active_copy_runs_here_and_stays() {
        let active = Runnable::active();
        assert!(Runnable::all().any(|copy| copy == active));
        assert_eq!(Runnable::all().next(), Some(Runnable(Isa::Portable)));
        assert_eq!(Runnable::active(), active);
        assert_eq!(active_name(), active.isa().name());
        assert!(runnable_names().contains(&active_name()));
    }
}
