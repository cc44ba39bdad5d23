//! Ballista processes that know this crate's functions and rewrites.
//!
//! A Ballista job crosses three registries: the client's session, whose
//! analyzer rewrites the decimal expressions into this crate's functions
//! before the logical plan is sent; the scheduler's session, which decodes
//! that plan by function name and plans its stages; and each executor's
//! function registry, which decodes the stages' physical plans by function
//! name. A stock scheduler or executor knows only DataFusion's functions and
//! refuses such a plan, so both processes are built here with
//! [`register_state`] applied:
//!
//! - the scheduler through [`SchedulerConfig::override_session_builder`]:
//!   every session it creates for a client is Ballista's default state plus
//!   [`register_state`] ([`scheduler_config`]);
//! - the executor through [`ExecutorProcessConfig::override_function_registry`]
//!   (read when a task's plan is decoded) and
//!   [`ExecutorProcessConfig::override_config_producer`] (the session options
//!   the tasks run under), both taken from one registered state
//!   ([`executor_config`]).
//!
//! The scheduler optimizes the plan it decodes again, analyzer included, so
//! the rewrites run a second time over their own output, which they leave
//! as it is.
//!
//! The client needs no process of its own: `SessionContext::remote(url)`
//! from the `ballista` crate, then [`register`](crate::register) on that
//! context. Registering first and passing the state to
//! `SessionContext::remote_with_state` does not work: Ballista's upgrade of
//! the state replaces its function lists with DataFusion's defaults and keeps
//! the rewrites, which then name functions the client no longer has.
//!
//! The binaries `decimal-kernels-scheduler` and `decimal-kernels-executor`
//! are thin wrappers over [`scheduler_config`] and [`executor_config`]; their
//! arguments are parsed by [`Args`].

use std::collections::HashMap;
use std::sync::Arc;

use ballista_core::registry::BallistaFunctionRegistry;
use ballista_core::utils::{default_config_producer, default_session_builder};
use ballista_executor::executor_process::ExecutorProcessConfig;
use ballista_scheduler::config::SchedulerConfig;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::SessionState;
use datafusion::prelude::SessionConfig;
use decimal_kernels::StorageWidth;

use crate::{ArithmeticOptions, register_state};

/// The profile names `--profile` takes, for [`profile`]. `arrow` (128-bit
/// storage, DataFusion's own result types) is the default.
pub const PROFILES: [&str; 5] =
    ["arrow", "spark", "spark_no_precision_loss", "presto", "fixed_point"];

/// The options of the profile `name`, one of [`PROFILES`], each the
/// [`ArithmeticOptions`] constructor of that name (`arrow` at
/// [`StorageWidth::I128`]).
///
/// # Errors
/// A name not in [`PROFILES`].
pub fn profile(name: &str) -> Result<ArithmeticOptions> {
    match name {
        "arrow" => Ok(ArithmeticOptions::arrow(StorageWidth::I128)),
        "spark" => Ok(ArithmeticOptions::spark()),
        "spark_no_precision_loss" => Ok(ArithmeticOptions::spark_no_precision_loss()),
        "presto" => Ok(ArithmeticOptions::presto()),
        "fixed_point" => Ok(ArithmeticOptions::fixed_point()),
        _ => Err(DataFusionError::Configuration(format!(
            "unknown profile {name:?}; expected one of {}",
            PROFILES.join(", ")
        ))),
    }
}

/// Ballista's default session state under `config`, with [`register_state`]
/// applied under `options`: the state a scheduler plans a client's job in.
///
/// # Errors
/// As Ballista's default session builder and [`register_state`].
pub fn session_state(config: SessionConfig, options: ArithmeticOptions) -> Result<SessionState> {
    let mut state = default_session_builder(config)?;
    register_state(&mut state, options)?;
    Ok(state)
}

/// A scheduler configuration (Ballista's defaults otherwise) whose sessions
/// are built by [`session_state`] under `options`, so that it decodes and
/// plans the client's rewritten logical plans.
#[must_use]
pub fn scheduler_config(options: ArithmeticOptions) -> SchedulerConfig {
    SchedulerConfig::default()
        .with_override_session_builder(Arc::new(move |config| session_state(config, options)))
}

/// An executor configuration (Ballista's defaults otherwise) whose function
/// registry and session options come from Ballista's default state with
/// [`register_state`] applied under `options`, so that it decodes and runs
/// the stages that call this crate's functions.
///
/// # Errors
/// As [`session_state`].
pub fn executor_config(options: ArithmeticOptions) -> Result<ExecutorProcessConfig> {
    let state = session_state(default_config_producer(), options)?;
    let config = state.config().clone();
    Ok(ExecutorProcessConfig {
        override_function_registry: Some(Arc::new(BallistaFunctionRegistry::from(&state))),
        override_config_producer: Some(Arc::new(move || config.clone())),
        ..ExecutorProcessConfig::default()
    })
}

/// Command-line arguments of the form `--name value`, for the binaries.
#[derive(Debug, Default)]
pub struct Args {
    values: HashMap<String, String>,
}

impl Args {
    /// Reads `args` (without the program name): each `--name` followed by
    /// its value. `allowed` lists the names the program takes.
    ///
    /// # Errors
    /// A name not in `allowed`, a name given twice, a name without a value,
    /// or a value without a name.
    pub fn parse(args: impl IntoIterator<Item = String>, allowed: &[&str]) -> Result<Self> {
        let mut values = HashMap::new();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let name =
                arg.strip_prefix("--").filter(|name| allowed.contains(name)).ok_or_else(|| {
                    DataFusionError::Configuration(format!(
                        "unexpected argument {arg:?}; expected --NAME VALUE with NAME one of {}",
                        allowed.join(", ")
                    ))
                })?;
            let value = args
                .next()
                .ok_or_else(|| DataFusionError::Configuration(format!("--{name} needs a value")))?;
            if values.insert(name.to_owned(), value).is_some() {
                return Err(DataFusionError::Configuration(format!("--{name} given twice")));
            }
        }
        Ok(Self { values })
    }

    /// The value of `--name`, if given.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of `--name` parsed as a `T`, or `default` if not given.
    ///
    /// # Errors
    /// A value that does not parse as a `T`.
    pub fn parsed_or<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T>
    where
        T::Err: std::fmt::Display,
    {
        self.get(name).map_or(Ok(default), |value| {
            value
                .parse()
                .map_err(|e| DataFusionError::Configuration(format!("--{name} {value:?}: {e}")))
        })
    }

    /// The options of `--profile` (see [`profile`]), `arrow` if not given.
    ///
    /// # Errors
    /// As [`profile`].
    pub fn options(&self) -> Result<ArithmeticOptions> {
        profile(self.get("profile").unwrap_or("arrow"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn parses_names_and_values() {
        let parsed =
            Args::parse(args(&["--port", "7", "--profile", "spark"]), &["port", "profile"])
                .unwrap();
        assert_eq!(parsed.parsed_or("port", 1_u16).unwrap(), 7);
        assert_eq!(parsed.parsed_or("other", 1_u16).unwrap(), 1);
        assert_eq!(parsed.options().unwrap(), ArithmeticOptions::spark());
    }

    #[test]
    fn refuses_malformed_arguments() {
        for bad in [&["--port"][..], &["7"], &["--host", "x"], &["--port", "1", "--port", "2"]] {
            assert!(Args::parse(args(bad), &["port"]).is_err(), "{bad:?}");
        }
        let parsed = Args::parse(args(&["--port", "x"]), &["port"]).unwrap();
        assert!(parsed.parsed_or("port", 1_u16).is_err());
    }

    #[test]
    fn every_profile_by_name() {
        let all: Vec<ArithmeticOptions> =
            PROFILES.iter().map(|name| profile(name).unwrap()).collect();
        for (i, options) in all.iter().enumerate() {
            assert!(!all[..i].contains(options), "{} repeats a profile", PROFILES[i]);
        }
        assert_eq!(profile("presto").unwrap(), ArithmeticOptions::presto());
        assert_eq!(
            Args::default().options().unwrap(),
            ArithmeticOptions::arrow(StorageWidth::I128)
        );
        assert!(profile("postgres").is_err());
    }
}
