//! Assertions on what a call returns: two outcomes of one call (a result
//! array or an error each) set side by side, row by row, and a failure
//! message naming the row, the operand types and widths, the inputs at that
//! row and what each side gave there. Calls of one operand ([`UnaryCall`])
//! are held to the reference the same way.

use std::fmt::Debug;

use decimal_kernels::{
    ArithmeticOptions, BinaryOp, DecimalArray, DecimalError, DecimalValues, Operand, UnaryOp,
    binary, conformance, unary,
};

/// The canonical text of an operand at `row`, as the failure errors carry it.
pub fn text_at(operand: Operand<'_>, row: usize) -> String {
    match operand {
        Operand::Array(a) => a.scalar(row).expect("the row exists").to_string(),
        Operand::Scalar(s) => s.to_string(),
    }
}

/// What a call returns.
pub type Outcome = Result<DecimalArray, DecimalError>;

/// One call `lhs op rhs` under `options`, as a failure message names it.
#[derive(Clone, Debug)]
pub struct Call<'a> {
    /// The operator.
    pub op: BinaryOp,
    /// The left operand.
    pub lhs: Operand<'a>,
    /// The right operand.
    pub rhs: Operand<'a>,
    /// The options of the call.
    pub options: ArithmeticOptions,
    /// Where the call comes from (a case name, a thread and call index).
    pub context: String,
}

impl<'a> Call<'a> {
    /// `lhs op rhs` under `options`.
    pub fn new(
        op: BinaryOp,
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'a>>,
        options: &ArithmeticOptions,
    ) -> Self {
        Self { op, lhs: lhs.into(), rhs: rhs.into(), options: *options, context: String::new() }
    }

    /// The same call, named by `context` in failure messages.
    pub fn in_context(self, context: impl Into<String>) -> Self {
        Self { context: context.into(), ..self }
    }

    /// What the crate's kernels return.
    pub fn run(&self) -> Outcome {
        binary(self.op, self.lhs, self.rhs, &self.options)
    }

    /// What the exact reference returns.
    pub fn reference(&self) -> Outcome {
        conformance::reference(self.op, self.lhs, self.rhs, &self.options)
    }

    /// The inputs at `row`, as text: `1.50 * NULL`.
    pub fn inputs(&self, row: usize) -> String {
        format!("{} {} {}", operand_text(self.lhs, row), self.op, operand_text(self.rhs, row))
    }

    /// The call's types, shapes and options.
    pub fn describe(&self) -> String {
        let context =
            if self.context.is_empty() { String::new() } else { format!("{}: ", self.context) };
        format!(
            "{context}{} {} {} under {:?}",
            describe_operand(self.lhs),
            self.op,
            describe_operand(self.rhs),
            self.options
        )
    }
}

/// What a failure message says of a call: its types, shapes and options, and
/// its inputs at a row.
pub trait Described {
    /// The call's types, shapes and options.
    fn describe(&self) -> String;
    /// The inputs at `row`, as text.
    fn inputs(&self, row: usize) -> String;
}

impl Described for Call<'_> {
    fn describe(&self) -> String {
        Call::describe(self)
    }

    fn inputs(&self, row: usize) -> String {
        Call::inputs(self, row)
    }
}

/// One call `op operand` under `options`, as a failure message names it.
#[derive(Clone, Debug)]
pub struct UnaryCall<'a> {
    /// The operator.
    pub op: UnaryOp,
    /// The operand.
    pub operand: Operand<'a>,
    /// The options of the call.
    pub options: ArithmeticOptions,
    /// Where the call comes from (a case name).
    pub context: String,
}

impl<'a> UnaryCall<'a> {
    /// `op operand` under `options`.
    pub fn new(op: UnaryOp, operand: impl Into<Operand<'a>>, options: &ArithmeticOptions) -> Self {
        Self { op, operand: operand.into(), options: *options, context: String::new() }
    }

    /// The same call, named by `context` in failure messages.
    pub fn in_context(self, context: impl Into<String>) -> Self {
        Self { context: context.into(), ..self }
    }

    /// What the crate's kernels return.
    pub fn run(&self) -> Outcome {
        unary(self.op, self.operand, &self.options)
    }

    /// What `unary` must return: the exact reference's result.
    pub fn reference(&self) -> Outcome {
        conformance::reference_unary(self.op, self.operand, &self.options)
    }
}

impl Described for UnaryCall<'_> {
    fn describe(&self) -> String {
        let context =
            if self.context.is_empty() { String::new() } else { format!("{}: ", self.context) };
        let operand = describe_operand(self.operand);
        format!("{context}{} of {operand} under {:?}", self.op, self.options)
    }

    fn inputs(&self, row: usize) -> String {
        format!("{} {}", self.op, operand_text(self.operand, row))
    }
}

/// The crate's kernels give `call` what the exact reference gives it.
#[track_caller]
pub fn assert_unary_conforms(call: &UnaryCall<'_>) {
    assert_same_outcome(call, ("kernel", &call.run()), ("reference", &call.reference()));
}

fn operand_text(operand: Operand<'_>, row: usize) -> String {
    match operand {
        Operand::Array(a) => match a.scalar(row) {
            Some(value) => value.to_string(),
            None => format!("(no row {row} of {})", a.len()),
        },
        Operand::Scalar(s) => s.to_string(),
    }
}

fn describe_operand(operand: Operand<'_>) -> String {
    match operand {
        Operand::Array(a) => format!("{}@{} array of {} rows", a.dtype(), a.width(), a.len()),
        Operand::Scalar(s) => format!("{} scalar {s}", s.dtype()),
    }
}

/// The text of a result row: its value, or `NULL`.
fn row_text(array: &DecimalArray, row: usize) -> String {
    array.scalar(row).map_or_else(|| format!("(no row {row})"), |s| s.to_string())
}

/// The rows where `got` and `want` differ in validity or, on a valid row, in
/// value (the bits under null rows do not matter). Both have `want.len()` rows.
pub fn differing_rows(got: &DecimalArray, want: &DecimalArray) -> Vec<usize> {
    fn typed<T: PartialEq>(
        got_values: &[T],
        want_values: &[T],
        got: &DecimalArray,
        want: &DecimalArray,
    ) -> Vec<usize> {
        (0..want.len())
            .filter(|&row| {
                let valid = want.is_valid(row);
                got.is_valid(row) != valid || (valid && got_values[row] != want_values[row])
            })
            .collect()
    }
    match (got.values(), want.values()) {
        (DecimalValues::I8(g), DecimalValues::I8(w)) => typed(g, w, got, want),
        (DecimalValues::I16(g), DecimalValues::I16(w)) => typed(g, w, got, want),
        (DecimalValues::I32(g), DecimalValues::I32(w)) => typed(g, w, got, want),
        (DecimalValues::I64(g), DecimalValues::I64(w)) => typed(g, w, got, want),
        (DecimalValues::I128(g), DecimalValues::I128(w)) => typed(g, w, got, want),
        (DecimalValues::I256(g), DecimalValues::I256(w)) => typed(g, w, got, want),
        _ => (0..want.len()).filter(|&row| got.scalar(row) != want.scalar(row)).collect(),
    }
}

/// The row a failure names (0 for errors that name none).
fn error_row(error: &DecimalError) -> usize {
    match error {
        DecimalError::Overflow { row, .. }
        | DecimalError::UnaryOverflow { row, .. }
        | DecimalError::DivideByZero { row, .. } => *row,
        _ => 0,
    }
}

/// `got` and `want`, two outcomes of `call`, are the same: the same error, or
/// results of the same type, storage width and length whose rows agree in
/// validity and in every valid value. The names say where each came from
/// (`"kernel"`, `"reference"`, `"arrow-arith"`).
#[track_caller]
pub fn assert_same_outcome(
    call: &impl Described,
    (got_name, got): (&str, &Outcome),
    (want_name, want): (&str, &Outcome),
) {
    let rows = match (got, want) {
        (Err(g), Err(w)) if g == w => return,
        (Ok(g), Ok(w)) => (g, w),
        (Err(g), Err(w)) => panic!(
            "{}: {got_name} fails with `{g}`, {want_name} with `{w}` (row {}: {})",
            call.describe(),
            error_row(w),
            call.inputs(error_row(w))
        ),
        (Err(g), Ok(_)) => panic!(
            "{}: {got_name} fails with `{g}` (row {}: {}), {want_name} gives a result",
            call.describe(),
            error_row(g),
            call.inputs(error_row(g))
        ),
        (Ok(_), Err(w)) => panic!(
            "{}: {want_name} fails with `{w}` (row {}: {}), {got_name} gives a result",
            call.describe(),
            error_row(w),
            call.inputs(error_row(w))
        ),
    };
    let (g, w) = rows;
    assert_eq!(
        (g.dtype(), g.width(), g.len()),
        (w.dtype(), w.width(), w.len()),
        "{}: result type, storage width and length of {got_name} and {want_name}",
        call.describe()
    );
    let differing = differing_rows(g, w);
    if let Some(&row) = differing.first() {
        panic!(
            "{}: row {row}: {}: {got_name} {}, {want_name} {} ({} of {} rows differ, first: {:?})",
            call.describe(),
            call.inputs(row),
            row_text(g, row),
            row_text(w, row),
            differing.len(),
            w.len(),
            &differing[..differing.len().min(10)]
        );
    }
}

/// `got`, an outcome of `call`, is what the exact reference returns.
#[track_caller]
pub fn assert_matches_reference(call: &Call<'_>, got: &Outcome) {
    assert_same_outcome(call, ("kernel", got), ("reference", &call.reference()));
}

/// The crate's kernels give `call` what the exact reference gives it.
#[track_caller]
pub fn assert_conforms(call: &Call<'_>) {
    assert_matches_reference(call, &call.run());
}

/// `result` failed with exactly `want`, whose message is exactly `message`.
#[track_caller]
pub fn assert_error<T: Debug>(result: Result<T, DecimalError>, want: &DecimalError, message: &str) {
    let error = match result {
        Ok(value) => panic!("expected `{want}`, got {value:?}"),
        Err(error) => error,
    };
    assert_eq!(&error, want);
    assert_eq!(error.to_string(), message);
}

/// A function with the signature of `arrow_arith::numeric::add`.
pub type ArrowFn = fn(
    &dyn arrow_array::Datum,
    &dyn arrow_array::Datum,
) -> Result<arrow_array::ArrayRef, arrow_schema::ArrowError>;

/// The crate's arrow-arith-compatible function for `op`.
#[cfg(feature = "arrow")]
pub fn arrow_kernel(op: BinaryOp) -> ArrowFn {
    match op {
        BinaryOp::Add => decimal_kernels::arrow::add,
        BinaryOp::Sub => decimal_kernels::arrow::sub,
        BinaryOp::Mul => decimal_kernels::arrow::mul,
        BinaryOp::Div => decimal_kernels::arrow::div,
        BinaryOp::Rem => decimal_kernels::arrow::rem,
        other => panic!("no Arrow function for {other}: add it here"),
    }
}

/// arrow-arith's own function for `op`.
pub fn arrow_arith(op: BinaryOp) -> ArrowFn {
    match op {
        BinaryOp::Add => arrow_arith::numeric::add,
        BinaryOp::Sub => arrow_arith::numeric::sub,
        BinaryOp::Mul => arrow_arith::numeric::mul,
        BinaryOp::Div => arrow_arith::numeric::div,
        BinaryOp::Rem => arrow_arith::numeric::rem,
        other => panic!("no arrow-arith function for {other}: add it here"),
    }
}

/// `result` failed with exactly `want` (the variant and its message).
#[track_caller]
pub fn assert_arrow_error(
    result: Result<arrow_array::ArrayRef, arrow_schema::ArrowError>,
    want: &arrow_schema::ArrowError,
) {
    match result {
        Ok(array) => panic!("expected `{want}`, got an array of {}", array.data_type()),
        Err(error) => assert_eq!(format!("{error:?}"), format!("{want:?}")),
    }
}
