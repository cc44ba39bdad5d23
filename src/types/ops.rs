//! The operators: of two operands ([`BinaryOp`]), of one ([`UnaryOp`]), the
//! aggregates ([`AggregateOp`]) and the comparisons ([`CompareOp`]). Their result types are the rules'
//! (`crate::rules`), their kernels the compute layer's.

use core::fmt;

use crate::types::decimal_type::DecimalType;
use crate::types::round::RoundFunction;

/// The five arithmetic operators of two operands.
///
/// More may be added, so a `match` on one needs a catch-all arm.
///
/// ```
/// use decimal_kernels::{binary, ArithmeticOptions, BinaryOp, DecimalArray, DecimalType};
/// let t = DecimalType::try_new(5, 1)?;
/// let a = DecimalArray::from_strs(t, &[Some("7.5")])?;
/// let b = DecimalArray::from_strs(t, &[Some("2.5")])?;
/// let opts = ArithmeticOptions::default();
/// // FixedPoint keeps scale 1 and rounds toward zero: 7.5 * 2.5 = 18.75 -> 18.7.
/// for (op, want) in BinaryOp::ALL.into_iter().zip(["10.0", "5.0", "18.7", "3.0", "0.0"]) {
///     assert_eq!(binary(op, &a, &b, &opts)?.to_strs(), [Some(want.to_string())], "7.5 {op} 2.5");
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`: the remainder with the sign of the dividend, exact.
    Rem,
}

impl BinaryOp {
    /// Every operator.
    pub const ALL: [Self; 5] = [Self::Add, Self::Sub, Self::Mul, Self::Div, Self::Rem];
}

impl fmt::Display for BinaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
            Self::Rem => "%",
        })
    }
}

/// An operator of one operand.
///
/// ```
/// use decimal_kernels::{unary, ArithmeticOptions, DecimalArray, DecimalType, RoundingMode, UnaryOp};
/// let a = DecimalArray::from_strs(DecimalType::try_new(6, 3)?, &[Some("-1.255")])?;
/// let to = DecimalType::try_new(5, 2)?;
/// let opts = ArithmeticOptions::default().with_rounding(RoundingMode::HalfUp);
/// for (op, want) in [(UnaryOp::Rescale { to }, "-1.26"), (UnaryOp::Neg, "1.255"), (UnaryOp::Abs, "1.255")] {
///     assert_eq!(unary(op, &a, &opts)?.to_strs(), [Some(want.to_string())], "{op}");
/// }
/// # Ok::<(), decimal_kernels::DecimalError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnaryOp {
    /// The value at type `to` (SQL `CAST(x AS DECIMAL(p, s))`): rounded once
    /// with the options' mode when `to` has a smaller scale, an overflow when
    /// it exceeds `to`'s precision.
    Rescale {
        /// The result type.
        to: DecimalType,
    },
    /// `-x`, at the operand's type.
    Neg,
    /// `|x|`, at the operand's type.
    Abs,
    /// `round(x, digits)`, `floor`, `ceil` or `trunc` to `digits` fraction
    /// digits (`digits < 0`: to a multiple of `10^-digits`), at the
    /// profile's type ([`result_type_under`](Self::result_type_under)); any
    /// `digits` is valid.
    Round {
        /// How the dropped digits round.
        function: RoundFunction,
        /// The fraction digits kept.
        digits: i32,
    },
}

impl fmt::Display for UnaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Rescale { .. } => f.write_str("rescale"),
            Self::Neg => f.write_str("neg"),
            Self::Abs => f.write_str("abs"),
            Self::Round { function, digits } => write!(f, "{function} to {digits} digits"),
        }
    }
}

/// An aggregate function.
///
/// ```
/// use decimal_kernels::aggregate::AggregateOp;
/// assert_eq!(AggregateOp::ALL.map(|op| op.to_string()), ["sum", "avg", "min", "max"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AggregateOp {
    /// The sum of the valid rows.
    Sum,
    /// Their mean: the sum divided by the count, rounded once.
    Avg,
    /// The least of them.
    Min,
    /// The greatest of them.
    Max,
}

impl AggregateOp {
    /// Every aggregate.
    pub const ALL: [Self; 4] = [Self::Sum, Self::Avg, Self::Min, Self::Max];
}

impl fmt::Display for AggregateOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Sum => "sum",
            Self::Avg => "avg",
            Self::Min => "min",
            Self::Max => "max",
        })
    }
}

/// The six comparisons of two decimals, by value: `1.00 = 1.0` whatever the
/// operands' types.
///
/// ```
/// use core::cmp::Ordering;
/// use decimal_kernels::CompareOp;
/// assert_eq!(CompareOp::ALL.map(|op| op.to_string()), ["=", "<>", "<", "<=", ">", ">="]);
/// assert!(CompareOp::LtEq.holds(Ordering::Equal) && !CompareOp::Lt.holds(Ordering::Equal));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    /// `=`
    Eq,
    /// `<>`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtEq,
    /// `>`
    Gt,
    /// `>=`
    GtEq,
}

impl CompareOp {
    /// Every comparison.
    pub const ALL: [Self; 6] = [Self::Eq, Self::NotEq, Self::Lt, Self::LtEq, Self::Gt, Self::GtEq];

    /// Whether `lhs op rhs` is true when `lhs` is `order` to `rhs`.
    #[must_use]
    pub fn holds(self, order: core::cmp::Ordering) -> bool {
        match self {
            Self::Eq => order.is_eq(),
            Self::NotEq => order.is_ne(),
            Self::Lt => order.is_lt(),
            Self::LtEq => order.is_le(),
            Self::Gt => order.is_gt(),
            Self::GtEq => order.is_ge(),
        }
    }
}

impl fmt::Display for CompareOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Eq => "=",
            Self::NotEq => "<>",
            Self::Lt => "<",
            Self::LtEq => "<=",
            Self::Gt => ">",
            Self::GtEq => ">=",
        })
    }
}
