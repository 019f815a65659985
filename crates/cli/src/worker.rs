//! `cannonade worker`: AI moves and game reviews off the web nodes (docs/server.md, "Engine work off the
//! web nodes").

use anyhow::{Context, Result};
use cannonade_server::worker::{WorkerConfig, WorkerStats, work};
use std::sync::Arc;

/// Arguments of `cannonade worker`.
#[derive(clap::Args)]
pub struct Args {
    /// The Redis the `serve --ai-workers`/`--review-workers` nodes share (`redis://127.0.0.1:6379`).
    #[arg(long)]
    redis: String,
    /// The store the nodes share (`postgres://USER@HOST/DB`).
    #[arg(long)]
    db: String,
    /// Searches that may run at once (and reviews in progress); by default every core.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Search every position of a review to this depth instead of each game's default
    /// (docs/analysis.md).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    review_depth: Option<u32>,
    /// The namespace of the jobs' keys on Redis (the nodes' --namespace).
    #[arg(long, default_value = cannonade_server::job_redis::DEFAULT_NAMESPACE)]
    namespace: String,
}

pub fn run(args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_max_level(tracing_subscriber::filter::LevelFilter::INFO)
        .with_target(false)
        .init();
    let threads = args
        .threads
        .map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    let config = WorkerConfig {
        redis: args.redis,
        db: args.db,
        namespace: args.namespace,
        threads,
        review_depth: args.review_depth,
    };
    let stats = Arc::new(WorkerStats::default());
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime
        .block_on(work(config, stats, async {
            let _ = tokio::signal::ctrl_c().await;
        }))
        .context("the worker failed")?;
    Ok(())
}
