//! `sqs-sim`: runs scenario files against the engine, benchmarks it, serves it as a local SQS
//! endpoint and loads such an endpoint. `sqs-sim --help` and `sqs-sim SUBCOMMAND --help` say how
//! (the command line is clap's, each subcommand's options a struct below).

use clap::{Args, Parser, Subcommand};
use sqs_engine::bench::{measure, Batching};
use sqs_engine::script::{run_streaming, ScriptFile};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// mimalloc rather than the system's allocator: the server's requests allocate many small
/// buffers on one thread and free some of them on another (a connection's task moving between
/// workers), where glibc's malloc spends a fifth of a request's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A deterministic model of Amazon SQS: scenarios, benchmarks and a local SQS endpoint.
#[derive(Parser)]
#[command(name = "sqs-sim", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs a scenario file: one JSON line per step (format: `sqs_engine::script`).
    ///
    /// Exit 0 when the file is valid, whatever the calls answered; a malformed file prints
    /// `step N: ...` on stderr and exits 2.
    Run {
        /// The scenario file (`-`: stdin).
        file: String,
    },
    /// Benchmarks the engine: message lifecycles per second, a simulated day, seeking.
    Bench(BenchArgs),
    /// A local SQS endpoint (AWS JSON 1.0 and query protocols) with a virtual clock and the
    /// playground's live view.
    ///
    /// Prints `listening on http://HOST:PORT` once it accepts connections. Unauthenticated: for
    /// development; see the README's security paragraph.
    Serve(ServeArgs),
    /// Concurrent SQS clients against an endpoint: the load test (every message sent is received
    /// and deleted, none seen twice within its visibility timeout), or with `--bench` the
    /// benchmark's load (requests per second and latency).
    Load(LoadArgs),
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
struct BenchArgs {
    #[command(subcommand)]
    what: Option<BenchKind>,
    /// Message lifecycles per run (median of 3 runs, one line per batching mode; the last line
    /// is `lifecycles_per_sec=N` for the batch-of-10 worker).
    #[arg(default_value = "1000000", value_parser = positive)]
    lifecycles: u64,
}

#[derive(Subcommand)]
enum BenchKind {
    /// The fast-forward benchmark: a day of 10 messages a second, 20 workers with heartbeats,
    /// 1% poison, run to its end (or to SECONDS of virtual time); prints `fast_forward_day_ms=N`,
    /// the summary counts, then `day_check=ok` or the problems found.
    Day {
        /// Virtual seconds to run (default: the whole day).
        #[arg(value_parser = positive)]
        seconds: Option<u64>,
    },
    /// Rewinding within the first hour of that day from periodic checkpoints, and once by
    /// replay from time 0 for comparison.
    Seek,
}

/// `sqs-sim serve`'s options; each can also be given by its environment variable (for a
/// container).
#[derive(Args)]
struct ServeArgs {
    /// The address to listen on. Anything but loopback exposes an unauthenticated endpoint.
    #[arg(long, env = "SQS_SIM_HOST", default_value = "127.0.0.1")]
    host: String,
    /// The port (0: any free one, printed in the `listening on` line).
    #[arg(long, env = "SQS_SIM_PORT", default_value_t = 9324)]
    port: u16,
    /// The account id in queue URLs and ARNs (12 digits).
    #[arg(long, env = "SQS_SIM_ACCOUNT_ID", default_value = "000000000000", value_parser = account_id)]
    account_id: String,
    /// The region in queue ARNs.
    #[arg(long, env = "SQS_SIM_REGION", default_value = "us-east-1")]
    region: String,
    /// Virtual seconds per wall second.
    #[arg(long, env = "SQS_SIM_SPEED", default_value_t = 1.0, value_parser = positive_f64)]
    speed: f64,
    /// The engine's seed: the same seed and the same calls give the same message ids and receipt
    /// handles (default: drawn from the clock). At most 2^53 - 1.
    #[arg(long, env = "SQS_SIM_SEED", value_parser = clap::value_parser!(u64).range(..=sqs_server::MAX_SEED))]
    seed: Option<u64>,
    /// A TOML file of queues to create before listening (see the README).
    #[arg(long, env = "SQS_SIM_CONFIG")]
    config: Option<PathBuf>,
    /// The playground's live bundle for the live view at `/` (default: `dist-live/`).
    #[arg(long, env = "SQS_SIM_UI")]
    ui: Option<PathBuf>,
    /// Another origin browsers may call from (`https://app.example:8443`), besides the server's
    /// own and local ones; `*` allows every origin. Repeatable, or comma-separated.
    #[arg(
        long = "cors-origin",
        env = "SQS_SIM_CORS_ORIGINS",
        value_delimiter = ','
    )]
    cors_origins: Vec<String>,
    /// Another `Host` name served while bound to loopback (a name in /etc/hosts). Repeatable, or
    /// comma-separated.
    #[arg(
        long = "allowed-host",
        env = "SQS_SIM_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    allowed_hosts: Vec<String>,
    /// The request log's level (error, warn, info, debug, trace); `RUST_LOG` overrides it with
    /// its own directives.
    #[arg(long, env = "SQS_SIM_LOG_LEVEL", default_value = "info")]
    log_level: String,
    /// Keep the state in this directory across restarts (created if missing): a journal of the
    /// calls, appended before each answer, and snapshots. Without it, state is in memory only.
    #[arg(long, env = "SQS_SIM_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// When the data directory's journal is synced to the disk: always (before each answer),
    /// second (once a second) or never (left to the OS). Every policy survives a killed server;
    /// they differ on power loss (see the README).
    #[arg(long, env = "SQS_SIM_FSYNC", default_value = "second")]
    fsync: sqs_server::store::Fsync,
}

#[derive(Args)]
struct LoadArgs {
    /// The SQS endpoint (`http://127.0.0.1:9324`).
    #[arg(long, env = "SQS_SIM_ENDPOINT")]
    endpoint: String,
    /// The benchmark: each client repeats SendMessage, ReceiveMessage and DeleteMessage for
    /// `--seconds`; prints `req_per_sec=`, `p50_ms=`, `p99_ms=`.
    #[arg(long)]
    bench: bool,
    /// Concurrent clients.
    #[arg(long, default_value_t = 50, value_parser = positive_usize)]
    clients: usize,
    /// The load test's messages.
    #[arg(long, default_value = "100000", value_parser = positive)]
    messages: u64,
    /// The load test's time limit, seconds.
    #[arg(long = "limit-secs", default_value_t = 600.0, value_parser = positive_f64)]
    limit_secs: f64,
    /// The benchmark's duration, seconds.
    #[arg(long, default_value_t = 10.0, value_parser = positive_f64)]
    seconds: f64,
}

/// A positive integer, with `_` or `,` between its digits if wanted (`1_000_000`).
fn positive(text: &str) -> Result<u64, String> {
    match text.replace(['_', ','], "").parse() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("a positive integer, not {text:?}")),
    }
}

fn positive_usize(text: &str) -> Result<usize, String> {
    positive(text).map(|n| n as usize)
}

fn positive_f64(text: &str) -> Result<f64, String> {
    match text.replace(['_', ','], "").parse::<f64>() {
        Ok(n) if n > 0.0 && n.is_finite() => Ok(n),
        _ => Err(format!("a number > 0, not {text:?}")),
    }
}

fn account_id(text: &str) -> Result<String, String> {
    if text.len() == 12 && text.bytes().all(|b| b.is_ascii_digit()) {
        Ok(text.into())
    } else {
        Err(format!("12 digits, not {text:?}"))
    }
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Run { file } => run(&file),
        Command::Bench(args) => match args.what {
            None => bench(args.lifecycles),
            Some(BenchKind::Day { seconds }) => {
                bench_day(seconds.map_or(sqs_sim::bench::DAY, |s| s * 1000))
            }
            Some(BenchKind::Seek) => {
                let origin = Instant::now();
                let result = sqs_sim::bench::run_seek(1, || origin.elapsed().as_secs_f64());
                println!("{result}");
                Ok(())
            }
        },
        Command::Serve(args) => serve(args),
        Command::Load(args) => load(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sqs-sim: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(path: &str) -> Result<(), String> {
    let label = if path == "-" { "stdin" } else { path };
    let mut text = String::new();
    if path == "-" {
        std::io::stdin().read_to_string(&mut text)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text))
    }
    .map_err(|e| format!("{label}: {e}"))?;
    let script = ScriptFile::parse(&text).map_err(|e| format!("{label}: {e}"))?;
    // The driver: the simulation's World (workers, producers, `sim` steps, the summary line).
    let mut driver = sqs_sim::World::new(script.seed);
    let mut out = std::io::stdout().lock();
    run_streaming(&mut driver, &script, |line| {
        // A closed stdout (`| head`) is not an error of the script.
        let _ = writeln!(out, "{line}");
    })
    .map_err(|e| format!("{label}: {e}"))
}

fn bench(n: u64) -> Result<(), String> {
    let origin = Instant::now();
    let clock = || origin.elapsed().as_secs_f64();
    let mut last = 0.0;
    for batching in [Batching::Single, Batching::Ten] {
        let result = measure(n, batching, 3, clock);
        println!("{result}");
        last = result.lifecycles_per_sec;
    }
    println!("lifecycles_per_sec={last:.0}");
    Ok(())
}

fn bench_day(until: sqs_engine::Millis) -> Result<(), String> {
    let origin = Instant::now();
    let result = sqs_sim::bench::run_day(1, until, || origin.elapsed().as_secs_f64());
    println!("{result}");
    let problems = if until == sqs_sim::bench::DAY {
        result.problems()
    } else {
        Vec::new()
    };
    if problems.is_empty() {
        println!("day_check=ok");
    } else {
        println!("day_check=failed: {}", problems.join("; "));
    }
    Ok(())
}

fn serve(args: ServeArgs) -> Result<(), String> {
    let _log = sqs_server::log::init(&args.log_level)?;
    let queues = match &args.config {
        Some(path) => sqs_server::declared::Declared::read(path)?,
        None => Default::default(),
    };
    let ui = sqs_server::ui::Ui::find(args.ui.clone());
    let playground = match (ui.dir(), &args.ui) {
        (Some(dir), _) => format!("the live view of this server (files in {})", dir.display()),
        (None, Some(dir)) => format!("not served: no index.html in {}", dir.display()),
        (None, None) => format!(
            "not served: no {}/ here (build it with ./play live, or pass --ui DIR)",
            sqs_server::ui::LIVE_BUNDLE
        ),
    };
    let config = sqs_server::Config {
        host: args.host,
        port: args.port,
        account_id: args.account_id,
        region: args.region,
        speed: args.speed,
        ui,
        seed: args.seed,
        queues,
        cors_origins: args.cors_origins,
        allowed_hosts: args.allowed_hosts,
        data_dir: args.data_dir,
        fsync: args.fsync,
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("serve: {e}"))?;
    runtime.block_on(sqs_server::serve(config, |address| {
        // Whoever started the server may stop reading after the first line: not an error here.
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{address}");
        let _ = writeln!(out, "playground: http://{address}/ {playground}");
        let _ = out.flush();
    }))
}

fn load(args: LoadArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("load: {e}"))?;
    let endpoint = &args.endpoint;
    if args.bench {
        let result = runtime.block_on(sqs_server::load::bench(
            endpoint,
            args.clients,
            args.seconds,
        ))?;
        println!("{result}");
        return Ok(());
    }
    let limit = std::time::Duration::from_secs_f64(args.limit_secs);
    let result = runtime.block_on(sqs_server::load::load(
        endpoint,
        args.clients,
        args.messages,
        limit,
    ))?;
    println!("{result}");
    let problems = result.problems(args.messages);
    if problems.is_empty() {
        println!("load_check=ok");
        Ok(())
    } else {
        Err(format!("load_check=failed: {}", problems.join("; ")))
    }
}
