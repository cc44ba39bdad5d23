//! `min` and `max` of decimal columns, whole and by group, held to the exact
//! reference (`conformance::reference_aggregate`) on every storage width,
//! negative scales, precision 76, nulls, empty columns and groups without a
//! valid row; partial states of random splits, through Arrow arrays, merged
//! to the one-pass result; and named edge cases.

include!("support/arrow_crates.rs");

#[expect(dead_code, reason = "each test file uses a part of the shared support")]
mod support;

use decimal_kernels::aggregate::{Accumulator, AggregateOp, AggregateState};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, OverflowPolicy,
    StorageWidth, conformance,
};
use rstest::rstest;

use support::aggregates::{aggregate, aggregate_groups};
use support::types::{column_from_strs, dec, unchecked_column, widths_holding};
use support::values::{Kind, Mix, Rng, native_range};

/// Every kind of value, beyond-the-precision ones aside.
const KINDS: [(Kind, u32); 8] = [
    (Kind::Zero, 1),
    (Kind::Unit, 1),
    (Kind::Money, 4),
    (Kind::Short, 2),
    (Kind::Digits, 4),
    (Kind::WideProduct, 2),
    (Kind::NearBound, 2),
    (Kind::Max, 1),
];

/// The extreme aggregates.
const EXTREMES: [AggregateOp; 2] = [AggregateOp::Min, AggregateOp::Max];

/// `op` of `values` by group through the public function, checked against
/// the reference; the result.
#[track_caller]
fn grouped(
    op: AggregateOp,
    values: &DecimalArray,
    groups: &[usize],
    total: usize,
    options: &ArithmeticOptions,
) -> Result<DecimalArray, DecimalError> {
    assert!(EXTREMES.contains(&op), "not an extreme: {op}");
    let got = aggregate_groups(op, values, groups, total, options);
    let want = conformance::reference_aggregate(op, values, groups, total, options);
    assert_eq!(got, want, "{op} of {} by {total} groups under {options:?}", values.dtype());
    got
}

/// `op` over the whole column, checked against the reference (one group).
#[track_caller]
fn whole(
    op: AggregateOp,
    values: &DecimalArray,
    options: &ArithmeticOptions,
) -> Result<DecimalScalar, DecimalError> {
    assert!(EXTREMES.contains(&op), "not an extreme: {op}");
    let got = aggregate(op, values, options);
    let zeros = vec![0; values.len()];
    let want = conformance::reference_aggregate(op, values, &zeros, 1, options)
        .map(|a| a.scalar(0).unwrap_or_else(|| DecimalScalar::null(a.dtype())));
    assert_eq!(got, want, "{op} of {} under {options:?}", values.dtype());
    got
}

/// Random columns of every type and width, sparse and dense nulls, few and
/// many groups (more than rows, so that some have no row), whole and
/// grouped, equal the reference; the result type is the input's.
#[rstest]
#[case::i8_storage(dec(2, 0))]
#[case::i16_storage_negative_scale(dec(4, -2))]
#[case::i32_storage(dec(9, 4))]
#[case::i64_storage(dec(18, 2))]
#[case::i64_storage_negative_scale(dec(15, -7))]
#[case::i128_storage(dec(38, 10))]
#[case::i128_storage_negative_scale(dec(30, -30))]
#[case::precision_76(dec(76, 0))]
#[case::precision_76_scale_76(dec(76, 76))]
#[case::precision_76_negative_scale(dec(76, -76))]
fn random_columns_equal_the_reference(#[case] dtype: DecimalType) {
    let mut rng =
        Rng::new(u64::from(dtype.precision()) * 1000 + dtype.scale().unsigned_abs() as u64);
    let options = ArithmeticOptions::default();
    for width in widths_holding(dtype) {
        for (rows, null_percent) in [(0, 0), (1, 0), (70, 0), (1500, 10), (700, 90), (65, 100)] {
            let mix = Mix { kinds: &KINDS, null_percent };
            let column = rng.rows(dtype, width, rows, &mix).checked(dtype, width);
            for total in [1, 7, 2000] {
                let groups: Vec<usize> = (0..rows).map(|_| rng.below(total)).collect();
                for op in EXTREMES {
                    let got = grouped(op, &column, &groups, total, &options).unwrap();
                    assert_eq!(got.dtype(), dtype);
                    assert_eq!(got.len(), total);
                }
            }
            for op in EXTREMES {
                assert_eq!(whole(op, &column, &options).unwrap().dtype(), dtype);
            }
        }
    }
}

/// The result type is the input's in every profile that takes the input
/// (Spark, Trino, DataFusion: `min`/`max` of `decimal(p,s)` is
/// `decimal(p,s)`), and the profiles refuse the inputs they refuse for `sum`.
#[rstest]
#[case::fixed_point(ArithmeticOptions::default(), dec(76, -3), true)]
#[case::arrow_128(ArithmeticOptions::arrow(StorageWidth::I128), dec(38, 10), true)]
#[case::arrow_128_too_wide(ArithmeticOptions::arrow(StorageWidth::I128), dec(39, 10), false)]
#[case::arrow_32(ArithmeticOptions::arrow(StorageWidth::I32), dec(9, 2), true)]
#[case::spark(ArithmeticOptions::spark(), dec(38, 38), true)]
#[case::spark_above_38(ArithmeticOptions::spark(), dec(39, 2), false)]
#[case::presto(ArithmeticOptions::presto(), dec(17, 3), true)]
#[case::presto_negative_scale(ArithmeticOptions::presto(), dec(10, -1), false)]
fn result_type_is_the_input_type(
    #[case] options: ArithmeticOptions,
    #[case] input: DecimalType,
    #[case] accepted: bool,
) {
    for op in EXTREMES {
        let typed = op.result_type(input, &options);
        let summed = AggregateOp::Sum.result_type(input, &options);
        if accepted {
            assert_eq!(typed.unwrap(), input, "{op} of {input} under {options:?}");
        } else {
            assert!(matches!(typed, Err(DecimalError::UnsupportedAggregate { .. })), "{typed:?}");
            assert!(summed.is_err(), "sum refuses {input} too");
        }
    }
}

/// Accumulators over random partitions, each fed its rows in runs of
/// consecutive rows as batches, their states through Arrow arrays merged in
/// reverse partition order (each state's groups kept as they are), equal
/// one pass.
#[rstest]
#[case::i64_money(dec(18, 2), StorageWidth::I64, 0)]
#[case::i128_with_nulls(dec(38, 6), StorageWidth::I128, 20)]
#[case::i256_negative_scale(dec(70, -4), StorageWidth::I256, 50)]
#[case::i256_storing_narrow_values(dec(9, 2), StorageWidth::I256, 5)]
fn merged_partial_states_equal_one_pass(
    #[case] dtype: DecimalType,
    #[case] width: StorageWidth,
    #[case] null_percent: u32,
) {
    let mut rng = Rng::new(7 + u64::from(null_percent));
    let options = ArithmeticOptions::default();
    let rows = 1200;
    let mix = Mix { kinds: &KINDS, null_percent };
    let column = rng.rows(dtype, width, rows, &mix).checked(dtype, width);
    let total = 40;
    let groups: Vec<usize> = (0..rows).map(|_| rng.below(total)).collect();
    for op in EXTREMES {
        let one_pass = grouped(op, &column, &groups, total, &options).unwrap();
        for trial in 0..8 {
            let partitions = 1 + rng.below(4);
            let part_of: Vec<usize> = (0..rows).map(|_| rng.below(partitions)).collect();
            let mut states = Vec::new();
            for p in 0..partitions {
                let mut acc = Accumulator::new(op, dtype, &options).unwrap();
                let rows_of: Vec<usize> = (0..rows).filter(|&r| part_of[r] == p).collect();
                // Runs of consecutive rows of this partition, as batches.
                for run in rows_of.chunk_by(|a, b| b == &(a + 1)) {
                    let batch = column.slice(run[0], run.len()).unwrap();
                    let batch_groups = &groups[run[0]..run[0] + run.len()];
                    acc.update(&batch, batch_groups, None, total).unwrap();
                }
                let arrays = acc.state(None).to_arrow();
                assert_eq!(arrays.len(), AggregateState::fields_of(op, dtype).len());
                states.push(AggregateState::from_arrow(dtype, &arrays).unwrap());
            }
            let mut merged = Accumulator::new(op, dtype, &options).unwrap();
            for p in (0..partitions).rev() {
                let state = &states[p];
                merged.merge(state, &(0..state.len()).collect::<Vec<_>>(), total).unwrap();
            }
            assert_eq!(merged.finish(None).unwrap(), one_pass, "{op}, trial {trial}");
        }
    }
}

/// `(op, column of decimal(p, s), result)`: named cases.
#[rstest]
#[case::min_of_one(AggregateOp::Min, dec(5, 2), &[Some("1.25")], Some("1.25"))]
#[case::min_negative_beats_positive(AggregateOp::Min, dec(5, 2), &[Some("0.01"), Some("-0.01")], Some("-0.01"))]
#[case::max_skips_nulls(AggregateOp::Max, dec(5, 2), &[None, Some("-3.00"), None], Some("-3.00"))]
#[case::min_all_null(AggregateOp::Min, dec(5, 2), &[None, None], None)]
#[case::max_empty(AggregateOp::Max, dec(5, 2), &[], None)]
#[case::max_zero_and_negatives(AggregateOp::Max, dec(3, 1), &[Some("-0.1"), Some("0.0"), Some("-99.9")], Some("0.0"))]
#[case::min_negative_scale(AggregateOp::Min, dec(3, -2), &[Some("12300"), Some("-100"), Some("99900")], Some("-100"))]
#[case::max_precision_76_bounds(AggregateOp::Max, dec(76, 0), &[Some(&*format!("-{}", "9".repeat(76))), Some(&*"9".repeat(76))], Some(&*"9".repeat(76)))]
#[case::min_precision_76_bounds(AggregateOp::Min, dec(76, 0), &[Some(&*"9".repeat(76)), Some(&*format!("-{}", "9".repeat(76)))], Some(&*format!("-{}", "9".repeat(76))))]
#[case::max_of_equal_values(AggregateOp::Max, dec(4, 3), &[Some("1.000"), Some("1.000")], Some("1.000"))]
fn named_cases(
    #[case] op: AggregateOp,
    #[case] dtype: DecimalType,
    #[case] texts: &[Option<&str>],
    #[case] want: Option<&str>,
) {
    let column = column_from_strs(dtype, texts);
    let options = ArithmeticOptions::default();
    for width in widths_holding(dtype) {
        let column = column.with_width(width).unwrap();
        let got = whole(op, &column, &options).unwrap();
        assert_eq!((!got.is_null()).then(|| got.to_string()).as_deref(), want, "{op} at {width}");
        let by_group = grouped(op, &column, &vec![1; column.len()], 2, &options).unwrap();
        assert_eq!(by_group.to_strs()[1].as_deref(), want, "{op} by group at {width}");
        assert_eq!(by_group.to_strs()[0], None, "group 0 has no row");
    }
}

/// An unchecked column's value beyond its precision, the extreme, is an
/// overflow under `Error` (naming the group and the value) and null under
/// `Null`; the storage's own extremes included.
#[rstest]
#[case::i64_min(StorageWidth::I64, AggregateOp::Min)]
#[case::i128_max(StorageWidth::I128, AggregateOp::Max)]
#[case::i256_min(StorageWidth::I256, AggregateOp::Min)]
#[case::i256_max(StorageWidth::I256, AggregateOp::Max)]
fn an_extreme_beyond_the_precision_fails(#[case] width: StorageWidth, #[case] op: AggregateOp) {
    let dtype = dec(3, 1);
    let (least, greatest) = native_range(width);
    let beyond = if op == AggregateOp::Min { least } else { greatest };
    let values = [beyond, arrow_buffer::i256::from_i128(5)];
    let column = unchecked_column(dtype, &values, &[true, true], width);
    let error = grouped(op, &column, &[1, 0], 2, &ArithmeticOptions::default()).unwrap_err();
    assert!(
        matches!(&error, DecimalError::AggregateOverflow { group: 1, op: o, .. } if *o == op),
        "{error:?}"
    );
    let nulling = ArithmeticOptions::default().with_on_overflow(OverflowPolicy::Null);
    let nulled = grouped(op, &column, &[1, 0], 2, &nulling).unwrap();
    assert_eq!(nulled.to_strs(), [Some("0.5".into()), None]);
    whole(op, &column, &nulling).unwrap();
}

/// A state of sums is not merged into an extreme, nor extremes into a sum.
#[test]
fn states_of_another_kind_are_refused() {
    let t = dec(10, 2);
    let options = ArithmeticOptions::default();
    let values = column_from_strs(t, &[Some("1.00")]);
    for (from, into) in [(AggregateOp::Sum, AggregateOp::Min), (AggregateOp::Max, AggregateOp::Avg)]
    {
        let mut part = Accumulator::new(from, t, &options).unwrap();
        part.update(&values, &[0], None, 1).unwrap();
        let state = part.state(None);
        let mut total = Accumulator::new(into, t, &options).unwrap();
        let got = total.merge(&state, &[0], 1);
        assert!(
            matches!(got, Err(DecimalError::InvalidState { .. })),
            "{from} into {into}: {got:?}"
        );
    }
}
