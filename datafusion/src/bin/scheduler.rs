//! A Ballista scheduler whose sessions know decimal-kernels' functions and
//! rewrites (see the library's `ballista` module).
//!
//! ```text
//! decimal-kernels-scheduler [--bind HOST:PORT] [--external-host HOST]
//!                           [--min-ready-executors N] [--profile NAME]
//! ```
//!
//! `--bind` defaults to 127.0.0.1:50050, `--external-host` (the host the
//! scheduler advertises) to the bound host, `--min-ready-executors` (how many
//! live executors `GET /readyz` waits for) to 1, `--profile` to `arrow`. The
//! executors must run under the same profile. The process serves until it is
//! killed.

use std::net::SocketAddr;
use std::sync::Arc;

use ballista_core::error::{BallistaError, Result};
use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::scheduler_process::start_server;
use decimal_kernels_datafusion::ballista::{Args, scheduler_config};

fn main() -> Result<()> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["bind", "external-host", "min-ready-executors", "profile"],
    )?;
    let bind: SocketAddr = args.parsed_or("bind", SocketAddr::from(([127, 0, 0, 1], 50050)))?;
    let mut config = scheduler_config(args.options()?)
        .with_hostname(
            args.get("external-host").map_or_else(|| bind.ip().to_string(), str::to_owned),
        )
        .with_port(bind.port());
    config.bind_host = bind.ip().to_string();
    config.min_ready_executors = args.parsed_or("min-ready-executors", 1)?;

    // Ballista's own binary runs on a runtime with 32 MiB thread stacks:
    // deep plans recurse on the planning threads.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(32 * 1024 * 1024)
        .build()
        .map_err(BallistaError::from)?;
    runtime.block_on(async {
        let cluster = BallistaCluster::new_from_config(&config).await?;
        start_server(cluster, bind, Arc::new(config)).await
    })
}
