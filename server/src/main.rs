//! `sqs-sim`: runs scenario files against the engine and prints the results.
//!
//! * `sqs-sim run FILE.json` (`-` reads stdin): one JSON line per step (format:
//!   `sqs_engine::script`). Exit 0 when the file is valid, whatever the calls answered; a malformed
//!   file prints `step N: ...` on stderr and exits 2.
//! * `sqs-sim bench [N]` (default 1,000,000): N message lifecycles per run, median of 3 runs, one
//!   figure line per batching mode; the last line is `lifecycles_per_sec=N` for the batch-of-10
//!   worker (`sqs_engine::bench`).
//! * `sqs-sim bench day [SECONDS]`: the fast-forward benchmark (`sqs_sim::bench`): the issue's
//!   day (10 messages a second, 20 workers with heartbeats, 1% poison) run to its end (or to
//!   SECONDS of virtual time); prints `fast_forward_day_ms=N` and the summary counts, then
//!   `day_check=ok` or the problems found.
//! * `sqs-sim bench seek`: rewinding within the first hour of that day from periodic checkpoints
//!   (`sqs_sim::checkpoints`), and once by replay from time 0 for comparison.
//! * `sqs-sim serve [--host 127.0.0.1] [--port 9324] [--account-id 000000000000]
//!   [--region us-east-1] [--speed 1] [--ui DIR] [--data-dir DIR] [--fsync always|second|never]`:
//!   a local SQS endpoint (AWS JSON 1.0 and query protocols) with a virtual clock, driven
//!   through `/_sqs-sim/` (`sqs_server`), and the playground's live view at `/` (the bundle in
//!   DIR, by default `dist/`). With `--data-dir` (or `SQS_SIM_DATA_DIR`) its state survives a
//!   restart (`sqs_server::store`; `--fsync`: when the journal is synced). Prints
//!   `listening on http://HOST:PORT` once it accepts connections. Unauthenticated: for
//!   development on loopback only.
//! * `sqs-sim load --endpoint URL [--clients 50] [--messages 100000] [--limit-secs 600]`: the
//!   load test (`sqs_server::load`): every message sent is received and deleted, none seen twice
//!   within its visibility timeout; prints the counts, then `load_check=ok` or the problems
//!   (exit 1).
//! * `sqs-sim load --bench --endpoint URL [--clients 50] [--seconds 10]`: the benchmark's load
//!   (send, receive, delete per client) against any SQS endpoint; prints `req_per_sec=`,
//!   `p50_ms=`, `p99_ms=`.

use sqs_engine::bench::{measure, Batching};
use sqs_engine::script::{run_streaming, ScriptFile};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str =
    "usage: sqs-sim run FILE.json|-  |  sqs-sim bench [N]  |  sqs-sim bench day [SECONDS]  |  \
sqs-sim bench seek  |  sqs-sim serve [--host 127.0.0.1] [--port 9324] [--account-id 000000000000] \
[--region us-east-1] [--speed 1] [--ui DIR] [--data-dir DIR] [--fsync always|second|never]  |  \
sqs-sim load [--bench] --endpoint URL [--clients N] \
[--messages N] [--limit-secs S] [--seconds S]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["run", path] => run(path),
        ["bench"] => bench(1_000_000),
        ["bench", "day"] => bench_day(sqs_sim::bench::DAY),
        ["bench", "seek"] => {
            let origin = Instant::now();
            let result = sqs_sim::bench::run_seek(1, || origin.elapsed().as_secs_f64());
            println!("{result}");
            Ok(())
        }
        ["bench", "day", secs] => match secs.replace(['_', ','], "").parse::<u64>() {
            Ok(s) if s > 0 => bench_day(s * 1000),
            _ => Err(format!(
                "bench day: SECONDS must be a positive integer, not {secs:?}"
            )),
        },
        ["bench", n] => match n.replace(['_', ','], "").parse() {
            Ok(n) if n > 0 => bench(n),
            _ => Err(format!("bench: N must be a positive integer, not {n:?}")),
        },
        ["serve", options @ ..] => serve(options),
        ["load", options @ ..] => load(options),
        _ => Err(USAGE.to_string()),
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

fn serve(options: &[&str]) -> Result<(), String> {
    let mut config = sqs_server::Config {
        host: "127.0.0.1".into(),
        port: 9324,
        account_id: "000000000000".into(),
        region: "us-east-1".into(),
        speed: 1.0,
        ui: Default::default(),
        data_dir: std::env::var_os("SQS_SIM_DATA_DIR")
            .filter(|dir| !dir.is_empty())
            .map(Into::into),
        fsync: sqs_server::store::Fsync::Second,
    };
    let mut ui = None;
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| format!("serve: {option} needs a value\n{USAGE}"))?;
        match *option {
            "--host" => config.host = value.to_string(),
            "--port" => {
                config.port = value
                    .parse()
                    .map_err(|_| format!("serve: --port must be a port number, not {value:?}"))?
            }
            "--account-id" if value.len() == 12 && value.bytes().all(|b| b.is_ascii_digit()) => {
                config.account_id = value.to_string()
            }
            "--account-id" => {
                return Err(format!(
                    "serve: --account-id must be 12 digits, not {value:?}"
                ))
            }
            "--region" => config.region = value.to_string(),
            "--ui" => ui = Some(std::path::PathBuf::from(value)),
            "--data-dir" => config.data_dir = Some(value.into()),
            "--fsync" => config.fsync = value.parse().map_err(|e| format!("serve: {e}"))?,
            "--speed" => match value.parse::<f64>() {
                Ok(speed) if speed > 0.0 && speed.is_finite() => config.speed = speed,
                _ => {
                    return Err(format!(
                        "serve: --speed must be a number > 0, not {value:?}"
                    ))
                }
            },
            _ => return Err(format!("serve: unknown option {option}\n{USAGE}")),
        }
    }
    config.ui = sqs_server::ui::Ui::find(ui.clone());
    let playground = match (config.ui.dir(), ui) {
        (Some(dir), _) => format!("the live view of this server (files in {})", dir.display()),
        (None, Some(dir)) => format!("not served: no index.html in {}", dir.display()),
        (None, None) => "not served: no dist/ here (build it with ./play, or pass --ui DIR)".into(),
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("serve: {e}"))?;
    runtime
        .block_on(sqs_server::serve(config, |address| {
            println!("listening on http://{address}");
            println!("playground: http://{address}/ {playground}");
        }))
        .map_err(|e| format!("serve: {e}"))
}

fn load(options: &[&str]) -> Result<(), String> {
    let (mut bench, mut endpoint, mut clients) = (false, None, 50);
    let (mut messages, mut limit, mut seconds) = (100_000, 600.0, 10.0);
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        if *option == "--bench" {
            bench = true;
            continue;
        }
        let value = rest
            .next()
            .ok_or_else(|| format!("load: {option} needs a value\n{USAGE}"))?;
        let number = || {
            value
                .replace(['_', ','], "")
                .parse::<f64>()
                .ok()
                .filter(|n| *n > 0.0 && n.is_finite())
                .ok_or_else(|| format!("load: {option} must be a number > 0, not {value:?}"))
        };
        match *option {
            "--endpoint" => endpoint = Some(value.to_string()),
            "--clients" => clients = number()? as usize,
            "--messages" => messages = number()? as u64,
            "--limit-secs" => limit = number()?,
            "--seconds" => seconds = number()?,
            _ => return Err(format!("load: unknown option {option}\n{USAGE}")),
        }
    }
    let endpoint = endpoint.ok_or_else(|| format!("load: --endpoint is required\n{USAGE}"))?;
    let runtime = tokio::runtime::Runtime::new().map_err(|e| format!("load: {e}"))?;
    if bench {
        let result = runtime.block_on(sqs_server::load::bench(&endpoint, clients, seconds))?;
        println!("{result}");
        return Ok(());
    }
    let limit = std::time::Duration::from_secs_f64(limit);
    let result = runtime.block_on(sqs_server::load::load(&endpoint, clients, messages, limit))?;
    println!("{result}");
    let problems = result.problems(messages);
    if problems.is_empty() {
        println!("load_check=ok");
        Ok(())
    } else {
        Err(format!("load_check=failed: {}", problems.join("; ")))
    }
}
