//! The decimal aggregates engines publish (`tests/data/aggregates_published.txt`,
//! which names the source, commit and line of each case): every case through
//! the whole-column function, by group (its rows in group 1 of 2, group 0
//! left empty), and the exact reference.

use decimal_kernels::aggregate::{
    AggregateOp, avg, avg_groups, max, max_groups, min, min_groups, sum, sum_groups,
};
use decimal_kernels::{
    ArithmeticOptions, DecimalArray, DecimalError, DecimalScalar, DecimalType, RoundingMode,
    conformance,
};

const DATA: &str = include_str!("data/aggregates_published.txt");

/// One `A` line.
#[derive(Debug)]
struct Case {
    line: usize,
    op: AggregateOp,
    options: ArithmeticOptions,
    dtype: DecimalType,
    rows: Vec<Option<String>>,
    result: Option<String>,
}

fn parse(line: usize, text: &str) -> Result<Case, String> {
    let mut parts = text.split('|').map(str::trim);
    let (Some(head), Some(rows), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("line {line}: three parts separated by '|'"));
    };
    let words: Vec<&str> = head.split_whitespace().collect();
    let [tag, op, profile, rounding, p, s] = words[..] else {
        return Err(format!("line {line}: A op profile rounding p s"));
    };
    if tag != "A" {
        return Err(format!("line {line}: not an A line"));
    }
    let op = AggregateOp::ALL
        .into_iter()
        .find(|o| o.to_string() == op)
        .ok_or_else(|| format!("line {line}: {op} is not an aggregate"))?;
    let options = match profile {
        "fixed_point" => ArithmeticOptions::fixed_point(),
        "presto" => ArithmeticOptions::presto(),
        "spark" => ArithmeticOptions::spark(),
        other => return Err(format!("line {line}: profile {other}")),
    };
    let rounding = match rounding {
        "half_up" => RoundingMode::HalfUp,
        "half_even" => RoundingMode::HalfEven,
        "toward_zero" => RoundingMode::TowardZero,
        other => return Err(format!("line {line}: rounding {other}")),
    };
    let number = |t: &str| t.parse::<i32>().map_err(|e| format!("line {line}: {t}: {e}"));
    let (p, s) = (p.parse::<u8>(), s.parse::<i8>());
    let (Ok(p), Ok(s)) = (p, s) else {
        return Err(format!("line {line}: a precision and a scale"));
    };
    let dtype = DecimalType::try_new(p, s).map_err(|e| format!("line {line}: {e}"))?;
    let mut values = Vec::new();
    for row in rows.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        if let Some(series) = row.strip_prefix("SERIES ") {
            let [k, n] = series.split_whitespace().collect::<Vec<_>>()[..] else {
                return Err(format!("line {line}: SERIES k n"));
            };
            let (k, n) = (number(k)?.unsigned_abs(), i128::from(number(n)?));
            values.extend((0..n).map(|i| Some(i.pow(k).to_string())));
        } else {
            values.push((row != "NULL").then(|| row.to_string()));
        }
    }
    Ok(Case {
        line,
        op,
        options: options.with_rounding(rounding),
        dtype,
        rows: values,
        result: (result != "NULL").then(|| result.to_string()),
    })
}

fn whole(case: &Case, values: &DecimalArray) -> Result<DecimalScalar, DecimalError> {
    let options = &case.options;
    match case.op {
        AggregateOp::Sum => sum(values, options),
        AggregateOp::Avg => avg(values, options),
        AggregateOp::Min => min(values, options),
        AggregateOp::Max => max(values, options),
        other => panic!("line {}: no function for {other}", case.line),
    }
}

fn grouped(
    case: &Case,
    values: &DecimalArray,
    groups: &[usize],
) -> Result<DecimalArray, DecimalError> {
    let options = &case.options;
    match case.op {
        AggregateOp::Sum => sum_groups(values, groups, 2, options),
        AggregateOp::Avg => avg_groups(values, groups, 2, options),
        AggregateOp::Min => min_groups(values, groups, 2, options),
        AggregateOp::Max => max_groups(values, groups, 2, options),
        other => panic!("line {}: no function for {other}", case.line),
    }
}

/// The case through the whole-column function (its text as published, at
/// the result's scale), by group, and against the reference.
#[track_caller]
fn check(case: &Case) {
    let texts: Vec<Option<&str>> = case.rows.iter().map(Option::as_deref).collect();
    let values = DecimalArray::from_strs(case.dtype, &texts)
        .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
    let got = whole(case, &values).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
    let got_text = (!got.is_null()).then(|| got.to_string());
    assert_eq!(got_text, case.result, "line {}: {} whole", case.line, case.op);
    let groups = vec![1; values.len()];
    let by_group = grouped(case, &values, &groups).unwrap();
    assert_eq!(by_group.to_strs(), [None, case.result.clone()], "line {}: by group", case.line);
    let reference =
        conformance::reference_aggregate(case.op, &values, &groups, 2, &case.options).unwrap();
    assert_eq!(by_group, reference, "line {}: the reference", case.line);
}

#[test]
fn published_aggregate_cases() {
    let cases: Vec<Case> = DATA
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("A "))
        .map(|(i, l)| parse(i + 1, l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for op in AggregateOp::ALL {
        assert!(cases.iter().any(|c| c.op == op), "no published case of {op}");
    }
    assert_eq!(cases.len(), 33, "the published cases");
    for case in &cases {
        check(case);
    }
}
