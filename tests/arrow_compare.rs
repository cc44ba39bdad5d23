//! `decimal_kernels::arrow::{eq, neq, lt, lt_eq, gt, gt_eq}` against
//! `arrow_ord::cmp` on the selected arrow major: wherever arrow-ord accepts
//! the call (two decimals of one type), the same result (rows, values,
//! nulls), over every Arrow width, random types and values (native extremes
//! beyond the precision included, as Arrow arrays may hold them), nulls,
//! sliced arrays, and scalars on either side, null scalars included. Where
//! arrow-ord refuses two decimals of different types, the answers are the
//! exact reference's; where a side is not a decimal, the call is
//! arrow-ord's, errors included.

#![cfg(feature = "arrow")]

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use arrow_array::{Array, ArrayRef, BooleanArray, Datum, Int32Array, Scalar};
use arrow_schema::ArrowError;
use decimal_kernels::{CompareOp, DecimalArray, DecimalType, Operand, StorageWidth, conformance};
use support::types::{ARROW_WIDTHS, dec};
use support::values::{Kind, Mix, Rng};

/// A comparison with `arrow_ord::cmp::eq`'s signature.
type CompareFn = fn(&dyn Datum, &dyn Datum) -> Result<BooleanArray, ArrowError>;

/// Ours and arrow-ord's function for `op`.
fn functions(op: CompareOp) -> (CompareFn, CompareFn) {
    use decimal_kernels::arrow;
    match op {
        CompareOp::Eq => (arrow::eq, arrow_ord::cmp::eq),
        CompareOp::NotEq => (arrow::neq, arrow_ord::cmp::neq),
        CompareOp::Lt => (arrow::lt, arrow_ord::cmp::lt),
        CompareOp::LtEq => (arrow::lt_eq, arrow_ord::cmp::lt_eq),
        CompareOp::Gt => (arrow::gt, arrow_ord::cmp::gt),
        CompareOp::GtEq => (arrow::gt_eq, arrow_ord::cmp::gt_eq),
    }
}

/// Each row as an `Option`.
fn rows(array: &BooleanArray) -> Vec<Option<bool>> {
    array.iter().collect()
}

/// A random type whose precision `width` holds.
fn random_type(rng: &mut Rng, width: StorageWidth) -> DecimalType {
    let p = u8::try_from(rng.range(1, width.max_precision().into())).expect("a precision");
    let s = rng.range(-4, i64::from(p.min(12)));
    dec(p, i8::try_from(s).expect("a scale"))
}

const MIX: Mix<'static> = Mix {
    kinds: &[
        (Kind::Zero, 2),
        (Kind::Unit, 1),
        (Kind::One, 1),
        (Kind::Money, 3),
        (Kind::Digits, 3),
        (Kind::Max, 1),
        (Kind::NativeExtreme, 1),
    ],
    null_percent: 15,
};

/// A random Arrow array of `dtype` at `width` (values beyond the precision
/// included), sometimes sliced.
fn random_array(rng: &mut Rng, dtype: DecimalType, width: StorageWidth, len: usize) -> ArrayRef {
    let stored = rng.rows(dtype, width, len + 3, &MIX);
    let array = stored.unchecked(dtype, width).to_arrow();
    let offset = rng.below(4);
    array.slice(offset, len.min(array.len() - offset))
}

/// The same random values on both sides half the time (so that `=` holds).
fn pair(
    rng: &mut Rng,
    width: StorageWidth,
    t1: DecimalType,
    t2: DecimalType,
) -> (ArrayRef, ArrayRef) {
    let len = rng.range(0, 150) as usize;
    let lhs = random_array(rng, t1, width, len);
    let rhs = if t1 == t2 && rng.percent(30) {
        lhs.clone()
    } else {
        random_array(rng, t2, width, lhs.len())
    };
    (lhs, rhs)
}

/// A one-row scalar from row `row` of `array` (null where it is null).
fn scalar_of(array: &ArrayRef, row: usize) -> Scalar<ArrayRef> {
    Scalar::new(array.slice(row, 1))
}

#[test]
fn same_types_equal_arrow_ord() {
    let mut rng = Rng::new(0xA770);
    let mut compared = 0;
    for width in ARROW_WIDTHS {
        for case in 0..150 {
            let t = random_type(&mut rng, width);
            let (lhs, rhs) = pair(&mut rng, width, t, t);
            for op in CompareOp::ALL {
                let (ours, theirs) = functions(op);
                let context =
                    format!("case {case}: {:?} {op}, {} rows", lhs.data_type(), lhs.len());
                let mut check = |l: &dyn Datum, r: &dyn Datum, shape: &str| {
                    let want = theirs(l, r).expect("arrow-ord accepts one type");
                    let got = ours(l, r).unwrap_or_else(|e| panic!("{context} {shape}: {e}"));
                    assert_eq!(rows(&got), rows(&want), "{context} {shape}");
                    assert_eq!(got.null_count(), want.null_count(), "{context} {shape}: nulls");
                    assert_eq!(
                        got.nulls().is_some(),
                        want.nulls().is_some(),
                        "{context} {shape}: validity"
                    );
                    compared += got.len();
                };
                check(&lhs, &rhs, "arrays");
                if !lhs.is_empty() {
                    let row = rng.below(lhs.len());
                    check(&scalar_of(&lhs, row), &rhs, "scalar lhs");
                    check(&lhs, &scalar_of(&rhs, row), "scalar rhs");
                    check(&scalar_of(&lhs, row), &scalar_of(&rhs, row), "scalars");
                }
            }
        }
    }
    assert!(compared > 50_000, "{compared} rows compared");
}

/// Two decimals of different types: arrow-ord refuses them, the answers
/// here are the exact reference's.
#[test]
fn different_types_are_compared_by_value() {
    let mut rng = Rng::new(0xD1FF);
    for case in 0..300 {
        let (w1, w2) = (rng.pick(&ARROW_WIDTHS), rng.pick(&ARROW_WIDTHS));
        let (t1, t2) = (random_type(&mut rng, w1), random_type(&mut rng, w2));
        let len = rng.range(0, 100) as usize;
        let lhs = random_array(&mut rng, t1, w1, len);
        let rhs = random_array(&mut rng, t2, w2, lhs.len());
        let op = rng.pick(&CompareOp::ALL);
        let (ours, theirs) = functions(op);
        let context = format!("case {case}: {:?} {op} {:?}", lhs.data_type(), rhs.data_type());
        if lhs.data_type() != rhs.data_type() {
            let refused = theirs(&lhs, &rhs).expect_err("arrow-ord refuses two types");
            assert!(matches!(refused, ArrowError::InvalidArgumentError(_)), "{context}: {refused}");
        }
        let got = ours(&lhs, &rhs).unwrap_or_else(|e| panic!("{context}: {e}"));
        let (l, r) =
            (DecimalArray::from_arrow(&lhs).unwrap(), DecimalArray::from_arrow(&rhs).unwrap());
        let want =
            conformance::reference_compare(op, Operand::Array(&l), Operand::Array(&r)).unwrap();
        let want: Vec<Option<bool>> = (0..lhs.len()).map(|row| want.get(row)).collect();
        assert_eq!(rows(&got), want, "{context}");
    }
}

/// A side that is not a decimal: arrow-ord's answer or error, unchanged.
#[test]
fn other_types_are_arrow_ords() {
    let ints = Int32Array::from(vec![Some(1), None, Some(3)]);
    let other = Int32Array::from(vec![Some(2), Some(2), Some(2)]);
    let decimals = support::types::decimal128(&[Some(100), None, Some(300)], 5, 2);
    for op in CompareOp::ALL {
        let (ours, theirs) = functions(op);
        assert_eq!(ours(&ints, &other).unwrap(), theirs(&ints, &other).unwrap(), "{op}");
        for (l, r) in [(&decimals as &dyn Datum, &ints as &dyn Datum), (&ints, &decimals)] {
            let (got, want) = (ours(l, r).unwrap_err(), theirs(l, r).unwrap_err());
            assert_eq!(got.to_string(), want.to_string(), "{op}");
        }
    }
}

#[test]
fn arrays_of_different_lengths_fail_as_arrow_ord() {
    let a = support::types::decimal128(&[Some(1), Some(2)], 5, 2);
    let b = support::types::decimal128(&[Some(1)], 5, 2);
    let c = support::types::decimal128(&[Some(1)], 9, 4);
    for op in CompareOp::ALL {
        let (ours, theirs) = functions(op);
        let want = theirs(&a, &b).unwrap_err().to_string();
        assert_eq!(ours(&a, &b).unwrap_err().to_string(), want, "{op}");
        // The same error for two types, which arrow-ord refuses first by length.
        assert_eq!(ours(&a, &c).unwrap_err().to_string(), theirs(&a, &c).unwrap_err().to_string());
    }
}
