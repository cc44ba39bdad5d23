//! What addition and subtraction share: their spec, and the one thing that
//! tells them apart ([`AddOrSub`]).
//!
//! Both align the operands to the larger scale exactly,
//! `a * 10^ka ± b * 10^kb` (at most one of `ka`, `kb` non-zero), and check
//! the result against its precision; a result scale other than the aligned
//! one rescales the exact aligned result once (`rescaled_add`). The kernels
//! and the choice among them are `add_or_sub`'s.

use crate::driver::plan::shift_bits;
use crate::int::rounding::RoundingMode;
use crate::int::work::Work;

/// The shape of an addition or subtraction, from the operand and result types.
///
/// ```
/// use decimal_kernels_native::AddSpec;
/// // decimal(10, 2) + decimal(10, 4) at scale 4: two digits appended to the left.
/// let spec = AddSpec::new(2, 0, 13);
/// assert_eq!((spec.lhs_shift, spec.rhs_shift), (2, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct AddSpec {
    /// Digits appended to the left operand to reach the result scale.
    pub lhs_shift: u32,
    /// Digits appended to the right operand to reach the result scale.
    pub rhs_shift: u32,
    /// Digits dropped from the exact aligned result (`> 0`, with rounding) or
    /// appended to it (`< 0`) to reach the result scale; usually 0.
    pub result_shift: i32,
    /// How dropped digits round (when `result_shift > 0`).
    pub rounding: RoundingMode,
    /// The result precision: results beyond `10^p - 1` overflow.
    pub result_precision: u8,
}

impl AddSpec {
    /// Appends `lhs_shift` digits to the left operand and `rhs_shift` to the
    /// right one (at most one of them non-zero), and checks results against
    /// `result_precision` digits.
    #[must_use]
    pub fn new(lhs_shift: u32, rhs_shift: u32, result_precision: u8) -> Self {
        Self {
            lhs_shift,
            rhs_shift,
            result_shift: 0,
            rounding: RoundingMode::TowardZero,
            result_precision,
        }
    }

    /// The same operation, then rescaled to the result scale: `shift > 0`
    /// drops that many digits from the exact aligned result, rounding once
    /// with `rounding`; `shift < 0` appends `-shift` digits.
    ///
    /// ```
    /// use decimal_kernels_native::{AddSpec, Operand, Output, RoundingMode, Rows, add};
    /// // decimal(38,10) + decimal(38,10) at Spark's decimal(38,9), half up.
    /// let spec = AddSpec::new(0, 0, 38).rescaled(1, RoundingMode::HalfUp);
    /// let (a, b) = ([1_5i128, -1_5], [0i128, 0]);
    /// let out: Output<i128> = add(Operand::array(&a[..]), Operand::array(&b[..]), &spec, &Rows::new(2))?;
    /// assert_eq!(out.values.as_ref(), [2, -2]);
    /// # Ok::<(), decimal_kernels_native::KernelError>(())
    /// ```
    #[must_use]
    pub fn rescaled(self, shift: i32, rounding: RoundingMode) -> Self {
        Self { result_shift: shift, rounding, ..self }
    }

    /// `L` such that every result of operands below `2^lhs_bits` and `2^rhs_bits`
    /// is below `2^L`.
    pub(crate) fn result_bits(&self, lhs_bits: u32, rhs_bits: u32) -> u32 {
        let lhs = lhs_bits + shift_bits(self.lhs_shift);
        let rhs = rhs_bits + shift_bits(self.rhs_shift);
        lhs.max(rhs) + 1
    }

    /// Whether the operands are already at the result scale.
    pub(crate) fn aligned(&self) -> bool {
        self.lhs_shift == 0 && self.rhs_shift == 0
    }
}

/// Whether the right operand is added or subtracted: the one thing that tells
/// a subtraction from an addition.
pub(crate) trait AddOrSub: Copy + Send + Sync + 'static {
    /// `a ± b`, wrapping.
    fn combine<W: Work>(a: W, b: W) -> W;
    /// `a ± b`, and whether it left the type.
    fn overflowing<W: Work>(a: W, b: W) -> (W, bool);
}
