//! A Ballista executor whose function registry knows decimal-kernels'
//! functions (see the library's `ballista` module).
//!
//! ```text
//! decimal-kernels-executor --port PORT [--grpc-port PORT] [--bind HOST]
//!                          [--scheduler HOST:PORT] [--vcores N]
//!                          [--work-dir DIR] [--profile NAME]
//! ```
//!
//! `--port` is the Arrow Flight port other executors and clients fetch
//! shuffle output from (default 50051); `--grpc-port` the port of the
//! push-based task service (default 50052, unused under the default
//! pull-based scheduling); `--bind` the host both bind to and advertise
//! (default 127.0.0.1); `--scheduler` defaults to 127.0.0.1:50050, `--vcores`
//! to the available parallelism, `--work-dir` (shuffle files) to a fresh
//! temporary directory, `--profile` to `arrow` and must match the
//! scheduler's. The process serves until it receives SIGTERM or Ctrl-C, or is
//! killed.

use std::sync::Arc;

use ballista_core::error::{BallistaError, Result};
use ballista_executor::executor_process::start_executor_process;
use decimal_kernels_datafusion::ballista::{Args, executor_config};

fn main() -> Result<()> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["port", "grpc-port", "bind", "scheduler", "vcores", "work-dir", "profile"],
    )?;
    let mut config = executor_config(args.options()?)?;
    config.port = args.parsed_or("port", 50051)?;
    config.grpc_port = args.parsed_or("grpc-port", 50052)?;
    let bind = args.get("bind").unwrap_or("127.0.0.1");
    config.bind_host = bind.to_owned();
    config.external_host = Some(bind.to_owned());
    let scheduler = args.get("scheduler").unwrap_or("127.0.0.1:50050");
    let (host, port) = scheduler.rsplit_once(':').ok_or_else(|| {
        BallistaError::Configuration(format!("--scheduler {scheduler:?}: expected HOST:PORT"))
    })?;
    config.scheduler_host = host.to_owned();
    config.scheduler_port = port
        .parse()
        .map_err(|e| BallistaError::Configuration(format!("--scheduler {scheduler:?}: {e}")))?;
    config.vcores = args.parsed_or("vcores", 0)?;
    config.work_dir = args.get("work-dir").map(str::to_owned);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(BallistaError::from)?;
    runtime.block_on(start_executor_process(Arc::new(config)))
}
